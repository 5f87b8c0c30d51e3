//! Every integration test of the games crate, in one test binary (one
//! compile and link instead of seven): the budget, Cluedo's engine, advice
//! and optimum, the dice, Werewolf's side and role engines.
//!
//! `cargo test --release -p gametab-games --test integration MODULE::` runs
//! one area.

mod budget;
mod cluedo;
mod cluedo_advice;
mod cluedo_optimum;
mod dice;
mod werewolf;
mod werewolf_roles;
