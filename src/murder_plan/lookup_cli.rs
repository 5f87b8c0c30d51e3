//! `gametab lookup`: answer queries from a built table directory using only
//! the `gametab-lookup` crate (no solver), printing JSON.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde_json::{json, Value};

use gametab_games::murder_plan::{DaysLeft, Offset, Placement};
use gametab_lookup::Tables;

use crate::murder_plan::cli::{parse_days, parse_offset, StateArgs};

/// Arguments of `gametab lookup`.
#[derive(Debug, Args)]
pub struct LookupArgs {
    /// Table directory written by `gametab build`.
    #[arg(long, default_value = "tables")]
    pub tables: PathBuf,
    /// The query.
    #[command(subcommand)]
    pub query: Query,
}

/// The side whose strategy is asked for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Side {
    /// The mastermind (sigma*).
    Mastermind,
    /// The protagonists (tau*).
    Protagonists,
}

/// A query against the Murder Plan tables.
#[derive(Debug, Subcommand)]
pub enum Query {
    /// V_d(S), its certificate gap and reachability.
    Value {
        /// Turns left (0..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// One side's optimal mixed strategy (support and probabilities).
    Strategy {
        /// Whose strategy.
        #[arg(long, value_enum)]
        side: Side,
        /// Turns left (1..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// Sample one side's action from u in [0, 1) (cumulative over the stored order).
    Sample {
        /// Whose action.
        #[arg(long, value_enum)]
        side: Side,
        /// Turns left (1..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The uniform number.
        #[arg(long)]
        u: f64,
        /// The state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// The brain's choice in a post-card state.
    Brain {
        /// Turns left when the turn is played (1..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The post-card state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// Optimal win rate for a horizon, from one start or on average.
    WinRate {
        /// Horizon D (1..=8): the days left at the start (`--days` is the
        /// same flag).
        #[arg(long, alias = "days", value_parser = parse_days)]
        horizon: DaysLeft,
        /// Start brain offset "a,b" (with --killer; omit both for the average).
        #[arg(long, value_parser = parse_offset, requires = "killer")]
        brain: Option<Offset>,
        /// Start killer offset "a,b".
        #[arg(long, value_parser = parse_offset, requires = "brain")]
        killer: Option<Offset>,
    },
}

fn action_json<C: Copy>(action: Placement<C>, label: impl Fn(C) -> &'static str) -> Value {
    json!({
        "card_on_key_person": label(action.key_person),
        "card_on_brain": label(action.brain),
        "card_on_killer": label(action.killer),
    })
}

fn support_json<C: Copy>(
    support: &[(Placement<C>, f64)],
    label: impl Fn(C) -> &'static str + Copy,
) -> Value {
    support
        .iter()
        .map(|&(a, p)| {
            let mut v = action_json(a, label);
            v["probability"] = json!(p);
            v
        })
        .collect()
}

/// Run a lookup query and write its JSON answer to `out`.
///
/// # Errors
/// Tables that do not load, a query they cannot answer, or `out` refusing
/// the answer.
pub fn run(args: LookupArgs, out: &mut impl Write) -> Result<()> {
    let tables = Tables::open(&args.tables)
        .with_context(|| format!("loading tables from {}", args.tables.display()))?;
    let mp = tables.murder_plan()?;
    let answer = match args.query {
        Query::Value { days, state } => {
            let s = state.state()?;
            json!({
                "days_left": days,
                "value": mp.value(days, s)?,
                "gap": mp.gap(days, s)?,
                "reachable": mp.reachable(days, s)?,
                "mastermind_won": s.is_win(),
            })
        }
        Query::Strategy { side, days, state } => {
            let s = state.state()?;
            let support = match side {
                Side::Mastermind => support_json(mp.mastermind_strategy(days, s)?, |c| c.label()),
                Side::Protagonists => {
                    support_json(mp.protagonists_strategy(days, s)?, |c| c.label())
                }
            };
            json!({ "days_left": days, "value": mp.value(days, s)?, "support": support })
        }
        Query::Sample {
            side,
            days,
            u,
            state,
        } => {
            let s = state.state()?;
            let action = match side {
                Side::Mastermind => action_json(mp.sample_mastermind(days, s, u)?, |c| c.label()),
                Side::Protagonists => {
                    action_json(mp.sample_protagonists(days, s, u)?, |c| c.label())
                }
            };
            json!({ "days_left": days, "u": u, "action": action })
        }
        Query::Brain { days, state } => {
            let (target, value) = mp.brain_choice(days, state.state()?)?;
            json!({ "days_left": days, "target": target.label(), "value": value })
        }
        Query::WinRate {
            horizon,
            brain,
            killer,
        } => {
            let start = brain.zip(killer);
            json!({
                "horizon": horizon,
                "start": start.map_or("average".to_string(), |(x, y)| format!("x={x} y={y}")),
                "value": mp.win_rate(horizon, start)?,
            })
        }
    };
    writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    Ok(())
}
