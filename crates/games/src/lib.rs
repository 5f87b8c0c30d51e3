//! gametab-games: the games themselves, as both a table build and a query
//! need them: each game's rules and model, and the exact engines that
//! compute with them. No files, no Parquet, no solver; serde and thiserror
//! only.
//!
//! ```
//! use gametab_games::cluedo::FewCandidates;
//! use gametab_games::dice::{bid_odds, BidQuestion, DiceInPlay, FaceClass, Reliability, Variant};
//! use gametab_games::werewolf::{EarlySituation, EarlyVote};
//!
//! // Liar's Dice: 20 dice in play, "5 fives" bid, I hold one five.
//! let dice = DiceInPlay::new(20, 5, 5)?;
//! let question = BidQuestion::new(
//!     dice, Variant::Plain, FaceClass::Other, 5, 1, Reliability::new(2.0)?,
//! )?;
//! assert_eq!(format!("{:.4}", bid_odds(&question).raw_probability), "0.2315");
//!
//! // Cluedo, late in the game: two suspects and two weapons are left for
//! // the envelope, the room is known. Opponent A has two unknown cards and
//! // B one; A may hold either suspect and the first weapon, B the second
//! // suspect and the second weapon. Five deals fit.
//! let late = FewCandidates::from_text("2,1", "A,AB|A,B|-")?;
//! let answer = late.solve()?;
//! assert_eq!(answer.deals, 5);
//! assert_eq!(answer.candidates[0][0].envelope_deals, 3); // P = 3/5
//! assert_eq!(answer.candidates[1][0].envelope_deals, 2); // P = 2/5
//!
//! // Werewolf, the seer's first day: the exact P(wolf) of every player.
//! let day_one = EarlySituation {
//!     players: 6,
//!     wolves: 1,
//!     checked_is_wolf: false,
//!     votes_for_seer: 2,
//!     votes_for_checked: 0,
//!     votes_for_suspect: 1,
//!     checked_votes: EarlyVote::Suspect,
//!     suspect_votes: EarlyVote::Seer,
//! };
//! let total: f64 = day_one.solve()?.roles.iter().map(|r| r.p_wolf * f64::from(r.members)).sum();
//! assert!((total - 1.0).abs() < 1e-12); // one wolf among them
//! # Ok::<(), gametab_games::Error>(())
//! ```
//!
//! One module per game: [`murder_plan`], [`dice`] (Liar's Dice),
//! [`cluedo`], [`werewolf`]; each re-exports its models, engines and
//! answers at its top. Bad input is an [`Error`], never a panic.
//! [`budget`] bounds the engines' work for a caller that needs a bound (the
//! server); [`suggest`] turns a misspelt name into a suggestion for error
//! messages.
//!
//! **The crate rule.** Every game is split between the workspace's crates
//! the same way: this crate holds what a build and a query both run;
//! `gametab-lookup` loads table sets and answers queries from them;
//! `gametab-answers` turns queries into documents for the command line
//! and the server (`gametab-serve`); `gametab-solve` holds the LPs and
//! `gametab-build` the rest of a table build (enumerations, row encoders,
//! the Parquet writer, publishing, `verify`, the plots); the root binary
//! `gametab` wires the command line to them.

pub mod budget;
pub mod cluedo;
pub mod dice;
mod error;
pub mod murder_plan;
pub mod suggest;
pub mod werewolf;

pub use error::{Argument, Error, Result};
