//! The hands after the envelope slots, counted top-down with the plain
//! classes merged layer by layer: the inner loop of
//! [`Problem::envelope_atoms`], which every envelope joint of the advice
//! runs.
//!
//! **Why merge.** Two plain classes differ only in the layers that may
//! take their cards. From layer `j` on, two classes whose allowed layers
//! agree from `j` on are interchangeable: nothing later can tell their
//! cards apart. So the state before layer `j` keeps one count per *group*
//! (the classes merged by `allowed >> j`), drawing `t` cards from a group
//! of `n` has multiplicity `C(n, t)` (Vandermonde's identity: the sum over
//! every split of the `t` cards between its classes of the products of
//! their binomials), and the states that differ only in how the cards left
//! are spread over merged classes are one state, counted once. On logs
//! that hold every player's suggestions the classes are many (each pass
//! and each "at least one" fact splits them), and most of them merge once
//! the layers that split them are filled.
//!
//! **Pruning.** A complex card that only the layer being filled can still
//! take goes there; a state holding a card (complex, or in a group) that
//! no later layer admits, or whose layer cannot meet an "at least one"
//! constraint with the cards it may still take, counts 0 at once. The last
//! layer takes every card left, so it is never enumerated.
//!
//! The sums are those of the unmerged count, in exact integer arithmetic:
//! the tests compare the two on logs of simulated races
//! (`Problem::envelope_atoms_unmerged`).

use super::{binomial, choice_weight, for_each_subset, full_mask, Problem, StateMap};

/// The plain cards of some classes that the layers from `j` on cannot
/// tell apart.
#[derive(Debug, Clone, Copy)]
struct Group {
    /// The layers from `j` on that may take them (bit 0: layer `j`).
    allowed: u16,
    /// How many cards the group has before any is placed.
    size: u8,
    /// The group of the next layer's that this one merges into.
    parent: usize,
}

/// What the count needs of one layer `j`.
#[derive(Debug)]
struct Level {
    groups: Vec<Group>,
    /// Mixed-radix strides of the groups' counts of cards left.
    strides: Vec<u64>,
    /// The groups layer `j` may take cards from.
    here: Vec<usize>,
    /// Complex cards that may go to layer `j`.
    complex_here: u32,
    /// Complex cards that may go to layer `j` and to no later layer.
    complex_only_here: u32,
    /// Complex cards that may go to layer `j` or to a later layer.
    complex_later: u32,
}

impl Level {
    fn decode(&self, code: u64, left: &mut [u8]) {
        for (g, slot) in left.iter_mut().enumerate() {
            *slot = ((code / self.strides[g]) % (u64::from(self.groups[g].size) + 1)) as u8;
        }
    }
}

/// One group a layer draws from, for the state being expanded.
#[derive(Debug, Clone, Copy)]
struct Draw {
    /// Cards left in the group.
    left: u8,
    /// Cards the layer must take from it (all, when no later layer can).
    least: u8,
    /// The stride of the group it merges into, in the next layer's code.
    stride: u64,
}

/// The memoised completions of one problem from layer `from` on.
pub(super) struct Tail<'a> {
    problem: &'a Problem,
    from: usize,
    /// `levels[j - from]`: layer `j`.
    levels: Vec<Level>,
    /// The group of each class of the problem at layer `from`.
    class_group: Vec<usize>,
    /// Every complex card.
    full: u32,
    /// Per level, the completions of the states met before it.
    memo: Vec<StateMap>,
    /// Per level, the transitions of the state being expanded.
    transitions: Vec<Vec<(u64, u128)>>,
    /// Per level, the cards left per group of the state being expanded.
    left: Vec<Vec<u8>>,
    /// Per level, the groups drawn from by the state being expanded.
    draws: Vec<Vec<Draw>>,
}

