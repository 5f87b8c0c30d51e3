//! gametab-build: everything a table build runs, and (until they have a
//! crate of their own) the game subcommands and the query documents.
//!
//! **The crate rule** (the same for all four games): each game's rules,
//! models and exact engines live in `gametab-games`; loading table sets and
//! answering queries from them lives in `gametab-lookup` (schemas, Parquet
//! reading, the manifest, `Tables`); the LPs (the matrix games and the
//! Liar's Dice endgame, HiGHS) live in `gametab-solve`; this crate holds
//! the rest of a build: enumerations and row encoders (one module per
//! game: [`murder_plan`], [`dice`], [`cluedo`], [`werewolf`]), the Parquet
//! writer ([`parquet_write`], [`output`]), the build ([`pipeline`],
//! [`publish`]), [`verify`], the [`plots`], the game subcommands and their
//! documents (which the HTTP server, the root package's `serve`, answers
//! with too; [`logs`] bounds the game logs both read). [`registry`] is
//! the one list of games that all of them iterate, each entry of the shape
//! of [`game`]; [`published`] reads the published numbers of the specs
//! (one known-answer file the plots and tests read). The `gametab` binary
//! (the root package) wires the command line to them.
//!
//! Dependencies point one way: a game's module knows [`options`],
//! [`output`], [`game`] and the solve crate, never the pipeline or the
//! registry that lists it; the orchestrators (the pipeline, `verify`, the
//! plots, the binary) iterate the registry.
//!
//! Commands write their answers to the `std::io::Write` handle they are
//! given, never with `print!`: a closed standard output must end a command
//! quietly, not panic it (see the binary's `main.rs`).

#![warn(clippy::print_stdout)]

pub mod cluedo;
pub mod dice;
pub mod game;
pub mod logs;
pub mod murder_plan;
pub mod options;
pub mod output;
pub mod parquet_write;
pub mod pipeline;
pub mod plots;
pub mod progress;
pub mod publish;
pub mod published;
pub mod registry;
pub mod table_set;
pub mod verify;
pub mod werewolf;
