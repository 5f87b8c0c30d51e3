//! The exact posterior: from [`Knowledge`] to a [`Notebook`] of deal counts.
//!
//! Every deal (envelope triple plus hands of the fixed sizes) is equally
//! likely a priori. Known cards are placed; every other card may go to the
//! envelope slot of its category or to any opponent not known to lack it.
//! Facts of the form "holds at least one of" become constraints of the
//! counting core ([`super::count`]); "at least one" facts with a single
//! possible card are propagated into "holds" first. A failed accusation
//! removes one triple: its deals are counted with the triple forced into the
//! envelope and subtracted (two different triples can never both be the
//! envelope, so the subtraction is exact).
//!
//! When nothing is consistent the engine searches a minimal set of facts that
//! contradict each other (dropping facts one at a time while the rest stays
//! contradictory) and names them in the error.

use super::cards::{Card, CardSet, Category, Rules, Seat, MAX_CARDS, MAX_PLAYERS};
use super::count::{AtomCache, EnvelopePick, Layer, LayerWeight, PlainClass, Problem, MAX_LAYERS};
use super::facts::{Fact, Knowledge, Observer};
use super::notebook::{Model, Notebook};
use crate::error::{Error, Result};

/// The exact posterior of `knowledge` under `model`.
///
/// # Errors
/// [`Error::Inconsistent`] naming a minimal set of contradictory facts when
/// no deal agrees with them; [`Error::OutOfRange`] when the responder
/// weights of [`Model::UniformResponder`] would overflow 128-bit integers.
pub fn analyse(knowledge: &Knowledge, model: Model) -> Result<Notebook> {
    let places = match Situation::new(knowledge) {
        Ok(situation) => situation.places(model)?,
        Err(Conflict) => None,
    };
    match places {
        Some((deals, places)) if deals > 0 => Ok(Notebook {
            rules: *knowledge.rules(),
            model,
            deals,
            places,
        }),
        _ => Err(contradiction(knowledge)),
    }
}

/// The number of consistent deals under [`Model::EqualDeals`], without the
/// per-card counts (zero when the facts contradict each other).
pub fn count_deals(knowledge: &Knowledge) -> u128 {
    match Situation::new(knowledge) {
        Ok(situation) => situation.count(),
        Err(Conflict) => 0,
    }
}

/// The (weighted) number of consistent deals with each envelope triple.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EnvelopeJoint {
    /// Per triple, indexed by [`triple_index`]: deals times `scale`.
    pub counts: Vec<u128>,
    /// Every deal's count is `scale` times its weight (1 without responder
    /// weights): the product of the weight scales.
    pub scale: u128,
}

/// Index of the triple `(suspect, weapon, room)` given as positions within
/// their categories.
pub(crate) fn triple_index(rules: &Rules, positions: [usize; 3]) -> usize {
    let deck = rules.deck();
    let weapons = deck.category_size(Category::Weapon);
    let rooms = deck.category_size(Category::Room);
    (positions[0] * weapons + positions[1]) * rooms + positions[2]
}

/// The position of `card` within its category.
pub(crate) fn position_in_category(rules: &Rules, card: Card) -> usize {
    let deck = rules.deck();
    deck.category_cards(deck.category(card))
        .cards()
        .position(|c| c == card)
        .unwrap_or(0)
}

/// The joint distribution of the envelope triple under `model`, as deal
/// counts per triple (failed accusations' triples at 0); `None` when no
/// deal is consistent.
///
/// # Errors
/// [`Error::OutOfRange`] when responder weights would overflow 128 bits.
pub(crate) fn envelope_joint(knowledge: &Knowledge, model: Model) -> Result<Option<EnvelopeJoint>> {
    envelope_joint_cached(knowledge, model, &mut AtomCache::default())
}

