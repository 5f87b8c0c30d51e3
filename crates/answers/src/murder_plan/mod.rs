//! Murder Plan queries answered from built tables: the state a query names
//! ([`state`]), the documents of its answers ([`documents`]) and `gametab
//! lookup` ([`lookup_cli`]), which the server's `/v1/murder-plan/...`
//! endpoints answer with too. The rules live in
//! `gametab_games::murder_plan`, the tables' reader in
//! `gametab_lookup::murder_plan`.

pub mod documents;
pub mod lookup_cli;
pub mod state;
