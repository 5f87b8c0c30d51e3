//! gametab: the offline pipeline that precomputes exact strategy and
//! probability tables for hidden-information tabletop games.
//!
//! Layout: one module per game (the solver or table builder and its CLI),
//! [`matrix_game`] for the zero-sum matrix-game / LP layer, [`output`] for
//! writing table files, [`pipeline`] for the whole `gametab build`, [`plots`]
//! for its SVG charts, [`published`] for the published numbers of the specs
//! (one known-answer file the plots and the tests read). The game model
//! types and table schemas live in the `gametab-lookup` crate, which reads
//! the tables back without any of this.

pub mod cluedo;
pub mod dice;
pub mod lookup_cli;
pub mod matrix_game;
pub mod murder_plan;
pub mod output;
pub mod pipeline;
pub mod plots;
pub mod published;
pub mod verify;
pub mod werewolf;
