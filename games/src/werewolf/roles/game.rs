//! The role events and a validated role game.
//!
//! A [`RoleGame`] is built event by event like the side-only
//! [`Game`](super::super::Game): every event is checked against who is
//! alive and against the hard facts so far (the roles each player may
//! still hold, the lovers), and contradictory input is refused naming the
//! event. Deaths are grouped in *steps*: a night, an old-style night kill
//! or an elimination opens one, and the hunter's shot and the lovers'
//! deaths it causes belong to it. The posterior reads the validated events
//! and steps back.

use crate::error::{Error, Result};

use super::super::model::{Event, Game, Player, PlayerSet, Side};
use super::events::{Known, RoleEvent};
use super::setup::{Role, RoleModel, RoleSet, RoleSetup};

/// How the primary deaths of a step came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A `night` event: the wolves and the poison.
    Night,
    /// An old-style night kill: the wolves.
    NightKill,
    /// The day vote.
    Vote,
}

/// The deaths that one night or one elimination caused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) cause: Cause,
    /// The living just before the step.
    pub(crate) living_before: PlayerSet,
    /// The players killed by the cause itself.
    pub(crate) primary: PlayerSet,
    /// Every death of the step (shot and lovers included).
    pub(crate) all: PlayerSet,
    /// The hunter who shot, if any.
    pub(crate) shooter: Option<Player>,
}

/// How a player died.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Death {
    /// By the cause of the step with this index (night, night kill, vote).
    Primary(usize),
    /// Shot by the hunter or of grief as a lover.
    Consequence,
}

/// An event with the living players just before it and, for a death, its
/// step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TimedRoleEvent {
    pub(crate) event: RoleEvent,
    pub(crate) living: PlayerSet,
    pub(crate) step: Option<usize>,
}

/// A validated role game.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleGame {
    setup: RoleSetup,
    model: RoleModel,
    viewer: Option<(Player, Known)>,
    events: Vec<TimedRoleEvent>,
    steps: Vec<Step>,
    living: PlayerSet,
    allowed: Vec<RoleSet>,
    /// How each dead player died.
    deaths: Vec<Option<Death>>,
    lovers: Option<(Player, Player)>,
}

impl RoleGame {
    /// A role game before any event; the viewer, if any, knows their role
    /// (or only their side) and is never a vote candidate.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for invalid model parameters or a viewer not at
    /// the table; [`Error::Inconsistent`] for a viewer role the setup lacks.
    pub fn new(
        setup: RoleSetup,
        model: RoleModel,
        viewer: Option<(Player, Known)>,
    ) -> Result<RoleGame> {
        model.validate()?;
        let present = RoleSet(
            Role::ALL
                .into_iter()
                .filter(|&r| setup.has(r))
                .fold(0, |bits, r| bits | r.bit()),
        );
        let players = setup.players() as usize;
        let mut game = RoleGame {
            setup,
            model,
            viewer,
            events: Vec::new(),
            steps: Vec::new(),
            living: setup.sides().everyone(),
            allowed: vec![present; players],
            deaths: vec![None; players],
            lovers: None,
        };
        if let Some((player, known)) = viewer {
            game.check_player(player, "viewer")?;
            game.learn(player, known)
                .map_err(|e| Error::Inconsistent(format!("viewer: {e}")))?;
        }
        Ok(game)
    }

    /// The setup.
    pub fn setup(&self) -> RoleSetup {
        self.setup
    }

    /// The model.
    pub fn model(&self) -> &RoleModel {
        &self.model
    }

    /// The viewer and what they know of themselves.
    pub fn viewer(&self) -> Option<(Player, Known)> {
        self.viewer
    }

    /// The players alive now.
    pub fn living(&self) -> PlayerSet {
        self.living
    }

    /// The roles each player may still hold by the hard facts, by seat.
    pub fn allowed(&self) -> &[RoleSet] {
        &self.allowed
    }

    /// The lovers, when a lover's death named them.
    pub fn known_lovers(&self) -> Option<(Player, Player)> {
        self.lovers
    }

    /// The events so far, in order.
    pub fn events(&self) -> impl Iterator<Item = &RoleEvent> {
        self.events.iter().map(|timed| &timed.event)
    }

    pub(crate) fn timed_events(&self) -> &[TimedRoleEvent] {
        &self.events
    }

    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether cupid's lovers `a` and `b` agree with the deaths so far. A
    /// pair named by a lover's death is the only one. Otherwise a lover
    /// whose partner is alive is alive, and two dead lovers both died by
    /// the cause of one step (the same night or vote): had one died first,
    /// the other would have died of grief at once, logged as a lover's
    /// death (so a hunter's target is never an unnamed lover).
    pub fn lovers_allowed(&self, a: Player, b: Player) -> bool {
        if let Some((x, y)) = self.lovers {
            return (a, b) == (x, y) || (a, b) == (y, x);
        }
        match (self.deaths[a.index()], self.deaths[b.index()]) {
            (None, None) => true,
            (Some(Death::Primary(x)), Some(Death::Primary(y))) => x == y,
            _ => false,
        }
    }

