//! Where each canonical non-winning state's turn outcomes lead, computed
//! once for all days: the solver digests and builds its games from it, and
//! the reachable layers are expanded through it.
//!
//! Of a state's ~700 distinct turn outcomes only ~260 lead to distinct
//! post-card states (before the brain's ability), so a state keeps those
//! (`posts`) and a map from outcome to position in `posts` (`slot_of`).

use blake2::digest::consts::U32;
use blake2::{Blake2b, Digest};
use gametab_games::murder_plan::model::{State, STATE_COUNT};
use rayon::prelude::*;

use super::turns::TurnTables;

/// The successors of one canonical non-winning state.
#[derive(Debug, Clone)]
pub struct StateSuccessors {
    /// The state.
    pub state: State,
    /// Distinct post-card states of its outcomes (state indices, which fit
    /// `u16`), in order of first appearance over the outcomes.
    pub posts: Vec<u16>,
    /// For each outcome of the state's inventory, its post-card state's
    /// position in `posts`.
    pub slot_of: Vec<u16>,
    /// BLAKE2b-256 of the inventory index, the outcome count and `slot_of`:
    /// with the value of every post-card state, what fixes the payoff
    /// matrix.
    pub shape: [u8; 32],
}

/// [`StateSuccessors`] of every canonical non-winning state, in
/// [`State::index`] order.
#[derive(Debug, Clone)]
pub struct Successors {
    states: Vec<StateSuccessors>,
    /// Position in `states` by state index (`u32::MAX`: not canonical or
    /// winning).
    position: Vec<u32>,
}

impl Successors {
    /// Apply every outcome of every canonical non-winning state (in
    /// parallel).
    pub fn new(turns: &TurnTables) -> Successors {
        let canonical: Vec<State> = State::all()
            .filter(|s| !s.is_win() && s.is_canonical())
            .collect();
        let states: Vec<StateSuccessors> = canonical
            .into_par_iter()
            .map(|state| of_state(turns, state))
            .collect();
        let mut position = vec![u32::MAX; STATE_COUNT];
        for (i, s) in states.iter().enumerate() {
            position[s.state.index()] = i as u32;
        }
        Successors { states, position }
    }

    /// Every canonical non-winning state's successors, in state order.
    pub fn all(&self) -> &[StateSuccessors] {
        &self.states
    }

    /// The successors of `state`, if it is canonical and not winning.
    pub fn get(&self, state: State) -> Option<&StateSuccessors> {
        let at = *self.position.get(state.index())?;
        self.states.get(at as usize)
    }
}

fn of_state(turns: &TurnTables, state: State) -> StateSuccessors {
    let table = turns.get(state.limited);
    let mut slot_by_post = vec![u16::MAX; STATE_COUNT];
    let mut posts = Vec::new();
    let slot_of: Vec<u16> = table
        .outcomes
        .iter()
        .map(|o| {
            let post = o.apply(state).index();
            if slot_by_post[post] == u16::MAX {
                slot_by_post[post] = posts.len() as u16;
                posts.push(post as u16);
            }
            slot_by_post[post]
        })
        .collect();
    let mut hasher = Blake2b::<U32>::new();
    hasher.update([table.limited.index() as u8]);
    hasher.update((slot_of.len() as u32).to_le_bytes());
    for slot in &slot_of {
        hasher.update(slot.to_le_bytes());
    }
    StateSuccessors {
        state,
        posts,
        slot_of,
        shape: hasher.finalize().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_map_every_outcome_to_its_post_card_state() {
        let turns = TurnTables::new();
        let successors = Successors::new(&turns);
        assert_eq!(successors.all().len(), 1728);
        for s in successors.all().iter().step_by(37) {
            let table = turns.get(s.state.limited);
            assert_eq!(s.slot_of.len(), table.outcomes.len());
            for (outcome, &slot) in table.outcomes.iter().zip(&s.slot_of) {
                assert_eq!(
                    usize::from(s.posts[usize::from(slot)]),
                    outcome.apply(s.state).index()
                );
            }
            let mut distinct = s.posts.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), s.posts.len());
            assert_eq!(successors.get(s.state).map(|t| t.state), Some(s.state));
        }
        let swapped = successors.all()[100].state.swapped();
        assert!(swapped.is_canonical() || successors.get(swapped).is_none());
    }
}