impl<'a> Tail<'a> {
    /// The completions of `problem` from layer `from` on.
    pub(super) fn new(problem: &'a Problem, from: usize) -> Tail<'a> {
        let layers = problem.layers.len();
        let mut levels: Vec<Level> = Vec::new();
        // Per level, the group of each class.
        let mut group_of: Vec<Vec<usize>> = Vec::new();
        for j in from..layers {
            let mut groups: Vec<Group> = Vec::new();
            let mut of_class = Vec::with_capacity(problem.classes.len());
            for class in &problem.classes {
                let allowed = class.allowed >> j;
                let g = match groups.iter().position(|g| g.allowed == allowed) {
                    Some(g) => g,
                    None => {
                        groups.push(Group {
                            allowed,
                            size: 0,
                            parent: 0,
                        });
                        groups.len() - 1
                    }
                };
                groups[g].size += class.size;
                of_class.push(g);
            }
            let mut strides = Vec::with_capacity(groups.len());
            let mut stride = 1u64;
            for group in &groups {
                strides.push(stride);
                stride *= u64::from(group.size) + 1;
            }
            let complex = |keep: &dyn Fn(u16) -> bool| {
                (0..problem.complex.len())
                    .filter(|&i| keep(problem.complex[i] >> j))
                    .fold(0u32, |mask, i| mask | 1 << i)
            };
            levels.push(Level {
                here: (0..groups.len())
                    .filter(|&g| groups[g].allowed & 1 == 1)
                    .collect(),
                groups,
                strides,
                complex_here: complex(&|a| a & 1 == 1),
                complex_only_here: complex(&|a| a == 1),
                complex_later: complex(&|a| a != 0),
            });
            group_of.push(of_class);
        }
        for l in 1..levels.len() {
            for (c, &g) in group_of[l - 1].iter().enumerate() {
                levels[l - 1].groups[g].parent = group_of[l][c];
            }
        }
        let count = levels.len();
        Tail {
            problem,
            from,
            class_group: group_of.first().cloned().unwrap_or_default(),
            full: full_mask(problem.complex.len()),
            memo: (0..count).map(|_| StateMap::default()).collect(),
            transitions: vec![Vec::new(); count],
            left: levels.iter().map(|l| vec![0u8; l.groups.len()]).collect(),
            draws: vec![Vec::new(); count],
            levels,
        }
    }

    /// The (weighted) number of ways to fill the layers from `from` on
    /// when the complex cards `used` are placed and `left[c]` cards of
    /// each class of the problem are not (0 once the budget is spent: the
    /// caller's next tick reports it).
    pub(super) fn completions(&mut self, used: u32, left: &[u8]) -> u128 {
        let Some(level) = self.levels.first() else {
            return u128::from(used == self.full && left.iter().all(|&l| l == 0));
        };
        let code: u64 = left
            .iter()
            .zip(&self.class_group)
            .map(|(&l, &g)| u64::from(l) * level.strides[g])
            .sum();
        self.completions_before(0, u64::from(used) | code << 32)
    }

    /// The completions of state `key` before level `l`.
    fn completions_before(&mut self, l: usize, key: u64) -> u128 {
        if l + 1 == self.levels.len() {
            return self.last(key);
        }
        if let Some(&known) = self.memo[l].get(&key) {
            return known;
        }
        if crate::budget::tick().is_err() {
            return 0;
        }
        let mut transitions = std::mem::take(&mut self.transitions[l]);
        transitions.clear();
        self.expand(l, key, &mut transitions);
        let mut total = 0u128;
        for &(to, m) in &transitions {
            total += m * self.completions_before(l + 1, to);
        }
        self.transitions[l] = transitions;
        self.memo[l].insert(key, total);
        total
    }

    /// Every transition out of state `key` through level `l` (not the
    /// last): `(next key, weight times multiplicity)`.
    fn expand(&mut self, l: usize, key: u64, out: &mut Vec<(u64, u128)>) {
        let problem = self.problem;
        let layer = &problem.layers[self.from + l];
        let (level, next) = (&self.levels[l], &self.levels[l + 1]);
        let used = key as u32;
        let left = &mut self.left[l];
        level.decode(key >> 32, left);
        let rest = self.full & !used;
        if rest & !level.complex_later != 0 {
            return;
        }
        let mut next_code = 0u64;
        for (g, group) in level.groups.iter().enumerate() {
            if left[g] > 0 && group.allowed == 0 {
                return;
            }
            next_code += u64::from(left[g]) * next.strides[group.parent];
        }
        let forced = rest & level.complex_only_here;
        let free = rest & level.complex_here & !forced;
        if layer
            .at_least_one
            .iter()
            .any(|&need| need & (forced | free) == 0)
        {
            return;
        }
        let draws = &mut self.draws[l];
        draws.clear();
        let (mut plain, mut must) = (0u32, 0u32);
        for &g in &level.here {
            let group = &level.groups[g];
            let least = if group.allowed == 1 { left[g] } else { 0 };
            plain += u32::from(left[g]);
            must += u32::from(least);
            if left[g] > 0 {
                draws.push(Draw {
                    left: left[g],
                    least,
                    stride: next.strides[group.parent],
                });
            }
        }
        let capacity = u32::from(layer.capacity);
        let Some(room) = capacity.checked_sub(forced.count_ones() + must) else {
            return;
        };
        let most = room.min(free.count_ones());
        let least = (capacity - forced.count_ones()).saturating_sub(plain);
        let draws = &draws[..];
        for_each_subset(free, least, most, forced, &mut |cards| {
            let Some(weight) = choice_weight(layer, cards) else {
                return;
            };
            let wanted = (capacity - cards.count_ones()) as u8;
            let to = u64::from(used | cards);
            for_each_group_draw(draws, wanted, 0, 1, &mut |delta, mult| {
                out.push((to | (next_code - delta) << 32, weight * mult));
            });
        });
    }

    /// The completions of state `key` before the last level: the one way
    /// of putting every card left there, if the layer admits it.
    fn last(&mut self, key: u64) -> u128 {
        let l = self.levels.len() - 1;
        let problem = self.problem;
        let layer = &problem.layers[self.from + l];
        let level = &self.levels[l];
        let rest = self.full & !(key as u32);
        if rest & !level.complex_here != 0 {
            return 0;
        }
        let left = &mut self.left[l];
        level.decode(key >> 32, left);
        let mut plain = 0u32;
        for (g, group) in level.groups.iter().enumerate() {
            if left[g] > 0 && group.allowed & 1 == 0 {
                return 0;
            }
            plain += u32::from(left[g]);
        }
        if rest.count_ones() + plain != u32::from(layer.capacity) {
            return 0;
        }
        // Every group left is drawn whole: a multiplicity of 1.
        choice_weight(layer, rest).unwrap_or(0)
    }
}

/// Calls `visit(delta, multiplicity)` for every way of drawing `wanted`
/// cards from `draws` (each between its `least` and its `left`), `delta`
/// the amount to subtract from the next layer's code.
fn for_each_group_draw(
    draws: &[Draw],
    wanted: u8,
    delta: u64,
    mult: u128,
    visit: &mut impl FnMut(u64, u128),
) {
    let Some((draw, rest)) = draws.split_first() else {
        if wanted == 0 {
            visit(delta, mult);
        }
        return;
    };
    let (mut available, mut required) = (0u32, 0u32);
    for d in rest {
        available += u32::from(d.left);
        required += u32::from(d.least);
    }
    let wanted32 = u32::from(wanted);
    let least = u32::from(draw.least).max(wanted32.saturating_sub(available));
    let Some(most) = wanted32.checked_sub(required) else {
        return;
    };
    let most = most.min(u32::from(draw.left));
    for take in least..=most {
        let take = take as u8;
        for_each_group_draw(
            rest,
            wanted - take,
            delta + u64::from(take) * draw.stride,
            mult * binomial(draw.left, take),
            visit,
        );
    }
}
