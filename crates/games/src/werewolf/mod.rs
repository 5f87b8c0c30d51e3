//! Werewolf (Mafia): exact role inference and information-gain voting.
//!
//! N players sit at the table, W of them are wolves, the rest are on the
//! village side (for inference only wolf / not-wolf matters). The hidden
//! state is the set of wolves, so this module enumerates every wolf set that
//! is consistent with the hard facts (revealed roles, a trusted seer) as a
//! bitmask, gives every piece of evidence a likelihood under each set from a
//! proper generative model ([`EvidenceModel`]), multiplies and normalises.
//! Marginals, the joint entropy and the expected entropy after eliminating a
//! player then come out exactly, and the number of living wolves holds by
//! construction.
//!
//! Where the data comes from and goes:
//! - [`GameLog`] is the JSON game log read by `gametab werewolf --log`; it
//!   becomes a validated [`Game`] (every event checked against who is alive
//!   and against the earlier hard facts).
//! - [`Posterior`] is the exact posterior of a [`Game`]; [`rank`] orders the
//!   vote candidates by a [`ScoringRule`].
//! - [`Baseline`] is the published approximate method (independent log-odds
//!   per player, rescaled and clipped), kept as a named comparison.
//! - [`EarlySituation`] is the documented family of early-game situations
//!   whose answers `gametab build` tabulates; the lookup crate serves that
//!   table and falls back to the engine for situations outside it.
//!
//! ```
//! use gametab_games::werewolf::{rank, EvidenceModel, Game, Event, Player, Posterior,
//!     ScoringRule, Setup, Side};
//!
//! let setup = Setup::new(5, 1)?;
//! let mut game = Game::new(setup, EvidenceModel::default(), None)?;
//! let p = |n| Player::from_number(n, setup);
//! game.push(Event::SeerCheck { target: p(2)?, result: Side::Village })?;
//! game.push(Event::Behaviour { player: p(3)?, score: 1.0 })?;
//! let posterior = Posterior::compute(&game)?;
//! assert_eq!(posterior.p_wolf(p(2)?), 0.0);
//! let sum: f64 = posterior.marginals().iter().sum();
//! assert!((sum - 1.0).abs() < 1e-12);
//! let ranking = rank(&posterior, ScoringRule::Probability, None);
//! assert_eq!(ranking[0].player, p(3)?);
//! # Ok::<(), gametab_games::Error>(())
//! ```
//!
//! Size limit: at most [`MAX_PLAYERS`] players (a wolf set is one `u64`
//! bitmask) and at most [`MAX_WOLF_SETS`] wolf sets to enumerate; beyond
//! either, [`Posterior::compute`] returns [`crate::Error::OutOfRange`].

mod baseline;
mod early;
mod log;
mod log_names;
mod model;
mod posterior;
pub mod roles;
mod scoring;

pub use baseline::Baseline;
pub use early::{EarlyAnswer, EarlyRole, EarlyRoleAnswer, EarlySituation, EarlyVote, EARLY_FAMILY};
pub use log::{CheckName, EventLog, GameLog, ModelLog, RevealName, RoleName, RolesLog, SideName};
pub use model::{
    Event, EvidenceModel, Game, Player, PlayerSet, Setup, Side, VoteWeights, MAX_PLAYERS,
};
pub use posterior::{EliminationOutcome, Posterior, MAX_WOLF_SETS};
pub use scoring::{
    binary_entropy_bits, rank, Candidate, ScoringRule, PUBLISHED_INFORMATION_WEIGHT,
    PUBLISHED_PROBABILITY_WEIGHT, TIE_TOLERANCE,
};
