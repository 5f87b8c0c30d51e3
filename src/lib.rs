//! gametab: the offline pipeline that precomputes exact strategy and
//! probability tables for hidden-information tabletop games.
//!
//! Layout: one module per game (the solver or table builder and its CLI),
//! [`matrix_game`] for the zero-sum matrix-game / LP layer, [`output`] for
//! writing table files, [`pipeline`] for the whole `gametab build`, [`plots`]
//! for its SVG charts. The game model types and table schemas live in the
//! `gametab-lookup` crate, which reads the tables back without any of this.
//!
//! Commands write their answers to the `std::io::Write` handle they are
//! given, never with `print!`: a closed standard output must end a command
//! quietly, not panic it (see `main.rs`).

#![warn(clippy::print_stdout)]

pub mod cluedo;
pub mod dice;
pub mod lookup_cli;
pub mod matrix_game;
pub mod murder_plan;
pub mod output;
pub mod pipeline;
pub mod plots;
pub mod verify;
pub mod werewolf;
