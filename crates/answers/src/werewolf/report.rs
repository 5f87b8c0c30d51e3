//! The document `gametab werewolf` prints and `POST /v1/werewolf/*`
//! answers: one player line per seat with the exact and the published
//! beliefs, the rankings, and for role logs the role section. The types
//! live here, below both the side report (`cli.rs`) and the role report
//! (`role_report.rs`), which fill them.

use serde::Serialize;

use gametab_games::werewolf::{Baseline, Candidate, Player};

/// One player's line of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerLine {
    /// Seat number (from 1).
    pub player: u32,
    /// Whether the player is alive.
    pub alive: bool,
    /// Exact P(wolf).
    pub p_wolf: f64,
    /// P(wolf) by the published approximate method.
    pub baseline_p_wolf: f64,
    /// Exact information gain of eliminating the player (bits; living
    /// candidates only).
    pub information_gain_bits: Option<f64>,
    /// Exact score under the chosen rule (living candidates only).
    pub score: Option<f64>,
    /// The published method's score under the chosen rule.
    pub baseline_score: Option<f64>,
}

/// The whole report printed by the command.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Number of players.
    pub players: u32,
    /// Number of wolves.
    pub wolves: u32,
    /// The scoring rule used.
    pub rule: &'static str,
    /// Wolf sets enumerated.
    pub wolf_sets: usize,
    /// Joint entropy of the wolf set (bits).
    pub joint_entropy_bits: f64,
    /// The published method's entropy (sum of binary entropies, bits).
    pub baseline_entropy_bits: f64,
    /// Expected number of living wolves (exact).
    pub expected_living_wolves: f64,
    /// Every player in seat order.
    pub beliefs: Vec<PlayerLine>,
    /// Vote candidates best first (exact).
    pub ranking: Vec<u32>,
    /// Vote candidates best first (published method).
    pub baseline_ranking: Vec<u32>,
    /// Role logs only: per-role probabilities, lovers, the reveal rule,
    /// the end of the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roles: Option<RoleReport>,
}

/// One player's role probabilities (roles the setup lacks are 0).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoleLine {
    /// Seat number (from 1).
    pub player: u32,
    /// Whether the player is alive.
    pub alive: bool,
    /// P(wolf).
    pub wolf: f64,
    /// P(plain villager).
    pub villager: f64,
    /// P(seer).
    pub seer: f64,
    /// P(witch).
    pub witch: f64,
    /// P(hunter).
    pub hunter: f64,
    /// P(guard).
    pub guard: f64,
    /// P(cupid).
    pub cupid: f64,
    /// P(one of the lovers) (0 without cupid).
    pub lover: f64,
    /// Entropy of the player's role (bits).
    pub role_entropy_bits: f64,
}

/// A possible pair of lovers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoversLine {
    /// The two seat numbers.
    pub players: [u32; 2],
    /// Its probability.
    pub p: f64,
}

/// Where the game stands after the last event: over or not, and who won.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// P(the game goes on).
    pub ongoing: f64,
    /// P(over, the village won).
    pub village: f64,
    /// P(over, the wolves won).
    pub wolves: f64,
    /// P(over, the lovers won).
    pub lovers: f64,
    /// The winner, when every role assignment left agrees the game is over
    /// and on who won (`village`, `wolves` or `lovers`).
    pub winner: Option<&'static str>,
}

/// The role section of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoleReport {
    /// How many players hold each role, in the order of the role columns.
    pub counts: Vec<(&'static str, u32)>,
    /// What an elimination shows for the ranking (`role` or `side`).
    pub reveal: &'static str,
    /// Role assignments with a positive probability.
    pub assignments: u64,
    /// Every player's role probabilities, in seat order.
    pub players: Vec<RoleLine>,
    /// The most likely lovers' pairs of positive probability (empty without
    /// cupid).
    pub lovers: Vec<LoversLine>,
    /// Whether the game is over, and who has won.
    pub outcome: Outcome,
}

/// One line per player, in seat order: alive, the exact P(wolf) (`p_wolf`),
/// the published method's, and both rankings' information gain and score
/// (none for a player who is no candidate). The side-only report and the
/// role report both print these lines.
pub fn belief_lines(
    players: impl Iterator<Item = Player>,
    alive: impl Fn(Player) -> bool,
    p_wolf: impl Fn(Player) -> f64,
    baseline: &Baseline,
    exact_ranking: &[Candidate],
    baseline_ranking: &[Candidate],
) -> Vec<PlayerLine> {
    let find = |ranking: &[Candidate], player: Player| {
        ranking.iter().find(|c| c.player == player).copied()
    };
    players
        .map(|player| {
            let exact = find(exact_ranking, player);
            PlayerLine {
                player: player.number(),
                alive: alive(player),
                p_wolf: p_wolf(player),
                baseline_p_wolf: baseline.p_wolf(player),
                information_gain_bits: exact.map(|c| c.information_gain),
                score: exact.map(|c| c.score),
                baseline_score: find(baseline_ranking, player).map(|c| c.score),
            }
        })
        .collect()
}
