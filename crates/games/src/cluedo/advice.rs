//! Advice for the player to move: every suggestion ranked by its exact
//! expected information gain about the envelope, and the accusation report
//! (`docs/cluedo.md`, "Advice").
//!
//! A suggestion names one card of each category. Going round the table
//! from the suggester's left, the first opponent holding any named card
//! shows one of them, picked uniformly among the named cards he holds; if
//! nobody holds one, nobody shows. Each outcome ("seat j shows card c", or
//! "nobody") is the union of hand configurations: the opponents before j
//! hold none of the named cards and j holds exactly the subset `H` of them
//! (`c` in `H`, weight `1/|H|`). Each configuration is a set of facts added
//! to the log; the engine counts its deals per envelope triple exactly
//! (`u128`, one dynamic programme that also gives the joint distribution of
//! the three envelope slots). All configurations are brought to one common
//! integer denominator, so every outcome's probability and every envelope
//! distribution after it are exact integer counts until the final division.
//!
//! Information gain: `H(envelope now) - sum_o P(o) H(envelope | o)`, in
//! bits, with H over the envelope triples. Ties rank by the higher chance of
//! being shown a card, then by the canonical order of the suggestion.
//!
//! Past answers keep the log's [`Model`]: under `uniform-responder` a card
//! shown to me earlier weighs every deal by the chance its responder picked
//! it; the suggestion being scored always uses the uniform responder.

use super::cards::{Card, CardSet, Category, Rules, Seat};
use super::count::AtomCache;
use super::engine::{
    analyse, envelope_joint, envelope_joint_cached, position_in_category, triple_index, triple_of,
    EnvelopeJoint,
};
use super::facts::{Fact, Knowledge};
use super::notebook::{Model, Place};
use super::ranking::{live, order, Now, Objective, Outcome, Response, Scored};
use crate::error::{Error, Result};

/// Every suggestion scored, best first, and the accusation report.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The objective that ordered the ranking.
    pub objective: Objective,
    /// Envelope triples still possible now.
    pub live_triples: usize,
    /// Entropy of the envelope now, bits.
    pub entropy_now: f64,
    /// Suggestions, best first.
    pub ranking: Vec<Scored>,
    /// The most likely envelope triple (suspect, weapon, room).
    pub most_likely: [Card; 3],
    /// Its probability: the chance that accusing it now wins.
    pub p_most_likely: f64,
}

