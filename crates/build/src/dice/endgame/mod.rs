//! The two-player Liar's Dice endgame in a build and on the command line:
//! which games a build solves and the cache round trip ([`build`]), the
//! three tables ([`rows`]), and `gametab dice endgame` ([`cli`]).
//!
//! The solving itself (the sequence-form LP, the double oracle, the
//! certificate and the cache file) is [`gametab_solve::endgame`]'s; the
//! rules and strategies are [`gametab_games::dice::endgame`]'s.

pub mod build;
pub mod cli;
pub mod rows;
