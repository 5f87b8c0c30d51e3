//! The deals of a solitaire game and their symmetry: every deal agreeing
//! with my hand, enumerated once ([`deal_out`]); the permutations of the
//! deals that relabelling cards within a category (keeping my hand)
//! induces; and the least relabelling of a state, its memo key
//! ([`Solitaire::canonical`]).

use std::collections::HashMap;

use super::super::cards::{Card, CardSet, Category, MAX_PLAYERS};
use super::super::engine::{position_in_category, triple_index, triple_of};
use super::{Belief, Deal, Solitaire, WEIGHT_LIMIT};

impl Solitaire {
    /// The permutations of the deals induced by relabelling cards within
    /// each category while keeping my hand (each a card permutation applied
    /// to every deal), identity first.
    pub(super) fn deal_symmetries(&self) -> Vec<Vec<u32>> {
        let deck = self.rules.deck();
        // Per category, every permutation of the cards not in my hand.
        let per_category: Vec<Vec<Vec<(Card, Card)>>> = Category::ALL
            .iter()
            .map(|&c| {
                let free: Vec<Card> = deck.category_cards(c).minus(self.hand).cards().collect();
                let mut images = free.clone();
                let mut out = Vec::new();
                permute(&mut images, 0, &mut |image| {
                    out.push(free.iter().copied().zip(image.iter().copied()).collect());
                });
                out
            })
            .collect();
        let index: HashMap<([u32; MAX_PLAYERS], u16), u32> = self
            .deals
            .iter()
            .enumerate()
            .map(|(i, d)| ((d.hands, d.envelope), i as u32))
            .collect();
        let mut out = Vec::new();
        for a in &per_category[0] {
            for b in &per_category[1] {
                for c in &per_category[2] {
                    let mut map: Vec<Card> = (0..deck.len() as u8).map(Card).collect();
                    for &(from, to) in a.iter().chain(b).chain(c) {
                        map[from.index()] = to;
                    }
                    let image = |set: u32| {
                        CardSet(set)
                            .cards()
                            .fold(0u32, |m, card| m | 1 << map[card.index()].0)
                    };
                    let mut permutation = Vec::with_capacity(self.deals.len());
                    for deal in &self.deals {
                        let mut hands = [0u32; MAX_PLAYERS];
                        for (h, &hand) in hands.iter_mut().zip(&deal.hands) {
                            *h = image(hand);
                        }
                        let triple = triple_of(&self.rules, usize::from(deal.envelope));
                        let positions =
                            triple.map(|c| position_in_category(&self.rules, map[c.index()]));
                        let envelope = triple_index(&self.rules, positions) as u16;
                        permutation.push(index[&(hands, envelope)]);
                    }
                    out.push(permutation);
                }
            }
        }
        out
    }

    /// The least relabelling of a normalised state: the memo key.
    pub(super) fn canonical(&self, belief: &[u64]) -> Belief {
        let mut best: Option<Vec<u64>> = None;
        let mut image = Vec::with_capacity(belief.len());
        for permutation in &self.symmetries {
            image.clear();
            image.extend(belief.iter().map(|&e| {
                let id = (e >> 47) as usize;
                u64::from(permutation[id]) << 47 | (e & (WEIGHT_LIMIT - 1))
            }));
            image.sort_unstable();
            if best.as_ref().is_none_or(|b| image < *b) {
                best = Some(image.clone());
            }
        }
        best.unwrap_or_default().into_boxed_slice()
    }
}

/// Every way of dealing `rest[i..]` to the opponents' hands (`left`: slots
/// left per opponent, in answering order).
pub(super) fn deal_out(
    rest: &[Card],
    i: usize,
    left: &mut [usize],
    hands: &mut [u32; MAX_PLAYERS],
    envelope: u16,
    out: &mut Vec<Deal>,
) {
    if i == rest.len() {
        out.push(Deal {
            hands: *hands,
            envelope,
        });
        return;
    }
    for p in 0..left.len() {
        if left[p] > 0 {
            left[p] -= 1;
            hands[p] |= 1 << rest[i].0;
            deal_out(rest, i + 1, left, hands, envelope, out);
            hands[p] &= !(1 << rest[i].0);
            left[p] += 1;
        }
    }
}

/// Calls `visit` with every permutation of `items` (from `k` on).
pub(super) fn permute(items: &mut Vec<Card>, k: usize, visit: &mut impl FnMut(&[Card])) {
    if k >= items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items, k + 1, visit);
        items.swap(k, i);
    }
}

pub(super) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