fn overflow() -> Error {
    Error::OutOfRange {
        what: crate::Argument::SuggestionWeights,
        detail: "the exact outcome weights exceed 128 bits".to_string(),
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The opponents in answering order: from `me`'s left round the table.
fn answering_order(rules: &Rules, me: Seat) -> Vec<Seat> {
    let n = rules.players();
    (1..n).map(|k| Seat(((me.index() + k) % n) as u8)).collect()
}

/// `knowledge` with `facts` added, or `None` when one contradicts it
/// outright.
fn with(knowledge: &Knowledge, facts: &[Fact]) -> Option<Knowledge> {
    let mut more = knowledge.clone();
    for fact in facts {
        more.add(fact.clone()).ok()?;
    }
    Some(more)
}

/// One hand configuration of an outcome: its joint and its weight factor
/// `1/|H|` as `numerator / 6` (6 = lcm of 1, 2, 3).
struct Configuration {
    response: Response,
    joint: EnvelopeJoint,
    sixths: u128,
}

/// Who may hold, and who surely holds, each card: a screen that skips the
/// hand configurations no deal has (a skipped configuration would count
/// zero deals, so nothing changes but the time).
struct Holdings {
    /// Per seat, the cards it holds in some consistent deal.
    possible: Vec<CardSet>,
    /// Per seat, the cards it holds in every consistent deal.
    surely: Vec<CardSet>,
}

impl Holdings {
    /// The holdings of `knowledge` (the same under both models: a deal's
    /// responder weight is never zero).
    fn of(knowledge: &Knowledge) -> Result<Holdings> {
        let notebook = analyse(knowledge, Model::EqualDeals)?;
        let rules = knowledge.rules();
        let cards = rules.deck().all_cards();
        let held = |seat: Seat, keep: &dyn Fn(u128) -> bool| {
            cards
                .cards()
                .filter(|&c| keep(notebook.deals_with(c, Place::Hand(seat))))
                .fold(CardSet::EMPTY, CardSet::with)
        };
        Ok(Holdings {
            possible: rules.seats().map(|s| held(s, &|d| d > 0)).collect(),
            surely: rules
                .seats()
                .map(|s| held(s, &|d| d == notebook.deals()))
                .collect(),
        })
    }
}

/// Score the suggestion `cards` (one per category) made by `me`.
///
/// # Errors
/// [`Error::OutOfRange`] when the exact weights overflow 128 bits;
/// [`Error::Inconsistent`] when the log admits no deal.
pub fn score(knowledge: &Knowledge, model: Model, me: Seat, cards: [Card; 3]) -> Result<Scored> {
    let base = envelope_joint(knowledge, model)?
        .ok_or_else(|| Error::Inconsistent("no deal agrees with the log".to_string()))?;
    let rules = *knowledge.rules();
    let now = Now::new(&rules, &base.counts);
    let holdings = Holdings::of(knowledge)?;
    let mut cache = AtomCache::default();
    score_from(
        knowledge, model, me, cards, &base, &now, &holdings, &mut cache,
    )
}

/// [`score`] with the envelope distribution now already counted, and the
/// counting problems of earlier suggestions in `cache`.
#[allow(clippy::too_many_arguments)]
fn score_from(
    knowledge: &Knowledge,
    model: Model,
    me: Seat,
    cards: [Card; 3],
    base: &EnvelopeJoint,
    now: &Now<'_>,
    holdings: &Holdings,
    cache: &mut AtomCache,
) -> Result<Scored> {
    let rules = *knowledge.rules();
    let named = CardSet::of(&cards);
    let mut configurations = Vec::new();
    let mut passers: Vec<Fact> = Vec::new();
    // Whether some deal lets every seat so far hold none of the three.
    let mut reached = true;
    for seat in answering_order(&rules, me) {
        if !reached {
            break;
        }
        let may = holdings.possible[seat.index()].and(named);
        let must = holdings.surely[seat.index()].and(named);
        // Every non-empty subset H of the named cards held by `seat`.
        for subset in 1u8..8 {
            let held: Vec<Card> = (0..3)
                .filter(|i| subset >> i & 1 == 1)
                .map(|i| cards[i])
                .collect();
            let held_set = CardSet::of(&held);
            if !held_set.minus(may).is_empty() || !must.minus(held_set).is_empty() {
                continue;
            }
            let mut facts = passers.clone();
            facts.extend(held.iter().map(|&card| Fact::Holds { player: seat, card }));
            let rest = named.minus(held_set);
            if !rest.is_empty() {
                facts.push(Fact::HoldsNone {
                    player: seat,
                    cards: rest,
                });
            }
            let Some(more) = with(knowledge, &facts) else {
                continue;
            };
            let Some(joint) = envelope_joint_cached(&more, model, cache)? else {
                continue;
            };
            for &card in &held {
                configurations.push(Configuration {
                    response: Response::Shows { seat, card },
                    joint: joint.clone(),
                    sixths: 6 / held.len() as u128,
                });
            }
        }
        passers.push(Fact::HoldsNone {
            player: seat,
            cards: named,
        });
        reached = must.is_empty();
    }
    // Nobody answers only if no seat surely holds a named card.
    let nobody = if reached {
        with(knowledge, &passers)
    } else {
        None
    };
    if let Some(more) = nobody {
        if let Some(joint) = envelope_joint_cached(&more, model, cache)? {
            configurations.push(Configuration {
                response: Response::Nobody,
                joint,
                sixths: 6,
            });
        }
    }
    // One denominator: every configuration's counts are deals times its
    // scale; bring all scales to their least common multiple.
    let common = configurations
        .iter()
        .map(|c| c.joint.scale)
        .chain([base.scale])
        .try_fold(1u128, |acc, s| (acc / gcd(acc, s)).checked_mul(s))
        .ok_or_else(overflow)?;
    let base_total = base
        .counts
        .iter()
        .try_fold(0u128, |acc, &c| acc.checked_add(c))
        .ok_or_else(overflow)?;
    let denominator = base_total
        .checked_mul(common / base.scale)
        .and_then(|d| d.checked_mul(6))
        .ok_or_else(overflow)?;
    let mut outcomes: Vec<Outcome> = Vec::new();
    for configuration in configurations {
        let factor = (common / configuration.joint.scale)
            .checked_mul(configuration.sixths)
            .ok_or_else(overflow)?;
        let index = match outcomes
            .iter()
            .position(|o| o.response == configuration.response)
        {
            Some(index) => index,
            None => {
                outcomes.push(Outcome {
                    response: configuration.response,
                    weight: 0,
                    envelope: vec![0; base.counts.len()],
                });
                outcomes.len() - 1
            }
        };
        let outcome = &mut outcomes[index];
        for (slot, &count) in outcome.envelope.iter_mut().zip(&configuration.joint.counts) {
            let add = count.checked_mul(factor).ok_or_else(overflow)?;
            *slot = slot.checked_add(add).ok_or_else(overflow)?;
            outcome.weight = outcome.weight.checked_add(add).ok_or_else(overflow)?;
        }
    }
    outcomes.retain(|o| o.weight > 0);
    let total: u128 = outcomes.iter().map(|o| o.weight).sum();
    if total != denominator {
        return Err(Error::Inconsistent(format!(
            "the outcomes of a suggestion weigh {total}, not {denominator}: the responder model does not add up"
        )));
    }
    Ok(Scored::new(now, cards, outcomes, denominator))
}

/// Every suggestion `me` can make (in `room` only, when given), scored and
/// ranked best first by the default objective, with the accusation report.
///
/// # Errors
/// As [`score`]; [`Error::OutOfRange`] for a `room` that is not a room.
pub fn advise(knowledge: &Knowledge, model: Model, me: Seat, room: Option<Card>) -> Result<Advice> {
    advise_by(knowledge, model, me, room, Objective::DEFAULT)
}

/// As [`advise`], ranked by `objective`.
///
/// # Errors
/// As [`advise`].
pub fn advise_by(
    knowledge: &Knowledge,
    model: Model,
    me: Seat,
    room: Option<Card>,
    objective: Objective,
) -> Result<Advice> {
    advise_counting(knowledge, model, me, room, objective, AtomCache::default())
}

/// [`advise_by`], every counting problem looked up in `cache` first (the
/// tests pass one that counts another way).
///
/// # Errors
/// As [`advise`].
pub(crate) fn advise_counting(
    knowledge: &Knowledge,
    model: Model,
    me: Seat,
    room: Option<Card>,
    objective: Objective,
    mut cache: AtomCache,
) -> Result<Advice> {
    let rules = *knowledge.rules();
    let deck = rules.deck();
    if let Some(room) = room {
        if !deck.contains(room) || deck.category(room) != Category::Room {
            return Err(Error::OutOfRange {
                what: crate::Argument::Room,
                detail: format!("{} is not a room", deck.card_name(room)),
            });
        }
    }
    let base = envelope_joint_cached(knowledge, model, &mut cache)?
        .ok_or_else(|| Error::Inconsistent("no deal agrees with the log".to_string()))?;
    let rooms: Vec<Card> = match room {
        Some(room) => vec![room],
        None => deck.category_cards(Category::Room).cards().collect(),
    };
    let now = Now::new(&rules, &base.counts);
    let holdings = Holdings::of(knowledge)?;
    let mut ranking = Vec::new();
    for suspect in deck.category_cards(Category::Suspect).cards() {
        for weapon in deck.category_cards(Category::Weapon).cards() {
            for &room in &rooms {
                ranking.push(score_from(
                    knowledge,
                    model,
                    me,
                    [suspect, weapon, room],
                    &base,
                    &now,
                    &holdings,
                    &mut cache,
                )?);
            }
        }
    }
    order(&mut ranking, objective);
    let (most_likely, p_most_likely) = most_likely_of(&rules, &base)?;
    Ok(Advice {
        objective,
        live_triples: live(&base.counts),
        entropy_now: now.entropy(),
        ranking,
        most_likely,
        p_most_likely,
    })
}

/// The accusation report alone: the most likely envelope triple (suspect,
/// weapon, room; ties to the first in deck order) and its probability,
/// the chance that accusing it now wins.
///
/// # Errors
/// [`Error::Inconsistent`] when no deal agrees with the log;
/// [`Error::OutOfRange`] when the weights overflow 128 bits.
pub fn accusation(knowledge: &Knowledge, model: Model) -> Result<([Card; 3], f64)> {
    let base = envelope_joint(knowledge, model)?
        .ok_or_else(|| Error::Inconsistent("no deal agrees with the log".to_string()))?;
    most_likely_of(knowledge.rules(), &base)
}

fn most_likely_of(rules: &Rules, base: &EnvelopeJoint) -> Result<([Card; 3], f64)> {
    let (best, &count) = base
        .counts
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
        .ok_or_else(|| Error::Inconsistent("an empty deck".to_string()))?;
    let total: u128 = base.counts.iter().sum();
    let triple = triple_of(rules, best);
    debug_assert_eq!(
        triple_index(rules, triple.map(|c| position_in_category(rules, c))),
        best
    );
    Ok((triple, count as f64 / total as f64))
}
