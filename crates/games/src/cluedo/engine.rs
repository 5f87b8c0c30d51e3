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

#[cfg(test)]
use super::cards::CardSet;
use super::cards::{Card, Category, Rules};
use super::count::{AtomCache, EnvelopePick};
use super::facts::{Knowledge, Observer};
use super::notebook::{Model, Notebook};
use super::situation::{Conflict, Situation, Slot};
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
