//! Liar's Dice: the three tables' schemas ([`schema`]), the build grid as
//! table metadata ([`grid_params()`], [`grid_from_params`]), and
//! [`DiceTables`], which loads them and answers questions, computing with
//! the engine of `gametab_games::dice` what lies off the grid.

pub mod endgame;
mod endgame_groups;
mod endgame_tables;
mod grid_params;
mod index;
pub mod schema;
mod tables;

pub use endgame::{
    default_action, fits, EndgamePoint, EndgameTables, StoredEndgame, StrategyRow,
    MAX_STRATEGY_ROWS,
};
pub use grid_params::{grid_from_params, grid_params};
pub use tables::{Answer, BidTable, DecisionTable, DiceTables, PosteriorTable, Source};
