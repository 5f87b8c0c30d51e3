//! What orders the suggestions: the quantities read from a suggestion's
//! exact outcomes ([`Scored`]), and the [`Objective`]s that rank by them.
//!
//! A suggestion's outcomes ([`Response`], [`Outcome`]) and what is read
//! from them ([`Scored`]) are defined here; `advice` computes them and
//! ranks them with this module, which needs nothing of `advice` (the
//! dependency points one way).
//!
//! **The default, [`Objective::Certainty`]**: the higher chance that the
//! envelope is certain after the answer (a single triple left with
//! positive probability), then the fewer expected live bits after it
//! (log2 of the triples still possible), then the higher information gain,
//! then the canonical order (suspect, weapon, room, each in deck order).
//! The objective of the game is the number of suggestions until the
//! envelope is certain, and this is its one-step greedy form. It was
//! chosen by measurement (README, "Cluedo: which suggestion to make"): on
//! every hand type of the reduced decks where the optimum is computable
//! ([`super::Solitaire`]) it reaches the optimum, and in full games it is
//! as fast as the most-likely rule and 1.2 to 1.3 suggestions faster than
//! ranking by information gain, whose loss is the suggestions naming a
//! card that cannot be in the envelope ("dead": mine, or placed). With
//! three live cards, "nobody can answer" solves the game at once; with a
//! dead card it cannot (a placed card is always shown by its holder or an
//! earlier responder, and "nobody" after one of mine leaves its category
//! open). P(certain after) sees that; the entropy of the envelope does
//! not: a dead card makes the answer a sharper test of the other two, so
//! it often gains more bits while finishing later.
//!
//! **Exact ties.** Probabilities are integer sums of outcome weights
//! divided once; expectations over outcomes are summed in ascending order
//! of their terms, each computed from the integer weights alone (entropies
//! too sum their terms in ascending order). Two suggestions with the same
//! multiset of outcome and envelope weights, such as the images of a
//! symmetry of the knowledge, so get the same keys to the last bit and tie
//! exactly; the documented tie keys then decide, not rounding noise.

use super::cards::{Card, CardSet, Rules, Seat};
use super::engine::{position_in_category, triple_index};
use crate::error::{Error, Result};

/// Who answers a suggestion, and with what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Response {
    /// `seat` shows me `card`.
    Shows {
        /// The responder.
        seat: Seat,
        /// The card shown.
        card: Card,
    },
    /// Nobody holds a named card.
    Nobody,
}

/// One outcome of a suggestion, exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// What happens.
    pub response: Response,
    /// Its weight: `P(outcome) = weight / denominator` of the suggestion.
    pub weight: u128,
    /// The envelope triples' weights after it (index: suspect, weapon and
    /// room positions within their categories); they add up to `weight`.
    pub envelope: Vec<u128>,
}

impl Outcome {
    /// The entropy (bits) of the envelope after this outcome.
    pub fn envelope_entropy(&self) -> f64 {
        entropy(&self.envelope)
    }

    /// The envelope triples still possible after this outcome (1: the
    /// envelope is certain).
    pub fn live_triples(&self) -> usize {
        live(&self.envelope)
    }
}

/// A suggestion's exact outcome distribution and what the ranking reads
/// from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The suggestion: suspect, weapon, room.
    pub cards: [Card; 3],
    /// Every outcome of positive probability, in table order (responders
    /// from my left, cards in deck order, nobody last).
    pub outcomes: Vec<Outcome>,
    /// The common denominator of the outcome weights.
    pub denominator: u128,
    /// Expected information gain about the envelope, bits.
    pub expected_gain: f64,
    /// The chance of being shown a card.
    pub p_shown: f64,
    /// The chance that nobody can answer (then the three cards are the
    /// envelope's or mine).
    pub p_nobody: f64,
    /// The chance that the envelope is certain after the answer (a single
    /// triple left with positive probability).
    pub p_certain_after: f64,
    /// The chance that the most likely triple after the answer is the
    /// envelope: the win chance of accusing right after this suggestion
    /// (at least `p_certain_after`).
    pub p_right_after: f64,
    /// The expected base-2 logarithm of the number of envelope triples
    /// still possible after the answer.
    pub live_bits_after: f64,
    /// The chance that this very triple is the envelope.
    pub p_envelope: f64,
    /// The named cards that cannot be in the envelope (mine, or placed).
    pub dead: CardSet,
}

