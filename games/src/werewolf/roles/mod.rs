//! Werewolf with the roles of the rules seed: exact inference over full
//! role assignments, not only wolf or not.
//!
//! The setup counts each role ([`RoleSetup`]: wolves, villagers, and at most
//! one each of seer, witch, hunter, guard, cupid); the hidden state is the
//! role of every player and, with cupid, the lovers' pair. Public events
//! ([`RoleEvent`]) are nights with 0, 1 or 2 deaths, eliminations with or
//! without the card shown, hunters' shots, lovers dying together, claims
//! with reported checks, votes and behaviour scores; each has a likelihood
//! under the generative model [`RoleModel`] (named parameters, documented
//! defaults), and hard facts prune the assignments. [`RolePosterior`] gives
//! P(player holds role) for every player and role, P(wolf), P(lover), the
//! joint entropy and the vote ranking by information gain under a
//! [`RevealRule`].
//!
//! Logs reach this module through [`GameLog`](super::GameLog) when they
//! carry a `roles` field; logs without one keep the side-only engine and
//! their answers.
//!
//! ```
//! use gametab_games::werewolf::roles::{RoleEvent, RoleGame, RoleModel, RolePosterior, Role, RoleSetup};
//! use gametab_games::werewolf::{Player, Side};
//!
//! let setup = RoleSetup::new(6, 1, &[Role::Seer, Role::Witch, Role::Guard])?;
//! let p = |n| Player::from_number(n, setup.sides());
//! let mut game = RoleGame::new(setup, RoleModel::default(), None)?;
//! game.push(RoleEvent::Night { deaths: vec![] })?;
//! game.push(RoleEvent::Claim { player: p(2)?, role: Role::Seer, check: Some((p(3)?, Side::Wolf)) })?;
//! let posterior = RolePosterior::compute(&game)?;
//! let four = p(4)?;
//! let total: f64 = Role::ALL.iter().map(|&r| posterior.p_role(four, r)).sum();
//! assert!((total - 1.0).abs() < 1e-12);
//! assert!(posterior.p_role(p(2)?, Role::Seer) > 1.0 / 6.0);
//! # Ok::<(), gametab_games::Error>(())
//! ```
//!
//! Size limit: [`MAX_ROLE_ASSIGNMENTS`] role assignments (12 players with
//! 4 wolves and all five special roles fit); above it
//! [`RolePosterior::compute`] returns [`crate::Error::OutOfRange`].

mod events;
mod game;
mod log;
mod night;
mod posterior;
mod setup;
mod terms;

pub use events::{Known, RoleEvent};
pub use game::RoleGame;
pub use posterior::{RolePosterior, MAX_ROLE_ASSIGNMENTS};
pub use setup::{RevealRule, Role, RoleModel, RoleSet, RoleSetup};
