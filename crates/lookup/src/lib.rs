//! gametab-lookup: load gametab's precomputed tables and answer queries,
//! without any solver.
//!
//! ```
//! use gametab_lookup::games::werewolf::{EarlySituation, EarlyVote};
//! use gametab_lookup::Tables;
//!
//! // A table set is a directory with its manifest.json; every file is
//! // checked against its BLAKE2 digest there when a game first loads it.
//! // (Here the crate's test fixtures: a real build's rows for 6 players.)
//! let tables = Tables::open("tests/fixtures")?;
//!
//! // Werewolf, the seer's first day: six players, one wolf; the seer saw
//! // seat 2 is not a wolf, and the first-day votes went as below.
//! let situation = EarlySituation {
//!     players: 6,
//!     wolves: 1,
//!     checked_is_wolf: false,
//!     votes_for_seer: 2,
//!     votes_for_checked: 0,
//!     votes_for_suspect: 1,
//!     checked_votes: EarlyVote::Suspect,
//!     suspect_votes: EarlyVote::Seer,
//! };
//! let werewolf = tables.werewolf()?;
//! let answer = werewolf.lookup(&situation)?;
//! for role in &answer.roles {
//!     println!("{:?}: P(wolf) = {:.4}", role.role, role.p_wolf);
//! }
//! // The table holds what the exact engine computes.
//! assert_eq!(*answer, situation.solve()?);
//! # Ok::<(), gametab_lookup::Error>(())
//! ```
//!
//! With a whole table set (`scripts/build-tables` writes one into
//! `tables/`) every game loads the same way:
//!
//! ```no_run
//! use gametab_lookup::games::murder_plan::{Offset, State};
//! use gametab_lookup::Tables;
//!
//! let tables = Tables::open("tables")?;
//! let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
//! let murder_plan = tables.murder_plan()?;
//! let value = murder_plan.value(8, start)?; // P(mastermind wins), 0.7737...
//! let sigma = murder_plan.mastermind_strategy(8, start)?;
//! let played = murder_plan.sample_mastermind(8, start, 0.25)?;
//! println!("{value:.4}, {} actions in support, plays {:?}", sigma.len(), played.cards());
//!
//! let decisions = tables.dice()?;
//! println!("Liar's Dice grid: up to {} dice", decisions.grid().max_total_dice);
//! # Ok::<(), gametab_lookup::Error>(())
//! ```
//!
//! `examples/query.rs` is the same as a program: `cargo run -p
//! gametab-lookup --example query -- tables`.
//!
//! Every table is indexed by a dense key when loaded, so a query is an array
//! access. Malformed input of any kind (missing, truncated, corrupt, foreign or
//! old-schema files, digests that do not match, rows that break the rules,
//! queries out of range) is an [`Error`], never a panic.
//!
//! # What is here
//!
//! - [`Tables`], the one way to load a table set, and each game's tables:
//!   [`MurderPlanTables`], [`DiceTables`] and [`EndgameTables`] (Liar's
//!   Dice), [`FewCandidatesTable`] (Cluedo), [`EarlyGameTable`]
//!   (Werewolf); their query types are in the game's module
//!   ([`murder_plan`], [`dice`], [`cluedo`], [`werewolf`]), which also
//!   holds its table schemas.
//! - [`Error`], every way loading or a query can fail.
//! - [`games`]: the games' models and exact engines (`gametab-games`),
//!   whose states and situations the queries take.
//! - The table format, for readers of the files themselves: [`schema`]
//!   (column definitions), [`io`] (checked Parquet reading, digests),
//!   [`manifest`], and [`registry`], the one list of games and the files
//!   each writes ([`GameId`]).
//!
//! **The crate rule** (the same for all four games): the rules, models and
//! exact engines live in `gametab-games`; this crate loads table sets and
//! answers queries from them; `gametab-build` holds what only a build needs
//! (solvers, enumerations, row encoders, the Parquet writer, publishing).
//!
//! **Features.** `parquet` (default) is everything that reads Parquet:
//! [`io`], [`Tables`], the registry and the Liar's Dice, Cluedo and
//! Werewolf tables. Without it the crate is the Murder Plan queries
//! ([`MurderPlanTables`]) and the browser bundle they load from
//! ([`murder_plan::bundle`]): what the WebAssembly module (`web/`)
//! compiles, since zstd's C code does not build for
//! `wasm32-unknown-unknown`. `write` (off by default; the table builder
//! `gametab-build` turns it on) is the writer's side: tables made from
//! named columns (`io::TableData::from_named`), `Error::Write`, and the
//! browser bundle's encoder (`murder_plan::bundle::encode`).

#[cfg(feature = "parquet")]
pub mod cluedo;
#[cfg(feature = "parquet")]
mod column;
#[cfg(feature = "parquet")]
pub mod dice;
mod error;
#[cfg(feature = "parquet")]
pub mod io;
pub mod manifest;
pub mod murder_plan;
#[cfg(feature = "parquet")]
pub mod registry;
pub mod schema;
#[cfg(feature = "parquet")]
mod table_data;
#[cfg(feature = "parquet")]
mod tables;
#[cfg(feature = "parquet")]
pub mod werewolf;

#[cfg(feature = "parquet")]
pub use cluedo::FewCandidatesTable;
#[cfg(feature = "parquet")]
pub use dice::{DiceTables, EndgameTables};
pub use error::{Error, Result};
pub use gametab_games as games;
pub use murder_plan::MurderPlanTables;
#[cfg(feature = "parquet")]
pub use registry::GameId;
#[cfg(feature = "parquet")]
pub use tables::Tables;
#[cfg(feature = "parquet")]
pub use werewolf::EarlyGameTable;
