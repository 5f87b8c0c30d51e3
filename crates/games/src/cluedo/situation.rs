//! The facts reduced to the counting core's terms ([`Situation`]): known
//! cards placed, every other card's allowed layers (the envelope slot of its
//! category, or an opponent not known to lack it), "holds at least one of"
//! facts propagated and kept as constraints, the responder weights of
//! [`Model::UniformResponder`], failed accusations; and the counts
//! [`super::engine`] asks of it (deals, places of every card, a triple
//! forced into the envelope).

use super::cards::{Card, CardSet, Category, Rules, Seat, MAX_CARDS, MAX_PLAYERS};
use super::count::{Layer, LayerWeight, PlainClass, Problem, MAX_LAYERS};
use super::facts::{Fact, Knowledge, Observer};
use super::notebook::Model;
use crate::error::{Error, Result};

/// Facts that cannot all hold (found while placing known cards).
#[derive(Debug)]
pub(super) struct Conflict;

/// Layer index of the envelope slot of a category.
pub(super) fn envelope_layer(category: Category) -> usize {
    category.index()
}

/// The facts reduced to the counting core's terms: placed cards, the
/// allowed layers of every unplaced card, capacities, constraints, weights.
#[derive(Debug, Clone)]
pub(super) struct Situation {
    pub(super) rules: Rules,
    /// Seat of each opponent layer (layers 3.. in order).
    pub(super) opponents: Vec<Seat>,
    pub(super) capacities: Vec<u8>,
    /// Known holder of each placed card.
    pub(super) placed: [Option<Seat>; MAX_CARDS],
    /// Allowed-layer mask of each unplaced card (0 for placed cards).
    pub(super) allowed: [u16; MAX_CARDS],
    pub(super) unplaced: CardSet,
    /// (layer, cards): the layer holds at least one of the cards.
    pub(super) at_least_one: Vec<(usize, CardSet)>,
    /// (layer, named cards, shown card): responder weights.
    pub(super) shown: Vec<(usize, CardSet)>,
    pub(super) accusations: Vec<CardSet>,
}

impl Situation {
    pub(super) fn new(knowledge: &Knowledge) -> std::result::Result<Situation, Conflict> {
        let rules = *knowledge.rules();
        let deck = rules.deck();
        let me = knowledge.observer().seat();
        let mut placed = [None; MAX_CARDS];
        if let Observer::Player { seat, hand } = knowledge.observer() {
            for card in hand.cards() {
                placed[card.index()] = Some(*seat);
            }
        }
        for fact in knowledge.facts() {
            if let Fact::Holds { player, card } | Fact::ShowedMe { player, card, .. } = fact {
                match placed[card.index()] {
                    Some(holder) if holder != *player => return Err(Conflict),
                    _ => placed[card.index()] = Some(*player),
                }
            }
        }
        let opponents: Vec<Seat> = rules.seats().filter(|&s| Some(s) != me).collect();
        let mut capacities = Vec::new();
        for &seat in &opponents {
            let known = placed.iter().filter(|&&p| p == Some(seat)).count();
            let size = rules.hand_size(seat);
            capacities.push(size.checked_sub(known).ok_or(Conflict)? as u8);
        }
        if let Observer::Player { seat, hand } = knowledge.observer() {
            let mine = placed.iter().filter(|&&p| p == Some(*seat)).count();
            if mine != hand.len() {
                return Err(Conflict);
            }
        }
        let layer_of = |seat: Seat| opponents.iter().position(|&s| s == seat).map(|i| 3 + i);
        let held_by = |seat: Seat| -> CardSet {
            (0..deck.len() as u8)
                .map(Card)
                .filter(|c| placed[c.index()] == Some(seat))
                .fold(CardSet::EMPTY, CardSet::with)
        };
        let unplaced = (0..deck.len() as u8)
            .map(Card)
            .filter(|c| placed[c.index()].is_none())
            .fold(CardSet::EMPTY, CardSet::with);
        let mut allowed = [0u16; MAX_CARDS];
        for card in unplaced.cards() {
            let mut mask = 1u16 << envelope_layer(deck.category(card));
            for (i, &capacity) in capacities.iter().enumerate() {
                if capacity > 0 {
                    mask |= 1 << (3 + i);
                }
            }
            allowed[card.index()] = mask;
        }
        let mut at_least_one = Vec::new();
        let mut shown = Vec::new();
        let mut accusations = Vec::new();
        for fact in knowledge.facts() {
            match *fact {
                Fact::HoldsNone { player, cards } => {
                    if !cards.and(held_by(player)).is_empty() {
                        return Err(Conflict);
                    }
                    if let Some(layer) = layer_of(player) {
                        for card in cards.and(unplaced).cards() {
                            allowed[card.index()] &= !(1 << layer);
                        }
                    }
                }
                Fact::HoldsAtLeastOne { player, cards } => {
                    if cards.and(held_by(player)).is_empty() {
                        match layer_of(player) {
                            Some(layer) => at_least_one.push((layer, cards)),
                            None => return Err(Conflict),
                        }
                    }
                }
                Fact::ShowedMe {
                    player, suggestion, ..
                } => {
                    if let Some(layer) = layer_of(player) {
                        shown.push((layer, suggestion));
                    }
                }
                Fact::FailedAccusation { cards } => {
                    if !accusations.contains(&cards) {
                        accusations.push(cards);
                    }
                }
                Fact::Holds { .. } => {}
            }
        }
        let mut situation = Situation {
            rules,
            opponents,
            capacities,
            placed,
            allowed,
            unplaced,
            at_least_one,
            shown,
            accusations,
        };
        situation.propagate()?;
        Ok(situation)
    }

