//! The rules of each kind of event, checked as a [`RoleGame`] takes it
//! in: who may act (alive, the right viewer), what the rules forbid (a
//! second guard of the same player, a revote outside the tie, a shot away
//! from its step), and the hard facts an event teaches (`learn`).

use crate::error::{Error, Result};

use super::super::super::model::{Player, PlayerSet, Side};
use super::super::events::{Known, RoleEvent};
use super::super::setup::{Role, RoleSet};
use super::{Cause, Death, PendingTie, RoleGame, Step, MAX_SCORE_TOTAL};

impl RoleGame {
    pub(super) fn no_pending_tie(&self) -> Result<()> {
        match self.tie {
            Some(tie) => Err(Error::Inconsistent(format!(
                "the day of the tie of event {} has not ended: its revote ends with an \
                 `eliminated` of a tied player or `no_elimination`",
                tie.index + 1
            ))),
            None => Ok(()),
        }
    }

    pub(super) fn night(&mut self, deaths: &[Player], guarded: Option<Player>) -> Result<usize> {
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
    pub(super) fn own_check(&mut self, target: Player, result: Known) -> Result<()> {
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
            self.own_checks.push((target, result));
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
    pub(super) fn check_report(&self, result: Known) -> Result<()> {
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

    pub(super) fn vote(&self, voter: Player, target: Player) -> Result<PlayerSet> {
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

    pub(super) fn tie(&mut self, players: &[Player]) -> Result<()> {
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

    pub(super) fn behaviour(&mut self, player: Player, score: f64) -> Result<()> {
        self.check_alive(player)?;
        let total = self.scores[player.index()] + score;
        if !score.is_finite() || total.abs() > MAX_SCORE_TOTAL {
            return Err(Error::OutOfRange {
                what: crate::Argument::BehaviourScore,
                detail: format!(
                    "{score} for {player}, must be finite and keep the player's total within \
                     ±{MAX_SCORE_TOTAL:e}"
                ),
            });
        }
        self.scores[player.index()] = total;
        Ok(())
    }

    pub(super) fn claim(
        &self,
        player: Player,
        role: Role,
        check: Option<(Player, Known)>,
    ) -> Result<()> {
        self.check_alive(player)?;
        if role == Role::Wolf {
            return Err(Error::Inconsistent(
                "a claim names a village-side role, never wolf".into(),
            ));
        }
        if let Some((target, result)) = check {
            self.check_player(target, crate::Argument::CheckedPlayer)?;
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
            self.seer_viewer_tells(player, role, target, result)?;
        }
        Ok(())
    }

    /// The seer viewer's public claim of a check she logged: a true seer
    /// reports her vision, so the claim must repeat it (all of it or its
    /// side); it is then no second vision.
    fn seer_viewer_tells(
        &self,
        player: Player,
        role: Role,
        target: Player,
        result: Known,
    ) -> Result<()> {
        if self.viewer != Some((player, Known::Role(Role::Seer))) || role != Role::Seer {
            return Ok(());
        }
        let seen: Vec<Known> = self
            .own_checks
            .iter()
            .filter(|(checked, _)| *checked == target)
            .map(|&(_, known)| known)
            .collect();
        if seen.is_empty() || seen.iter().any(|&known| result.repeats(known)) {
            return Ok(());
        }
        let shown: Vec<String> = seen.iter().map(ToString::to_string).collect();
        let why = if seen.iter().any(|known| known.side() == result.side()) {
            "her own `seer` event logs only the side: log the card she saw there"
        } else {
            "a true seer reports the vision she had"
        };
        Err(Error::Inconsistent(format!(
            "the seer viewer's own check of {target} showed {}, her claim says {result}: {why}",
            shown.join(" or ")
        )))
    }

    pub(super) fn open_step(
        &mut self,
        cause: Cause,
        primary: PlayerSet,
        guarded: Option<Player>,
    ) -> usize {
        let index = self.steps.len();
        self.steps.push(Step {
            cause,
            living_before: self.living,
            primary,
            all: primary,
            shooter: None,
            guarded,
            witch: None,
        });
        for player in primary.players() {
            self.deaths[player.index()] = Some(Death::Primary(index));
        }
        self.living = PlayerSet(self.living.0 & !primary.0);
        index
    }

    pub(super) fn current_step(&self) -> usize {
        // `step_open` holds, so a step exists.
        self.steps.len().saturating_sub(1)
    }

    pub(super) fn shot(&mut self, hunter: Player, target: Player) -> Result<usize> {
        self.check_player(hunter, crate::Argument::Hunter)?;
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

    /// The wolf viewer's pack: every wolf is known, and so is everyone
    /// else's side.
    pub(super) fn pack(&mut self, wolves: &[Player]) -> Result<()> {
        let viewer = match self.viewer {
            Some((viewer, known)) if known.side() == Side::Wolf => viewer,
            _ => {
                return Err(Error::Inconsistent(
                    "only a wolf viewer (`viewer_role`: wolf) sees the pack".into(),
                ))
            }
        };
        let mut pack = PlayerSet::EMPTY;
        for &wolf in wolves {
            self.check_player(wolf, crate::Argument::Wolf)?;
            if pack.contains(wolf) {
                return Err(Error::Inconsistent(format!("{wolf} listed twice")));
            }
            pack = pack.with(wolf);
        }
        if !pack.contains(viewer) || pack.len() != self.setup.wolves() {
            return Err(Error::Inconsistent(format!(
                "the pack is every wolf, the viewer ({viewer}) among them: {} players, not {}",
                self.setup.wolves(),
                pack.len()
            )));
        }
        for player in self.setup.sides().all_players() {
            let side = if pack.contains(player) {
                Side::Wolf
            } else {
                Side::Village
            };
            self.learn(player, Known::Side(side))?;
        }
        Ok(())
    }

    /// What the viewer knows of the lovers: a lover knows the partner,
    /// cupid the pair he named, anyone else that they are no lover.
    pub(super) fn viewer_lovers(&mut self, pair: Option<(Player, Player)>) -> Result<()> {
        if !self.setup.has(Role::Cupid) {
            return Err(Error::Inconsistent(
                "the setup has no cupid, so no lovers".into(),
            ));
        }
        let Some((viewer, known)) = self.viewer else {
            return Err(Error::Inconsistent(
                "the lovers' private knowledge is a viewer's: the log needs a `viewer`".into(),
            ));
        };
        let cupid = known == Known::Role(Role::Cupid);
        match pair {
            Some((a, b)) => {
                self.check_player(a, crate::Argument::Lover)?;
                self.check_player(b, crate::Argument::Lover)?;
                if a == b {
                    return Err(Error::Inconsistent(format!("{a} named twice")));
                }
                if !cupid && viewer != a && viewer != b {
                    return Err(Error::Inconsistent(format!(
                        "the viewer ({viewer}) knows the lovers only as one of them or as \
                         cupid (`viewer_role`: cupid)"
                    )));
                }
                if !self.lovers_allowed(a, b) {
                    return Err(Error::Inconsistent(format!(
                        "{a} and {b} cannot be the lovers: the deaths so far or the viewer's \
                         earlier knowledge rule them out"
                    )));
                }
                self.private_pair = Some((a, b));
            }
            None => {
                if cupid {
                    return Err(Error::Inconsistent(
                        "the cupid viewer named the lovers: log the pair".into(),
                    ));
                }
                let named = self.lovers.or(self.private_pair);
                if named.is_some_and(|(a, b)| a == viewer || b == viewer) {
                    return Err(Error::Inconsistent(format!(
                        "the viewer ({viewer}) is known to be one of the lovers"
                    )));
                }
                self.not_lover = true;
            }
        }
        Ok(())
    }

    pub(super) fn lover_death(&mut self, player: Player, lover: Player) -> Result<usize> {
        if !self.setup.has(Role::Cupid) {
            return Err(Error::Inconsistent(
                "a lover's death needs cupid in the setup".into(),
            ));
        }
        self.check_player(lover, crate::Argument::Lover)?;
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
        if !self.privately_allowed(player, lover) {
            return Err(Error::Inconsistent(format!(
                "{player} and {lover} cannot be the lovers: the viewer knows otherwise"
            )));
        }
        self.lovers = Some((lover, player));
        self.kill_in_step(player, index);
        Ok(index)
    }

    pub(super) fn kill_in_step(&mut self, player: Player, index: usize) {
        self.steps[index].all = self.steps[index].all.with(player);
        self.deaths[player.index()] = Some(Death::Consequence);
        self.living = self.living.without(player);
    }

    pub(super) fn check_player(&self, player: Player, what: crate::Argument) -> Result<()> {
        if player.number() > self.setup.players() {
            return Err(Error::OutOfRange {
                what,
                detail: format!("{}, allowed 1..={}", player.number(), self.setup.players()),
            });
        }
        Ok(())
    }

    pub(super) fn check_alive(&self, player: Player) -> Result<()> {
        self.check_player(player, crate::Argument::Player)?;
        if !self.living.contains(player) {
            return Err(Error::Inconsistent(format!("{player} is already dead")));
        }
        Ok(())
    }

    /// Record the hard fact `known` about `player`, and check that no role
    /// is now forced on more players than hold it.
    pub(super) fn learn(&mut self, player: Player, known: Known) -> Result<()> {
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
pub(super) fn normalised(event: RoleEvent) -> RoleEvent {
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
pub(super) fn numbers(players: PlayerSet) -> String {
    players
        .players()
        .map(|p| p.number().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
