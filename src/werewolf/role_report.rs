//! The role part of the `gametab werewolf` report: for a log with a `roles`
//! setup, P(player holds role) for every player and role, P(lover), the
//! lovers' most likely pairs, and the side columns of the report computed
//! by the role engine (the published method reads the side projection of
//! the same log).

use anyhow::{Context, Result};
use serde::Serialize;

use gametab_games::werewolf::roles::{Role, RolePosterior};
use gametab_games::werewolf::{Baseline, GameLog, ScoringRule};

use super::cli::Report;

/// How many lovers' pairs the report lists, most likely first.
pub const LOVERS_SHOWN: usize = 5;

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
    /// The most likely lovers' pairs (empty without cupid).
    pub lovers: Vec<LoversLine>,
}

/// The report of a role log.
///
/// # Errors
/// An invalid or contradictory log (the event is named), a game above the
/// enumeration limit, or events no assignment explains.
pub fn report(log: &GameLog, rule: ScoringRule) -> Result<Report> {
    let game = log.to_role_game().context("invalid game log")?;
    let posterior = RolePosterior::compute(&game)?;
    let reveal = log.reveal_rule();
    let baseline = Baseline::run(&game.side_game().context("side projection of the log")?);
    let exact_ranking = posterior.rank(rule, reveal, None);
    // A wolf viewer is a revealed wolf to the published method, never a
    // candidate of either ranking.
    let viewer = game.viewer().map(|(player, _)| player);
    let mut baseline_ranking = baseline.rank(rule);
    baseline_ranking.retain(|c| Some(c.player) != viewer);
    let setup = game.setup();
    let sides = setup.sides();
    let beliefs = super::cli::belief_lines(
        sides.all_players(),
        |player| game.living().contains(player),
        |player| posterior.p_wolf(player),
        &baseline,
        &exact_ranking,
        &baseline_ranking,
    );
    let players = sides
        .all_players()
        .map(|player| {
            let p = posterior.role_distribution(player);
            RoleLine {
                player: player.number(),
                alive: game.living().contains(player),
                wolf: p[Role::Wolf.index()],
                villager: p[Role::Villager.index()],
                seer: p[Role::Seer.index()],
                witch: p[Role::Witch.index()],
                hunter: p[Role::Hunter.index()],
                guard: p[Role::Guard.index()],
                cupid: p[Role::Cupid.index()],
                lover: posterior.p_lover(player),
                role_entropy_bits: posterior
                    .information_gain(player, gametab_games::werewolf::roles::RevealRule::Role),
            }
        })
        .collect();
    let mut lovers: Vec<LoversLine> = posterior
        .lovers()
        .iter()
        .map(|&((a, b), p)| LoversLine {
            players: [a.number(), b.number()],
            p,
        })
        .collect();
    lovers.sort_by(|x, y| y.p.total_cmp(&x.p).then(x.players.cmp(&y.players)));
    lovers.truncate(LOVERS_SHOWN);
    Ok(Report {
        players: setup.players(),
        wolves: setup.wolves(),
        rule: rule.name(),
        wolf_sets: posterior.wolf_set_count(),
        joint_entropy_bits: posterior.joint_entropy(),
        baseline_entropy_bits: baseline.entropy(),
        expected_living_wolves: posterior.expected_living_wolves(),
        beliefs,
        ranking: exact_ranking.iter().map(|c| c.player.number()).collect(),
        baseline_ranking: baseline_ranking.iter().map(|c| c.player.number()).collect(),
        roles: Some(RoleReport {
            counts: Role::ALL
                .into_iter()
                .filter(|&r| setup.has(r))
                .map(|r| (r.name(), setup.count(r)))
                .collect(),
            reveal: reveal.name(),
            assignments: posterior.assignment_count(),
            players,
            lovers,
        }),
    })
}

/// The role section as a text table: one column per role of the setup.
pub fn render_text(roles: &RoleReport) -> String {
    let present: Vec<&str> = roles.counts.iter().map(|(name, _)| *name).collect();
    let cupid = present.contains(&"cupid");
    let counts: Vec<String> = roles
        .counts
        .iter()
        .map(|(name, count)| format!("{count} {name}"))
        .collect();
    let mut out = format!(
        "\nroles: {}; {} role assignments; an elimination shows the {}\n\n",
        counts.join(", "),
        roles.assignments,
        roles.reveal
    );
    out.push_str("player  alive");
    for name in &present {
        out.push_str(&format!("  {:>9}", format!("P({name})")));
    }
    if cupid {
        out.push_str(&format!("  {:>9}", "P(lover)"));
    }
    out.push_str("  H(role) bits\n");
    for line in &roles.players {
        out.push_str(&format!(
            "{:>6}  {:>5}",
            line.player,
            if line.alive { "yes" } else { "dead" }
        ));
        for name in &present {
            let p = match *name {
                "wolf" => line.wolf,
                "villager" => line.villager,
                "seer" => line.seer,
                "witch" => line.witch,
                "hunter" => line.hunter,
                "guard" => line.guard,
                _ => line.cupid,
            };
            out.push_str(&format!("  {p:>9.4}"));
        }
        if cupid {
            out.push_str(&format!("  {:>9.4}", line.lover));
        }
        out.push_str(&format!("  {:>12.4}\n", line.role_entropy_bits));
    }
    if !roles.lovers.is_empty() {
        let pairs: Vec<String> = roles
            .lovers
            .iter()
            .map(|l| format!("{}+{} {:.4}", l.players[0], l.players[1], l.p))
            .collect();
        out.push_str(&format!("\nlovers, most likely: {}\n", pairs.join(", ")));
    }
    out
}
