//! Werewolf: the early-game table's schema ([`schema`]), its metadata
//! ([`early_params`]) and [`EarlyGameTable`], which answers the
//! situations of `gametab_games::werewolf::EARLY_FAMILY` from the file and
//! solves those outside it with the engine.

pub mod schema;
mod table;

pub use table::{early_params, EarlyGameTable};
