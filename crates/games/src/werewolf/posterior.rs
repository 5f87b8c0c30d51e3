//! The exact posterior over wolf sets, by enumeration.
//!
//! The hard facts of a [`Game`] (revealed roles, a trusted seer) fix some
//! players' sides; every way of placing the remaining wolves among the other
//! players is one hypothesis, a `u64` bitmask, under a uniform prior. Each
//! event contributes its log-likelihood under each hypothesis (see
//! [`EvidenceModel`](super::EvidenceModel)); the sums are exponentiated
//! after subtracting their maximum and normalised. Marginals, the joint
//! entropy and the entropy expected after eliminating each player and
//! learning their side follow by summing over the hypotheses.

use crate::error::{Error, Result};

use super::model::{Event, Game, Player, PlayerSet, Setup, Side, TimedEvent};

/// Largest number of wolf sets [`Posterior::compute`] enumerates (2^20): the
/// number of ways to place the wolves not yet known among the players whose
/// side is not known. C(12, 4) = 495 for a fresh 12-player, 4-wolf game;
/// C(24, 6) = 134,596 and C(20, 10) = 184,756 still fit, C(28, 8) =
/// 3,108,105 does not.
pub const MAX_WOLF_SETS: u64 = 1 << 20;

/// One event compiled into a form evaluated cheaply per wolf set.
enum Term {
    /// Wolves kill a living village-side player uniformly: log-likelihood
    /// `-ln(living village)`, looked up by the number of wolves alive.
    NightKill { living: u64, ln_choice: Vec<f64> },
    /// A seer check with accuracy below 1.
    Seer {
        target: u64,
        says_wolf: bool,
        ln_right: f64,
        ln_wrong: f64,
    },
    /// A vote: `ln_weight[voter is wolf][target is wolf]` minus the log of
    /// the voter's normalising sum, looked up by the wolves among the
    /// voter's possible targets.
    Vote {
        voter: u64,
        target: u64,
        others: u64,
        ln_weight: [[f64; 2]; 2],
        ln_total: [Vec<f64>; 2],
    },
    /// A behaviour score: `+score` when the player is a wolf.
    Behaviour { player: u64, score: f64 },
}

impl Term {
    fn compile(timed: &TimedEvent, game: &Game) -> Option<Term> {
        let model = game.model();
        let wolves = game.setup().wolves() as usize;
        match timed.event {
            Event::NightKill { .. } => {
                let alive = timed.living.len() as usize;
                let ln_choice = (0..=wolves)
                    .map(|w| -(alive.saturating_sub(w).max(1) as f64).ln())
                    .collect();
                Some(Term::NightKill {
                    living: timed.living.0,
                    ln_choice,
                })
            }
            Event::SeerCheck { target, result } => (!model.seer_trusted()).then(|| Term::Seer {
                target: PlayerSet::EMPTY.with(target).0,
                says_wolf: result == Side::Wolf,
                ln_right: model.seer_accuracy.ln(),
                ln_wrong: (1.0 - model.seer_accuracy).ln(),
            }),
            Event::Vote { voter, target } => {
                let others = timed.living.without(voter);
                let n = others.len() as usize;
                let sides = [Side::Village, Side::Wolf];
                let ln_weight = sides.map(|v| sides.map(|t| model.votes.weight(v, t).ln()));
                let ln_total = sides.map(|v| {
                    let on_wolf = model.votes.weight(v, Side::Wolf);
                    let on_village = model.votes.weight(v, Side::Village);
                    (0..=wolves.min(n))
                        .map(|c| (on_wolf * c as f64 + on_village * (n - c) as f64).ln())
                        .collect()
                });
                Some(Term::Vote {
                    voter: PlayerSet::EMPTY.with(voter).0,
                    target: PlayerSet::EMPTY.with(target).0,
                    others: others.0,
                    ln_weight,
                    ln_total,
                })
            }
            Event::Behaviour { player, score } => Some(Term::Behaviour {
                player: PlayerSet::EMPTY.with(player).0,
                score,
            }),
            // Hard facts: already applied by restricting the wolf sets. An
            // elimination follows from the votes and adds no likelihood.
            Event::Eliminated { .. } | Event::Revealed { .. } => None,
        }
    }

    #[inline]
    fn log_likelihood(&self, wolves: u64) -> f64 {
        match self {
            Term::NightKill { living, ln_choice } => {
                ln_choice[(wolves & living).count_ones() as usize]
            }
            Term::Seer {
                target,
                says_wolf,
                ln_right,
                ln_wrong,
            } => {
                if (wolves & target != 0) == *says_wolf {
                    *ln_right
                } else {
                    *ln_wrong
                }
            }
            Term::Vote {
                voter,
                target,
                others,
                ln_weight,
                ln_total,
            } => {
                let voter_wolf = usize::from(wolves & voter != 0);
                let target_wolf = usize::from(wolves & target != 0);
                let among = (wolves & others).count_ones() as usize;
                ln_weight[voter_wolf][target_wolf] - ln_total[voter_wolf][among]
            }
            Term::Behaviour { player, score } => {
                if wolves & player != 0 {
                    *score
                } else {
                    0.0
                }
            }
        }
    }
}

