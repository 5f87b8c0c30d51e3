//! gametab-answers: every query gametab answers, from a built table set
//! (`gametab-lookup`) or from the games' exact engines (`gametab-games`),
//! as typed requests in and typed documents out. The command line
//! (`gametab lookup`, `gametab dice`, `gametab cluedo`, `gametab
//! werewolf`), the HTTP server (`gametab-serve`) and the Python package
//! all answer through this crate, with the same documents; it never
//! solves an LP, so nothing that only answers links HiGHS.
//!
//! One module per game: [`murder_plan`], [`dice`], [`cluedo`],
//! [`werewolf`]. Each answer has one builder, `document`, whose typed
//! result serialises to the JSON the command line prints with `--json`
//! and the server sends, and one `render` for the terminal's text. Every
//! refusal is one [`Error`], naming the [`Parameter`] at fault as an enum;
//! [`logs`] reads and bounds the game logs the engines take, [`table_set`]
//! finds a table set, [`cli`] is what the commands share.
//!
//! Players are numbered from 1 in every game.
//!
//! # Example
//!
//! The odds and advice of "five fives" standing at a table of four, my
//! hand 1,5,5,2,3 (what `gametab dice --json` prints and `GET
//! /v1/dice/bid` answers):
//!
//! ```
//! use gametab_answers::dice::bid::{document, parse_reliability, DiceArgs};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let args = DiceArgs {
//!     players: 4,
//!     bid: "5x5".parse()?,
//!     hand: Some("1,5,5,2,3".parse()?),
//!     mine: None,
//!     rel: parse_reliability("2")?,
//!     wild: false,
//!     total_dice: None,
//!     bidder_dice: 5,
//!     json: true,
//! };
//! let answer = document(args.players, &args.situation()?);
//! assert_eq!(answer.situation.dice.total(), 20);
//! assert_eq!(answer.my_matching, 2); // my two fives (ones are not wild)
//! assert!(answer.odds.raw_probability > 0.0 && answer.odds.raw_probability < 1.0);
//! # Ok(())
//! # }
//! ```
//!
//! A refusal names its parameter:
//!
//! ```
//! use gametab_answers::dice::bid::{DiceArgs, DICE_PER_PLAYER};
//! use gametab_answers::{Error, Parameter};
//!
//! let args = DiceArgs {
//!     players: 2,
//!     bid: "9x5".parse().unwrap(),
//!     hand: Some("1,5".parse().unwrap()),
//!     mine: None,
//!     rel: gametab_games::dice::Reliability::new(2.0).unwrap(),
//!     wild: false,
//!     total_dice: None,
//!     bidder_dice: DICE_PER_PLAYER,
//!     json: false,
//! };
//! let error = args.situation().unwrap_err();
//! assert_eq!(error.parameter(), Some(Parameter::Bid));
//! assert!(matches!(error, Error::Invalid { .. }));
//! ```

#![warn(clippy::print_stdout)]

pub mod cli;
pub mod cluedo;
pub mod dice;
mod error;
pub mod logs;
pub mod murder_plan;
mod sorted;
pub mod table_set;
pub mod werewolf;

pub use error::{chain, Error, Parameter, Result};
