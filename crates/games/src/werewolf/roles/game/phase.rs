//! The day-night cycle of a role log: nights and days alternate, a day
//! ends once (an elimination, `no_elimination` after a second tie, or a
//! wolf's self-destruct), and after its end nothing of the day follows.
//!
//! The rules seed's cycle is night (steps 1-7), day (steps 8-10), night
//! again. A `night` event is the master's announcement that opens a day,
//! so what the log checks is: two `night`s have a whole day between them
//! (it ended), and after the day's end no vote, tie, elimination or
//! `no_elimination` comes before the next `night`. What may still come is
//! the shot and the lovers' grief the elimination caused, talk (claims,
//! behaviour scores: the seed gives the dying last words), reveals, and
//! the seer viewer's own check (a night action), the viewer's private
//! knowledge; after a self-destruct no talk either. A log may open with a day
//! (its first night then had no deaths worth logging) or with a night.
//! Side-only logs read by the role engine keep their looser format: they
//! have no `tie` or `no_elimination` to end a day without a death.

use crate::error::{Error, Result};

use super::super::events::RoleEvent;
use super::RoleGame;

/// How the current day ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DayEnd {
    /// A player was voted out.
    Eliminated,
    /// The revote tied again.
    NoElimination,
    /// A wolf revealed himself: the day's talk stops at once.
    SelfDestruct,
}

impl DayEnd {
    fn name(self) -> &'static str {
        match self {
            DayEnd::Eliminated => "the elimination",
            DayEnd::NoElimination => "`no_elimination`",
            DayEnd::SelfDestruct => "the self-destruct",
        }
    }
}

/// Where the log is in the day-night cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Before anything of a day or a night.
    Start,
    /// A day whose vote has not ended; `after_night`: the 0-based index
    /// of the night that opened it (none for a day logged first).
    Day { after_night: Option<usize> },
    /// The day ended with event `at` (0-based); the next night comes.
    DayOver { at: usize, how: DayEnd },
}

/// What an event is to the cycle.
enum Kind {
    /// A night (the announcement of its deaths) or an old-style night kill.
    Night,
    /// An event that ends the day.
    End(DayEnd),
    /// Allowed at any point: a step's consequence, a night action of the
    /// viewer's, the viewer's private knowledge of the first night, a card
    /// or side made known (a fact, not speech).
    Anytime,
    /// The witch viewer's night: after the day's end, before its `night`.
    BeforeNight,
    /// The day's vote: votes and ties.
    Vote,
    /// Talk: claims and behaviour scores; after the vote's end too, since
    /// the players who die speak last words.
    Talk,
}

fn kind(event: &RoleEvent) -> Kind {
    match event {
        RoleEvent::Night { .. } | RoleEvent::NightKill { .. } => Kind::Night,
        RoleEvent::Eliminated { .. } => Kind::End(DayEnd::Eliminated),
        RoleEvent::NoElimination => Kind::End(DayEnd::NoElimination),
        RoleEvent::SelfDestruct { .. } => Kind::End(DayEnd::SelfDestruct),
        RoleEvent::HunterShot { .. }
        | RoleEvent::LoverDeath { .. }
        | RoleEvent::SeerCheck { .. }
        | RoleEvent::Revealed { .. }
        | RoleEvent::Pack { .. }
        | RoleEvent::Lovers { .. } => Kind::Anytime,
        RoleEvent::WitchNight { .. } => Kind::BeforeNight,
        RoleEvent::Vote { .. } | RoleEvent::Tie { .. } => Kind::Vote,
        RoleEvent::Behaviour { .. } | RoleEvent::Claim { .. } => Kind::Talk,
    }
}

impl RoleGame {
    /// Check `event` (0-based `index`) against the cycle and move it on.
    pub(super) fn follow_cycle(&mut self, event: &RoleEvent, index: usize) -> Result<()> {
        if self.side_log {
            return Ok(());
        }
        let next = match (kind(event), self.phase) {
            (Kind::Anytime, phase) => phase,
            (Kind::BeforeNight, phase @ (Phase::Start | Phase::DayOver { .. })) => phase,
            (Kind::BeforeNight, Phase::Day { .. }) => {
                return Err(Error::Inconsistent(
                    "the witch's night comes after the day's end, just before the `night` \
                     that announces its deaths"
                        .into(),
                ))
            }
            (Kind::Night, Phase::Start | Phase::DayOver { .. }) => Phase::Day {
                after_night: Some(index),
            },
            (Kind::Night, Phase::Day { after_night }) => {
                let day = match after_night {
                    Some(night) => format!("the day after the night of event {}", night + 1),
                    None => "the day logged before the first night".to_string(),
                };
                return Err(Error::Inconsistent(format!(
                    "days and nights alternate: {day} has not ended (a day ends with an \
                     `eliminated`, a `no_elimination` after a second tie, or a wolf's \
                     `self_destruct`) before the next night"
                )));
            }
            (Kind::End(how), Phase::Start) => Phase::DayOver { at: index, how },
            (Kind::End(how), Phase::Day { .. }) => Phase::DayOver { at: index, how },
            (Kind::Vote | Kind::Talk, Phase::Start) => Phase::Day { after_night: None },
            (Kind::Vote | Kind::Talk, phase @ Phase::Day { .. }) => phase,
            (
                Kind::Talk,
                Phase::DayOver {
                    at,
                    how: DayEnd::SelfDestruct,
                },
            ) => {
                return Err(Error::Inconsistent(format!(
                    "the self-destruct of event {} stopped the day's talk at once: the \
                     night comes next",
                    at + 1
                )));
            }
            (Kind::Talk, phase @ Phase::DayOver { .. }) => phase,
            (Kind::End(_) | Kind::Vote, Phase::DayOver { at, how }) => {
                return Err(Error::Inconsistent(format!(
                    "the day ended with {} (event {}): one elimination at most a day, and \
                     no vote after the day's end; the next vote comes after a `night`",
                    how.name(),
                    at + 1
                )));
            }
        };
        self.phase = next;
        Ok(())
    }
}
