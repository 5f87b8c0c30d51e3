//! The two-player Liar's Dice endgame in a build: the games solved and the
//! cache round trip ([`build`]), one game solved as a job of its own
//! ([`job`], `gametab dice endgame solve`, its progress [`round_log`];
//! where every job stands: [`status`], `gametab dice endgame status`; job
//! files from elsewhere into a cache: [`gather`], `gametab dice endgame
//! gather`) and
//! the three tables ([`rows`]; one game's rows alone, for `gametab
//! verify`: [`game_rows`]; the values table: [`values`]).
//! `gametab dice endgame` is `gametab_answers::dice::endgame`, the lists of
//! games `gametab_answers::dice::solved`.
//!
//! The solving itself (the sequence-form LP, the double oracle, the
//! certificate and the cache file) is [`gametab_solve::endgame`]'s; the
//! rules and strategies are [`gametab_games::dice::endgame`]'s.

pub mod build;
pub mod game_rows;
pub mod gather;
pub mod job;
mod posteriors;
pub mod round_log;
pub mod rows;
mod sparse_game;
pub mod status;
mod strategy_columns;
pub mod values;
