//! A validated role game: the events so far, each checked on entry against
//! the rules and the hard facts.
//!
//! A [`RoleGame`] is built event by event like the side-only
//! [`Game`](super::super::Game): every event is checked against who is
//! alive, against the hard facts so far (the roles each player may still
//! hold, the lovers), against the rules (a shot right after the hunter's
//! death, a revote among the tied players, a guard's target that is not
//! the last one), against the day-night cycle (`phase.rs`) and against the
//! end of the game when the facts make it public (at the event whose fact
//! shows an earlier end); a refusal names the event and the rule. Deaths
//! are grouped in *steps*: a night, an old-style night kill or an
//! elimination opens one, and the hunter's shot and the lovers' deaths it
//! causes follow it directly. The posterior reads the validated events,
//! steps and checkpoints back. The rules of each kind of event are in
//! `kinds.rs`, the witch viewer's night in `witch.rs`.

mod kinds;
mod phase;
mod witch;

use crate::error::{Error, Result};

use super::super::model::{Player, PlayerSet, Side};
use super::end::surely_over;
use super::events::{Known, RoleEvent, WitchView};
use super::model::RoleModel;
use super::setup::{Role, RoleSet, RoleSetup};

use kinds::{normalised, numbers};
use phase::Phase;

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
    /// A night's logged guard target.
    pub(crate) guarded: Option<Player>,
    /// The witch viewer's own night, when logged.
    pub(crate) witch: Option<WitchView>,
}

impl Step {
    /// Whether a hunter who died in this step had someone left to shoot:
    /// he shot, or someone outlived the step (his silence is then a
    /// choice; with nobody left it is none).
    pub(crate) fn leaves_a_target(&self) -> bool {
        self.shooter.is_some() || self.living_before.0 & !self.all.0 != 0
    }
}

/// How a player died.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Death {
    /// By the cause of the step with this index (night, night kill, vote).
    Primary(usize),
    /// Shot by the hunter or of grief as a lover.
    Consequence,
}

/// An event with the living players just before it, for a vote the
/// players it could have gone to, and for a death its step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TimedRoleEvent {
    pub(crate) event: RoleEvent,
    pub(crate) living: PlayerSet,
    /// A vote's possible targets: the living other than the voter, or in a
    /// revote the tied players other than the voter.
    pub(crate) choices: PlayerSet,
    pub(crate) step: Option<usize>,
}

/// A vote that tied, waiting for its revote's outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PendingTie {
    players: PlayerSet,
    /// 0-based index of the `tie` event.
    index: usize,
}

/// A validated role game.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleGame {
    setup: RoleSetup,
    model: RoleModel,
    viewer: Option<(Player, Known)>,
    /// A side-only log read by the role engine: its `seer` events are
    /// checks whose source the log does not model.
    side_log: bool,
    events: Vec<TimedRoleEvent>,
    steps: Vec<Step>,
    living: PlayerSet,
    allowed: Vec<RoleSet>,
    /// How each dead player died.
    deaths: Vec<Option<Death>>,
    lovers: Option<(Player, Player)>,
    /// Whether the last event belongs to a step that its consequences
    /// (shot, lovers' deaths) may still join.
    step_open: bool,
    /// The living at every point the game must not have ended yet (before
    /// each event that is no consequence of the step before it).
    checkpoints: Vec<PlayerSet>,
    /// For each checkpoint, the 0-based index of the last event of the
    /// step before it (none before the first step).
    checkpoint_after: Vec<Option<usize>>,
    tie: Option<PendingTie>,
    /// Where the log is in the day-night cycle.
    phase: Phase,
    /// The lovers as the viewer knows them privately (a lover or cupid).
    private_pair: Option<(Player, Player)>,
    /// The viewer knows privately that they are no lover.
    not_lover: bool,
    /// The witch viewer's night waiting for its `night`, with its index.
    pending_witch: Option<(WitchView, usize)>,
    /// The events where the witch viewer spent her antidote and poison.
    potions_used: [Option<usize>; 2],
    /// Whether the witch viewer lived through a night she did not log
    /// (her potions are then not all known).
    witch_unlogged: bool,
    /// The seer viewer's own checks so far (target, what she saw).
    own_checks: Vec<(Player, Known)>,
    /// The guard viewer's logged target of the last night, if any.
    last_guarded: Option<Player>,
    /// Each player's behaviour scores added up.
    scores: Vec<f64>,
    /// The number of events so far (kept apart from `events`, which a
    /// push does not copy).
    count: usize,
    /// The 0-based index of the last event that opened or joined a step.
    last_step_event: Option<usize>,
}

