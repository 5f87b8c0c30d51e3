//! Liar's Dice: exact bid probabilities, the bidder's posterior under the
//! reliability model, the corrected probability, the value of opening, and
//! the decision rule published with the method, in the plain and the
//! ones-wild variant (model: `docs/liars-dice.md`).
//!
//! The engine is exact where it counts: binomial probabilities are exact
//! fractions of the `6^n` outcomes of the hidden dice ([`exact`]), rounded
//! once to `f64`; the reliability model then combines them in floating
//! point. The same functions fill the tables and answer queries off the
//! grid, so on the grid a stored row and a fresh computation agree bit for
//! bit.
//!
//! ```
//! use gametab_games::dice::{bid_odds, BidQuestion, DiceInPlay, FaceClass, Reliability, Variant};
//!
//! // 4 players with 5 dice each, "5 fives" bid, I hold one five.
//! let dice = DiceInPlay::new(20, 5, 5)?;
//! let rel = Reliability::new(2.0)?;
//! let question = BidQuestion::new(dice, Variant::Plain, FaceClass::Other, 5, 1, rel)?;
//! let odds = bid_odds(&question);
//! assert_eq!(format!("{:.4}", odds.raw_probability), "0.2315");
//! assert_eq!(format!("{:.4}", odds.corrected_probability), "0.4785");
//! # Ok::<(), gametab_games::Error>(())
//! ```
//!
//! Tables: `gametab build` writes them over a [`DiceGrid`] from the rows of
//! [`rows`]; the lookup crate defines their schemas and loads them.

mod batch;
pub mod decision;
pub mod endgame;
pub mod exact;
mod grid;
mod model;
pub mod rows;
mod types;

pub use batch::{BidTails, BidderPosteriors, HandRule, PublishedRuleBlock};
pub use decision::{published_rule, Action, Advice, RaiseOption, Situation, PUBLISHED_RULE};
pub use exact::{MatchCounts, OutcomeFraction, TailProbabilities};
pub use grid::DiceGrid;
pub use model::{
    bid_odds, bidder_posterior, corrected_probability, ev_open, raw_probability, BidOdds,
    BidQuestion, BidderPosterior, PosteriorQuestion,
};
pub use rows::{BidRow, DecisionKey, DecisionRow};
pub use types::{
    Bid, DiceInPlay, Face, FaceClass, Hand, MatchingFaces, Reliability, Variant, FACES,
    MAX_TOTAL_DICE,
};