/// What orders the ranking of suggestions. Every objective breaks its ties
/// by further keys ([`Objective::rule`]) and finally by the canonical order
/// of the suggestion (suspect, then weapon, then room, each in deck order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Objective {
    /// The higher P(certain after), then fewer live bits, then gain (the
    /// default).
    Certainty,
    /// The higher chance that the most likely triple after the answer is
    /// the envelope, then P(certain after), then fewer live bits.
    BestGuess,
    /// The most likely envelope triple first (the rule of thumb).
    MostLikely,
    /// The higher expected information gain, then the higher P(shown) (the
    /// ranking before issue 27).
    InformationGain,
    /// As [`Objective::InformationGain`] among the suggestions naming no
    /// dead card first.
    LiveOnlyGain,
    /// Fewest expected live bits after the answer, then the higher
    /// P(certain after), then gain.
    LiveBits,
    /// As [`Objective::LiveBits`] among the suggestions naming no dead
    /// card first.
    LiveOnlyBits,
}

impl Objective {
    /// The objective the advice ranks by unless told otherwise.
    pub const DEFAULT: Objective = Objective::Certainty;

    /// Every objective, the default first.
    pub const ALL: [Objective; 7] = [
        Objective::Certainty,
        Objective::BestGuess,
        Objective::MostLikely,
        Objective::InformationGain,
        Objective::LiveOnlyGain,
        Objective::LiveBits,
        Objective::LiveOnlyBits,
    ];

    /// The objective's name.
    pub const fn name(self) -> &'static str {
        match self {
            Objective::Certainty => "certainty",
            Objective::BestGuess => "best-guess",
            Objective::MostLikely => "most-likely",
            Objective::InformationGain => "information-gain",
            Objective::LiveOnlyGain => "live-only-gain",
            Objective::LiveBits => "live-bits",
            Objective::LiveOnlyBits => "live-only-bits",
        }
    }

    /// The objective called `name`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an unknown name.
    pub fn parse(name: &str) -> Result<Objective> {
        Objective::ALL
            .into_iter()
            .find(|o| o.name() == name)
            .ok_or_else(|| Error::OutOfRange {
                what: crate::Argument::Objective,
                detail: format!(
                    "{name:?}; the objectives are {}",
                    Objective::ALL.map(Objective::name).join(", ")
                ),
            })
    }

    /// The ranking rule in words, tie keys included.
    pub const fn rule(self) -> &'static str {
        match self {
            Objective::Certainty => {
                "the higher chance that the envelope is certain after the answer; then the \
                 fewer expected log2 live triples after it, the higher information gain, \
                 canonical order"
            }
            Objective::BestGuess => {
                "the higher chance that the most likely triple after the answer is the \
                 envelope; then the higher chance of certainty after it, the fewer expected \
                 log2 live triples, the higher information gain, canonical order"
            }
            Objective::MostLikely => {
                "the higher chance that the suggested triple is the envelope; then canonical \
                 order"
            }
            Objective::InformationGain => {
                "the higher expected information gain about the envelope; then the higher \
                 chance of being shown a card, canonical order"
            }
            Objective::LiveOnlyGain => {
                "suggestions naming no dead card first; then the higher expected information \
                 gain, the higher chance of being shown a card, canonical order"
            }
            Objective::LiveBits => {
                "the fewer expected log2 live triples after the answer; then the higher chance \
                 of certainty after it, the higher information gain, canonical order"
            }
            Objective::LiveOnlyBits => {
                "suggestions naming no dead card first; then the fewer expected log2 live \
                 triples after the answer, the higher chance of certainty after it, the higher \
                 information gain, canonical order"
            }
        }
    }

    /// The sort key of a suggestion: smaller is better.
    fn key(self, s: &Scored) -> [f64; 4] {
        let dead = if s.dead.is_empty() { 0.0 } else { 1.0 };
        match self {
            Objective::Certainty => [-s.p_certain_after, s.live_bits_after, -s.expected_gain, 0.0],
            Objective::BestGuess => [
                -s.p_right_after,
                -s.p_certain_after,
                s.live_bits_after,
                -s.expected_gain,
            ],
            Objective::MostLikely => [-s.p_envelope, 0.0, 0.0, 0.0],
            Objective::InformationGain => [-s.expected_gain, -s.p_shown, 0.0, 0.0],
            Objective::LiveOnlyGain => [dead, -s.expected_gain, -s.p_shown, 0.0],
            Objective::LiveBits => [s.live_bits_after, -s.p_certain_after, -s.expected_gain, 0.0],
            Objective::LiveOnlyBits => [
                dead,
                s.live_bits_after,
                -s.p_certain_after,
                -s.expected_gain,
            ],
        }
    }
}

