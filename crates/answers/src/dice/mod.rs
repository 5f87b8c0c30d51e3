//! Liar's Dice queries: the odds and advice of a standing bid ([`cli`],
//! `gametab dice` and `GET /v1/dice/bid`), the two-player endgame's
//! strategy from the built tables ([`endgame`], `gametab dice endgame` and
//! `GET /v1/dice/endgame`), and which endgames a build solves
//! ([`solved`]).

pub mod cli;
pub mod endgame;
pub mod solved;
