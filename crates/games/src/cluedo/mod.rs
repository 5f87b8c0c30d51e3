//! Cluedo (Clue): exact probabilities from what one player knows.
//!
//! The engine ([`analyse`]) counts every deal consistent with the facts
//! exactly (`u128`) and reports P(card in envelope) and P(player holds card);
//! [`FewCandidates`] is the canonical form of the few-candidate
//! configurations tabulated by `gametab build` ([`FewCandidatesSolver`]
//! counts many of them quickly); the lookup crate's table answers them
//! from the file, falling back to the exact count outside it.
//!
//! ```
//! use gametab_games::cluedo::{analyse, CardSet, Fact, Knowledge, Model, Observer, Rules, Seat};
//! # fn main() -> gametab_games::Result<()> {
//! let rules = Rules::standard(3)?;
//! let deck = *rules.deck();
//! let hand = ["Miss Scarlett", "Mrs White", "Rope", "Kitchen", "Hall", "Study"]
//!     .iter()
//!     .map(|n| deck.parse_card(n))
//!     .collect::<gametab_games::Result<Vec<_>>>()?;
//! let mut knowledge = Knowledge::new(rules, Observer::Player { seat: Seat(0), hand: CardSet::of(&hand) })?;
//! knowledge.add(Fact::Holds { player: Seat(1), card: deck.parse_card("Dagger")? })?;
//! let notebook = analyse(&knowledge, Model::EqualDeals)?;
//! assert_eq!(notebook.p_envelope(deck.parse_card("Dagger")?), 0.0);
//! # Ok(())
//! # }
//! ```

mod advice;
mod cards;
mod config;
mod count;
mod engine;
mod facts;
mod key_hasher;
mod log;
mod log_entries;
mod log_error;
mod notebook;
mod optimum;
mod ranking;
mod situation;
mod solver;

pub use advice::{accusation, advise, advise_by, score, Advice};
pub use cards::{
    Card, CardSet, Category, Deck, Rules, Seat, MAX_CARDS, MAX_PLAYERS, STANDARD_NAMES,
};
pub use config::{
    CandidateAnswer, CandidateMap, FewCandidates, FewCandidatesAnswer, Opponents, MAX_CANDIDATES,
    MAX_OPPONENTS,
};
pub use engine::{analyse, count_deals};
pub use facts::{Fact, Knowledge, Observer};
pub use log::{
    GameLog, LogError, LogEvent, LoggedAccusation, LoggedFact, LoggedSuggestion, Numbering, RawLog,
};
pub use notebook::{Model, Notebook, Place};
pub use optimum::{Evaluation, Optimum, Solitaire};
pub use ranking::{Objective, Outcome, Response, Scored};
pub use solver::FewCandidatesSolver;

#[cfg(test)]
mod config_tests;
#[cfg(test)]
mod engine_tests;
#[cfg(test)]
mod solver_tests;
