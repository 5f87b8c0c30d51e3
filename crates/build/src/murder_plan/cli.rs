//! `gametab murder-plan solve`: solve the game up to a horizon and print the
//! value and both optimal strategies of one state, as text or JSON.

use crate::error::{fail, Context, Result};
use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::json;

use gametab_answers::murder_plan::state::StateArgs;

use super::solver;
use gametab_solve::matrix_game::LpBackend;

/// Largest horizon the command accepts (the solve grows linearly with it).
pub const MAX_SOLVE_DAYS: u8 = 30;

/// `gametab murder-plan ...`
#[derive(Debug, Subcommand)]
pub enum MurderPlanCommand {
    /// Solve one state and print its value and optimal strategies.
    #[command(
        after_help = "Example (x = (0,1), y = (1,0), 8 turns left):\n  gametab murder-plan solve --days 8 --brain 0,1 --killer 1,0"
    )]
    Solve(SolveArgs),
}

/// Arguments of `gametab murder-plan solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Turns left (1..=30).
    #[arg(long)]
    pub days: u8,
    /// The state.
    #[command(flatten)]
    pub state: StateArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// LP back end for the matrix games.
    #[arg(long, value_enum, default_value_t = LpBackend::Native)]
    pub lp: LpBackend,
}

/// Run `gametab murder-plan <command>`, writing its answer to `out`.
///
/// # Errors
/// Bad arguments, a failed solve, or `out` refusing the answer.
pub fn run(command: MurderPlanCommand, out: &mut impl Write) -> Result<()> {
    match command {
        MurderPlanCommand::Solve(args) => solve(&args, out),
    }
}

fn solve(args: &SolveArgs, out: &mut impl Write) -> Result<()> {
    if args.days == 0 || args.days > MAX_SOLVE_DAYS {
        fail!(
            Invalid,
            "--days {} is out of range (1..={MAX_SOLVE_DAYS})",
            args.days
        );
    }
    let state = args.state.state()?;
    let solution = solver::solve(args.days, args.lp, &|_, _| {}, &|| {}).context("solving")?;
    let value = solution.value(args.days, state);
    let gap = solution.gaps[usize::from(args.days)][state.index()];
    let table = solution.turns.get(state.limited);
    let (mastermind, protagonists) = match solution.strategies(args.days, state) {
        Some((row, col)) => (
            table
                .mastermind
                .iter()
                .zip(row)
                .filter(|(_, p)| *p > 0.0)
                .map(|(a, p)| (a.cards().map(|c| c.label()), p))
                .collect::<Vec<_>>(),
            table
                .protagonists
                .iter()
                .zip(col)
                .filter(|(_, p)| *p > 0.0)
                .map(|(a, p)| (a.cards().map(|c| c.label()), p))
                .collect::<Vec<_>>(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    if args.json {
        let support = |rows: &[([&str; 3], f64)]| {
            rows.iter()
                .map(|(cards, p)| {
                    json!({
                        "card_on_key_person": cards[0],
                        "card_on_brain": cards[1],
                        "card_on_killer": cards[2],
                        "probability": p,
                    })
                })
                .collect::<Vec<_>>()
        };
        let answer = json!({
            "days_left": args.days,
            "state": {
                "brain": [state.brain.first(), state.brain.second()],
                "killer": [state.killer.first(), state.killer.second()],
                "killer_intrigue": state.killer_intrigue,
                "key_person_intrigue": state.key_person_intrigue,
                "diagonal_left": state.limited.diagonal,
                "intrigue2_left": state.limited.intrigue_plus_two,
                "forbid_movement_left": state.limited.forbid_movement,
            },
            "mastermind_won": state.is_win(),
            "value": value,
            "gap": gap,
            "mastermind_strategy": support(&mastermind),
            "protagonists_strategy": support(&protagonists),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "state x={} y={} killer_intrigue={} key_person_intrigue={} diagonal_left={} intrigue2_left={} forbid_movement_left={}",
        state.brain,
        state.killer,
        state.killer_intrigue,
        state.key_person_intrigue,
        state.limited.diagonal,
        state.limited.intrigue_plus_two,
        state.limited.forbid_movement
    )?;
    if state.is_win() {
        writeln!(out, "the mastermind has already won: value 1")?;
        return Ok(());
    }
    writeln!(
        out,
        "days left {}: mastermind wins with probability {value:.12} (certificate gap {gap:.2e})",
        args.days
    )?;
    for (side, rows) in [("mastermind", &mastermind), ("protagonists", &protagonists)] {
        writeln!(out, "{side} (key person, brain, killer):")?;
        for (cards, p) in rows.iter() {
            writeln!(
                out,
                "  {p:.9}  {:<16} {:<16} {}",
                cards[0], cards[1], cards[2]
            )?;
        }
    }
    Ok(())
}
