//! A role game seen by side alone, for the published method, which has no
//! roles: the same votes, checks and scores, every death an unrevealed
//! death unless its side was shown.

use crate::error::Result;

use super::super::model::{Event, Game, Side};
use super::events::{Known, RoleEvent};
use super::game::RoleGame;

impl RoleGame {
    /// The same game seen by side alone, for the published method: votes,
    /// checks and scores as they are (a check's card becomes its side),
    /// the wolf viewer's pack and a self-destruct as revealed wolves,
    /// every death an unrevealed death unless its side was shown, a shot
    /// reveals a village-side hunter, claims, ties and the guard's targets
    /// dropped. A village-side viewer stays the viewer; a wolf viewer
    /// (which a side-only game cannot have) becomes a revealed wolf before
    /// the first event.
    ///
    /// # Errors
    /// Never for a validated role game; the side game's own checks are run.
    pub fn side_game(&self) -> Result<Game> {
        let village_viewer = self
            .viewer()
            .filter(|(_, known)| known.side() == Side::Village)
            .map(|(player, _)| player);
        let mut game = Game::new(self.setup().sides(), self.model().sides, village_viewer)?;
        if let Some((player, known)) = self.viewer() {
            if known.side() == Side::Wolf {
                game.push(Event::Revealed {
                    player,
                    side: Side::Wolf,
                })?;
            }
        }
        for event in self.events() {
            for event in side_events(event) {
                game.push(event)?;
            }
        }
        Ok(game)
    }
}

/// The side-only events of one role event (see [`RoleGame::side_game`]).
fn side_events(event: &RoleEvent) -> Vec<Event> {
    let unrevealed = |player| Event::Eliminated {
        player,
        revealed: None,
    };
    match *event {
        RoleEvent::Night { ref deaths, .. } => deaths.iter().map(|&p| unrevealed(p)).collect(),
        RoleEvent::NightKill { victim } => vec![Event::NightKill { victim }],
        RoleEvent::SeerCheck { target, result } => vec![Event::SeerCheck {
            target,
            result: result.side(),
        }],
        RoleEvent::Vote { voter, target } => vec![Event::Vote { voter, target }],
        RoleEvent::Behaviour { player, score } => vec![Event::Behaviour { player, score }],
        RoleEvent::Eliminated { player, shown } => vec![Event::Eliminated {
            player,
            revealed: shown.map(Known::side),
        }],
        RoleEvent::Revealed { player, known } => vec![Event::Revealed {
            player,
            side: known.side(),
        }],
        RoleEvent::HunterShot { hunter, target } => vec![
            Event::Revealed {
                player: hunter,
                side: Side::Village,
            },
            unrevealed(target),
        ],
        RoleEvent::LoverDeath { player, .. } => vec![unrevealed(player)],
        RoleEvent::Pack { ref wolves } => wolves
            .iter()
            .map(|&player| Event::Revealed {
                player,
                side: Side::Wolf,
            })
            .collect(),
        RoleEvent::SelfDestruct { player } => vec![Event::Revealed {
            player,
            side: Side::Wolf,
        }],
        RoleEvent::Claim { .. }
        | RoleEvent::Tie { .. }
        | RoleEvent::NoElimination
        | RoleEvent::Lovers { .. }
        | RoleEvent::WitchNight { .. } => Vec::new(),
    }
}
