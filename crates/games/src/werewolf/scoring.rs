//! Vote scoring rules and the ranking of vote candidates.
//!
//! The published rule mixes suspicion and information: `0.6 * P(wolf) +
//! 0.4 * IG / H`, where IG is the entropy expected to disappear when the
//! candidate is eliminated and their side revealed, and H the entropy now.
//! The pure-probability and pure-information rules are its two ends.

use super::model::Player;
use super::posterior::Posterior;

/// Weight of P(wolf) in the published score.
pub const PUBLISHED_PROBABILITY_WEIGHT: f64 = 0.6;
/// Weight of the normalised information gain IG / H in the published score.
pub const PUBLISHED_INFORMATION_WEIGHT: f64 = 0.4;

/// How vote candidates are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoringRule {
    /// The published rule: `0.6 * P(wolf) + 0.4 * IG / H` (IG / H taken as 0
    /// when H = 0, nothing left to learn).
    Published,
    /// P(wolf) alone: vote the most likely wolf.
    Probability,
    /// IG alone (bits): vote whoever's elimination teaches the most.
    Information,
}

impl ScoringRule {
    /// Every rule, in documentation order.
    pub const ALL: [ScoringRule; 3] = [
        ScoringRule::Published,
        ScoringRule::Probability,
        ScoringRule::Information,
    ];

    /// Lowercase name, as on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            ScoringRule::Published => "published",
            ScoringRule::Probability => "probability",
            ScoringRule::Information => "information",
        }
    }

    /// The score of a candidate with `p_wolf` and `information_gain` when the
    /// current entropy is `entropy` (the same unit as the gain).
    pub fn score(self, p_wolf: f64, information_gain: f64, entropy: f64) -> f64 {
        match self {
            ScoringRule::Published => {
                let normalised = if entropy > 0.0 {
                    information_gain / entropy
                } else {
                    0.0
                };
                PUBLISHED_PROBABILITY_WEIGHT * p_wolf + PUBLISHED_INFORMATION_WEIGHT * normalised
            }
            ScoringRule::Probability => p_wolf,
            ScoringRule::Information => information_gain,
        }
    }
}

/// Binary entropy of `p`, in bits (0 at 0 and 1).
pub fn binary_entropy_bits(p: f64) -> f64 {
    let term = |x: f64| if x > 0.0 { -x * x.log2() } else { 0.0 };
    term(p) + term(1.0 - p)
}

/// A living player as a vote target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// The player.
    pub player: Player,
    /// P(wolf).
    pub p_wolf: f64,
    /// Expected drop of the joint entropy (bits) if eliminated.
    pub information_gain: f64,
    /// The score under the rule used.
    pub score: f64,
}

impl Candidate {
    /// A candidate with its score under `rule`, given the joint entropy
    /// before the elimination.
    pub fn scored(
        player: Player,
        p_wolf: f64,
        information_gain: f64,
        rule: ScoringRule,
        entropy: f64,
    ) -> Candidate {
        Candidate {
            player,
            p_wolf,
            information_gain,
            score: rule.score(p_wolf, information_gain, entropy),
        }
    }
}

/// Order the living players (the viewer and `exclude` left out) by `rule`,
/// best first; equal scores (up to [`TIE_TOLERANCE`]) go to the lower seat
/// number.
pub fn rank(posterior: &Posterior, rule: ScoringRule, exclude: Option<Player>) -> Vec<Candidate> {
    let entropy = posterior.joint_entropy();
    let mut candidates: Vec<Candidate> = posterior
        .living()
        .players()
        .filter(|&p| Some(p) != exclude && Some(p) != posterior.viewer())
        .map(|player| {
            let outcome = posterior.elimination(player);
            Candidate::scored(
                player,
                outcome.p_wolf,
                outcome.information_gain,
                rule,
                entropy,
            )
        })
        .collect();
    sort_candidates(&mut candidates);
    candidates
}

/// Scores that differ by at most this much are equal for the ranking: an
/// exact tie (seats the log treats alike) computed along different sums
/// differs by rounding, about 1e-15, and scores are probabilities or bits
/// of order 1, so a real difference is far larger.
pub const TIE_TOLERANCE: f64 = 1e-9;

/// Best score first; scores within [`TIE_TOLERANCE`] of the best score of
/// their run are equal and go in seat order. (Comparing each pair within
/// the tolerance would not be an order; runs are, and are deterministic.)
pub(crate) fn sort_candidates(candidates: &mut [Candidate]) {
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.player.cmp(&b.player)));
    let mut start = 0;
    while start < candidates.len() {
        let best = candidates[start].score;
        let end = start
            + candidates[start..]
                .iter()
                .take_while(|c| best - c.score <= TIE_TOLERANCE)
                .count();
        candidates[start..end].sort_by_key(|c| c.player);
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_rule_mixes_the_two_ends() {
        let rule = ScoringRule::Published;
        assert!((rule.score(0.5, 1.0, 4.0) - (0.3 + 0.1)).abs() < 1e-15);
        assert_eq!(rule.score(1.0, 0.0, 0.0), 0.6);
        assert_eq!(ScoringRule::Probability.score(0.25, 3.0, 4.0), 0.25);
        assert_eq!(ScoringRule::Information.score(0.25, 3.0, 4.0), 3.0);
    }

    #[test]
    fn binary_entropy_known_values() {
        assert_eq!(binary_entropy_bits(0.0), 0.0);
        assert_eq!(binary_entropy_bits(1.0), 0.0);
        assert!((binary_entropy_bits(0.5) - 1.0).abs() < 1e-15);
        assert!((binary_entropy_bits(0.25) - 0.811_278_124_459_132_8).abs() < 1e-15);
    }
}