    /// The cards of `cards` that may still go to `layer`.
    pub(super) fn possible_in(&self, layer: usize, cards: CardSet) -> CardSet {
        cards
            .and(self.unplaced)
            .cards()
            .filter(|c| self.allowed[c.index()] >> layer & 1 == 1)
            .fold(CardSet::EMPTY, CardSet::with)
    }

    /// Whether `card` can only go to `layer`.
    pub(super) fn forced_to(&self, card: Card, layer: usize) -> bool {
        self.unplaced.contains(card) && self.allowed[card.index()] == 1 << layer
    }

    /// Turn "at least one of" facts with a single possible card into "holds"
    /// until nothing changes; a fact with no possible card is a conflict.
    pub(super) fn propagate(&mut self) -> std::result::Result<(), Conflict> {
        loop {
            let mut changed = false;
            for i in 0..self.at_least_one.len() {
                let (layer, cards) = self.at_least_one[i];
                if cards.cards().any(|c| self.forced_to(c, layer)) {
                    continue;
                }
                let possible = self.possible_in(layer, cards);
                match possible.len() {
                    0 => return Err(Conflict),
                    1 => {
                        let card = possible.cards().next().ok_or(Conflict)?;
                        self.allowed[card.index()] = 1 << layer;
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// The at-least-one sets still to be enforced, reduced to their possible
    /// cards, without repeats and without sets implied by smaller ones.
    pub(super) fn active_constraints(
        &self,
        allowed: &[u16; MAX_CARDS],
    ) -> Option<Vec<(usize, CardSet)>> {
        let mut active: Vec<(usize, CardSet)> = Vec::new();
        for &(layer, cards) in &self.at_least_one {
            let forced = cards
                .and(self.unplaced)
                .cards()
                .any(|c| allowed[c.index()] == 1 << layer);
            if forced {
                continue;
            }
            let possible = cards
                .and(self.unplaced)
                .cards()
                .filter(|c| allowed[c.index()] >> layer & 1 == 1)
                .fold(CardSet::EMPTY, CardSet::with);
            if possible.is_empty() {
                return None;
            }
            active.push((layer, possible));
        }
        active.sort_by_key(|&(layer, cards)| (layer, cards.len(), cards));
        active.dedup();
        let mut kept: Vec<(usize, CardSet)> = Vec::new();
        for (layer, cards) in active {
            let implied = kept
                .iter()
                .any(|&(l, smaller)| l == layer && smaller.minus(cards).is_empty());
            if !implied {
                kept.push((layer, cards));
            }
        }
        Some(kept)
    }

    /// Responder weights under the uniform-responder model, with the scale of
    /// each fixed from the unforced situation (so that the problems with an
    /// accused triple forced into the envelope share it).
    pub(super) fn weights(&self) -> Vec<(usize, u32, CardSet, u128)> {
        self.weights_keeping(false)
    }

    /// As [`Situation::weights`]; with `constant`, also the factors that are
    /// the same in every deal (needed when counts of different situations
    /// are compared, as the advice does).
    pub(super) fn weights_keeping(&self, constant: bool) -> Vec<(usize, u32, CardSet, u128)> {
        let mut weights = Vec::new();
        for &(layer, suggestion) in &self.shown {
            let seat = self.opponents[layer - 3];
            let already = suggestion
                .cards()
                .filter(|c| self.placed[c.index()] == Some(seat) || self.forced_to(*c, layer))
                .count() as u32;
            let named = self
                .possible_in(layer, suggestion)
                .cards()
                .filter(|c| !self.forced_to(*c, layer))
                .fold(CardSet::EMPTY, CardSet::with);
            if named.is_empty() && !constant {
                // The same factor in every deal: it cancels.
                continue;
            }
            let most = already + named.len() as u32;
            let scale = (already.max(1)..=most).fold(1u128, |acc, k| lcm(acc, u128::from(k)));
            weights.push((layer, already, named, scale));
        }
        weights
    }

    /// The counting problem with the given allowed masks, and where each
    /// card went: `Slot::Complex(i)` or `Slot::Class(c)`.
    pub(super) fn problem(
        &self,
        allowed: &[u16; MAX_CARDS],
        weights: &[(usize, u32, CardSet, u128)],
    ) -> Option<(Problem, [Slot; MAX_CARDS])> {
        let constraints = self.active_constraints(allowed)?;
        let possible_in = |layer: usize, cards: CardSet| {
            cards
                .and(self.unplaced)
                .cards()
                .filter(|c| {
                    allowed[c.index()] >> layer & 1 == 1 && allowed[c.index()] != 1 << layer
                })
                .fold(CardSet::EMPTY, CardSet::with)
        };
        let weights: Vec<(usize, u32, CardSet, u128)> = weights
            .iter()
            .map(|&(layer, already, named, scale)| {
                (layer, already, possible_in(layer, named), scale)
            })
            .collect();
        let complex_cards = constraints
            .iter()
            .map(|&(_, cards)| cards)
            .chain(weights.iter().map(|w| w.2))
            .fold(CardSet::EMPTY, CardSet::or);
        let mut slots = [Slot::Placed; MAX_CARDS];
        let mut problem = Problem::default();
        for card in complex_cards.cards() {
            slots[card.index()] = Slot::Complex(problem.complex.len());
            problem.complex.push(allowed[card.index()]);
        }
        for card in self.unplaced.minus(complex_cards).cards() {
            let mask = allowed[card.index()];
            let class = match problem.classes.iter().position(|c| c.allowed == mask) {
                Some(class) => class,
                None => {
                    problem.classes.push(PlainClass {
                        size: 0,
                        allowed: mask,
                    });
                    problem.classes.len() - 1
                }
            };
            problem.classes[class].size += 1;
            slots[card.index()] = Slot::Class(class);
        }
        let to_complex = |cards: CardSet| {
            cards.cards().fold(0u32, |mask, c| match slots[c.index()] {
                Slot::Complex(i) => mask | 1 << i,
                _ => mask,
            })
        };
        problem.layers = vec![Layer::default(); 3 + self.capacities.len()];
        for layer in &mut problem.layers[..3] {
            layer.capacity = 1;
        }
        for (i, &capacity) in self.capacities.iter().enumerate() {
            problem.layers[3 + i].capacity = capacity;
        }
        for &(layer, cards) in &constraints {
            problem.layers[layer].at_least_one.push(to_complex(cards));
        }
        for &(layer, already, named, scale) in &weights {
            problem.layers[layer].weights.push(LayerWeight {
                already,
                named: to_complex(named),
                scale,
            });
        }
        debug_assert!(problem.layers.len() <= MAX_LAYERS);
        Some((problem, slots))
    }

    /// The allowed masks with `triple` forced into the envelope, or `None`
    /// when one of its cards cannot be there.
    pub(super) fn forced_envelope(&self, triple: CardSet) -> Option<[u16; MAX_CARDS]> {
        let deck = self.rules.deck();
        let mut allowed = self.allowed;
        for card in triple.cards() {
            let layer = envelope_layer(deck.category(card));
            if !self.unplaced.contains(card) || allowed[card.index()] >> layer & 1 == 0 {
                return None;
            }
            allowed[card.index()] = 1 << layer;
        }
        Some(allowed)
    }

    pub(super) fn count(&self) -> u128 {
        let count = |allowed: &[u16; MAX_CARDS]| {
            self.problem(allowed, &[])
                .map_or(0, |(problem, _)| problem.count())
        };
        let all = count(&self.allowed);
        let accused: u128 = self
            .accusations
            .iter()
            .filter_map(|&t| self.forced_envelope(t))
            .map(|allowed| count(&allowed))
            .sum();
        all - accused
    }

    /// Deal counts per card and place: `None` when no deal is consistent.
    #[allow(clippy::type_complexity)]
    pub(super) fn places(
        &self,
        model: Model,
    ) -> Result<Option<(u128, Vec<[u128; MAX_PLAYERS + 1]>)>> {
        let weights = match model {
            Model::EqualDeals => Vec::new(),
            Model::UniformResponder => self.weights(),
        };
        let Some((total, mut places)) = self.places_with(&self.allowed, &weights)? else {
            return Ok(None);
        };
        let mut total = total;
        for &triple in &self.accusations {
            let Some(allowed) = self.forced_envelope(triple) else {
                continue;
            };
            if let Some((minus, minus_places)) = self.places_with(&allowed, &weights)? {
                total -= minus;
                for (row, sub) in places.iter_mut().zip(&minus_places) {
                    for (value, s) in row.iter_mut().zip(sub) {
                        *value -= s;
                    }
                }
            }
        }
        Ok(Some((total, places)))
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn places_with(
        &self,
        allowed: &[u16; MAX_CARDS],
        weights: &[(usize, u32, CardSet, u128)],
    ) -> Result<Option<(u128, Vec<[u128; MAX_PLAYERS + 1]>)>> {
        let Some((problem, slots)) = self.problem(allowed, weights) else {
            return Ok(None);
        };
        if problem.bound().is_none() {
            return Err(Error::OutOfRange {
                what: crate::Argument::ResponderWeights,
                detail: format!(
                    "{} shown cards make the uniform-responder counts exceed 128 bits",
                    weights.len()
                ),
            });
        }
        let solution = problem.solve();
        crate::budget::tick()?;
        let deck = self.rules.deck();
        let mut places = vec![[0u128; MAX_PLAYERS + 1]; deck.len()];
        for card in (0..deck.len() as u8).map(Card) {
            let row = &mut places[card.index()];
            let in_layer = |layer: usize| match slots[card.index()] {
                Slot::Complex(i) => solution.complex_in[layer][i],
                Slot::Class(c) => solution.class_in[layer][c] / u128::from(problem.classes[c].size),
                Slot::Placed => 0,
            };
            if let Some(seat) = self.placed[card.index()] {
                row[1 + seat.index()] = solution.total;
                continue;
            }
            row[0] = in_layer(envelope_layer(deck.category(card)));
            for (i, seat) in self.opponents.iter().enumerate() {
                row[1 + seat.index()] = in_layer(3 + i);
            }
        }
        Ok(Some((solution.total, places)))
    }
}

/// Where a card is in the counting problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Placed,
    Complex(usize),
    Class(usize),
}

pub(super) fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

pub(super) fn lcm(a: u128, b: u128) -> u128 {
    a / gcd(a, b) * b
}
