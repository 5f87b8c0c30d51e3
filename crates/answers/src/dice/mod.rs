//! Liar's Dice queries: the odds and advice of a standing bid ([`bid`],
//! `gametab dice` and `GET /v1/dice/bid`), the two-player endgame's
//! strategy from the built tables ([`endgame`], `gametab dice endgame` and
//! `GET /v1/dice/endgame`), and which endgames a build solves
//! ([`solved`]). Each answer has one document builder (`document`) and one
//! text rendering (`render`).

pub mod bid;
pub mod endgame;
pub mod solved;
