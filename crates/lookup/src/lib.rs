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
//!
//! **Features.** `parquet` (default) is everything that reads Parquet:
//! [`io`], [`Tables`], the registry and the Liar's Dice, Cluedo and
//! Werewolf tables. Without it the crate is the Murder Plan queries
//! ([`murder_plan::MurderPlanTables`]) and the browser bundle they load
//! from ([`murder_plan::bundle`]): what the WebAssembly module (`web/`)
//! compiles, since zstd's C code does not build for
//! `wasm32-unknown-unknown`.

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
mod registry;
pub mod schema;
#[cfg(feature = "parquet")]
mod table_data;
#[cfg(feature = "parquet")]
mod tables;
#[cfg(feature = "parquet")]
pub mod werewolf;

pub use error::{Error, Result};
pub use gametab_games as games;
#[cfg(feature = "parquet")]
pub use registry::{
    all_derived, all_files, all_schemas, DerivedFile, GameId, GameTables, GAMES, MURDER_PLAN_BUNDLE,
};
#[cfg(feature = "parquet")]
pub use tables::Tables;
