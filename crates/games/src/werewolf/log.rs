//! The JSON game log read by `gametab werewolf --log`, and its conversion
//! into a validated [`Game`].
//!
//! ```json
//! {
//!   "players": 12,
//!   "wolves": 4,
//!   "viewer": null,
//!   "model": { "seer_accuracy": 1.0 },
//!   "events": [
//!     { "kind": "seer", "target": 3, "result": "wolf" },
//!     { "kind": "eliminated", "player": 3, "revealed": "wolf" },
//!     { "kind": "vote", "voter": 1, "target": 5 },
//!     { "kind": "behaviour", "player": 7, "score": 1.5 }
//!   ]
//! }
//! ```
//!
//! Players are numbered from 1. `viewer` (optional) is a player who knows
//! they are on the village side and is never a vote candidate. `model` is
//! optional and so is each of its fields (`wolf_votes_village`,
//! `wolf_votes_wolf`, `village_votes_village`, `village_votes_wolf`,
//! `seer_accuracy`); missing ones take the [`EvidenceModel`] defaults. Event
//! kinds: `night_kill {victim}`, `seer {target, result}`, `vote {voter,
//! target}`, `eliminated {player, revealed?}`, `revealed {player, side}`,
//! `behaviour {player, score}`; sides are `"wolf"` or `"village"`.
//!
//! **Roles.** A log with a `roles` field is read by the role engine
//! ([`super::roles`]) instead; a log without one keeps exactly the meaning
//! (and the answers) above. Extra top-level fields: `roles` (the special
//! roles, as counts of `seer`, `witch`, `hunter`, `guard`, `cupid`, each 0
//! or 1, missing ones 0, or as a list of their names; villagers fill the
//! rest), `viewer_role` (the viewer's own role; without it the viewer is
//! village-side), `reveal` (`"role"`, the default, or `"side"`: what
//! eliminating a player shows, for the ranking's information gain). Extra
//! model fields: `witch_save`, `witch_poison`, `hunter_shoots`,
//! `fake_claim`, `village_fake_claim`, `fake_says_wolf`,
//! `wolves_knife_wolf`, `witch_poisons_herself` (see
//! [`RoleModel`](super::roles::RoleModel)). Extra event kinds and fields:
//!
//! ```json
//! { "kind": "night", "deaths": [12] }
//! { "kind": "night", "deaths": [], "guarded": 5 }
//! { "kind": "hunter_shot", "hunter": 12, "target": 4 }
//! { "kind": "lover_death", "player": 7, "lover": 4 }
//! { "kind": "claim", "player": 1, "role": "seer", "target": 3, "result": "wolf" }
//! { "kind": "claim", "player": 1, "role": "seer", "target": 5, "result": "witch" }
//! { "kind": "seer", "target": 5, "result": "hunter" }
//! { "kind": "tie", "players": [3, 5] }
//! { "kind": "no_elimination" }
//! { "kind": "self_destruct", "player": 4 }
//! { "kind": "pack", "wolves": [2, 9] }
//! { "kind": "lovers", "players": [3, 7] }
//! { "kind": "lovers", "players": [] }
//! { "kind": "witch", "shown": 5, "saved": true }
//! { "kind": "witch", "poisoned": 3 }
//! { "kind": "eliminated", "player": 3, "role": "hunter" }
//! { "kind": "revealed", "player": 5, "role": "witch" }
//! ```
//!
//! `night` lists who died by the wolves and the poison (0, 1 or 2
//! players); `guarded` is the guard's own target, logged only by a guard
//! viewer. A hunter's shot and a lover's death follow the night or
//! elimination that caused them directly; the game's end is checked after
//! them, and any event after the end is refused. A check's `result` is a
//! side (`"wolf"`, `"village"`) or, in role logs, a card: a seer sees
//! identities. `seer` events are the viewer's own checks and need the seer
//! as the viewer. `tie` says the vote tied between these players: the
//! votes after it are the revote among them, which ends with the
//! `eliminated` of one of them or, tied again, with `no_elimination`.
//! `self_destruct`: a wolf reveals himself and the day stops at once.
//! Days and nights alternate: a day ends with one `eliminated`,
//! `no_elimination` or `self_destruct` before the next `night`. `pack` (a
//! wolf viewer: every wolf, the viewer among them) and `lovers` (a lover
//! or cupid viewer: the pair; any other viewer: `[]`, no lover) are the
//! viewer's private knowledge of the first night. `witch` is the witch
//! viewer's own night, logged before its `night`: `shown`, the victim she
//! was shown (always while she holds the antidote, never after), `saved`
//! (default false), `poisoned`.
//! Claims, votes and checks by dead players are refused. Roles are
//! `"wolf"`, `"villager"`, `"seer"`, `"witch"`, `"hunter"`, `"guard"`,
//! `"cupid"`.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub use super::log_names::{CheckName, RevealName, RoleName, RolesLog, SideName};
use super::model::{Event, EvidenceModel, Game, Player, Setup, Side};

