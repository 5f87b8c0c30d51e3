//! The exact counting core: how many ways (optionally weighted) can a set of
//! unplaced cards be placed into *layers* of fixed capacity (the three
//! envelope slots and the opponents' unknown hand slots), when each card may
//! only go to some layers and some layers must receive at least one card of
//! given sets?
//!
//! Cards come in two kinds. *Plain* cards are interchangeable with every card
//! of the same allowed-layer set, so they are counted by class with binomial
//! coefficients and never enumerated. *Complex* cards (those named by an
//! "at least one" constraint or by a responder weight) are tracked one by
//! one in a bitmask. A layer-by-layer dynamic programme over states
//! (complex cards used, plain cards left per class) then counts the
//! placements; a backward sweep over the same transitions gives, for every
//! layer, how many placements put each complex card (and how many cards of
//! each class) there. Everything is exact `u128` arithmetic.
//!
//! The envelope joint ([`Problem::envelope_atoms`]) enumerates the three
//! envelope slots and counts the hands after them top-down with the classes
//! merged layer by layer ([`tail`]); `unmerged` keeps the count before that
//! merge, for the tests.

mod tail;
mod transitions;
#[cfg(test)]
mod unmerged;

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::key_hasher::BuildKeyHasher;

use tail::Tail;
use transitions::{
    choice_weight, for_each_subset, for_each_transition, prepare, prepare_layers, Choice, Prepared,
    Radix, Scratch,
};

/// Most layers: three envelope slots and up to six opponents.
pub(crate) const MAX_LAYERS: usize = 9;

/// The envelope slots: layers 0, 1 and 2, one card each.
const ENVELOPE_SLOTS: usize = 3;

/// A weight factor of a layer: `scale / (already + |hand ∩ named|)`, the
/// scaled chance that a responder holding those named cards shows the one
/// card that was seen (uniform choice among the named cards held).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct LayerWeight {
    /// Named cards surely in the layer's hand (the shown card among them).
    pub already: u32,
    /// Named complex cards that may be in the hand.
    pub named: u32,
    /// A multiple of every possible denominator, so the factor is integral.
    pub scale: u128,
}

/// One destination of cards: an envelope slot or an opponent's unknown
/// cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Layer {
    /// Exactly this many cards go here.
    pub capacity: u8,
    /// Complex-card masks of which the layer must receive at least one.
    pub at_least_one: Vec<u32>,
    /// Weight factors applied to the layer's complex cards.
    pub weights: Vec<LayerWeight>,
}

/// Interchangeable plain cards: `size` cards, each allowed in the layers of
/// `allowed` (bit `j` = layer `j`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PlainClass {
    pub size: u8,
    pub allowed: u16,
}

/// A counting problem. The capacities must add up to the number of cards.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Problem {
    pub layers: Vec<Layer>,
    /// Allowed-layer mask of each complex card (bit `i` of a complex mask).
    pub complex: Vec<u16>,
    pub classes: Vec<PlainClass>,
}

/// The counts of a solved [`Problem`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Solution {
    /// Number (or weighted number) of placements.
    pub total: u128,
    /// `complex_in[layer][i]`: placements putting complex card `i` there.
    pub complex_in: Vec<Vec<u128>>,
    /// `class_in[layer][c]`: sum over placements of the number of cards of
    /// class `c` put there (divide by the class size for one card).
    pub class_in: Vec<Vec<u128>>,
}

/// What one envelope slot holds in an [`Problem::envelope_atoms`] atom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum EnvelopePick {
    /// Complex card `i`.
    Complex(usize),
    /// Any one card of plain class `c`.
    Class(usize),
}

/// One entry of [`Problem::envelope_atoms`].
pub(crate) type Atom = ([EnvelopePick; 3], u128);

/// The envelope atoms of the problems already counted. The advice counts
/// one problem per answer of every suggestion, and many of them are the
/// same problem (the named cards' facts are often already known, or
/// exclude the same plain cards), so each is counted once. Only complete
/// counts are kept: one stopped by the budget is never stored.
#[derive(Debug, Default)]
pub(crate) struct AtomCache {
    atoms: HashMap<Problem, Vec<Atom>>,
    /// Count with the unmerged completions, the tests' reference.
    #[cfg(test)]
    unmerged: bool,
}

