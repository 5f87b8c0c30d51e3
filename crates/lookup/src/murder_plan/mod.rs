//! Murder Plan: the table schemas ([`schema`]) and [`MurderPlanTables`],
//! which loads the values, strategies, brain choices and win rates and
//! answers queries about the states of `gametab_games::murder_plan`,
//! including the value of every legal move ([`MoveValue`]); and the
//! browser [`bundle`], the reachable part of the same tables in one
//! compact file, decoded into the same [`MurderPlanTables`].
//!
//! The Parquet loader is the one part that needs the `parquet` feature;
//! the queries and the bundle build for `wasm32-unknown-unknown`.

pub mod bundle;
#[cfg(feature = "parquet")]
mod load;
mod moves;
pub mod schema;
mod tables;

pub use moves::{MoveJson, MoveValue, TIE};
pub use tables::{Coverage, MurderPlanTables};