/// Optional overrides of the evidence model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelLog {
    /// See [`VoteWeights::wolf_votes_village`](super::VoteWeights).
    pub wolf_votes_village: Option<f64>,
    /// See [`VoteWeights::wolf_votes_wolf`](super::VoteWeights).
    pub wolf_votes_wolf: Option<f64>,
    /// See [`VoteWeights::village_votes_village`](super::VoteWeights).
    pub village_votes_village: Option<f64>,
    /// See [`VoteWeights::village_votes_wolf`](super::VoteWeights).
    pub village_votes_wolf: Option<f64>,
    /// See [`EvidenceModel::seer_accuracy`].
    pub seer_accuracy: Option<f64>,
    /// Role logs only: see [`RoleModel`](super::roles::RoleModel).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witch_save: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witch_poison: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hunter_shoots: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fake_claim: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub village_fake_claim: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fake_says_wolf: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wolves_knife_wolf: Option<f64>,
    /// Role logs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witch_poisons_herself: Option<f64>,
}

impl ModelLog {
    /// The model: the defaults with these overrides.
    pub fn model(&self) -> EvidenceModel {
        let mut model = EvidenceModel::default();
        let votes = &mut model.votes;
        votes.wolf_votes_village = self.wolf_votes_village.unwrap_or(votes.wolf_votes_village);
        votes.wolf_votes_wolf = self.wolf_votes_wolf.unwrap_or(votes.wolf_votes_wolf);
        votes.village_votes_village = self
            .village_votes_village
            .unwrap_or(votes.village_votes_village);
        votes.village_votes_wolf = self.village_votes_wolf.unwrap_or(votes.village_votes_wolf);
        model.seer_accuracy = self.seer_accuracy.unwrap_or(model.seer_accuracy);
        model
    }
}

/// One event as written in a log (player numbers from 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[allow(missing_docs)]
pub enum EventLog {
    /// See [`Event::NightKill`].
    NightKill { victim: u32 },
    /// See [`Event::SeerCheck`]; in role logs the viewer's own check,
    /// whose result may be a card.
    Seer { target: u32, result: CheckName },
    /// See [`Event::Vote`].
    Vote { voter: u32, target: u32 },
    /// See [`Event::Eliminated`]; `role` (role logs) is the card shown.
    Eliminated {
        player: u32,
        #[serde(default)]
        revealed: Option<SideName>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<RoleName>,
    },
    /// See [`Event::Revealed`]; exactly one of `side` and `role` (role logs).
    Revealed {
        player: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<SideName>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<RoleName>,
    },
    /// See [`Event::Behaviour`].
    Behaviour { player: u32, score: f64 },
    /// Role logs: a night and its deaths (0, 1 or 2 players); `guarded`:
    /// a guard viewer's own target.
    Night {
        deaths: Vec<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guarded: Option<u32>,
    },
    /// Role logs: the vote tied between `players`; the revote follows.
    Tie { players: Vec<u32> },
    /// Role logs: the revote tied again, nobody is voted out today.
    NoElimination,
    /// Role logs: the hunter shoots after dying.
    HunterShot { hunter: u32, target: u32 },
    /// Role logs: `player` dies as the lover of `lover`.
    LoverDeath { player: u32, lover: u32 },
    /// Role logs: the wolf viewer's pack, every wolf (the viewer among
    /// them).
    Pack { wolves: Vec<u32> },
    /// Role logs: what the viewer knows of the lovers: the two of them (a
    /// lover viewer, or cupid), or none (the viewer is no lover).
    Lovers { players: Vec<u32> },
    /// Role logs: `player`, a wolf, reveals himself; the day stops.
    SelfDestruct { player: u32 },
    /// Role logs: the witch viewer's own night, before its `night`: the
    /// victim she was shown (while she holds the antidote), whether she
    /// saved them, whom she poisoned.
    Witch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shown: Option<u32>,
        #[serde(default)]
        saved: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        poisoned: Option<u32>,
    },
    /// Role logs: `player` claims `role`; a seer claim may report a check
    /// (`target` and `result` together; the result a side or a card).
    Claim {
        player: u32,
        role: RoleName,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<CheckName>,
    },
}

