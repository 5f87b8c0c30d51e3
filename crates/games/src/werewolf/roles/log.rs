//! Reading a role log: a [`GameLog`] with a `roles` field becomes a
//! validated [`RoleGame`]. The JSON format (the fields and event kinds
//! shared with side-only logs and the ones only role logs use) is
//! documented in one place, the side-only log module.

use crate::error::{Error, Result};

use super::super::log::{viewer_seat, EventLog, GameLog};
use super::super::model::{Player, Setup, Side};
use super::events::{Known, RoleEvent};
use super::game::RoleGame;
use super::model::RoleModel;
use super::setup::{RevealRule, Role, RoleSetup};

impl GameLog {
    /// The role setup of a role log (of a side-only log: no special role).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a role counted more than once, or roles
    /// that do not fit the table.
    pub fn role_setup(&self) -> Result<RoleSetup> {
        let roles = self.roles.unwrap_or_default();
        let counts = [
            (Role::Seer, roles.seer),
            (Role::Witch, roles.witch),
            (Role::Hunter, roles.hunter),
            (Role::Guard, roles.guard),
            (Role::Cupid, roles.cupid),
        ];
        let mut specials = Vec::new();
        for (role, count) in counts {
            match count {
                0 => {}
                1 => specials.push(role),
                n => {
                    return Err(Error::OutOfRange {
                        what: crate::Argument::Roles,
                        detail: format!("{role} = {n}, allowed 0 or 1"),
                    })
                }
            }
        }
        RoleSetup::new(self.players, self.wolves, &specials)
    }

    /// The role model: the defaults with this log's overrides.
    pub fn role_model(&self) -> RoleModel {
        let m = &self.model;
        let d = RoleModel::default();
        RoleModel {
            sides: m.model(),
            witch_save: m.witch_save.unwrap_or(d.witch_save),
            witch_poison: m.witch_poison.unwrap_or(d.witch_poison),
            hunter_shoots: m.hunter_shoots.unwrap_or(d.hunter_shoots),
            fake_claim: m.fake_claim.unwrap_or(d.fake_claim),
            village_fake_claim: m.village_fake_claim.unwrap_or(d.village_fake_claim),
            fake_says_wolf: m.fake_says_wolf.unwrap_or(d.fake_says_wolf),
            wolves_knife_wolf: m.wolves_knife_wolf.unwrap_or(d.wolves_knife_wolf),
            witch_poisons_herself: m.witch_poisons_herself.unwrap_or(d.witch_poisons_herself),
        }
    }

    /// What an elimination shows (`reveal`, default the role).
    pub fn reveal_rule(&self) -> RevealRule {
        self.reveal.map_or(RevealRule::Role, RevealRule::from)
    }

    /// Validate a role log event by event into a [`RoleGame`]. A side-only
    /// log (no `roles`) is read as a game without special roles whose
    /// `seer` events keep their side-only meaning.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad setup, parameter or viewer;
    /// [`Error::AtEvent`] naming the first event that is malformed, breaks
    /// a rule or contradicts the ones before it (see [`RoleGame::push`]).
    pub fn to_role_game(&self) -> Result<RoleGame> {
        let setup = self.role_setup()?;
        let sides = setup.sides();
        let viewer = match (self.viewer, self.viewer_role) {
            (Some(number), role) => Some((
                viewer_seat(number, sides)?,
                role.map_or(Known::Side(Side::Village), |r| Known::Role(r.into())),
            )),
            (None, Some(_)) => {
                return Err(Error::Inconsistent(
                    "`viewer_role` without a `viewer`".into(),
                ))
            }
            (None, None) => None,
        };
        let mut game = if self.is_role_log() {
            RoleGame::new(setup, self.role_model(), viewer)?
        } else {
            RoleGame::for_side_log(setup, self.role_model(), viewer)?
        };
        for (index, event) in self.events.iter().enumerate() {
            crate::budget::tick()?;
            let event = role_event(event, sides).map_err(|error| error.at_event(index, None))?;
            game.push(event)?;
        }
        Ok(game)
    }
}

