//! The decision rule published with the method, kept exactly as published
//! so its advice can be reproduced: [`published_rule`].
//!
//! It weighs opening the standing bid, `ev_open = 1 - 2 P` with `P` the
//! corrected probability (the raw one when the reliability is 0), against
//! every legal raise `(q', f')` with `q <= q' <= q + 2` (and `q' <= N`),
//! valued `(1 - p') (2 p' - 1) + 0.1 p'` where `p'` is the raw probability
//! of the raise from my own dice. The best of them is the advice.
//!
//! Wild ones: ones are taken to be wild for the standing bid unless it is on
//! ones itself; once ones are bid they stop being wild, so raises from a bid
//! on ones are valued without wilds. Earlier bids of the round are not part
//! of the situation.

use serde::Serialize;

use super::model::{bid_odds, BidOdds, BidQuestion};
use super::types::{Bid, DiceInPlay, Face, Hand, Reliability, Variant};
use crate::dice::exact::MatchCounts;
use crate::error::Result;

/// The name of the published rule, as stored in the decisions table.
pub const PUBLISHED_RULE: &str = "published";
/// How far above the standing count the published rule looks for raises.
pub const PUBLISHED_RAISE_REACH: u32 = 2;
/// The bonus the published rule gives a raise per unit of its probability.
pub const PUBLISHED_RAISE_BONUS: f64 = 0.1;

/// The published value of a raise that holds with raw probability `p`:
/// `(1 - p) (2 p - 1) + 0.1 p`.
pub fn published_raise_value(p: f64) -> f64 {
    (1.0 - p) * (2.0 * p - 1.0) + PUBLISHED_RAISE_BONUS * p
}

/// My turn: the dice in play, my hand and the bid standing before me.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Situation {
    /// All dice on the table, mine and the bidder's.
    pub dice: DiceInPlay,
    /// My dice.
    pub hand: Hand,
    /// The game's variant.
    pub variant: Variant,
    /// The bid standing before me.
    pub standing: Bid,
    /// The reliability I credit the bidder with.
    pub reliability: Reliability,
}

impl Situation {
    /// A validated situation: `total_dice` on the table, my `hand`, the
    /// bidder's `bidder_dice`, and the `standing` bid.
    ///
    /// # Errors
    /// As [`DiceInPlay::new`], and [`crate::Error::OutOfRange`] for a bid on
    /// more dice than exist.
    pub fn new(
        total_dice: u32,
        hand: Hand,
        bidder_dice: u32,
        variant: Variant,
        standing: Bid,
        reliability: Reliability,
    ) -> Result<Situation> {
        let dice = DiceInPlay::new(total_dice, hand.len(), bidder_dice)?;
        dice.check_bid(standing)?;
        Ok(Situation {
            dice,
            hand,
            variant,
            standing,
            reliability,
        })
    }

    /// The question about the standing bid.
    pub fn standing_question(&self) -> BidQuestion {
        let variant = self.variant.after_bid(self.standing.face);
        BidQuestion {
            dice: self.dice,
            variant,
            class: self.standing.face.class(),
            bid_count: self.standing.count,
            my_matching: self.hand.matching(self.standing.face, variant),
            reliability: self.reliability,
        }
    }
}

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Open (challenge) the standing bid.
    Open,
    /// Raise to this bid.
    Raise(Bid),
}

impl Action {
    /// `open` or `raise`, as stored in the decisions table.
    pub fn name(self) -> &'static str {
        match self {
            Action::Open => "open",
            Action::Raise(_) => "raise",
        }
    }
}

/// One raise the rule considered.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RaiseOption {
    /// The raise.
    pub bid: Bid,
    /// My dice that count for it.
    pub my_matching: u32,
    /// Its raw probability from my dice.
    pub probability: f64,
    /// Its value under the published rule.
    pub expected_value: f64,
}

/// The published rule's advice with its reasons.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    /// The rule's name, [`PUBLISHED_RULE`].
    pub rule: &'static str,
    /// The chosen action.
    pub action: Action,
    /// Its value under the rule.
    pub expected_value: f64,
    /// The odds of the standing bid (its `ev_open` is the value of opening).
    pub standing: BidOdds,
    /// Every legal raise considered, in bid order.
    pub raises: Vec<RaiseOption>,
}

/// The legal raises over `standing` within the published reach, on at most
/// `total_dice` dice, in bid order.
pub fn published_raises(standing: Bid, total_dice: u32) -> impl Iterator<Item = Bid> {
    let top = standing
        .count
        .saturating_add(PUBLISHED_RAISE_REACH)
        .min(total_dice);
    (standing.count..=top)
        .flat_map(|count| Face::all().map(move |face| Bid { count, face }))
        .filter(move |bid| bid.raises(standing))
}

/// The published rule's choice between opening, worth `ev_open`, and the
/// `raises` with their values in bid order: the best raise (the first among
/// equals) if it is worth more than opening, otherwise opening.
pub(crate) fn choose_published(
    ev_open: f64,
    raises: impl IntoIterator<Item = (Bid, f64)>,
) -> (Action, f64) {
    let best_raise = raises
        .into_iter()
        .fold(None::<(Bid, f64)>, |best, (bid, value)| match best {
            Some(b) if b.1 >= value => Some(b),
            _ => Some((bid, value)),
        });
    match best_raise {
        Some((bid, value)) if value > ev_open => (Action::Raise(bid), value),
        _ => (Action::Open, ev_open),
    }
}

/// The published rule: open when `ev_open` is at least the best raise's
/// value, otherwise the best raise (the lowest bid among equals).
pub fn published_rule(situation: &Situation) -> Advice {
    let standing = bid_odds(&situation.standing_question());
    let rules = situation.variant.after_bid(situation.standing.face);
    let hidden = situation.dice.hidden_from_me();
    // Raises on ones and on other faces differ only in how many faces match.
    let counts_by_class = [
        MatchCounts::new(hidden, rules.matching_faces(Face::ONE.class())),
        MatchCounts::new(hidden, rules.matching_faces(crate::dice::FaceClass::Other)),
    ];
    let raises: Vec<RaiseOption> = published_raises(situation.standing, situation.dice.total())
        .map(|bid| {
            let my_matching = situation.hand.matching(bid.face, rules);
            let counts = &counts_by_class[usize::from(bid.face != Face::ONE)];
            let probability = counts
                .at_least(i64::from(bid.count) - i64::from(my_matching))
                .to_f64();
            RaiseOption {
                bid,
                my_matching,
                probability,
                expected_value: published_raise_value(probability),
            }
        })
        .collect();
    let (action, expected_value) = choose_published(
        standing.ev_open,
        raises.iter().map(|raise| (raise.bid, raise.expected_value)),
    );
    Advice {
        rule: PUBLISHED_RULE,
        action,
        expected_value,
        standing,
        raises,
    }
}
