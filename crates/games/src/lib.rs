//! gametab-games: the games themselves, as both a table build and a query
//! need them.
//!
//! **The crate rule.** gametab is three crates, and every game is split
//! between them the same way:
//! - `gametab-games` (this crate): each game's rules and model, and the
//!   exact engines that compute with them: everything that a build and a
//!   query both run. No files, no Parquet, no solver; serde and thiserror
//!   only.
//! - `gametab-lookup`: the table sets: schemas, Parquet reading, the
//!   manifest, `Tables`, and the queries answered from the files. What a
//!   simulator or a bot links.
//! - `gametab` (the root): what only a build needs: solvers (the matrix-game
//!   and LP layer), enumerations, row encoders, the Parquet writer,
//!   publishing, `verify`, the plots, and the command line.
//!
//! One module per game: [`murder_plan`], [`dice`] (Liar's Dice),
//! [`cluedo`], [`werewolf`]. Bad input is an [`Error`], never a panic.
//! [`budget`] bounds the engines' work for a caller that needs a bound (the
//! server).
//!
//! ```
//! use gametab_games::murder_plan::{Offset, State};
//!
//! let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
//! assert_eq!(start, State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap()));
//! ```

pub mod budget;
pub mod cluedo;
pub mod dice;
mod error;
pub mod murder_plan;
pub mod suggest;
pub mod werewolf;

pub use error::{Argument, Error, Result};
