//! gametab-lookup: load gametab's precomputed tables and answer queries.
//!
//! This crate owns the game model types and the table schemas shared with the
//! pipeline that writes the tables, and it reads those tables back without
//! any solver. It is deliberately light: Parquet, BLAKE2, serde and
//! thiserror only.
//!
//! ```no_run
//! use gametab_lookup::murder_plan::{Offset, State};
//! use gametab_lookup::Tables;
//!
//! // Loads and validates every Murder Plan table; checks the BLAKE2 digests
//! // listed in tables/manifest.json when it is present.
//! let tables = Tables::open("tables")?;
//! let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
//! let value = tables.murder_plan.value(8, start)?; // P(mastermind wins), 0.7737...
//! let sigma = tables.murder_plan.mastermind_strategy(8, start)?;
//! let played = tables.murder_plan.sample_mastermind(8, start, 0.25)?;
//! println!("{value:.4}, {} actions in support, plays {:?}", sigma.len(), played.cards());
//!
//! // The other games load (and are digest-checked) on first use.
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
//! [`manifest`] the build manifest, and one module per game holds its model,
//! its schemas and its queries ([`murder_plan`], [`dice`], [`cluedo`],
//! [`werewolf`]; [`Tables`] gathers them).

pub mod cluedo;
mod column;
pub mod dice;
mod error;
pub mod io;
pub mod manifest;
pub mod murder_plan;
pub mod schema;
mod tables;
pub mod werewolf;

pub use error::{Error, Result};
pub use tables::Tables;
