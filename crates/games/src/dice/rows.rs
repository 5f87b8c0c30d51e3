//! The rows of the Liar's Dice tables as the engine computes them: the
//! bid-probability row of a question, and the decisions table's key (the
//! standard game) and row (the published rule's action and value). The
//! build writes these rows and the lookup crate's tables return them, so a
//! stored row and a fresh computation are the same type and agree bit for
//! bit.

use serde::Serialize;

use super::decision::{published_rule, Action, Situation};
use super::model::{bid_odds, BidQuestion};
use super::types::{Bid, Hand, Reliability, Variant};
use crate::error::{Error, Result};

/// The values of one row of the bid-probability table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BidRow {
    /// Exact `P(total >= q)` from my dice alone.
    pub raw_probability: f64,
    /// The probability after reading the bid (reliability model).
    pub corrected_probability: f64,
    /// `1 - 2 · corrected_probability`.
    pub ev_open: f64,
    /// Continuity-corrected normal approximation of the raw probability.
    pub normal_approximation: f64,
}

impl BidRow {
    /// The row computed by the engine.
    pub fn compute(question: &BidQuestion) -> BidRow {
        let odds = bid_odds(question);
        BidRow {
            raw_probability: odds.raw_probability,
            corrected_probability: odds.corrected_probability,
            ev_open: odds.ev_open,
            normal_approximation: odds.normal_approximation,
        }
    }
}

/// The key of the decisions table: the standard game, where every player
/// holds as many dice as my hand.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionKey {
    /// Players at the table.
    pub players: u32,
    /// The game's variant.
    pub variant: Variant,
    /// The reliability credited to the bidder.
    pub reliability: Reliability,
    /// My dice.
    pub hand: Hand,
    /// The standing bid.
    pub standing: Bid,
}

impl DecisionKey {
    /// The situation: `players × hand size` dice, the bidder holding as many
    /// as I do.
    ///
    /// # Errors
    /// As [`Situation::new`].
    pub fn situation(&self) -> Result<Situation> {
        let total = self
            .players
            .checked_mul(self.hand.len())
            .ok_or(Error::OutOfRange {
                what: crate::Argument::Players,
                detail: format!("{} players", self.players),
            })?;
        Situation::new(
            total,
            self.hand.clone(),
            self.hand.len(),
            self.variant,
            self.standing,
            self.reliability,
        )
    }
}

/// The values of one row of the decisions table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DecisionRow {
    /// The published rule's action.
    pub action: Action,
    /// Its value under the rule.
    pub expected_value: f64,
}

impl DecisionRow {
    /// The row computed by the engine.
    ///
    /// # Errors
    /// As [`DecisionKey::situation`].
    pub fn compute(key: &DecisionKey) -> Result<DecisionRow> {
        let advice = published_rule(&key.situation()?);
        Ok(DecisionRow {
            action: advice.action,
            expected_value: advice.expected_value,
        })
    }
}
