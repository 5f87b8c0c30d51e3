//! The role part of the `gametab werewolf` report: for a log with a `roles`
//! setup, P(player holds role) for every player and role, P(lover), the
//! lovers' most likely pairs, whether the game is over and who has won,
//! and the side columns of the report computed by the role engine (the
//! published method reads the side projection of the same log).

use crate::error::{Error, Result};

use gametab_games::werewolf::roles::{Role, RolePosterior, Winner};
use gametab_games::werewolf::{Baseline, GameLog, ScoringRule, TIE_TOLERANCE};

use super::report::{belief_lines, LoversLine, Outcome, Report, RoleLine, RoleReport};

/// How many lovers' pairs the report lists, most likely first.
pub const LOVERS_SHOWN: usize = 5;

/// The report of a role log.
///
/// # Errors
/// An invalid or contradictory log (the event is named), a game above the
/// enumeration limit, or events no assignment explains.
pub fn report(log: &GameLog, rule: ScoringRule) -> Result<Report> {
    let game = log
        .to_role_game()
        .map_err(|e| Error::from_log(e).context("invalid game log"))?;
    let posterior = RolePosterior::compute(&game).map_err(Error::from_log)?;
    let reveal = log.reveal_rule();
    let baseline = Baseline::run(
        &game
            .side_game()
            .map_err(|e| Error::from_log(e).context("side projection of the log"))?,
    );
    let exact_ranking = posterior.rank(rule, reveal, None);
    // A wolf viewer is a revealed wolf to the published method, never a
    // candidate of either ranking.
    let viewer = game.viewer().map(|(player, _)| player);
    let mut baseline_ranking = baseline.rank(rule);
    baseline_ranking.retain(|c| Some(c.player) != viewer);
    let setup = game.setup();
    let sides = setup.sides();
    let beliefs = belief_lines(
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
                role_entropy_bits: posterior.role_entropy(player),
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
    // Most likely first; pairs equal up to the ranking's tolerance (pairs
    // the log treats alike) in seat order, as the ranking orders ties.
    lovers.sort_by(|x, y| y.p.total_cmp(&x.p).then(x.players.cmp(&y.players)));
    let mut start = 0;
    while start < lovers.len() {
        let best = lovers[start].p;
        let run = lovers[start..]
            .iter()
            .take_while(|l| best - l.p <= TIE_TOLERANCE)
            .count();
        lovers[start..start + run].sort_by_key(|l| l.players);
        start += run;
    }
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
            outcome: Outcome {
                ongoing: posterior.p_ongoing(),
                village: posterior.p_won(Winner::Village),
                wolves: posterior.p_won(Winner::Wolves),
                lovers: posterior.p_won(Winner::Lovers),
                winner: posterior.winner().map(Winner::name),
            },
        }),
    })
}

/// The game's state as a line of text.
fn outcome_text(outcome: &Outcome) -> String {
    if let Some(winner) = outcome.winner {
        let who = match winner {
            "village" => "the village has won",
            "wolves" => "the wolves have won",
            _ => "the lovers have won",
        };
        return format!("game over: {who}");
    }
    if outcome.ongoing == 1.0 {
        return "the game goes on".to_string();
    }
    let over: Vec<String> = [
        ("village", outcome.village),
        ("wolves", outcome.wolves),
        ("lovers", outcome.lovers),
    ]
    .iter()
    .filter(|(_, p)| *p > 0.0)
    .map(|(who, p)| format!("{who} won {p:.4}"))
    .collect();
    format!(
        "the game goes on with probability {:.4}; over with {}",
        outcome.ongoing,
        over.join(", ")
    )
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
    out.push_str(&format!("\n{}\n", outcome_text(&roles.outcome)));
    out
}