impl AtomCache {
    /// The envelope atoms of `problem`, counted now or found.
    ///
    /// # Errors
    /// [`crate::Error::Budget`] when the budget stopped the count.
    pub(crate) fn envelope_atoms(&mut self, problem: Problem) -> crate::Result<&[Atom]> {
        #[cfg(test)]
        let unmerged = self.unmerged;
        match self.atoms.entry(problem) {
            Entry::Occupied(found) => Ok(found.into_mut()),
            Entry::Vacant(new) => {
                #[cfg(test)]
                if unmerged {
                    let atoms = new.key().envelope_atoms_unmerged();
                    return Ok(new.insert(atoms));
                }
                let atoms = new.key().envelope_atoms();
                // A count stopped by the budget is partial: never use it.
                crate::budget::tick()?;
                Ok(new.insert(atoms))
            }
        }
    }

    /// A cache that counts with the unmerged completions (for the tests
    /// that compare the two).
    #[cfg(test)]
    pub(crate) fn unmerged() -> AtomCache {
        AtomCache {
            unmerged: true,
            ..AtomCache::default()
        }
    }
}

type StateMap = HashMap<u64, u128, BuildKeyHasher>;

/// Pascal's triangle up to 32 cards (C(32, 16) fits 64 bits).
const BINOMIALS: [[u64; 33]; 33] = {
    let mut table = [[0u64; 33]; 33];
    let mut n = 0;
    while n < 33 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// Binomial coefficients up to 32 (0 when `k > n`), read from the table.
pub(crate) fn binomial(n: u8, k: u8) -> u128 {
    u128::from(BINOMIALS[usize::from(n)][usize::from(k)])
}

impl Problem {
    fn start_key(&self, radix: &Radix) -> u64 {
        radix.full() << 32
    }

    fn end_key(&self) -> u64 {
        u64::from(full_mask(self.complex.len()))
    }

    fn forward(&self, prepared: &Prepared) -> Vec<StateMap> {
        let mut layers = Vec::with_capacity(self.layers.len() + 1);
        let mut current = StateMap::default();
        current.insert(self.start_key(&prepared.radix), 1);
        let mut scratch = Scratch::new(self);
        for j in 0..self.layers.len() {
            let mut next = StateMap::default();
            for (&key, &ways) in &current {
                // Out of budget: nothing more is counted (every later
                // count is 0); the engine's caller reports the budget.
                if crate::budget::tick().is_err() {
                    next.clear();
                    break;
                }
                for_each_transition(self, prepared, j, key, &mut scratch, &mut |to, m, _, _| {
                    *next.entry(to).or_insert(0) += ways * m;
                });
            }
            layers.push(current);
            current = next;
        }
        layers.push(current);
        layers
    }

    /// The number (or weighted number) of placements, without marginals.
    pub fn count(&self) -> u128 {
        let prepared = prepare(self);
        let forward = self.forward(&prepared);
        forward
            .last()
            .and_then(|last| last.get(&self.end_key()).copied())
            .unwrap_or(0)
    }

    /// The count and, for every layer, the placements putting each card
    /// there.
    pub fn solve(&self) -> Solution {
        let prepared = prepare(self);
        let forward = self.forward(&prepared);
        let layers = self.layers.len();
        let mut complex_in = vec![vec![0u128; self.complex.len()]; layers];
        let mut class_in = vec![vec![0u128; self.classes.len()]; layers];
        let mut after = StateMap::default();
        after.insert(self.end_key(), 1);
        let mut scratch = Scratch::new(self);
        for j in (0..layers).rev() {
            let mut before = StateMap::default();
            for (&key, &ways_in) in &forward[j] {
                if crate::budget::tick().is_err() {
                    break;
                }
                let mut completions = 0u128;
                for_each_transition(
                    self,
                    &prepared,
                    j,
                    key,
                    &mut scratch,
                    &mut |to, m, choice, draws| {
                        let Some(&ways_out) = after.get(&to) else {
                            return;
                        };
                        let through = m * ways_out;
                        if through == 0 {
                            return;
                        }
                        completions += through;
                        let deals = ways_in * through;
                        let mut cards = choice.cards;
                        while cards != 0 {
                            let i = cards.trailing_zeros() as usize;
                            complex_in[j][i] += deals;
                            cards &= cards - 1;
                        }
                        for &(class, take) in draws {
                            class_in[j][class] += deals * u128::from(take);
                        }
                    },
                );
                if completions > 0 {
                    before.insert(key, completions);
                }
            }
            after = before;
        }
        let total = after
            .get(&self.start_key(&prepared.radix))
            .copied()
            .unwrap_or(0);
        Solution {
            total,
            complex_in,
            class_in,
        }
    }

    /// The joint distribution of the three envelope slots (layers 0, 1 and
    /// 2, of capacity 1 each): every way of filling them, as the card put in
    /// each slot (a complex card, or any card of a plain class) and the
    /// (weighted) number of placements of everything that agree with it.
    /// For a class pick the count covers every card of the class, each
    /// equally: divide by the class size for one card. The counts add up to
    /// [`Problem::count`].
    pub fn envelope_atoms(&self) -> Vec<Atom> {
        let mut tail = Tail::new(self, ENVELOPE_SLOTS);
        self.envelope_atoms_with(&mut |key, left| tail.completions(key as u32, left))
    }

    /// [`Problem::envelope_atoms`], the hands after the envelope slots
    /// counted by `completions(state, plain cards left per class)`.
    fn envelope_atoms_with(&self, completions: &mut impl FnMut(u64, &[u8]) -> u128) -> Vec<Atom> {
        let prepared = prepare_layers(self, ENVELOPE_SLOTS);
        let mut scratch = Scratch::new(self);
        let pick_of = |choice: &Choice, draws: &[(usize, u8)]| {
            if choice.cards != 0 {
                EnvelopePick::Complex(choice.cards.trailing_zeros() as usize)
            } else {
                EnvelopePick::Class(draws.first().map_or(0, |d| d.0))
            }
        };
        let mut atoms = Vec::new();
        let mut step = |key: u64, j: usize, out: &mut Vec<(u64, u128, EnvelopePick)>| {
            for_each_transition(
                self,
                &prepared,
                j,
                key,
                &mut scratch,
                &mut |to, m, choice, draws| {
                    out.push((to, m, pick_of(choice, draws)));
                },
            );
        };
        let (mut first, mut second, mut third) = (Vec::new(), Vec::new(), Vec::new());
        step(self.start_key(&prepared.radix), 0, &mut first);
        let mut left = vec![0u8; self.classes.len()];
        for &(key1, m0, p0) in &first {
            second.clear();
            step(key1, 1, &mut second);
            for &(key2, m1, p1) in &second {
                third.clear();
                step(key2, 2, &mut third);
                for &(key3, m2, p2) in &third {
                    prepared.radix.decode(key3 >> 32, &mut left);
                    let rest = completions(key3, &left);
                    let count = m0 * m1 * m2 * rest;
                    if count > 0 {
                        atoms.push(([p0, p1, p2], count));
                    }
                }
            }
        }
        atoms
    }

    /// An upper bound of any partial count, with weights: the unconstrained
    /// multinomial times every weight scale; `None` when it overflows.
    pub fn bound(&self) -> Option<u128> {
        let cards: u32 =
            self.complex.len() as u32 + self.classes.iter().map(|c| u32::from(c.size)).sum::<u32>();
        let mut bound = 1u128;
        let mut left = cards;
        for layer in &self.layers {
            let take = u32::from(layer.capacity).min(left);
            bound = bound.checked_mul(binomial(left as u8, take as u8))?;
            left -= take;
            for weight in &layer.weights {
                bound = bound.checked_mul(weight.scale)?;
            }
        }
        // Every forward count is a weighted number of partial placements,
        // and every product `ways_in * through` is a part of the total, so
        // none exceeds this bound.
        Some(bound)
    }
}

fn full_mask(bits: usize) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

#[cfg(test)]
mod tests;
