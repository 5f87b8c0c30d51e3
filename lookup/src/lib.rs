//! gametab-lookup: load gametab's precomputed tables and answer queries.
//!
//! This crate owns the game model types and the table schemas shared with the
//! pipeline that writes the tables, and it reads those tables back without
//! any solver. It is deliberately light: Parquet, BLAKE2 and serde only.

mod error;
pub mod io;
pub mod murder_plan;
pub mod schema;

pub use error::{Error, Result};
