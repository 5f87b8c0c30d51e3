//! Murder Plan: the table schemas ([`schema`]) and [`MurderPlanTables`],
//! which loads the values, strategies, brain choices and win rates and
//! answers queries about the states of `gametab_games::murder_plan`,
//! including the value of every legal move ([`MoveValue`]).

mod moves;
pub mod schema;
mod tables;

pub use moves::{MoveJson, MoveValue, TIE};
pub use tables::MurderPlanTables;
