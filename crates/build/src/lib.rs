//! gametab-build: everything a table build runs but the LPs. Enumerations
//! and row encoders (one module per game: [`murder_plan`], [`dice`],
//! [`cluedo`], [`werewolf`]), the Parquet writer ([`parquet_write`],
//! [`output`]), the build ([`pipeline`], [`publish`]), [`verify`] and the
//! [`plots`]. [`registry`] is the build side of the one list of games that
//! all of them iterate, each entry of the shape of [`game`] (with the
//! game's subcommands, which `gametab-answers` answers); [`known_answers`]
//! reads the published numbers of the specs (one known-answer file the
//! plots and tests read).
//!
//! **The crate rule** (the same for all four games): each game's rules,
//! models and exact engines live in `gametab-games`; loading table sets
//! lives in `gametab-lookup`; answering queries and their documents in
//! `gametab-answers`; the LPs (the matrix games and the Liar's Dice
//! endgame, HiGHS) in `gametab-solve`; this crate holds the rest of a
//! build. The `gametab` binary (the root package) wires the command line
//! to them.
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
pub mod known_answers;
pub mod murder_plan;
pub mod options;
pub mod output;
pub mod parquet_write;
pub mod pipeline;
pub mod plots;
pub mod progress;
pub mod publish;
pub mod registry;
pub mod verify;
pub mod werewolf;
