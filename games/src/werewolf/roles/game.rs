//! A validated role game: the events so far, each checked on entry against
//! the rules and the hard facts.
//!
//! A [`RoleGame`] is built event by event like the side-only
//! [`Game`](super::super::Game): every event is checked against who is
//! alive, against the hard facts so far (the roles each player may still
//! hold, the lovers), against the rules (a shot right after the hunter's
//! death, a revote among the tied players, a guard's target that is not
//! the last one) and against the end of the game when the facts make it
//! public; a refusal names the event. Deaths are grouped in *steps*: a
//! night, an old-style night kill or an elimination opens one, and the
//! hunter's shot and the lovers' deaths it causes follow it directly. The
//! posterior reads the validated events, steps and checkpoints back.

use crate::error::{Error, Result};

use super::super::model::{Player, PlayerSet, Side};
use super::end::public_end;
use super::events::{Known, RoleEvent};
use super::model::RoleModel;
use super::setup::{Role, RoleSet, RoleSetup};

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
    tie: Option<PendingTie>,
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
            tie: None,
            last_guarded: None,
            scores: vec![0.0; players],
            count: 0,
            last_step_event: None,
        };
        if let Some((player, known)) = viewer {
            game.check_player(player, "viewer")?;
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

    /// The 0-based index of the last event of the last step, if any.
    pub(crate) fn last_step_event(&self) -> Option<usize> {
        self.last_step_event
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
            if let Some(reason) = public_end(self) {
                return Err(Error::Inconsistent(reason));
            }
            self.step_open = false;
            if self.checkpoints.last() != Some(&living) {
                self.checkpoints.push(living);
            }
        }
        let mut choices = living;
        let mut step = None;
        match &event {
            RoleEvent::Night { deaths, guarded } => {
                self.no_pending_tie()?;
                step = Some(self.night(deaths, *guarded)?);
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
            } => self.claim(*player, *role, *check)?,
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

    fn no_pending_tie(&self) -> Result<()> {
        match self.tie {
            Some(tie) => Err(Error::Inconsistent(format!(
                "the day of the tie of event {} has not ended: its revote ends with an \
                 `eliminated` of a tied player or `no_elimination`",
                tie.index + 1
            ))),
            None => Ok(()),
        }
    }

    fn night(&mut self, deaths: &[Player], guarded: Option<Player>) -> Result<usize> {
        if deaths.len() > 2 {
            return Err(Error::Inconsistent(format!(
                "{} deaths in one night; the wolves and the poison kill at most 2 \
                 (lovers dying of grief are `lover_death` events)",
                deaths.len()
            )));
        }
        if deaths.len() == 2 && !self.setup.has(Role::Witch) {
            return Err(Error::Inconsistent(
                "two deaths in one night need a witch's poison, the setup has no witch".into(),
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
        if let Some(target) = guarded {
            match self.viewer {
                Some((viewer, Known::Role(Role::Guard))) if self.living.contains(viewer) => {}
                Some((_, Known::Role(Role::Guard))) => {
                    return Err(Error::Inconsistent(
                        "the guard is dead: he protects nobody".into(),
                    ))
                }
                _ => {
                    return Err(Error::Inconsistent(
                        "only a guard viewer logs the guard's target (`viewer_role`: guard)".into(),
                    ))
                }
            }
            self.check_alive(target)?;
            if self.last_guarded == Some(target) {
                return Err(Error::Inconsistent(format!(
                    "the guard never protects the same player two nights running ({target} \
                     was protected the night before)"
                )));
            }
        }
        self.last_guarded = guarded;
        Ok(self.open_step(Cause::Night, primary, guarded))
    }

    /// The viewer's own seer check (or a side-only log's unmodelled one).
    fn own_check(&mut self, target: Player, result: Known) -> Result<()> {
        self.check_alive(target)?;
        if !self.side_log {
            match self.viewer {
                Some((viewer, Known::Role(Role::Seer))) => {
                    if !self.living.contains(viewer) {
                        return Err(Error::Inconsistent(
                            "the seer is dead: she checks nobody".into(),
                        ));
                    }
                    if viewer == target {
                        return Err(Error::Inconsistent(
                            "the seer checks another player, not herself".into(),
                        ));
                    }
                }
                _ => {
                    return Err(Error::Inconsistent(
                        "a `seer` event is the viewer's own check: it needs the seer as the \
                         viewer (`viewer_role`: seer); another player's report is a seer \
                         `claim` with a `target` and a `result`"
                            .into(),
                    ))
                }
            }
            self.check_report(result)?;
        } else if let Known::Role(role) = result {
            return Err(Error::Inconsistent(format!(
                "a side-only log's check reports a side, not the {role}"
            )));
        }
        if self.model.sides.seer_trusted() {
            self.learn(target, result)?;
        }
        Ok(())
    }

    /// A seer's report names a card the setup holds, never a second seer.
    fn check_report(&self, result: Known) -> Result<()> {
        match result {
            Known::Role(Role::Seer) => Err(Error::Inconsistent(
                "a seer never sees a second seer".into(),
            )),
            Known::Role(role) if !self.setup.has(role) => {
                Err(Error::Inconsistent(format!("the setup has no {role} card")))
            }
            _ => Ok(()),
        }
    }

    fn vote(&self, voter: Player, target: Player) -> Result<PlayerSet> {
        self.check_alive(voter)?;
        self.check_alive(target)?;
        if voter == target {
            return Err(Error::Inconsistent(format!("{voter} votes for themselves")));
        }
        match self.tie {
            Some(tie) if !tie.players.contains(target) => Err(Error::Inconsistent(format!(
                "the revote after the tie of event {} is among players {}",
                tie.index + 1,
                numbers(tie.players)
            ))),
            Some(tie) => Ok(tie.players.without(voter)),
            None => Ok(self.living.without(voter)),
        }
    }

    fn tie(&mut self, players: &[Player]) -> Result<()> {
        if let Some(tie) = self.tie {
            return Err(Error::Inconsistent(format!(
                "the revote after the tie of event {} tied again: nobody is voted out \
                 (`no_elimination`)",
                tie.index + 1
            )));
        }
        let mut set = PlayerSet::EMPTY;
        for &player in players {
            self.check_alive(player)?;
            if set.contains(player) {
                return Err(Error::Inconsistent(format!("{player} listed twice")));
            }
            set = set.with(player);
        }
        if set.len() < 2 {
            return Err(Error::Inconsistent(
                "a tie is between two players or more".into(),
            ));
        }
        self.tie = Some(PendingTie {
            players: set,
            index: self.count,
        });
        Ok(())
    }

    fn behaviour(&mut self, player: Player, score: f64) -> Result<()> {
        self.check_alive(player)?;
        let total = self.scores[player.index()] + score;
        if !score.is_finite() || total.abs() > MAX_SCORE_TOTAL {
            return Err(Error::OutOfRange {
                what: "behaviour score",
                detail: format!(
                    "{score} for {player}, must be finite and keep the player's total within \
                     ±{MAX_SCORE_TOTAL:e}"
                ),
            });
        }
        self.scores[player.index()] = total;
        Ok(())
    }

    fn claim(&self, player: Player, role: Role, check: Option<(Player, Known)>) -> Result<()> {
        self.check_alive(player)?;
        if role == Role::Wolf {
            return Err(Error::Inconsistent(
                "a claim names a village-side role, never wolf".into(),
            ));
        }
        if let Some((target, result)) = check {
            self.check_player(target, "checked player")?;
            if role != Role::Seer {
                return Err(Error::Inconsistent(format!(
                    "only a seer claim reports a check, not a {role} claim"
                )));
            }
            if target == player {
                return Err(Error::Inconsistent(format!(
                    "{player} reports a check of themselves"
                )));
            }
            self.check_report(result)?;
        }
        Ok(())
    }

    fn open_step(&mut self, cause: Cause, primary: PlayerSet, guarded: Option<Player>) -> usize {
        let index = self.steps.len();
        self.steps.push(Step {
            cause,
            living_before: self.living,
            primary,
            all: primary,
            shooter: None,
            guarded,
        });
        for player in primary.players() {
            self.deaths[player.index()] = Some(Death::Primary(index));
        }
        self.living = PlayerSet(self.living.0 & !primary.0);
        index
    }

    fn current_step(&self) -> usize {
        // `step_open` holds, so a step exists.
        self.steps.len().saturating_sub(1)
    }

    fn shot(&mut self, hunter: Player, target: Player) -> Result<usize> {
        self.check_player(hunter, "hunter")?;
        self.check_alive(target)?;
        let index = self.current_step();
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
        let index = self.current_step();
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
        let village = self
            .allowed
            .iter()
            .filter(|a| !a.contains(Role::Wolf))
            .count() as u32;
        if village > self.setup.players() - self.setup.wolves() {
            return Err(Error::Inconsistent(format!(
                "{village} players known to be on the village side, the setup has {}",
                self.setup.players() - self.setup.wolves()
            )));
        }
        Ok(())
    }
}

/// The event in one canonical form: a reported or shown "wolf" card is the
/// wolf side (the same fact either way).
fn normalised(event: RoleEvent) -> RoleEvent {
    let canonical = |known: Known| match known {
        Known::Role(Role::Wolf) => Known::Side(Side::Wolf),
        other => other,
    };
    match event {
        RoleEvent::SeerCheck { target, result } => RoleEvent::SeerCheck {
            target,
            result: canonical(result),
        },
        RoleEvent::Claim {
            player,
            role,
            check,
        } => RoleEvent::Claim {
            player,
            role,
            check: check.map(|(target, result)| (target, canonical(result))),
        },
        other => other,
    }
}

/// "3, 5" for a set of players.
fn numbers(players: PlayerSet) -> String {
    players
        .players()
        .map(|p| p.number().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
