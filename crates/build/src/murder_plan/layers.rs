//! The reachable layers of the game from the 16 start states.
//!
//! Layer 0 holds the starts; layer t+1 every non-winning state reached from
//! a layer-t state by some pair of full actions and some legal brain choice.
//! Winning states reached at step t are kept separately: the game ends
//! there, but they are part of what a game of horizon D can reach.

use gametab_games::murder_plan::model::{BrainTarget, State, STATE_COUNT};

use rayon::prelude::*;

use super::successors::{StateSuccessors, Successors};
#[cfg(test)]
use super::turns::TurnTables;

/// Membership of every state in every layer.
#[derive(Debug, Clone)]
pub struct Layers {
    /// `non_winning[t][state index]`: state in layer t (not yet won).
    pub non_winning: Vec<Vec<bool>>,
    /// `winning[t][state index]`: a winning state first reached at step t.
    pub winning: Vec<Vec<bool>>,
}

impl Layers {
    /// Enumerate layers 0..=`steps`, through the distinct post-card states
    /// of each canonical state.
    pub fn enumerate(successors: &Successors, steps: u8) -> Layers {
        let afters = after_brain();
        let mut start = vec![false; STATE_COUNT];
        for s in State::starts() {
            start[s.index()] = true;
        }
        let mut non_winning = vec![start];
        let mut winning = vec![vec![false; STATE_COUNT]];
        for _ in 0..steps {
            let current = non_winning.last().expect("layer 0 exists");
            let previous = non_winning.len().checked_sub(2).map(|i| &non_winning[i]);
            // Each layer is a function of the one before: once two agree,
            // every later one is the same, and so is what they win.
            let (next, won) = if previous == Some(current) {
                (
                    current.clone(),
                    winning.last().expect("layer 1 exists").clone(),
                )
            } else {
                step(successors, &afters, current)
            };
            non_winning.push(next);
            winning.push(won);
        }
        Layers {
            non_winning,
            winning,
        }
    }

    /// Number of non-winning states in each layer.
    pub fn sizes(&self) -> Vec<usize> {
        self.non_winning
            .iter()
            .map(|layer| layer.iter().filter(|&&b| b).count())
            .collect()
    }

    /// Whether `(days_left, state)` occurs in some game of horizon
    /// `D <= max_horizon` from the 16 starts: the state is in layer
    /// `t = D - days_left` for some such D (as a winning state, at a step
    /// t >= 1 where it was reached).
    pub fn reachable(&self, max_horizon: u8, days_left: u8, state: State) -> bool {
        if days_left > max_horizon {
            return false;
        }
        let steps = usize::from(max_horizon - days_left);
        let i = state.index();
        (0..=steps.min(self.non_winning.len() - 1))
            .any(|t| self.non_winning[t][i] || self.winning[t][i])
    }
}

/// For every post-card state, the states the brain's legal abilities lead
/// to (one per legal target; duplicates are harmless).
fn after_brain() -> Vec<Vec<State>> {
    State::all()
        .map(|post| {
            BrainTarget::legal(post)
                .map(|target| target.apply(post))
                .collect()
        })
        .collect()
}

/// The non-winning and the winning states one turn after the states marked
/// in `current`, expanded in parallel.
///
/// The rules are symmetric under the axis swap and so is every layer (the
/// 16 starts are), so only canonical states are expanded, through their
/// distinct post-card states, and each state reached is marked together
/// with its swapped image. A test checks this against applying every
/// outcome of every state of the layer.
fn step(
    successors: &Successors,
    afters: &[Vec<State>],
    current: &[bool],
) -> (Vec<bool>, Vec<bool>) {
    let states: Vec<&StateSuccessors> = successors
        .all()
        .iter()
        .filter(|s| current[s.state.index()])
        .collect();
    let empty = || (vec![false; STATE_COUNT], vec![false; STATE_COUNT]);
    states
        .par_iter()
        .fold(empty, |(mut next, mut won), s| {
            for &post in &s.posts {
                for &after in &afters[usize::from(post)] {
                    let marks = if after.is_win() { &mut won } else { &mut next };
                    marks[after.index()] = true;
                    marks[after.swapped().index()] = true;
                }
            }
            (next, won)
        })
        .reduce(empty, |(mut next, mut won), (other_next, other_won)| {
            for (a, b) in next.iter_mut().zip(other_next) {
                *a |= b;
            }
            for (a, b) in won.iter_mut().zip(other_won) {
                *a |= b;
            }
            (next, won)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_match_the_published_counts() {
        // `data/published.csv`: the layers 0..8 of the horizon D = 8.
        let published: Vec<usize> =
            crate::known_answers::select("murder_plan", "non_winning_states")
                .unwrap()
                .iter()
                .map(|row| {
                    assert_eq!(row.parse_parameter::<u8>("horizon").unwrap(), 8);
                    row.value as usize
                })
                .collect();
        let layers = Layers::enumerate(&Successors::new(&TurnTables::new()), 7);
        assert_eq!(layers.sizes(), published);
    }

    /// The next layer by brute force: every outcome and every legal brain
    /// ability from every state of the layer, canonical or not.
    fn brute_force_step(turns: &TurnTables, current: &[bool]) -> (Vec<bool>, Vec<bool>) {
        let mut next = vec![false; STATE_COUNT];
        let mut won = vec![false; STATE_COUNT];
        for state in State::all().filter(|s| current[s.index()]) {
            for outcome in &turns.get(state.limited).outcomes {
                let post = outcome.apply(state);
                for target in BrainTarget::legal(post) {
                    let after = target.apply(post);
                    if after.is_win() {
                        won[after.index()] = true;
                    } else {
                        next[after.index()] = true;
                    }
                }
            }
        }
        (next, won)
    }

    #[test]
    fn the_step_through_successors_equals_brute_force() {
        let turns = TurnTables::new();
        let successors = Successors::new(&turns);
        let afters = after_brain();
        let mut layer = vec![false; STATE_COUNT];
        for s in State::starts() {
            layer[s.index()] = true;
        }
        for _ in 0..4 {
            let (next, won) = step(&successors, &afters, &layer);
            assert_eq!((next.clone(), won), brute_force_step(&turns, &layer));
            layer = next;
        }
    }

    #[test]
    fn starts_are_reachable_at_every_horizon() {
        let layers = Layers::enumerate(&Successors::new(&TurnTables::new()), 8);
        for s in State::starts() {
            for d in 0..=8 {
                assert!(layers.reachable(8, d, s));
            }
        }
        // A start has all limited cards; one with intrigue 3 on the killer
        // and 8 days left cannot be reached (it needs turns).
        let mut s = State::start(
            gametab_games::murder_plan::Offset::ZERO,
            gametab_games::murder_plan::Offset::HORIZONTAL,
        );
        s.killer_intrigue = 3;
        assert!(!layers.reachable(8, 8, s));
        assert!(layers.reachable(8, 6, s));
    }
}
