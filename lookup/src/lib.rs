//! gametab-lookup: load gametab's precomputed tables and answer queries.
//!
//! This crate owns the game model types and the table schemas shared with the
//! pipeline that writes the tables, and it reads those tables back without
//! any solver. It is deliberately light: Parquet, BLAKE2 and serde only.

mod error;
pub mod io;
pub mod manifest;
pub mod murder_plan;
pub mod schema;
mod tables;

pub use error::{Error, Result};
pub use tables::Tables;