/// C(n, k) in u128 (n <= 64, so it cannot overflow).
fn binomial(n: u32, k: u32) -> u128 {
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// Every set of `wolves` players inside `pool`, each joined with `fixed`,
/// in increasing order of the chosen bits (Gosper's hack on the pool's
/// positions).
fn wolf_sets(pool: PlayerSet, wolves: u32, fixed: PlayerSet) -> Vec<PlayerSet> {
    let positions: Vec<u32> = pool.players().map(|p| p.index() as u32).collect();
    let m = positions.len() as u32;
    let scatter = |combo: u128| {
        let mut bits = combo;
        let mut set = fixed.0;
        while bits != 0 {
            set |= 1u64 << positions[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        PlayerSet(set)
    };
    let mut sets = Vec::with_capacity(binomial(m, wolves) as usize);
    if wolves == 0 {
        sets.push(fixed);
        return sets;
    }
    let limit = 1u128 << m;
    let mut combo: u128 = (1u128 << wolves) - 1;
    while combo < limit {
        sets.push(scatter(combo));
        let lowest = combo & combo.wrapping_neg();
        let ripple = combo + lowest;
        combo = (((ripple ^ combo) >> 2) / lowest) | ripple;
    }
    sets
}

/// What eliminating one player and learning their side is expected to do
/// to the joint entropy of the wolf set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EliminationOutcome {
    /// The player eliminated.
    pub player: Player,
    /// P(the player is a wolf).
    pub p_wolf: f64,
    /// Joint entropy (bits) after learning the player is a wolf (0 when
    /// that is impossible).
    pub entropy_if_wolf: f64,
    /// Joint entropy (bits) after learning the player is village-side (0
    /// when that is impossible).
    pub entropy_if_village: f64,
    /// The expectation of the two, weighted by their probabilities.
    pub expected_entropy: f64,
    /// Joint entropy now minus the expected entropy after (bits). Exactly
    /// the binary entropy of `p_wolf`, since the side is a function of the
    /// wolf set.
    pub information_gain: f64,
}

/// The exact posterior distribution over wolf sets of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Posterior {
    setup: Setup,
    living: PlayerSet,
    viewer: Option<Player>,
    wolf_sets: Vec<PlayerSet>,
    probabilities: Vec<f64>,
    marginals: Vec<f64>,
    /// Per player: sum of q ln q over the wolf sets containing them.
    q_ln_q_if_wolf: Vec<f64>,
    /// Sum of q ln q over all wolf sets (minus the entropy in nats).
    q_ln_q: f64,
}

impl Posterior {
    /// Enumerate the wolf sets consistent with the game's hard facts and
    /// weigh each by the likelihood of every event.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when more than [`MAX_WOLF_SETS`] wolf sets
    /// would have to be enumerated.
    pub fn compute(game: &Game) -> Result<Posterior> {
        let setup = game.setup();
        let known_wolves = game.known_wolves();
        let unknown = PlayerSet(setup.everyone().0 & !known_wolves.0 & !game.known_village().0);
        // Game::push keeps the known counts within the setup, so this cannot
        // underflow; the check keeps that a local fact.
        let missing = setup
            .wolves()
            .checked_sub(known_wolves.len())
            .ok_or_else(|| {
                Error::Inconsistent(format!("more than {} known wolves", setup.wolves()))
            })?;
        let count = binomial(unknown.len(), missing);
        if count > u128::from(MAX_WOLF_SETS) {
            return Err(Error::OutOfRange {
                what: crate::Argument::WolfSets,
                detail: format!(
                    "C({}, {missing}) = {count} ways to place the unknown wolves among the \
                     players of unknown side; the limit is {MAX_WOLF_SETS}",
                    unknown.len()
                ),
            });
        }
        let wolf_sets = wolf_sets(unknown, missing, known_wolves);
        let terms: Vec<Term> = game
            .timed_events()
            .iter()
            .filter_map(|t| Term::compile(t, game))
            .collect();
        let mut log_weights: Vec<f64> = wolf_sets
            .iter()
            .map(|set| {
                crate::budget::tick()?;
                Ok(terms.iter().map(|term| term.log_likelihood(set.0)).sum())
            })
            .collect::<Result<_>>()?;
        let max = log_weights
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        for weight in &mut log_weights {
            *weight = (*weight - max).exp();
            total += *weight;
        }
        let probabilities: Vec<f64> = log_weights.iter().map(|w| w / total).collect();
        let players = setup.players() as usize;
        let mut marginals = vec![0.0; players];
        let mut q_ln_q_if_wolf = vec![0.0; players];
        let mut q_ln_q = 0.0;
        for (set, &q) in wolf_sets.iter().zip(&probabilities) {
            let term = if q > 0.0 { q * q.ln() } else { 0.0 };
            q_ln_q += term;
            for wolf in set.players() {
                marginals[wolf.index()] += q;
                q_ln_q_if_wolf[wolf.index()] += term;
            }
        }
        // Rounding can push a sum of normalised weights a hair past 1; a
        // player in every wolf set is a wolf, exactly.
        for marginal in &mut marginals {
            *marginal = marginal.clamp(0.0, 1.0);
        }
        for wolf in known_wolves.players() {
            marginals[wolf.index()] = 1.0;
        }
        Ok(Posterior {
            setup,
            living: game.living(),
            viewer: game.viewer(),
            wolf_sets,
            probabilities,
            marginals,
            q_ln_q_if_wolf,
            q_ln_q,
        })
    }

    /// The setup of the game.
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The players alive.
    pub fn living(&self) -> PlayerSet {
        self.living
    }

    /// The viewer of the game, if any.
    pub fn viewer(&self) -> Option<Player> {
        self.viewer
    }

    /// P(wolf) of every player, indexed by seat index (dead players too).
    pub fn marginals(&self) -> &[f64] {
        &self.marginals
    }

    /// P(`player` is a wolf).
    pub fn p_wolf(&self, player: Player) -> f64 {
        self.marginals.get(player.index()).copied().unwrap_or(0.0)
    }

    /// Expected number of living wolves (the sum of the living players'
    /// marginals; exactly the number of wolves minus the dead wolves when
    /// every dead player's role is known).
    pub fn expected_living_wolves(&self) -> f64 {
        self.living.players().map(|p| self.p_wolf(p)).sum()
    }

    /// The wolf sets with their probabilities, in enumeration order.
    pub fn wolf_sets(&self) -> impl Iterator<Item = (PlayerSet, f64)> + '_ {
        self.wolf_sets
            .iter()
            .copied()
            .zip(self.probabilities.iter().copied())
    }

    /// Number of wolf sets consistent with the hard facts.
    pub fn wolf_set_count(&self) -> usize {
        self.wolf_sets.len()
    }

    /// Joint entropy of the wolf set, in bits.
    pub fn joint_entropy(&self) -> f64 {
        (-self.q_ln_q / std::f64::consts::LN_2).max(0.0)
    }

    /// Joint entropy (bits) after learning that `player` is on `side`; 0
    /// when that has probability 0.
    pub fn entropy_given(&self, player: Player, side: Side) -> f64 {
        let p_wolf = self.p_wolf(player);
        let q_ln_q_wolf = self
            .q_ln_q_if_wolf
            .get(player.index())
            .copied()
            .unwrap_or(0.0);
        let (p, q_ln_q) = match side {
            Side::Wolf => (p_wolf, q_ln_q_wolf),
            Side::Village => (1.0 - p_wolf, self.q_ln_q - q_ln_q_wolf),
        };
        if p <= 0.0 {
            return 0.0;
        }
        // sum over the sets of (q/p) ln(q/p) = (sum q ln q) / p - ln p.
        ((p.ln() - q_ln_q / p) / std::f64::consts::LN_2).max(0.0)
    }

    /// The outcome of eliminating `player` and learning their side.
    pub fn elimination(&self, player: Player) -> EliminationOutcome {
        let p_wolf = self.p_wolf(player);
        let entropy_if_wolf = self.entropy_given(player, Side::Wolf);
        let entropy_if_village = self.entropy_given(player, Side::Village);
        let expected_entropy = p_wolf * entropy_if_wolf + (1.0 - p_wolf) * entropy_if_village;
        EliminationOutcome {
            player,
            p_wolf,
            entropy_if_wolf,
            entropy_if_village,
            expected_entropy,
            information_gain: self.joint_entropy() - expected_entropy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gosper_enumerates_every_subset_once() {
        let pool = PlayerSet(0b1011_0110);
        let fixed = PlayerSet(0b1);
        let sets = wolf_sets(pool, 2, fixed);
        assert_eq!(sets.len(), 10);
        let mut sorted = sets.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 10);
        for set in sets {
            assert_eq!(set.len(), 3);
            assert_eq!(set.0 & !pool.0, fixed.0);
        }
        assert_eq!(wolf_sets(pool, 0, fixed), vec![fixed]);
        assert_eq!(
            wolf_sets(PlayerSet(u64::MAX), 1, PlayerSet::EMPTY).len(),
            64
        );
        assert_eq!(binomial(12, 4), 495);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
    }
}
