//! Murder Plan queries answered from built tables: the state a query names
//! ([`state`]), the queries and their typed answers ([`query`]: one
//! [`document`] builds every answer), their text for the terminal
//! ([`text`]: one [`render`] writes any answer) and the documents' parts
//! ([`documents`]). `gametab lookup` and the server's
//! `/v1/murder-plan/...` endpoints answer with them. The
//! rules live in `gametab_games::murder_plan`, the tables' reader in
//! `gametab_lookup::murder_plan`.

pub mod documents;
pub mod query;
pub mod state;
pub mod text;

pub use query::{document, Answer, LookupArgs, Query};
pub use text::render;
