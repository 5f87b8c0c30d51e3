//! gametab-lookup: load gametab's precomputed tables and answer queries.
//!
//! This crate owns the table schemas shared with the pipeline that writes the
//! tables, and it reads those tables back without any solver. It is
//! deliberately light: Parquet, BLAKE2, serde, thiserror and the games'
//! models and engines (`gametab-games`, re-exported as [`games`]) only.
//!
//! **The crate rule** (the same for all four games): the rules, models and
//! exact engines live in `gametab-games`; this crate loads table sets and
//! answers queries from them (schemas, Parquet reading, the manifest,
//! [`Tables`]); the root crate `gametab` holds what only a build needs
//! (solvers, enumerations, row encoders, the Parquet writer, publishing,
//! the CLI).
//!
//! ```no_run
//! use gametab_lookup::games::murder_plan::{Offset, State};
//! use gametab_lookup::Tables;
//!
//! // Reads tables/manifest.json; every file is checked against its BLAKE2
//! // digest there when a game first loads it.
//! let tables = Tables::open("tables")?;
//! let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
//! let murder_plan = tables.murder_plan()?;
//! let value = murder_plan.value(8, start)?; // P(mastermind wins), 0.7737...
//! let sigma = murder_plan.mastermind_strategy(8, start)?;
//! let played = murder_plan.sample_mastermind(8, start, 0.25)?;
//! println!("{value:.4}, {} actions in support, plays {:?}", sigma.len(), played.cards());
//!
//! // The other games load the same way.
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
//! Layout: [`schema`] and [`io`] define and read the Parquet tables,
//! [`manifest`] the build manifest, and one module per game holds its
//! schemas and its queries ([`murder_plan`], [`dice`], [`cluedo`],
//! [`werewolf`]; [`Tables`] gathers them).

pub mod cluedo;
mod column;
pub mod dice;
mod error;
pub mod io;
pub mod manifest;
pub mod murder_plan;
mod registry;
pub mod schema;
mod table_data;
mod tables;
pub mod werewolf;

pub use error::{Error, Result};
pub use gametab_games as games;
pub use registry::{all_schemas, GameId, GameTables, GAMES};
pub use tables::Tables;
