//! Werewolf with the roles of the rules seed: exact inference over full
//! role assignments, not only wolf or not.
//!
//! The setup counts each role ([`RoleSetup`]: wolves, villagers, and at most
//! one each of seer, witch, hunter, guard, cupid); the hidden state is the
//! role of every player and, with cupid, the lovers' pair, plus what each
//! night carries to the next (the witch's potions, the guard's last
//! target), summed out exactly. Public events ([`RoleEvent`]) are nights
//! with 0, 1 or 2 deaths (and a guard viewer's own target), eliminations
//! with or without the card shown, ties and days without an elimination,
//! hunters' shots, lovers dying together, claims with reported checks (a
//! side or a card), the seer viewer's own checks, votes and behaviour
//! scores, a wolf's self-destruct, and what the viewer knows privately (a
//! wolf's pack, the lovers as a lover or cupid knows them, the witch's own
//! night); each has a likelihood under the generative model [`RoleModel`]
//! (named parameters, documented defaults), hard facts prune the
//! assignments, and an event the rules forbid (after the game's end, by a
//! dead player, a second elimination in a day...) is refused naming it and
//! the rule. The rules as modelled, for players, are in `docs/werewolf.md`. [`RolePosterior`] gives P(player
//! holds role) for every player and role, P(wolf), P(lover), the joint
//! entropy, who has won, and the vote ranking by information gain under a
//! [`RevealRule`].
//!
//! Logs reach this module through [`GameLog`](super::GameLog) when they
//! carry a `roles` field; logs without one keep the side-only engine and
//! their answers.
//!
//! ```
//! use gametab_games::werewolf::roles::{Known, RoleEvent, RoleGame, RoleModel, RolePosterior, Role, RoleSetup};
//! use gametab_games::werewolf::{Player, Side};
//!
//! let setup = RoleSetup::new(6, 1, &[Role::Seer, Role::Witch, Role::Guard])?;
//! let p = |n| Player::from_number(n, setup.sides());
//! let mut game = RoleGame::new(setup, RoleModel::default(), None)?;
//! game.push(RoleEvent::Night { deaths: vec![], guarded: None })?;
//! game.push(RoleEvent::Claim {
//!     player: p(2)?,
//!     role: Role::Seer,
//!     check: Some((p(3)?, Known::Role(Role::Witch))),
//! })?;
//! let posterior = RolePosterior::compute(&game)?;
//! let four = p(4)?;
//! let total: f64 = Role::ALL.iter().map(|&r| posterior.p_role(four, r)).sum();
//! assert!((total - 1.0).abs() < 1e-12);
//! assert!(posterior.p_role(p(3)?, Role::Witch) > 0.25);
//! assert_eq!(posterior.winner(), None);
//! # Ok::<(), gametab_games::Error>(())
//! ```
//!
//! Size limit: [`MAX_ROLE_ASSIGNMENTS`] role assignments (12 players with
//! 4 wolves and all five special roles fit); above it
//! [`RolePosterior::compute`] returns [`crate::Error::OutOfRange`].

mod diagnose;
mod end;
mod enumerate;
mod events;
mod game;
mod information;
mod log;
mod model;
mod night;
mod posterior;
mod setup;
mod side;
mod terms;

pub use end::Winner;
pub use events::{Known, RoleEvent};
pub use game::{RoleGame, MAX_SCORE_TOTAL};
pub use model::RoleModel;
pub use posterior::{RolePosterior, MAX_ROLE_ASSIGNMENTS};
pub use setup::{RevealRule, Role, RoleSet, RoleSetup};
