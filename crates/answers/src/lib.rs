//! gametab-answers: every query gametab answers, from a built table set
//! (`gametab-lookup`) or from the games' exact engines (`gametab-games`),
//! and the document of each answer. The command line (`gametab lookup`,
//! `gametab dice`, `gametab cluedo`, `gametab werewolf`) and the HTTP
//! server (`gametab-serve`) both answer through this crate, with the same
//! documents; it never solves an LP, so nothing that only answers links
//! HiGHS (the solver is `gametab-solve`'s, the build `gametab-build`'s).
//!
//! One module per game: [`murder_plan`], [`dice`], [`cluedo`],
//! [`werewolf`]; [`logs`] reads and bounds the game logs the engines take.
//!
//! # Example
//!
//! The odds and advice of "five fives" standing at a table of four, my
//! hand 1,5,5,2,3 (what `gametab dice --json` prints and `GET
//! /v1/dice/bid` answers):
//!
//! ```
//! use gametab_answers::dice::cli::{document, parse_reliability, DiceArgs};
//!
//! # fn main() -> anyhow::Result<()> {
//! let args = DiceArgs {
//!     players: 4,
//!     bid: "5x5".parse()?,
//!     mine: "1,5,5,2,3".parse()?,
//!     rel: parse_reliability("2").map_err(anyhow::Error::msg)?,
//!     wild: false,
//!     total_dice: None,
//!     bidder_dice: 5,
//!     json: true,
//! };
//! let situation = args.situation()?;
//! let answer = document(args.players, &situation);
//! assert_eq!(answer["players"], 4);
//! assert_eq!(answer["situation"]["dice"]["total"], 20);
//! let probability = answer["odds"]["raw_probability"].as_f64().unwrap();
//! assert!(probability > 0.0 && probability < 1.0);
//! # Ok(())
//! # }
//! ```

#![warn(clippy::print_stdout)]

pub mod cluedo;
pub mod dice;
pub mod logs;
pub mod murder_plan;
pub mod table_set;
pub mod werewolf;