/// Rank `scored` (given in canonical order) best first by `objective`.
pub(crate) fn order(scored: &mut [Scored], objective: Objective) {
    // A stable sort: equal keys keep the canonical order.
    scored.sort_by(|a, b| {
        let (ka, kb) = (objective.key(a), objective.key(b));
        ka.iter()
            .zip(&kb)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
}

/// The knowledge now, as every suggestion's score reads it.
#[derive(Debug, Clone)]
pub(crate) struct Now<'a> {
    rules: &'a Rules,
    /// The envelope distribution: weights per triple.
    base: &'a [u128],
    total: u128,
    entropy: f64,
    /// The cards that cannot be in the envelope.
    dead: CardSet,
}

impl<'a> Now<'a> {
    /// The knowledge whose envelope distribution is `base`.
    pub(crate) fn new(rules: &'a Rules, base: &'a [u128]) -> Now<'a> {
        Now {
            rules,
            base,
            total: base.iter().sum(),
            entropy: entropy(base),
            dead: dead_cards(rules, base),
        }
    }

    /// Entropy of the envelope now, bits.
    pub(crate) fn entropy(&self) -> f64 {
        self.entropy
    }
}

impl Scored {
    /// `P(outcome)`.
    pub fn probability(&self, outcome: &Outcome) -> f64 {
        outcome.weight as f64 / self.denominator as f64
    }

    /// Score `cards` from its exact outcomes (weights over the common
    /// `denominator`), knowing `now`.
    pub(crate) fn new(
        now: &Now<'_>,
        cards: [Card; 3],
        outcomes: Vec<Outcome>,
        denominator: u128,
    ) -> Scored {
        let p = |w: u128| w as f64 / denominator as f64;
        let expect = |f: &dyn Fn(&Outcome) -> f64| {
            canonical_sum(outcomes.iter().map(|o| p(o.weight) * f(o)).collect())
        };
        let after = expect(&|o| o.envelope_entropy());
        let live_bits_after = expect(&|o| (live(&o.envelope) as f64).log2());
        // Integer sums: one rounding each.
        let certain: u128 = outcomes
            .iter()
            .filter(|o| live(&o.envelope) == 1)
            .map(|o| o.weight)
            .sum();
        let best_guess: u128 = outcomes
            .iter()
            .map(|o| o.envelope.iter().copied().max().unwrap_or(0))
            .sum();
        let nobody: u128 = outcomes
            .iter()
            .filter(|o| o.response == Response::Nobody)
            .map(|o| o.weight)
            .sum();
        let positions = cards.map(|c| position_in_category(now.rules, c));
        let here = now.base[triple_index(now.rules, positions)];
        Scored {
            cards,
            outcomes,
            denominator,
            expected_gain: now.entropy - after,
            p_shown: 1.0 - p(nobody),
            p_nobody: p(nobody),
            p_certain_after: p(certain),
            p_right_after: p(best_guess),
            live_bits_after,
            p_envelope: here as f64 / now.total as f64,
            dead: now.dead.and(CardSet::of(&cards)),
        }
    }
}

/// The sum of `terms` in ascending order: the same multiset of terms
/// gives the same sum to the last bit.
fn canonical_sum(mut terms: Vec<f64>) -> f64 {
    terms.sort_by(f64::total_cmp);
    terms.iter().sum()
}

/// Number of triples with positive weight.
pub(crate) fn live(envelope: &[u128]) -> usize {
    envelope.iter().filter(|&&w| w > 0).count()
}

/// The cards of no triple of positive weight: those that cannot be in the
/// envelope.
fn dead_cards(rules: &Rules, base: &[u128]) -> CardSet {
    let deck = rules.deck();
    let mut alive = CardSet::EMPTY;
    for (index, _) in base.iter().enumerate().filter(|(_, &w)| w > 0) {
        alive = alive.or(CardSet::of(&super::engine::triple_of(rules, index)));
    }
    deck.all_cards().minus(alive)
}

/// Entropy in bits of the distribution proportional to `weights`, summed
/// over the weights in ascending order (so that permuted weights give the
/// same value to the last bit).
pub(crate) fn entropy(weights: &[u128]) -> f64 {
    let total: u128 = weights.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let total = total as f64;
    let mut positive: Vec<u128> = weights.iter().copied().filter(|&w| w > 0).collect();
    positive.sort_unstable();
    -positive
        .iter()
        .map(|&w| {
            let p = w as f64 / total;
            p * p.log2()
        })
        .sum::<f64>()
}
