//! The queries as plain Rust: arguments in, the answers crate's documents
//! (as JSON values) out. One module per game; [`error`] says which
//! Python exception each failure becomes.

pub mod dice;
pub mod error;
pub mod logs;
pub mod murder_plan;
