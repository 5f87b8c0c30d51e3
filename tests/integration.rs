//! The integration tests of the `gametab` package, but the server's, in one
//! test binary.
//!
//! One module per area (the command line, the documentation's commands,
//! each game's tables, the lookup crate against the built set, `verify`,
//! the plots, the notebook's real clients, the WebAssembly module); [`common`] holds the one table set they
//! share with the server's tests (`tests/serve/`, a binary of its own: they
//! measure latencies, which other tests beside them would disturb). They
//! used to be fifteen binaries, each compiled and linked in the release
//! profile on its own and run one after another: one binary links once, and
//! its tests share the two cores from the first test to the last (those that mostly wait on another process, the
//! notebook's Python or Node, overlap with the CPU-bound ones).
//!
//! `cargo test --release --test integration MODULE::` runs one area.

mod common;

mod cli;
mod cluedo;
mod completions;
mod dice;
mod dice_endgame;
mod docs;
mod highs_cmake;
mod layout;
mod lookup;
mod moves;
mod murder_plan;
mod newcomer;
mod nightly;
mod notebook;
mod plots;
mod published;
mod python;
mod table_docs;
mod verify;
mod web;
mod werewolf;
