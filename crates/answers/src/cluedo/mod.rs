//! Cluedo queries: the exact notebook of a game log ([`notebook`],
//! `gametab cluedo` and `POST /v1/cluedo/notebook`), the advice of the next
//! suggestion or accusation ([`advice`], `gametab cluedo --advise` and
//! `POST /v1/cluedo/advice`) and the race odds it weighs ([`race`]). Each
//! answer has one document builder (`document`) and one text rendering
//! (`render`). The engine lives in `gametab_games::cluedo`.

pub mod advice;
pub mod notebook;
pub mod race;
