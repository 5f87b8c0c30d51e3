//! The published approximate method, implemented as described so that it
//! can be compared with the exact posterior.
//!
//! It keeps one wolf probability per living player and updates each
//! independently in log-odds:
//! - a vote from j to k is evidence about the voter j, with the fixed
//!   likelihoods P(vote | j wolf) = 0.75 (1 - b_k) + 0.10 b_k (a wolf votes
//!   for a villager with 0.75, for a fellow wolf with 0.10) and
//!   P(vote | j village) = 0.60 (a villager votes at random; the 0.60 does
//!   not depend on the target), using k's current belief b_k;
//! - a seer result adds +2 (wolf) or -2 (village) to the target's log-odds,
//!   whatever the seer's accuracy;
//! - a behaviour score s adds s/2 to the wolf side and subtracts s/2 from
//!   the other, i.e. +s to the log-odds;
//! - a death removes the player; a revealed wolf lowers the number of living
//!   wolves by one, an unrevealed death by the player's belief.
//!
//! After every event the beliefs of the living players whose side is not
//! known are multiplied by one factor so that they sum to the number of
//! living wolves, the factor clamped to [0.3, 3], then each belief clipped to
//! [0.01, 0.99]. Players whose side is known without a death (the viewer, a
//! [`Event::Revealed`] event, which the published method has no notion of)
//! keep belief 0 or 1 and stay out of the rescaling.
//!
//! Its information gain is the drop of the sum of per-player binary
//! entropies expected from eliminating a candidate, learning their side and
//! running the same update; candidates are scored by a [`ScoringRule`].

use super::model::{Event, Game, Player, PlayerSet, Side};
use super::scoring::{binary_entropy_bits, sort_candidates, Candidate, ScoringRule};

/// P(a wolf votes for a given villager) in the published method.
pub const WOLF_VOTES_VILLAGE: f64 = 0.75;
/// P(a wolf votes for a given fellow wolf) in the published method.
pub const WOLF_VOTES_WOLF: f64 = 0.10;
/// P(a villager casts a given vote) in the published method.
pub const VILLAGER_VOTE: f64 = 0.60;
/// Log-odds added by a seer result.
pub const SEER_LOG_ODDS: f64 = 2.0;
/// Bounds of the rescaling factor.
pub const SCALE_RANGE: (f64, f64) = (0.3, 3.0);
/// Bounds every rescaled belief is clipped to.
pub const BELIEF_RANGE: (f64, f64) = (0.01, 0.99);

/// The published method's beliefs after a game's events.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    living: PlayerSet,
    viewer: Option<Player>,
    /// Belief per seat index; dead players keep their last belief (0 or 1
    /// when their role was revealed).
    beliefs: Vec<f64>,
    /// Players whose side is known without a death.
    pinned: PlayerSet,
    /// The number of living wolves the beliefs are rescaled to.
    living_wolves: f64,
}

fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Baseline {
    /// Run the published update over every event of `game`.
    pub fn run(game: &Game) -> Baseline {
        let setup = game.setup();
        let prior = f64::from(setup.wolves()) / f64::from(setup.players());
        let mut baseline = Baseline {
            living: setup.everyone(),
            viewer: game.viewer(),
            beliefs: vec![prior; setup.players() as usize],
            pinned: PlayerSet::EMPTY,
            living_wolves: f64::from(setup.wolves()),
        };
        if let Some(viewer) = game.viewer() {
            baseline.pin(viewer, Side::Village);
        }
        baseline.rescale();
        for event in game.events() {
            baseline.apply(event);
        }
        baseline
    }

    /// The belief that `player` is a wolf.
    pub fn p_wolf(&self, player: Player) -> f64 {
        self.beliefs.get(player.index()).copied().unwrap_or(0.0)
    }

    /// Beliefs by seat index.
    pub fn beliefs(&self) -> &[f64] {
        &self.beliefs
    }

    /// The method's entropy: the sum of the binary entropies (bits) of the
    /// living players' beliefs.
    pub fn entropy(&self) -> f64 {
        self.living
            .players()
            .map(|p| binary_entropy_bits(self.p_wolf(p)))
            .sum()
    }

    /// The living players (the viewer left out) scored by `rule` with this
    /// method's beliefs and information gain, best first.
    pub fn rank(&self, rule: ScoringRule) -> Vec<Candidate> {
        let entropy = self.entropy();
        let mut candidates: Vec<Candidate> = self
            .living
            .players()
            .filter(|&p| Some(p) != self.viewer)
            .map(|player| {
                let information_gain = entropy - self.expected_entropy_after(player);
                Candidate::scored(player, self.p_wolf(player), information_gain, rule, entropy)
            })
            .collect();
        sort_candidates(&mut candidates);
        candidates
    }

    fn expected_entropy_after(&self, player: Player) -> f64 {
        let p_wolf = self.p_wolf(player);
        [(Side::Wolf, p_wolf), (Side::Village, 1.0 - p_wolf)]
            .into_iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|(side, p)| {
                let mut after = self.clone();
                after.apply(&Event::Eliminated {
                    player,
                    revealed: Some(side),
                });
                p * after.entropy()
            })
            .sum()
    }

    fn apply(&mut self, event: &Event) {
        match *event {
            Event::NightKill { victim } => self.die(victim, Some(Side::Village)),
            Event::SeerCheck { target, result } => {
                let shift = match result {
                    Side::Wolf => SEER_LOG_ODDS,
                    Side::Village => -SEER_LOG_ODDS,
                };
                self.shift(target, shift);
            }
            Event::Vote { voter, target } => {
                let b_target = self.p_wolf(target);
                let if_wolf = WOLF_VOTES_VILLAGE * (1.0 - b_target) + WOLF_VOTES_WOLF * b_target;
                self.shift(voter, (if_wolf / VILLAGER_VOTE).ln());
            }
            Event::Eliminated { player, revealed } => self.die(player, revealed),
            Event::Revealed { player, side } => {
                if self.living.contains(player) {
                    self.pin(player, side);
                } else {
                    // A dead player's role learned late: correct the count
                    // that was lowered by their belief at death.
                    let known = if side == Side::Wolf { 1.0 } else { 0.0 };
                    self.living_wolves += self.p_wolf(player) - known;
                    self.beliefs[player.index()] = known;
                }
            }
            Event::Behaviour { player, score } => self.shift(player, score),
        }
        self.rescale();
    }

    fn shift(&mut self, player: Player, log_odds: f64) {
        if self.pinned.contains(player) || !self.living.contains(player) {
            return;
        }
        let belief = &mut self.beliefs[player.index()];
        *belief = logistic(logit(*belief) + log_odds);
    }

    fn pin(&mut self, player: Player, side: Side) {
        self.pinned = self.pinned.with(player);
        self.beliefs[player.index()] = if side == Side::Wolf { 1.0 } else { 0.0 };
    }

    fn die(&mut self, player: Player, revealed: Option<Side>) {
        if !self.living.contains(player) {
            return;
        }
        self.living = self.living.without(player);
        let belief = &mut self.beliefs[player.index()];
        match revealed {
            Some(Side::Wolf) => {
                self.living_wolves -= 1.0;
                *belief = 1.0;
            }
            Some(Side::Village) => *belief = 0.0,
            None => self.living_wolves -= *belief,
        }
    }

    fn rescale(&mut self) {
        let free = PlayerSet(self.living.0 & !self.pinned.0);
        let pinned_wolves = PlayerSet(self.living.0 & self.pinned.0)
            .players()
            .map(|p| self.p_wolf(p))
            .sum::<f64>();
        let target = self.living_wolves - pinned_wolves;
        let sum: f64 = free.players().map(|p| self.p_wolf(p)).sum();
        if free.is_empty() || sum <= 0.0 {
            return;
        }
        let factor = (target / sum).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        for player in free.players() {
            let belief = &mut self.beliefs[player.index()];
            *belief = (*belief * factor).clamp(BELIEF_RANGE.0, BELIEF_RANGE.1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::werewolf::{EvidenceModel, Setup};

    #[test]
    fn seer_result_moves_log_odds_by_two_before_rescaling() {
        // One event, then a rescale that cannot change anything: a single
        // free player left.
        let setup = Setup::new(2, 1).unwrap();
        let p1 = Player::from_number(1, setup).unwrap();
        let game = Game::new(setup, EvidenceModel::default(), None).unwrap();
        let baseline = Baseline::run(&game);
        assert_eq!(baseline.p_wolf(p1), 0.5);
        let mut shifted = baseline.clone();
        shifted.shift(p1, SEER_LOG_ODDS);
        assert!((shifted.p_wolf(p1) - logistic(2.0)).abs() < 1e-15);
    }

    #[test]
    fn rescaling_keeps_the_sum_when_the_factor_is_free() {
        let setup = Setup::new(8, 2).unwrap();
        let p = |n| Player::from_number(n, setup).unwrap();
        let mut game = Game::new(setup, EvidenceModel::default(), None).unwrap();
        game.push(Event::Behaviour {
            player: p(3),
            score: 0.5,
        })
        .unwrap();
        game.push(Event::Vote {
            voter: p(4),
            target: p(3),
        })
        .unwrap();
        let baseline = Baseline::run(&game);
        let sum: f64 = baseline.beliefs().iter().sum();
        assert!((sum - 2.0).abs() < 1e-12, "{sum}");
        assert!(baseline.p_wolf(p(3)) > 0.25 && baseline.p_wolf(p(4)) < 0.25);
    }
}
