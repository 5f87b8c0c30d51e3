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

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

use super::model::{Event, EvidenceModel, Game, Player, Setup, Side};

/// A side as written in a log: `"wolf"` or `"village"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideName {
    /// A wolf.
    Wolf,
    /// The village side.
    Village,
}

impl From<SideName> for Side {
    fn from(side: SideName) -> Side {
        match side {
            SideName::Wolf => Side::Wolf,
            SideName::Village => Side::Village,
        }
    }
}

impl From<Side> for SideName {
    fn from(side: Side) -> SideName {
        match side {
            Side::Wolf => SideName::Wolf,
            Side::Village => SideName::Village,
        }
    }
}

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
    /// See [`Event::SeerCheck`].
    Seer { target: u32, result: SideName },
    /// See [`Event::Vote`].
    Vote { voter: u32, target: u32 },
    /// See [`Event::Eliminated`].
    Eliminated {
        player: u32,
        #[serde(default)]
        revealed: Option<SideName>,
    },
    /// See [`Event::Revealed`].
    Revealed { player: u32, side: SideName },
    /// See [`Event::Behaviour`].
    Behaviour { player: u32, score: f64 },
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
                result: result.into(),
            },
            EventLog::Vote { voter, target } => Event::Vote {
                voter: player(voter)?,
                target: player(target)?,
            },
            EventLog::Eliminated {
                player: who,
                revealed,
            } => Event::Eliminated {
                player: player(who)?,
                revealed: revealed.map(Side::from),
            },
            EventLog::Revealed { player: who, side } => Event::Revealed {
                player: player(who)?,
                side: side.into(),
            },
            EventLog::Behaviour { player: who, score } => Event::Behaviour {
                player: player(who)?,
                score,
            },
        })
    }
}

impl GameLog {
    /// Validate the log event by event into a [`Game`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad setup, model parameter or player
    /// number; [`Error::Inconsistent`] naming the first event that
    /// contradicts the ones before it (see [`Game::push`]).
    pub fn to_game(&self) -> Result<Game> {
        let setup = Setup::new(self.players, self.wolves)?;
        let player = |number: u32| Player::from_number(number, setup);
        let viewer = self.viewer.map(player).transpose()?;
        let mut game = Game::new(setup, self.model.model(), viewer)?;
        for (index, event) in self.events.iter().enumerate() {
            let at_event = |error: Error| match error {
                Error::OutOfRange { what, detail } => Error::OutOfRange {
                    what,
                    detail: format!("{detail} (event {})", index + 1),
                },
                other => other,
            };
            let event = event.to_event(setup).map_err(at_event)?;
            game.push(event).map_err(at_event)?;
        }
        Ok(game)
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
