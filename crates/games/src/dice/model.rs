//! The probability model of the spec: the raw probability of the standing
//! bid from my own dice, the bidder's posterior under the logistic
//! reliability model, the corrected probability and the value of opening.
//!
//! Inputs are the validated questions [`BidQuestion`] and
//! [`PosteriorQuestion`]; the same functions fill the tables (see
//! `gametab::dice`) and answer queries off the grid, so on the grid a table
//! row and a fresh computation agree bit for bit.

use serde::Serialize;

use super::exact::{normal_approximation, MatchCounts, OutcomeFraction, TailProbabilities};
use super::types::{
    check_bid_count, Bid, DiceInPlay, FaceClass, Hand, MatchingFaces, Reliability, Variant,
};
use crate::error::{Error, Result};

/// The value of opening (challenging) a bid that holds with probability
/// `p`: win +1 with `1 - p`, lose 1 with `p`, so `1 - 2 p`.
pub fn ev_open(p: f64) -> f64 {
    1.0 - 2.0 * p
}

/// What the bidder's bid says about his own dice: the question behind the
/// posterior of his matching count `y`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PosteriorQuestion {
    /// All dice on the table, `N`.
    pub total_dice: u32,
    /// The bidder's dice, `n_b`.
    pub bidder_dice: u32,
    /// The rules in force for the bid.
    pub variant: Variant,
    /// Ones or another face.
    pub class: FaceClass,
    /// The count the bidder claimed, `q`.
    pub bid_count: u32,
    /// How far his bids follow his dice.
    pub reliability: Reliability,
}

impl PosteriorQuestion {
    /// A validated posterior question.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the bidder holds no die, `total_dice`
    /// exceeds [`super::MAX_TOTAL_DICE`] or leaves no die for me, or the bid count is
    /// not within 1..=`total_dice`.
    pub fn new(
        total_dice: u32,
        bidder_dice: u32,
        variant: Variant,
        class: FaceClass,
        bid_count: u32,
        reliability: Reliability,
    ) -> Result<PosteriorQuestion> {
        // Validation is that of a table where I hold one die or more.
        DiceInPlay::new(total_dice, 1, bidder_dice)?;
        check_bid_count(bid_count, total_dice)?;
        Ok(PosteriorQuestion {
            total_dice,
            bidder_dice,
            variant,
            class,
            bid_count,
            reliability,
        })
    }

    /// How many faces of a die count for the bid.
    pub fn matching_faces(&self) -> MatchingFaces {
        self.variant.matching_faces(self.class)
    }
}

/// The posterior distribution of the bidder's matching dice `y`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BidderPosterior {
    /// `probabilities[y]` for `y = 0..=n_b`; they sum to 1.
    pub probabilities: Vec<f64>,
}

impl BidderPosterior {
    /// `P(y)`, 0 beyond the bidder's dice.
    pub fn probability(&self, y: u32) -> f64 {
        self.probabilities.get(y as usize).copied().unwrap_or(0.0)
    }

    /// The posterior mean of `y`.
    pub fn mean(&self) -> f64 {
        self.probabilities
            .iter()
            .enumerate()
            .map(|(y, p)| y as f64 * p)
            .sum()
    }
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The part of the bidder's posterior that does not depend on the bid
/// count: the log prior of each `y` and the dice expected elsewhere. Shared
/// by [`bidder_posterior`] and the batch builders, so both compute every
/// posterior with the same operations in the same order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PosteriorPrior {
    /// `ln` of the exact prior outcome count of `y = 0..=n_b`.
    log_prior: Vec<f64>,
    /// `(N - n_b) p`.
    expected_elsewhere: f64,
    /// The reliability.
    rel: f64,
}

