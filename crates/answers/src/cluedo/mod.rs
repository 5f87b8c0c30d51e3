//! Cluedo queries: the exact notebook of a game log ([`cli`], `gametab
//! cluedo` and `POST /v1/cluedo/notebook`), the advice of the next
//! suggestion or accusation ([`advice_cli`]) and the race odds it weighs
//! ([`race`]). The engine lives in `gametab_games::cluedo`.

pub mod advice_cli;
pub mod cli;
pub mod race;
