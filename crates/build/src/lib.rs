//! gametab-build: everything a table build runs but the LPs. A whole
//! build is [`build`] (what `gametab build` runs); the pieces it is made of
//! are public for the tests, the benches and the command line: each game's
//! enumeration and row encoder, the Parquet writer, [`verify`](mod@verify)
//! and the plots.
//!
//! ```
//! use gametab_build::TableWriter;
//! use gametab_games::werewolf::EARLY_FAMILY;
//!
//! // The Werewolf table of the 6-player situations, solved by the exact
//! // engine, encoded by the table build's own row encoder and Parquet
//! // writer, then loaded back the way every reader loads a table set.
//! let dir = tempfile::tempdir()?;
//! let mut writer = TableWriter::new(dir.path())?;
//! let answers = EARLY_FAMILY
//!     .situations()
//!     .into_iter()
//!     .filter(|s| s.players == 6)
//!     .map(|s| s.solve())
//!     .collect::<Result<Vec<_>, _>>()?;
//! writer.write(&gametab_build::werewolf::rows::early_table_data(&answers)?)?;
//! writer.write_manifest(0.0)?;
//!
//! let tables = gametab_lookup::Tables::open(dir.path())?;
//! assert_eq!(tables.werewolf()?.len(), answers.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layout: enumerations and row encoders (one module per game:
//! [`murder_plan`], [`dice`], [`cluedo`], [`werewolf`]), the Parquet writer
//! ([`parquet_write`], [`output`]), the build ([`pipeline`], [`publish`]),
//! [`verify`](mod@verify) and the [`plots`]. [`registry`] is the build side of the one
//! list of games that all of them iterate, each entry of the shape of
//! [`game`] (with the game's subcommands, which `gametab-answers`
//! answers); [`known_answers`] reads the published numbers of the specs
//! (one known-answer file the plots and tests read).
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
pub mod error;
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

pub use error::{Error, Result};
pub use options::BuildOptions;
pub use output::TableWriter;
pub use pipeline::{build, GameReport};
pub use progress::Progress;
pub use verify::{verify, Report, Sampling};