impl PosteriorPrior {
    /// The prior of `bidder_dice` dice matching on `matching` faces, on a
    /// table of `total_dice` dice (at least `bidder_dice`).
    pub(crate) fn new(
        total_dice: u32,
        bidder_dice: u32,
        matching: MatchingFaces,
        reliability: Reliability,
    ) -> PosteriorPrior {
        let prior = MatchCounts::new(bidder_dice, matching);
        PosteriorPrior {
            log_prior: (0..=bidder_dice)
                .map(|y| (prior.exactly(y) as f64).ln())
                .collect(),
            expected_elsewhere: f64::from(total_dice - bidder_dice) * matching.probability(),
            rel: reliability.value(),
        }
    }

    /// The posterior after a bid on `bid_count` dice (at least 1).
    pub(crate) fn posterior(&self, bid_count: u32) -> BidderPosterior {
        let q = f64::from(bid_count);
        // One buffer goes from log weights to weights to probabilities.
        let mut values: Vec<f64> = self
            .log_prior
            .iter()
            .enumerate()
            .map(|(y, log_prior)| {
                let confidence = (y as f64 + self.expected_elsewhere) / q;
                let log_likelihood = -softplus(-4.0 * self.rel * (confidence - 1.0));
                log_prior + log_likelihood
            })
            .collect();
        let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for value in &mut values {
            *value = (*value - top).exp();
        }
        let total: f64 = values.iter().sum();
        for value in &mut values {
            *value /= total;
        }
        BidderPosterior {
            probabilities: values,
        }
    }
}

/// The bidder's posterior: `post(y) ∝ prior(y) · L(y)` with the prior
/// `Binomial(n_b, p)` (as exact outcome counts) and the logistic likelihood
/// `L(y) = 1 / (1 + exp(-4 rel (conf - 1)))`,
/// `conf = (y + (N - n_b) p) / q`. Weights are combined in log space, so no
/// reliability, however large, underflows every weight to zero.
pub fn bidder_posterior(question: &PosteriorQuestion) -> BidderPosterior {
    PosteriorPrior::new(
        question.total_dice,
        question.bidder_dice,
        question.matching_faces(),
        question.reliability,
    )
    .posterior(question.bid_count)
}

/// The standing bid seen from my seat: the key of the bid-probability table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BidQuestion {
    /// The dice in play: all, mine, the bidder's.
    pub dice: DiceInPlay,
    /// The rules in force for the bid.
    pub variant: Variant,
    /// Ones or another face.
    pub class: FaceClass,
    /// The count bid, `q`.
    pub bid_count: u32,
    /// My dice that count for the bid, `k`.
    pub my_matching: u32,
    /// The bidder's reliability.
    pub reliability: Reliability,
}

impl BidQuestion {
    /// A validated question.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bid count outside 1..=`N`;
    /// [`Error::Inconsistent`] when `my_matching` exceeds my dice.
    pub fn new(
        dice: DiceInPlay,
        variant: Variant,
        class: FaceClass,
        bid_count: u32,
        my_matching: u32,
        reliability: Reliability,
    ) -> Result<BidQuestion> {
        check_bid_count(bid_count, dice.total())?;
        if my_matching > dice.mine() {
            return Err(Error::Inconsistent(format!(
                "{my_matching} of my dice match the bid, but I hold only {}",
                dice.mine()
            )));
        }
        Ok(BidQuestion {
            dice,
            variant,
            class,
            bid_count,
            my_matching,
            reliability,
        })
    }

    /// The question for `bid` given my actual `hand` (which fixes `m` and
    /// `k`), `total_dice` on the table and `bidder_dice` of the bidder's.
    ///
    /// # Errors
    /// As [`DiceInPlay::new`] and [`BidQuestion::new`].
    pub fn from_hand(
        hand: &Hand,
        total_dice: u32,
        bidder_dice: u32,
        variant: Variant,
        bid: Bid,
        reliability: Reliability,
    ) -> Result<BidQuestion> {
        let dice = DiceInPlay::new(total_dice, hand.len(), bidder_dice)?;
        let my_matching = hand.matching(bid.face, variant);
        BidQuestion::new(
            dice,
            variant,
            bid.face.class(),
            bid.count,
            my_matching,
            reliability,
        )
    }