/// As [`envelope_joint`], the counting problems looked up in `cache` first
/// (and stored there).
///
/// # Errors
/// As [`envelope_joint`].
pub(crate) fn envelope_joint_cached(
    knowledge: &Knowledge,
    model: Model,
    cache: &mut AtomCache,
) -> Result<Option<EnvelopeJoint>> {
    let Ok(situation) = Situation::new(knowledge) else {
        return Ok(None);
    };
    let weights = match model {
        Model::EqualDeals => Vec::new(),
        Model::UniformResponder => situation.weights_keeping(true),
    };
    let Some((problem, slots)) = situation.problem(&situation.allowed, &weights) else {
        return Ok(None);
    };
    let overflow = || Error::OutOfRange {
        what: crate::Argument::ResponderWeights,
        detail: format!(
            "{} shown cards make the uniform-responder counts exceed 128 bits",
            weights.len()
        ),
    };
    problem.bound().ok_or_else(overflow)?;
    let scale = weights
        .iter()
        .try_fold(1u128, |acc, w| acc.checked_mul(w.3))
        .ok_or_else(overflow)?;
    let rules = situation.rules;
    let deck = rules.deck();
    // The unplaced cards of each slot, by complex index or class.
    let members = |pick: EnvelopePick| -> Vec<Card> {
        (0..deck.len() as u8)
            .map(Card)
            .filter(|c| match (pick, slots[c.index()]) {
                (EnvelopePick::Complex(i), Slot::Complex(j)) => i == j,
                (EnvelopePick::Class(i), Slot::Class(j)) => i == j,
                _ => false,
            })
            .collect()
    };
    let size = deck.category_size(Category::Suspect)
        * deck.category_size(Category::Weapon)
        * deck.category_size(Category::Room);
    let mut counts = vec![0u128; size];
    for &(picks, count) in cache.envelope_atoms(problem)? {
        let cards = picks.map(members);
        // Each card of a class is equally likely: the count splits evenly.
        let share = count
            / cards
                .iter()
                .map(|c| c.len().max(1) as u128)
                .product::<u128>();
        for &a in &cards[0] {
            for &b in &cards[1] {
                for &c in &cards[2] {
                    let mut positions = [0usize; 3];
                    for card in [a, b, c] {
                        positions[deck.category(card).index()] = position_in_category(&rules, card);
                    }
                    counts[triple_index(&rules, positions)] += share;
                }
            }
        }
    }
    for &triple in &situation.accusations {
        let mut positions = [0usize; 3];
        for card in triple.cards() {
            positions[deck.category(card).index()] = position_in_category(&rules, card);
        }
        counts[triple_index(&rules, positions)] = 0;
    }
    if counts.iter().all(|&c| c == 0) {
        return Ok(None);
    }
    Ok(Some(EnvelopeJoint { counts, scale }))
}

/// [`envelope_joint`]'s counts the slow way, for tests: for every triple,
/// the deals with that triple forced into the envelope, counted by the
/// forward pass alone ([`Problem::count`]), under the same weights.
#[cfg(test)]
pub(crate) fn envelope_joint_by_forcing(knowledge: &Knowledge, model: Model) -> Vec<u128> {
    let situation = Situation::new(knowledge).expect("a consistent log");
    let weights = match model {
        Model::EqualDeals => Vec::new(),
        Model::UniformResponder => situation.weights_keeping(true),
    };
    let rules = situation.rules;
    let deck = rules.deck();
    let size = deck.category_size(Category::Suspect)
        * deck.category_size(Category::Weapon)
        * deck.category_size(Category::Room);
    (0..size)
        .map(|index| {
            let triple = CardSet::of(&triple_of(&rules, index));
            if situation.accusations.contains(&triple) {
                return 0;
            }
            situation
                .forced_envelope(triple)
                .and_then(|allowed| situation.problem(&allowed, &weights))
                .map_or(0, |(problem, _)| problem.count())
        })
        .collect()
}

/// Facts that cannot all hold (found while placing known cards).
#[derive(Debug)]
struct Conflict;

/// Layer index of the envelope slot of a category.
fn envelope_layer(category: Category) -> usize {
    category.index()
}

/// The facts reduced to the counting core's terms: placed cards, the
/// allowed layers of every unplaced card, capacities, constraints, weights.
#[derive(Debug, Clone)]
struct Situation {
    rules: Rules,
    /// Seat of each opponent layer (layers 3.. in order).
    opponents: Vec<Seat>,
    capacities: Vec<u8>,
    /// Known holder of each placed card.
    placed: [Option<Seat>; MAX_CARDS],
    /// Allowed-layer mask of each unplaced card (0 for placed cards).
    allowed: [u16; MAX_CARDS],
    unplaced: CardSet,
    /// (layer, cards): the layer holds at least one of the cards.
    at_least_one: Vec<(usize, CardSet)>,
    /// (layer, named cards, shown card): responder weights.
    shown: Vec<(usize, CardSet)>,
    accusations: Vec<CardSet>,
}

