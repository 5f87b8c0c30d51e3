//! Cluedo: the few-candidate table ([`schema`]), its family
//! ([`in_table_family`]) and [`FewCandidatesTable`], which
//! answers configurations from the file and counts those outside it with
//! the engine of `gametab_games::cluedo`.

pub mod schema;
mod table;

pub use table::{in_table_family, FewCandidatesTable, Source};