    /// Append `event` after checking it against the game so far.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a player not at the table or a score that
    /// is not finite; [`Error::Inconsistent`] naming the event (number and
    /// content) when it involves a dead player, contradicts the hard facts,
    /// or breaks a rule (a shot by someone who did not just die, a lover's
    /// death without cupid...). On error the game is unchanged.
    pub fn push(&mut self, event: RoleEvent) -> Result<()> {
        let mut next = self.clone();
        let number = self.events.len() + 1;
        next.apply(event.clone()).map_err(|error| match error {
            Error::Inconsistent(detail) => {
                Error::Inconsistent(format!("event {number} ({event}): {detail}"))
            }
            other => other,
        })?;
        *self = next;
        Ok(())
    }

    fn apply(&mut self, event: RoleEvent) -> Result<()> {
        let living = self.living;
        let mut step = None;
        match &event {
            RoleEvent::Night { deaths } => {
                if deaths.len() > 2 {
                    return Err(Error::Inconsistent(format!(
                        "{} deaths in one night; the wolves and the poison kill at most 2 \
                         (lovers dying of grief are `lover_death` events)",
                        deaths.len()
                    )));
                }
                if deaths.len() == 2 && !self.setup.has(Role::Witch) {
                    return Err(Error::Inconsistent(
                        "two deaths in one night need a witch's poison, the setup has no witch"
                            .into(),
                    ));
                }
                let mut primary = PlayerSet::EMPTY;
                for &victim in deaths {
                    self.check_alive(victim)?;
                    if primary.contains(victim) {
                        return Err(Error::Inconsistent(format!("{victim} listed twice")));
                    }
                    primary = primary.with(victim);
                }
                step = Some(self.open_step(Cause::Night, primary));
            }
            RoleEvent::NightKill { victim } => {
                self.check_alive(*victim)?;
                self.learn(*victim, Known::Side(Side::Village))?;
                step = Some(self.open_step(Cause::NightKill, PlayerSet::EMPTY.with(*victim)));
            }
            RoleEvent::SeerCheck { target, result } => {
                self.check_alive(*target)?;
                if self.model.sides.seer_trusted() {
                    self.learn(*target, Known::Side(*result))?;
                }
            }
            RoleEvent::Vote { voter, target } => {
                self.check_alive(*voter)?;
                self.check_alive(*target)?;
                if voter == target {
                    return Err(Error::Inconsistent(format!("{voter} votes for themselves")));
                }
            }
            RoleEvent::Behaviour { player, score } => {
                self.check_alive(*player)?;
                if !score.is_finite() {
                    return Err(Error::OutOfRange {
                        what: "behaviour score",
                        detail: format!("{score} for {player}, must be finite"),
                    });
                }
            }
            RoleEvent::Eliminated { player, shown } => {
                self.check_alive(*player)?;
                if let Some(known) = shown {
                    self.learn(*player, *known)?;
                }
                step = Some(self.open_step(Cause::Vote, PlayerSet::EMPTY.with(*player)));
            }
            RoleEvent::Revealed { player, known } => {
                self.check_player(*player, "player")?;
                self.learn(*player, *known)?;
            }
            RoleEvent::HunterShot { hunter, target } => {
                step = Some(self.shot(*hunter, *target)?);
            }
            RoleEvent::LoverDeath { player, lover } => {
                step = Some(self.lover_death(*player, *lover)?);
            }
            RoleEvent::Claim {
                player,
                role,
                check,
            } => {
                self.check_player(*player, "player")?;
                if *role == Role::Wolf {
                    return Err(Error::Inconsistent(
                        "a claim names a village-side role, never wolf".into(),
                    ));
                }
                if let Some((target, _)) = check {
                    self.check_player(*target, "checked player")?;
                    if *role != Role::Seer {
                        return Err(Error::Inconsistent(format!(
                            "only a seer claim reports a check, not a {role} claim"
                        )));
                    }
                    if target == player {
                        return Err(Error::Inconsistent(format!(
                            "{player} reports a check of themselves"
                        )));
                    }
                }
            }
        }
        self.events.push(TimedRoleEvent {
            event,
            living,
            step,
        });
        Ok(())
    }

    fn open_step(&mut self, cause: Cause, primary: PlayerSet) -> usize {
        let index = self.steps.len();
        self.steps.push(Step {
            cause,
            living_before: self.living,
            primary,
            all: primary,
            shooter: None,
        });
        for player in primary.players() {
            self.deaths[player.index()] = Some(Death::Primary(index));
        }
        self.living = PlayerSet(self.living.0 & !primary.0);
        index
    }

    fn current_step(&self, what: &str) -> Result<usize> {
        self.steps
            .len()
            .checked_sub(1)
            .ok_or_else(|| Error::Inconsistent(format!("{what} before any night or elimination")))
    }