/// A whole game log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLog {
    /// Number of players.
    pub players: u32,
    /// Number of wolves.
    pub wolves: u32,
    /// The player reading the game, known to be on the village side.
    #[serde(default)]
    pub viewer: Option<u32>,
    /// Evidence-model overrides.
    #[serde(default)]
    pub model: ModelLog,
    /// Role logs: the special roles of the setup. Its presence selects the
    /// role engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roles: Option<RolesLog>,
    /// Role logs: the viewer's own role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewer_role: Option<RoleName>,
    /// Role logs: what an elimination shows (default `role`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<RevealName>,
    /// The events, in game order.
    pub events: Vec<EventLog>,
}

impl EventLog {
    /// The event, with the player numbers checked against `setup`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a player number not at the table.
    pub fn to_event(&self, setup: Setup) -> Result<Event> {
        let player = |number: u32| Player::from_number(number, setup);
        Ok(match *self {
            EventLog::NightKill { victim } => Event::NightKill {
                victim: player(victim)?,
            },
            EventLog::Seer { target, result } => Event::SeerCheck {
                target: player(target)?,
                result: result.side().ok_or_else(|| {
                    Error::Inconsistent(
                        "a check that names a card needs a role log: add a `roles` field \
                         (e.g. \"roles\": {\"seer\": 1})"
                            .into(),
                    )
                })?,
            },
            EventLog::Vote { voter, target } => Event::Vote {
                voter: player(voter)?,
                target: player(target)?,
            },
            EventLog::Eliminated {
                player: who,
                revealed,
                role: None,
            } => Event::Eliminated {
                player: player(who)?,
                revealed: revealed.map(Side::from),
            },
            EventLog::Revealed {
                player: who,
                side: Some(side),
                role: None,
            } => Event::Revealed {
                player: player(who)?,
                side: side.into(),
            },
            EventLog::Revealed {
                side: None,
                role: None,
                ..
            } => {
                return Err(Error::Inconsistent(
                    "a `revealed` event needs its `side`".into(),
                ))
            }
            EventLog::Behaviour { player: who, score } => Event::Behaviour {
                player: player(who)?,
                score,
            },
            _ => {
                return Err(Error::Inconsistent(format!(
                    "`{}` needs a role log: add a `roles` field (e.g. \"roles\": {{\"witch\": 1}})",
                    self.role_feature()
                )))
            }
        })
    }

    /// The role-log feature this event uses (for error messages).
    fn role_feature(&self) -> &'static str {
        match self {
            EventLog::Night { .. } => "night",
            EventLog::Tie { .. } => "tie",
            EventLog::NoElimination => "no_elimination",
            EventLog::HunterShot { .. } => "hunter_shot",
            EventLog::LoverDeath { .. } => "lover_death",
            EventLog::Claim { .. } => "claim",
            EventLog::Pack { .. } => "pack",
            EventLog::Lovers { .. } => "lovers",
            EventLog::SelfDestruct { .. } => "self_destruct",
            EventLog::Witch { .. } => "witch",
            EventLog::Eliminated { .. } | EventLog::Revealed { .. } => "role",
            _ => "this event",
        }
    }
}

