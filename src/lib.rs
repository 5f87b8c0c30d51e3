//! gametab: the offline pipeline that precomputes exact strategy and
//! probability tables for hidden-information tabletop games.
//!
//! **The crate rule** (the same for all four games): each game's rules,
//! models and exact engines live in `gametab-games`; loading table sets and
//! answering queries from them lives in `gametab-lookup` (schemas, Parquet
//! reading, the manifest, `Tables`); this crate holds what only a build
//! needs: solvers ([`matrix_game`]), enumerations and row encoders (one
//! module per game: [`murder_plan`], [`dice`], [`cluedo`], [`werewolf`]),
//! the Parquet writer ([`parquet_write`], [`output`]), the build
//! ([`pipeline`], [`publish`]), [`verify`], the [`plots`], the command
//! line and the HTTP server ([`serve`], which answers with the same
//! documents as the command line; [`logs`] bounds the game logs both
//! read). [`registry`] is the one list of games that all of them iterate,
//! each entry of the shape of [`game`]; [`published`] reads the published
//! numbers of the specs (one known-answer file the plots and tests read).
//!
//! Dependencies point one way: a game's module knows [`options`],
//! [`output`], [`game`] and the matrix-game layer, never the pipeline or
//! the registry that lists it; the orchestrators (the pipeline, `verify`,
//! the plots, `main`) iterate the registry.
//!
//! Commands write their answers to the `std::io::Write` handle they are
//! given, never with `print!`: a closed standard output must end a command
//! quietly, not panic it (see `main.rs`).

#![warn(clippy::print_stdout)]

pub mod cluedo;
pub mod dice;
pub mod game;
pub mod logs;
pub mod matrix_game;
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
pub mod serve;
pub mod table_set;
pub mod verify;
pub mod werewolf;