/// The largest total of one player's behaviour scores, in absolute value:
/// the engines add up to 64 of them, which stays inside the floating-point
/// range.
pub const MAX_SCORE_TOTAL: f64 = 1e300;

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
            side_log: false,
            events: Vec::new(),
            steps: Vec::new(),
            living: setup.sides().everyone(),
            allowed: vec![present; players],
            deaths: vec![None; players],
            lovers: None,
            step_open: false,
            checkpoints: Vec::new(),
            checkpoint_after: Vec::new(),
            own_checks: Vec::new(),
            phase: Phase::Start,
            private_pair: None,
            not_lover: false,
            pending_witch: None,
            potions_used: [None; 2],
            witch_unlogged: false,
            tie: None,
            last_guarded: None,
            scores: vec![0.0; players],
            count: 0,
            last_step_event: None,
        };
        if let Some((player, known)) = viewer {
            game.check_player(player, crate::Argument::Viewer)?;
            game.learn(player, known).map_err(|error| match error {
                Error::Inconsistent(detail) => Error::Inconsistent(format!("viewer: {detail}")),
                other => other,
            })?;
        }
        Ok(game)
    }

    /// A side-only game read by the role engine: the setup has no special
    /// role, and its `seer` events keep their side-only meaning (a check
    /// whose source the log does not model) instead of being the viewer's
    /// own.
    ///
    /// # Errors
    /// As [`RoleGame::new`]; [`Error::Inconsistent`] for a setup with a
    /// special role.
    pub fn for_side_log(
        setup: RoleSetup,
        model: RoleModel,
        viewer: Option<(Player, Known)>,
    ) -> Result<RoleGame> {
        if !setup.specials().is_empty() {
            return Err(Error::Inconsistent(
                "a side-only log has no special roles".into(),
            ));
        }
        let mut game = RoleGame::new(setup, model, viewer)?;
        game.side_log = true;
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

    /// Whether this is a side-only log read by the role engine.
    pub fn is_side_log(&self) -> bool {
        self.side_log
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

    /// The number of events so far.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no event happened yet.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The same game after its first `events` events only (all of them
    /// when `events` is larger).
    ///
    /// # Errors
    /// Never for a validated game: its prefixes were validated on the way.
    pub fn prefix(&self, events: usize) -> Result<RoleGame> {
        let mut game = RoleGame::new(self.setup, self.model, self.viewer)?;
        game.side_log = self.side_log;
        for timed in self.events.iter().take(events) {
            game.push(timed.event.clone())?;
        }
        Ok(game)
    }

    pub(crate) fn timed_events(&self) -> &[TimedRoleEvent] {
        &self.events
    }

    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The living at every point where the game must not have ended yet.
    pub(crate) fn checkpoints(&self) -> &[PlayerSet] {
        &self.checkpoints
    }

    /// Each player's behaviour scores added up, by seat.
    pub(crate) fn score_totals(&self) -> &[f64] {
        &self.scores
    }

    /// Whether cupid's lovers `a` and `b` agree with the deaths so far. A
    /// pair named by a lover's death is the only one. Otherwise a lover
    /// whose partner is alive is alive, and two dead lovers both died by
    /// the cause of one step (the same night or vote): had one died first,
    /// the other would have died of grief at once, logged as a lover's
    /// death (so a hunter's target is never an unnamed lover). The
    /// viewer's private knowledge (the pair, or being no lover) holds too.
    pub fn lovers_allowed(&self, a: Player, b: Player) -> bool {
        if let Some((x, y)) = self.lovers {
            return (a, b) == (x, y) || (a, b) == (y, x);
        }
        if !self.privately_allowed(a, b) {
            return false;
        }
        match (self.deaths[a.index()], self.deaths[b.index()]) {
            (None, None) => true,
            (Some(Death::Primary(x)), Some(Death::Primary(y))) => x == y,
            _ => false,
        }
    }

    /// Refuse a fact that shows the game over at a point already passed:
    /// the event that taught it is the first one no hypothesis explains.
    fn ended_before(&self) -> Result<()> {
        for (&living, &after) in self.checkpoints.iter().zip(&self.checkpoint_after) {
            if let Some(reason) = public_end(self, living, after) {
                return Err(Error::Inconsistent(format!(
                    "what this event shows ends the game at an earlier point: {reason}"
                )));
            }
        }
        Ok(())
    }

    /// Whether the viewer's private knowledge (the pair, or being no
    /// lover) allows `a` and `b` as the lovers.
    pub(crate) fn privately_allowed(&self, a: Player, b: Player) -> bool {
        let same = |(x, y): (Player, Player)| (a, b) == (x, y) || (a, b) == (y, x);
        if self.private_pair.is_some_and(|pair| !same(pair)) {
            return false;
        }
        !(self.not_lover && self.viewer.is_some_and(|(v, _)| v == a || v == b))
    }

    /// Append `event` after checking it against the game so far.
    ///
    /// # Errors
    /// [`Error::AtEvent`] with the event's index and content, around an
    /// [`Error::OutOfRange`] for a player not at the table or a score out
    /// of range, or an [`Error::Inconsistent`] when the event involves a
    /// dead player, contradicts the hard facts, breaks a rule (a shot by
    /// someone who did not just die, a lover's death without cupid, a
    /// revote outside the tie, a `seer` event by a viewer who is not the
    /// seer...) or comes after the game has publicly ended. On error the
    /// game is unchanged.
    pub fn push(&mut self, event: RoleEvent) -> Result<()> {
        // Validate on a copy of everything but the events (which a long
        // log would copy once per event), then append.
        let index = self.count;
        let events = std::mem::take(&mut self.events);
        let mut next = self.clone();
        self.events = events;
        next.apply(event.clone())
            .map_err(|error| error.at_event(index, Some(event.to_string())))?;
        let mut events = std::mem::take(&mut self.events);
        events.append(&mut next.events);
        next.events = events;
        *self = next;
        Ok(())
    }

    fn apply(&mut self, event: RoleEvent) -> Result<()> {
        let living = self.living;
        let event = normalised(event);
        if event.is_consequence() {
            if !self.step_open {
                return Err(Error::Inconsistent(
                    "a hunter's shot or a lover's death follows the night or elimination that \
                     caused it directly (only other shots and lovers' deaths in between)"
                        .into(),
                ));
            }
        } else {
            if let Some(reason) = public_end(self, living, self.last_step_event) {
                return Err(Error::Inconsistent(reason));
            }
            self.step_open = false;
            if self.checkpoints.last() != Some(&living) {
                self.checkpoints.push(living);
                self.checkpoint_after.push(self.last_step_event);
            }
        }
        self.follow_cycle(&event, self.count)?;
        let known_before = self.allowed.clone();
        if let Some((_, at)) = self.pending_witch {
            if matches!(
                event,
                RoleEvent::NightKill { .. } | RoleEvent::Eliminated { .. }
            ) {
                return Err(Error::Inconsistent(format!(
                    "the witch's night of event {} is followed by the `night` that announces \
                     its deaths",
                    at + 1
                )));
            }
        }
        let mut choices = living;
        let mut step = None;
        match &event {
            RoleEvent::Night { deaths, guarded } => {
                self.no_pending_tie()?;
                let witch_alive = matches!(
                    self.viewer,
                    Some((viewer, Known::Role(Role::Witch))) if living.contains(viewer)
                );
                let index = self.night(deaths, *guarded)?;
                if let Some((view, _)) = self.pending_witch.take() {
                    self.witch_deaths(view, deaths)?;
                    self.steps[index].witch = Some(view);
                } else if witch_alive {
                    self.witch_unlogged = true;
                }
                step = Some(index);
            }
            RoleEvent::NightKill { victim } => {
                self.no_pending_tie()?;
                self.check_alive(*victim)?;
                self.learn(*victim, Known::Side(Side::Village))?;
                self.last_guarded = None;
                step = Some(self.open_step(Cause::NightKill, PlayerSet::EMPTY.with(*victim), None));
            }
            RoleEvent::SeerCheck { target, result } => self.own_check(*target, *result)?,
            RoleEvent::Vote { voter, target } => choices = self.vote(*voter, *target)?,
            RoleEvent::Tie { players } => self.tie(players)?,
            RoleEvent::NoElimination => {
                if self.tie.take().is_none() {
                    return Err(Error::Inconsistent(
                        "nobody is spared the vote but after a second tie: `no_elimination` \
                         follows a `tie` and its revote"
                            .into(),
                    ));
                }
            }
            RoleEvent::Behaviour { player, score } => self.behaviour(*player, *score)?,
            RoleEvent::Eliminated { player, shown } => {
                self.check_alive(*player)?;
                if let Some(tie) = self.tie.take() {
                    if !tie.players.contains(*player) {
                        return Err(Error::Inconsistent(format!(
                            "the revote after the tie of event {} is among players {}",
                            tie.index + 1,
                            numbers(tie.players)
                        )));
                    }
                }
                if let Some(known) = shown {
                    self.learn(*player, *known)?;
                }
                step = Some(self.open_step(Cause::Vote, PlayerSet::EMPTY.with(*player), None));
            }
            RoleEvent::Revealed { player, known } => {
                self.check_player(*player, crate::Argument::Player)?;
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
            } => self.claim(*player, *role, *check)?,
            RoleEvent::Pack { wolves } => self.pack(wolves)?,
            RoleEvent::Lovers { pair } => self.viewer_lovers(*pair)?,
            RoleEvent::WitchNight {
                shown,
                saved,
                poisoned,
            } => self.witch_night(
                WitchView {
                    shown: *shown,
                    saved: *saved,
                    poisoned: *poisoned,
                },
                self.count,
            )?,
            RoleEvent::SelfDestruct { player } => {
                self.check_alive(*player)?;
                self.learn(*player, Known::Side(Side::Wolf))?;
                // The day stops at once, a revote included.
                self.tie = None;
            }
        }
        if self.allowed != known_before {
            self.ended_before()?;
        }
        if step.is_some() {
            self.step_open = true;
            self.last_step_event = Some(self.count);
        }
        self.count += 1;
        self.events.push(TimedRoleEvent {
            event,
            living,
            choices,
            step,
        });
        Ok(())
    }
}

/// Why no event can follow a point where `living` were alive, the last
/// step before it ending with event `after` (0-based), when the hard
/// facts alone say the game was over there: every wolf is known dead, or
/// the wolves known alive (or that must be alive, since too few of the
/// dead can be wolves) reach parity.
pub(crate) fn public_end(
    game: &RoleGame,
    living: PlayerSet,
    after: Option<usize>,
) -> Option<String> {
    let setup = game.setup();
    let (mut known_dead, mut maybe_dead, mut known_alive, mut maybe_alive) = (0, 0, 0, 0);
    for player in setup.sides().all_players() {
        let roles = game.allowed()[player.index()];
        let known = roles == RoleSet::only(Role::Wolf);
        let maybe = roles.contains(Role::Wolf);
        match (living.contains(player), known, maybe) {
            (true, true, _) => known_alive += 1,
            (true, false, true) => maybe_alive += 1,
            (false, true, _) => known_dead += 1,
            (false, false, true) => maybe_dead += 1,
            _ => {}
        }
    }
    let wolves = setup.wolves();
    let most_alive = (wolves - known_dead.min(wolves)).min(known_alive + maybe_alive);
    let least_alive = known_alive.max(wolves.saturating_sub(known_dead + maybe_dead));
    let when = match after {
        Some(index) => format!("after event {}", index + 1),
        None => "before the first event".to_string(),
    };
    if most_alive == 0 {
        return Some(format!(
            "the game is over {when}: every wolf is dead, the village has won; no event follows"
        ));
    }
    // A wolf-villager pair of lovers alive would take its wolf out of the
    // pack's count; the pair named by a death is dead.
    let mixed_lovers_possible = setup.has(Role::Cupid) && game.lovers.is_none();
    if surely_over(least_alive, living.len(), mixed_lovers_possible) {
        return Some(format!(
            "the game is over {when}: at least {least_alive} wolves alive among {} players, \
             the wolves (or a wolf-villager pair of lovers) have won; no event follows",
            living.len()
        ));
    }
    None
}