    fn shot(&mut self, hunter: Player, target: Player) -> Result<usize> {
        self.check_player(hunter, "hunter")?;
        self.check_alive(target)?;
        let index = self.current_step("a hunter's shot")?;
        let step = self.steps[index];
        if !step.primary.contains(hunter) {
            return Err(Error::Inconsistent(format!(
                "{hunter} did not die by the wolves, the poison or the vote in the last step, \
                 so cannot shoot now"
            )));
        }
        if step.shooter.is_some() {
            return Err(Error::Inconsistent("a second shot in the same step".into()));
        }
        self.learn(hunter, Known::Role(Role::Hunter))?;
        self.steps[index].shooter = Some(hunter);
        self.kill_in_step(target, index);
        Ok(index)
    }

    fn lover_death(&mut self, player: Player, lover: Player) -> Result<usize> {
        if !self.setup.has(Role::Cupid) {
            return Err(Error::Inconsistent(
                "a lover's death needs cupid in the setup".into(),
            ));
        }
        self.check_player(lover, "lover")?;
        self.check_alive(player)?;
        let index = self.current_step("a lover's death")?;
        if !self.steps[index].all.contains(lover) {
            return Err(Error::Inconsistent(format!(
                "{lover} did not die in the last step"
            )));
        }
        if let Some((a, b)) = self.lovers {
            return Err(Error::Inconsistent(format!(
                "the lovers are already known to be {a} and {b}"
            )));
        }
        self.lovers = Some((lover, player));
        self.kill_in_step(player, index);
        Ok(index)
    }

    fn kill_in_step(&mut self, player: Player, index: usize) {
        self.steps[index].all = self.steps[index].all.with(player);
        self.deaths[player.index()] = Some(Death::Consequence);
        self.living = self.living.without(player);
    }

    fn check_player(&self, player: Player, what: &'static str) -> Result<()> {
        if player.number() > self.setup.players() {
            return Err(Error::OutOfRange {
                what,
                detail: format!("{}, allowed 1..={}", player.number(), self.setup.players()),
            });
        }
        Ok(())
    }

    fn check_alive(&self, player: Player) -> Result<()> {
        self.check_player(player, "player")?;
        if !self.living.contains(player) {
            return Err(Error::Inconsistent(format!("{player} is already dead")));
        }
        Ok(())
    }

    /// Record the hard fact `known` about `player`, and check that no role
    /// is now forced on more players than hold it.
    fn learn(&mut self, player: Player, known: Known) -> Result<()> {
        let before = self.allowed[player.index()];
        let after = before.and(known.roles());
        if after.is_empty() {
            return Err(Error::Inconsistent(format!(
                "{player} cannot be {known}: by the facts so far (and the setup) they are {before}"
            )));
        }
        self.allowed[player.index()] = after;
        for role in Role::ALL {
            let forced = self
                .allowed
                .iter()
                .filter(|&&a| a == RoleSet::only(role))
                .count();
            if forced as u32 > self.setup.count(role) {
                return Err(Error::Inconsistent(format!(
                    "{forced} players known to be {role}, the setup has {}",
                    self.setup.count(role)
                )));
            }
        }
        let wolfish = |a: &&RoleSet| **a == RoleSet::of_side(Side::Wolf);
        let village = self
            .allowed
            .iter()
            .filter(|a| !a.contains(Role::Wolf))
            .count() as u32;
        if self.allowed.iter().filter(wolfish).count() as u32 > self.setup.wolves() {
            return Err(Error::Inconsistent(format!(
                "more players known to be wolves than the {} wolves of the setup",
                self.setup.wolves()
            )));
        }
        if village > self.setup.players() - self.setup.wolves() {
            return Err(Error::Inconsistent(format!(
                "{village} players known to be on the village side, the setup has {}",
                self.setup.players() - self.setup.wolves()
            )));
        }
        Ok(())
    }

    /// The same game seen by side alone, for the published method: votes,
    /// checks and scores as they are, every death an unrevealed death
    /// unless its side was shown, a shot reveals a village-side hunter,
    /// claims dropped. A village-side viewer stays the viewer; a wolf
    /// viewer (which a side-only game cannot have) becomes a revealed wolf
    /// before the first event.
    ///
    /// # Errors
    /// Never for a validated role game; the side game's own checks are run.
    pub fn side_game(&self) -> Result<Game> {
        let village_viewer = self
            .viewer
            .filter(|(_, known)| known.side() == Side::Village)
            .map(|(player, _)| player);
        let mut game = Game::new(self.setup.sides(), self.model.sides, village_viewer)?;
        if let Some((player, known)) = self.viewer {
            if known.side() == Side::Wolf {
                game.push(Event::Revealed {
                    player,
                    side: Side::Wolf,
                })?;
            }
        }
        for timed in &self.events {
            for event in side_events(&timed.event) {
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
        RoleEvent::Night { ref deaths } => deaths.iter().map(|&p| unrevealed(p)).collect(),
        RoleEvent::NightKill { victim } => vec![Event::NightKill { victim }],
        RoleEvent::SeerCheck { target, result } => vec![Event::SeerCheck { target, result }],
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
        RoleEvent::Claim { .. } => Vec::new(),
    }
}
