//! `gametab murder-plan solve`: solve the game up to a horizon and print the
//! value and both optimal strategies of one state, as text or JSON.

use std::io::Write;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use serde_json::json;

use gametab_games::murder_plan::model::{LimitedCards, Offset, State, FORBID_MOVEMENT_CARDS};
use gametab_games::murder_plan::DaysLeft;

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

/// A Murder Plan state on the command line.
#[derive(Debug, Clone, Args)]
pub struct StateArgs {
    /// Brain offset x = pos(brain) - pos(key person), as "a,b" with a, b in {0, 1}.
    #[arg(long, value_parser = parse_offset)]
    pub brain: Offset,
    /// Killer offset y = pos(killer) - pos(key person), as "a,b".
    #[arg(long, value_parser = parse_offset)]
    pub killer: Offset,
    /// Killer intrigue (values above the cap 4 are clamped, as in the game).
    #[arg(long, default_value_t = 0)]
    pub killer_intrigue: u8,
    /// Key-person intrigue (values above the cap 2 are clamped).
    #[arg(long, default_value_t = 0)]
    pub key_person_intrigue: u8,
    /// The mastermind has already played the diagonal card.
    #[arg(long)]
    pub no_diagonal: bool,
    /// The mastermind has already played the intrigue+2 card.
    #[arg(long)]
    pub no_intrigue2: bool,
    /// Forbid-movement uses left to the protagonists (0..=3).
    #[arg(long, default_value_t = FORBID_MOVEMENT_CARDS)]
    pub forbid_movement_left: u8,
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

/// Parse a count of days left (`--days`, `--horizon`): a whole number
/// from 0 to 255; each query checks the range its table covers.
///
/// # Errors
/// A message naming the text that is not a count.
pub fn parse_days(text: &str) -> Result<DaysLeft, String> {
    text.trim()
        .parse::<u8>()
        .map(DaysLeft::new)
        .map_err(|_| format!("{text:?} is not a number of days (0..=255)"))
}

/// Parse "a,b" (a, b in {0, 1}) into an offset.
pub fn parse_offset(text: &str) -> Result<Offset, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let bit = |s: &str| match s {
        "0" => Some(0),
        "1" => Some(1),
        _ => None,
    };
    match parts.as_slice() {
        [a, b] => bit(a)
            .zip(bit(b))
            .and_then(|(a, b)| Offset::new(a, b))
            .ok_or_else(|| format!("'{text}': each component must be 0 or 1")),
        _ => Err(format!("'{text}': expected two components like 0,1")),
    }
}

impl StateArgs {
    /// The state, validated, intrigue clamped to the caps.
    ///
    /// # Errors
    /// A forbid-movement count above 3.
    pub fn state(&self) -> Result<State> {
        if self.forbid_movement_left > FORBID_MOVEMENT_CARDS {
            bail!(
                "--forbid-movement-left {} is out of range (0..={FORBID_MOVEMENT_CARDS})",
                self.forbid_movement_left
            );
        }
        Ok(State {
            brain: self.brain,
            killer: self.killer,
            killer_intrigue: self.killer_intrigue,
            key_person_intrigue: self.key_person_intrigue,
            limited: LimitedCards {
                diagonal: !self.no_diagonal,
                intrigue_plus_two: !self.no_intrigue2,
                forbid_movement: self.forbid_movement_left,
            },
        }
        .clamped())
    }
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
        bail!(
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
