//! The envelope joint's completions as counted before the classes were
//! merged ([`super::tail`]): top-down over the problem's own classes,
//! memoised, the last layer filled without enumeration. Kept for the tests
//! only, as the reference the merged count must equal exactly.

use super::{
    choice_weight, for_each_transition, prepare, Atom, Prepared, Problem, Scratch, StateMap,
};

impl Problem {
    /// [`Problem::envelope_atoms`] with the unmerged completions.
    pub(crate) fn envelope_atoms_unmerged(&self) -> Vec<Atom> {
        let prepared = prepare(self);
        let mut completions = Completions::new(self);
        self.envelope_atoms_with(&mut |key, _| completions.from(self, &prepared, 3, key))
    }
}

/// The (weighted) number of ways to fill the layers from `j` on, from a
/// state before layer `j`, computed top-down and memoised: only the states
/// reachable from the start are ever visited, each once, and the last
/// layer is never enumerated (it must take every card left, so at most one
/// transition reaches the end).
struct Completions {
    /// Per layer, the completions of the states met before it.
    memo: Vec<StateMap>,
    /// Per layer, the transitions of the state being expanded.
    transitions: Vec<Vec<(u64, u128)>>,
    /// Per layer, the buffers of that state.
    scratch: Vec<Scratch>,
}

impl Completions {
    fn new(problem: &Problem) -> Completions {
        let layers = problem.layers.len();
        Completions {
            memo: (0..layers).map(|_| StateMap::default()).collect(),
            transitions: vec![Vec::new(); layers],
            scratch: (0..=layers).map(|_| Scratch::new(problem)).collect(),
        }
    }

    /// The completions of state `key` before layer `j`.
    fn from(&mut self, problem: &Problem, prepared: &Prepared, j: usize, key: u64) -> u128 {
        let layers = problem.layers.len();
        if j == layers {
            return u128::from(key == problem.end_key());
        }
        if j + 1 == layers {
            return self.last(problem, prepared, key);
        }
        if let Some(&known) = self.memo[j].get(&key) {
            return known;
        }
        let mut transitions = std::mem::take(&mut self.transitions[j]);
        transitions.clear();
        for_each_transition(
            problem,
            prepared,
            j,
            key,
            &mut self.scratch[j],
            &mut |to, m, _, _| transitions.push((to, m)),
        );
        let mut total = 0u128;
        for &(to, m) in &transitions {
            let rest = self.from(problem, prepared, j + 1, to);
            total += m * rest;
        }
        self.transitions[j] = transitions;
        self.memo[j].insert(key, total);
        total
    }

    /// The completions of state `key` before the last layer: the one way
    /// of putting every card left there, if the layer admits it.
    fn last(&mut self, problem: &Problem, prepared: &Prepared, key: u64) -> u128 {
        let j = problem.layers.len() - 1;
        let layer = &problem.layers[j];
        let cards = problem.end_key() as u32 & !(key as u32);
        let left = &mut self.scratch[j].left;
        prepared.radix.decode(key >> 32, left);
        let plain: u32 = left.iter().map(|&l| u32::from(l)).sum();
        if cards.count_ones() + plain != u32::from(layer.capacity) {
            return 0;
        }
        let plain_allowed = left
            .iter()
            .enumerate()
            .all(|(c, &l)| l == 0 || problem.classes[c].allowed >> j & 1 == 1);
        let mut rest = cards;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            if problem.complex[i] >> j & 1 == 0 {
                return 0;
            }
            rest &= rest - 1;
        }
        if !plain_allowed {
            return 0;
        }
        choice_weight(layer, cards).unwrap_or(0)
    }
}