/// One log event as a role event, player numbers checked.
fn role_event(event: &EventLog, setup: Setup) -> Result<RoleEvent> {
    let player = |number: u32| Player::from_number(number, setup);
    Ok(match *event {
        EventLog::NightKill { victim } => RoleEvent::NightKill {
            victim: player(victim)?,
        },
        EventLog::Seer { target, result } => RoleEvent::SeerCheck {
            target: player(target)?,
            result: result.known(),
        },
        EventLog::Vote { voter, target } => RoleEvent::Vote {
            voter: player(voter)?,
            target: player(target)?,
        },
        EventLog::Behaviour { player: who, score } => RoleEvent::Behaviour {
            player: player(who)?,
            score,
        },
        EventLog::Eliminated {
            player: who,
            revealed,
            role,
        } => RoleEvent::Eliminated {
            player: player(who)?,
            shown: known(revealed.map(Side::from), role.map(Role::from), false)?,
        },
        EventLog::Revealed {
            player: who,
            side,
            role,
        } => RoleEvent::Revealed {
            player: player(who)?,
            known: known(side.map(Side::from), role.map(Role::from), true)?
                .ok_or_else(|| Error::Inconsistent("`revealed` needs a side or a role".into()))?,
        },
        EventLog::Night {
            ref deaths,
            guarded,
        } => RoleEvent::Night {
            deaths: deaths
                .iter()
                .map(|&n| player(n))
                .collect::<Result<Vec<_>>>()?,
            guarded: guarded.map(player).transpose()?,
        },
        EventLog::Tie { ref players } => RoleEvent::Tie {
            players: players
                .iter()
                .map(|&n| player(n))
                .collect::<Result<Vec<_>>>()?,
        },
        EventLog::NoElimination => RoleEvent::NoElimination,
        EventLog::HunterShot { hunter, target } => RoleEvent::HunterShot {
            hunter: player(hunter)?,
            target: player(target)?,
        },
        EventLog::LoverDeath { player: who, lover } => RoleEvent::LoverDeath {
            player: player(who)?,
            lover: player(lover)?,
        },
        EventLog::Pack { ref wolves } => RoleEvent::Pack {
            wolves: wolves
                .iter()
                .map(|&n| player(n))
                .collect::<Result<Vec<_>>>()?,
        },
        EventLog::Lovers { ref players } => RoleEvent::Lovers {
            pair: match players[..] {
                [] => None,
                [a, b] => Some((player(a)?, player(b)?)),
                _ => {
                    return Err(Error::Inconsistent(format!(
                        "`lovers` lists the two lovers, or nobody (the viewer is no lover), \
                         not {} players",
                        players.len()
                    )))
                }
            },
        },
        EventLog::SelfDestruct { player: who } => RoleEvent::SelfDestruct {
            player: player(who)?,
        },
        EventLog::Witch {
            shown,
            saved,
            poisoned,
        } => RoleEvent::WitchNight {
            shown: shown.map(player).transpose()?,
            saved,
            poisoned: poisoned.map(player).transpose()?,
        },
        EventLog::Claim {
            player: who,
            role,
            target,
            result,
        } => RoleEvent::Claim {
            player: player(who)?,
            role: role.into(),
            check: match (target, result) {
                (Some(target), Some(result)) => Some((player(target)?, result.known())),
                (None, None) => None,
                _ => {
                    return Err(Error::Inconsistent(
                        "a claim's check needs both `target` and `result`".into(),
                    ))
                }
            },
        },
    })
}

/// What a side and a role written together say: the role when given (its
/// side must agree), else the side.
fn known(side: Option<Side>, role: Option<Role>, exclusive: bool) -> Result<Option<Known>> {
    match (side, role) {
        (Some(_), Some(_)) if exclusive => Err(Error::Inconsistent(
            "give either `side` or `role`, not both".into(),
        )),
        (Some(side), Some(role)) if role.side() != side => Err(Error::Inconsistent(format!(
            "the card shown ({role}) is not on the {side} side revealed"
        ))),
        (_, Some(role)) => Ok(Some(Known::Role(role))),
        (Some(side), None) => Ok(Some(Known::Side(side))),
        (None, None) => Ok(None),
    }
}