    /// How many faces of a hidden die count for the bid.
    pub fn matching_faces(&self) -> MatchingFaces {
        self.variant.matching_faces(self.class)
    }

    /// The matching dice still needed among the hidden ones, `q - k`.
    pub fn still_needed(&self) -> i64 {
        i64::from(self.bid_count) - i64::from(self.my_matching)
    }

    /// The posterior question about the bidder behind this bid.
    pub fn posterior_question(&self) -> PosteriorQuestion {
        PosteriorQuestion {
            total_dice: self.dice.total(),
            bidder_dice: self.dice.bidder(),
            variant: self.variant,
            class: self.class,
            bid_count: self.bid_count,
            reliability: self.reliability,
        }
    }
}

/// Everything the model says about a standing bid: one row of the
/// bid-probability table, plus the exact fraction and the posterior.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BidOdds {
    /// `P(total >= q)` from my dice alone, as an exact fraction of the
    /// `6^(N - m)` outcomes of the dice I cannot see.
    pub raw: OutcomeFraction,
    /// [`BidOdds::raw`] as a number.
    pub raw_probability: f64,
    /// The same probability by the continuity-corrected normal
    /// approximation, for comparison only.
    pub normal_approximation: f64,
    /// The probability after reading the bid with the reliability model.
    pub corrected_probability: f64,
    /// `1 - 2 ·` the corrected probability: the value of opening.
    pub ev_open: f64,
    /// `1 - 2 ·` the raw probability.
    pub ev_open_raw: f64,
    /// The bidder's posterior behind the corrected probability.
    pub posterior: BidderPosterior,
}

/// The raw probability `P(X >= q - k)`, `X ~ Binomial(N - m, p)`, exact.
pub fn raw_probability(question: &BidQuestion) -> OutcomeFraction {
    MatchCounts::new(question.dice.hidden_from_me(), question.matching_faces())
        .at_least(question.still_needed())
}

/// The corrected probability
/// `Σ_y post(y) · P(Z >= q - k - y)`, `Z ~ Binomial(N - m - n_b, p)`.
///
/// A bid my own dice already cover is certain (exactly 1, not a sum that
/// rounds to just below it), and rounding never leaves `[0, 1]`.
pub fn corrected_probability(question: &BidQuestion, posterior: &BidderPosterior) -> f64 {
    if question.still_needed() <= 0 {
        return 1.0;
    }
    let others = TailProbabilities::of(question.dice.others(), question.matching_faces());
    corrected_from_tails(question.still_needed(), posterior, &others)
}

/// [`corrected_probability`] of a bid that still needs `still_needed`
/// matching dice among the hidden ones, with `others` the tails of the dice
/// held by neither me nor the bidder.
pub(crate) fn corrected_from_tails(
    still_needed: i64,
    posterior: &BidderPosterior,
    others: &TailProbabilities,
) -> f64 {
    if still_needed <= 0 {
        return 1.0;
    }
    posterior
        .probabilities
        .iter()
        .enumerate()
        .map(|(y, post)| post * others.at_least(still_needed - y as i64))
        .sum::<f64>()
        .clamp(0.0, 1.0)
}

/// Raw, approximate and corrected probabilities of the bid, and the value of
/// opening it.
pub fn bid_odds(question: &BidQuestion) -> BidOdds {
    let raw = raw_probability(question);
    let posterior = bidder_posterior(&question.posterior_question());
    let corrected = corrected_probability(question, &posterior);
    BidOdds {
        raw,
        raw_probability: raw.to_f64(),
        normal_approximation: normal_approximation(
            question.dice.hidden_from_me(),
            question.matching_faces(),
            question.still_needed(),
        ),
        corrected_probability: corrected,
        ev_open: ev_open(corrected),
        ev_open_raw: ev_open(raw.to_f64()),
        posterior,
    }
}