/// The viewer's seat, refused as the viewer (not as some player) when it
/// is not at the table.
pub(crate) fn viewer_seat(number: u32, setup: Setup) -> Result<Player> {
    Player::from_number(number, setup).map_err(|_| Error::OutOfRange {
        what: crate::Argument::Viewer,
        detail: format!("player {number}, allowed 1..={}", setup.players()),
    })
}

impl GameLog {
    /// Validate the log event by event into a [`Game`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad setup, model parameter or viewer;
    /// [`Error::AtEvent`] naming the first event that is malformed or
    /// contradicts the ones before it (see [`Game::push`]).
    pub fn to_game(&self) -> Result<Game> {
        if self.has_roles() {
            return Err(Error::Inconsistent(
                "this log has role fields (roles, viewer_role, reveal or role-model parameters); \
                 read it with GameLog::to_role_game"
                    .into(),
            ));
        }
        let setup = Setup::new(self.players, self.wolves)?;
        let viewer = self.viewer.map(|n| viewer_seat(n, setup)).transpose()?;
        let mut game = Game::new(setup, self.model.model(), viewer)?;
        for (index, event) in self.events.iter().enumerate() {
            crate::budget::tick()?;
            // Every refusal of an event names it by its index; one that
            // could not even be read (a role-log kind, a missing side)
            // names no content.
            let event = event
                .to_event(setup)
                .map_err(|error| error.at_event(index, None))?;
            game.push(event)
                .map_err(|error| error.at_event(index, None))?;
        }
        Ok(game)
    }

    /// Whether the log is a role log (read by [`GameLog::to_role_game`]):
    /// it has a `roles` field.
    pub fn is_role_log(&self) -> bool {
        self.roles.is_some()
    }

    /// Whether the log uses any role-log field at all.
    fn has_roles(&self) -> bool {
        let m = &self.model;
        self.roles.is_some()
            || self.viewer_role.is_some()
            || self.reveal.is_some()
            || [
                m.witch_save,
                m.witch_poison,
                m.hunter_shoots,
                m.fake_claim,
                m.village_fake_claim,
                m.fake_says_wolf,
                m.wolves_knife_wolf,
                m.witch_poisons_herself,
            ]
            .iter()
            .any(Option::is_some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_event_kind() {
        let text = r#"{
            "players": 6, "wolves": 2, "viewer": 1,
            "model": { "seer_accuracy": 0.9 },
            "events": [
                { "kind": "night_kill", "victim": 6 },
                { "kind": "seer", "target": 2, "result": "wolf" },
                { "kind": "vote", "voter": 3, "target": 2 },
                { "kind": "eliminated", "player": 2 },
                { "kind": "revealed", "player": 4, "side": "village" },
                { "kind": "behaviour", "player": 5, "score": -0.5 }
            ]
        }"#;
        let log: GameLog = serde_json::from_str(text).unwrap();
        let game = log.to_game().unwrap();
        assert_eq!(game.events().count(), 6);
        assert_eq!(game.model().seer_accuracy, 0.9);
        assert_eq!(game.living().len(), 4);
        let back: GameLog = serde_json::from_str(&serde_json::to_string(&log).unwrap()).unwrap();
        assert_eq!(back, log);
    }

    #[test]
    fn bad_logs_are_errors() {
        let unknown_kind = r#"{"players": 6, "wolves": 2, "events": [{"kind": "lynch"}]}"#;
        assert!(serde_json::from_str::<GameLog>(unknown_kind).is_err());
        let log: GameLog = serde_json::from_str(
            r#"{"players": 6, "wolves": 2, "events": [{"kind": "vote", "voter": 1, "target": 7}]}"#,
        )
        .unwrap();
        let error = log.to_game().unwrap_err();
        assert!(error.to_string().contains("event 1"), "{error}");
    }
}
