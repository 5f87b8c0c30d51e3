//! `gametab werewolf --log game.json [--json]`: read a game log, compute the
//! exact posterior and the published approximate beliefs, and print P(wolf)
//! per player side by side with the vote ranking, as a text table or JSON
//! (the document's types are in `report.rs`). A log with a `roles` setup
//! is read by the role engine and the report gains its role section
//! (`role_report.rs`); other logs give the report they always gave.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::error::{Error, Result};

use gametab_games::werewolf::{rank, Baseline, GameLog, Posterior, ScoringRule};

use super::report::{belief_lines, Report};

/// Arguments of `gametab werewolf`.
#[derive(Debug, Args)]
pub struct WerewolfArgs {
    /// The game log: a JSON file (its format and events: docs/werewolf.md; examples: scripts/examples/werewolf-*.json).
    #[arg(long)]
    pub log: PathBuf,
    /// How vote candidates are scored.
    #[arg(long, value_enum, default_value_t = RuleArg::Published)]
    pub rule: RuleArg,
    /// Print JSON instead of a text table.
    #[arg(long)]
    pub json: bool,
}

/// The `--rule` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RuleArg {
    /// 0.6 * P(wolf) + 0.4 * IG / H (the published rule).
    Published,
    /// P(wolf) alone.
    Probability,
    /// Information gain alone.
    Information,
}

impl From<RuleArg> for ScoringRule {
    fn from(rule: RuleArg) -> ScoringRule {
        match rule {
            RuleArg::Published => ScoringRule::Published,
            RuleArg::Probability => ScoringRule::Probability,
            RuleArg::Information => ScoringRule::Information,
        }
    }
}

/// The report of a parsed log (`gametab werewolf --json`, `POST
/// /v1/werewolf/posterior`).
///
/// # Errors
/// Invalid or contradictory logs (the event is named) and games too large to
/// enumerate.
pub fn document(log: &GameLog, rule: ScoringRule) -> Result<Report> {
    if log.is_role_log() {
        return super::role_report::report(log, rule);
    }
    side_report(log, rule)
}

/// The report of any log with its role section: a side-only log is read
/// by the role engine as a game without special roles (its P(wolf) is the
/// side engine's).
///
/// # Errors
/// As [`document`].
pub fn document_with_roles(log: &GameLog, rule: ScoringRule) -> Result<Report> {
    super::role_report::report(log, rule)
}

/// The side engine's report of a side-only log.
fn side_report(log: &GameLog, rule: ScoringRule) -> Result<Report> {
    let game = log
        .to_game()
        .map_err(|e| Error::from_log(e).context("invalid game log"))?;
    let posterior = Posterior::compute(&game).map_err(Error::from_log)?;
    let baseline = Baseline::run(&game);
    let exact_ranking = rank(&posterior, rule, None);
    let baseline_ranking = baseline.rank(rule);
    let setup = game.setup();
    let beliefs = belief_lines(
        setup.all_players(),
        |player| game.living().contains(player),
        |player| posterior.p_wolf(player),
        &baseline,
        &exact_ranking,
        &baseline_ranking,
    );
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
        roles: None,
    })
}

/// The report as a text table.
pub fn render(report: &Report) -> String {
    let mut out = format!(
        "Werewolf: {} players, {} wolves; {} wolf sets, joint entropy {:.4} bits, \
         expected living wolves {:.4}\n\n",
        report.players,
        report.wolves,
        report.wolf_sets,
        report.joint_entropy_bits,
        report.expected_living_wolves
    );
    out.push_str("player  alive  P(wolf) exact  P(wolf) baseline  IG exact (bits)  score exact  score baseline\n");
    let number = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.4}"));
    for line in &report.beliefs {
        out.push_str(&format!(
            "{:>6}  {:>5}  {:>13.4}  {:>16.4}  {:>15}  {:>11}  {:>14}\n",
            line.player,
            if line.alive { "yes" } else { "dead" },
            line.p_wolf,
            line.baseline_p_wolf,
            number(line.information_gain_bits),
            number(line.score),
            number(line.baseline_score),
        ));
    }
    let list = |ranking: &[u32]| {
        ranking
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push_str(&format!(
        "\nvote ranking ({}, exact):    {}\n",
        report.rule,
        list(&report.ranking)
    ));
    out.push_str(&format!(
        "vote ranking ({}, baseline): {}\n",
        report.rule,
        list(&report.baseline_ranking)
    ));
    if let Some(roles) = &report.roles {
        out.push_str(&super::role_report::render_text(roles));
    }
    out
}

/// Run the command, writing the report to `out`.
///
/// # Errors
/// An unreadable or invalid log, a game too large to enumerate, or `out`
/// refusing the report.
pub fn run(args: &WerewolfArgs, out: &mut impl Write) -> crate::cli::Result<()> {
    let text = crate::logs::read_log(&args.log)?;
    let log: GameLog = crate::logs::parse_log(&args.log, &text, "Werewolf")?;
    crate::logs::check_werewolf_events(&log)
        .map_err(|e| e.context(format_args!("in {}", args.log.display())))?;
    let report = document(&log, args.rule.into())
        .map_err(|e| e.context(format_args!("cannot analyse {}", args.log.display())))?;
    let text = if args.json {
        crate::cli::pretty(&report)?
    } else {
        render(&report)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}