impl Situation {
    fn new(knowledge: &Knowledge) -> std::result::Result<Situation, Conflict> {
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
    fn possible_in(&self, layer: usize, cards: CardSet) -> CardSet {
        cards
            .and(self.unplaced)
            .cards()
            .filter(|c| self.allowed[c.index()] >> layer & 1 == 1)
            .fold(CardSet::EMPTY, CardSet::with)
    }

    /// Whether `card` can only go to `layer`.
    fn forced_to(&self, card: Card, layer: usize) -> bool {
        self.unplaced.contains(card) && self.allowed[card.index()] == 1 << layer
    }

    /// Turn "at least one of" facts with a single possible card into "holds"
    /// until nothing changes; a fact with no possible card is a conflict.
    fn propagate(&mut self) -> std::result::Result<(), Conflict> {
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
    fn active_constraints(&self, allowed: &[u16; MAX_CARDS]) -> Option<Vec<(usize, CardSet)>> {
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
    fn weights(&self) -> Vec<(usize, u32, CardSet, u128)> {
        self.weights_keeping(false)
    }

    /// As [`Situation::weights`]; with `constant`, also the factors that are
    /// the same in every deal (needed when counts of different situations
    /// are compared, as the advice does).
    fn weights_keeping(&self, constant: bool) -> Vec<(usize, u32, CardSet, u128)> {
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
    fn problem(
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
    fn forced_envelope(&self, triple: CardSet) -> Option<[u16; MAX_CARDS]> {
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

    fn count(&self) -> u128 {
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
    fn places(&self, model: Model) -> Result<Option<(u128, Vec<[u128; MAX_PLAYERS + 1]>)>> {
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
    fn places_with(
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
enum Slot {
    Placed,
    Complex(usize),
    Class(usize),
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    a / gcd(a, b) * b
}

/// The error for contradictory knowledge: a minimal set of facts that cannot
/// all hold (with my hand, when the facts alone are consistent).
fn contradiction(knowledge: &Knowledge) -> Error {
    let facts = knowledge.facts();
    let mut keep = vec![true; facts.len()];
    for i in 0..facts.len() {
        if crate::budget::tick().is_err() {
            break;
        }
        keep[i] = false;
        let trial = knowledge.with_facts(|j| keep[j]);
        if count_deals(&trial) > 0 {
            keep[i] = true;
        }
    }
    let core = knowledge.with_facts(|j| keep[j]);
    let rules = knowledge.rules();
    let named: Vec<String> = facts
        .iter()
        .enumerate()
        .filter(|(i, _)| keep[*i])
        .map(|(i, f)| format!("fact {} ({})", i + 1, f.describe(rules)))
        .collect();
    let spectator = Knowledge::new(*rules, Observer::Spectator).map(|mut k| {
        for fact in core.facts() {
            // Facts were checked when first added; re-adding cannot fail.
            let _ = k.add(fact.clone());
        }
        k
    });
    let needs_hand = matches!(knowledge.observer(), Observer::Player { .. })
        && spectator.is_ok_and(|k| count_deals(&k) > 0);
    let hand = match knowledge.observer() {
        Observer::Player { seat, hand } if needs_hand => {
            format!("my hand {} as {seat}", rules.deck().describe(*hand))
        }
        _ => String::new(),
    };
    let parts: Vec<String> = named
        .into_iter()
        .chain((!hand.is_empty()).then_some(hand))
        .collect();
    Error::Inconsistent(format!(
        "no deal agrees with {}",
        if parts.is_empty() {
            "the hand sizes".to_string()
        } else {
            parts.join(" and ")
        }
    ))
}

/// The triple with index `index` (see [`triple_index`]).
pub(crate) fn triple_of(rules: &Rules, index: usize) -> [Card; 3] {
    let deck = rules.deck();
    let weapons = deck.category_size(Category::Weapon);
    let rooms = deck.category_size(Category::Room);
    let positions = [
        index / (weapons * rooms),
        index / rooms % weapons,
        index % rooms,
    ];
    let pick = |category: Category, position: usize| {
        deck.category_cards(category)
            .cards()
            .nth(position)
            .unwrap_or(Card(0))
    };
    [
        pick(Category::Suspect, positions[0]),
        pick(Category::Weapon, positions[1]),
        pick(Category::Room, positions[2]),
    ]
}
