//! Werewolf queries: the posterior of a game log by side and by role
//! ([`posterior`], `gametab werewolf` and `POST /v1/werewolf/...`: its
//! builders [`posterior::document`] and [`posterior::document_with_roles`],
//! its text [`posterior::render`]), the document's types ([`report`]) and
//! the role inference's part ([`role_report`]). The engine lives in
//! `gametab_games::werewolf`.

pub mod posterior;
pub mod report;
pub mod role_report;
