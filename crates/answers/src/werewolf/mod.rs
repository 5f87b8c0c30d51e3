//! Werewolf queries: the posterior of a game log by side and by role
//! ([`cli`], `gametab werewolf` and `POST /v1/werewolf/...`), its document
//! ([`report`]) and the role inference's ([`role_report`]). The engine
//! lives in `gametab_games::werewolf`.

pub mod cli;
pub mod report;
pub mod role_report;
