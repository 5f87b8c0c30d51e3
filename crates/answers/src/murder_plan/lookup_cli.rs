//! `gametab lookup`: answer queries from a built table directory using only
//! the `gametab-lookup` crate (no solver), printing JSON.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};
use serde_json::json;

use gametab_games::murder_plan::{DaysLeft, Offset};
use gametab_lookup::murder_plan::MurderPlanTables;

use crate::murder_plan::documents::{
    moves_of, support_of, win_rates_document, Answer, Cards, MovesDocument, Side, StateDocument,
};
use crate::murder_plan::state::{parse_days, parse_offset, StateArgs};

/// Arguments of `gametab lookup`.
#[derive(Debug, Args)]
pub struct LookupArgs {
    /// The table set: a directory `gametab build` wrote (before or after the query).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "tables",
        env = "GAMETAB_TABLES",
        global = true
    )]
    pub tables: PathBuf,
    /// The query.
    #[command(subcommand)]
    pub query: Query,
}

/// A query against the Murder Plan tables.
#[derive(Debug, Subcommand)]
pub enum Query {
    /// Everything about one state: value, gap, both optimal strategies and
    /// every legal move of each side with its value and loss, best first
    /// (the document `GET /v1/murder-plan/state` answers).
    #[command(after_help = "Example:\n  gametab lookup state --days 8 --brain 0,1 --killer 1,0")]
    State {
        /// Turns left (0..=8; with 0, or in a won state, there is no turn to
        /// play and the strategies and moves are empty).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// Every legal action of one side with its value against the
    /// opponent's optimal strategy and its loss, best first.
    #[command(
        after_help = "Example:\n  gametab lookup moves --side mastermind --days 8 --brain 0,1 --killer 1,0"
    )]
    Moves {
        /// Whose moves.
        #[arg(long, value_enum)]
        side: Side,
        /// Turns left (1..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// V_d(S), its certificate gap and reachability.
    #[command(after_help = "Example:\n  gametab lookup value --days 3 --brain 0,0 --killer 0,0")]
    Value {
        /// Turns left (0..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// One side's optimal mixed strategy (support and probabilities).
    #[command(
        after_help = "Example:\n  gametab lookup strategy --side protagonists --days 8 --brain 0,1 --killer 1,0"
    )]
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
    #[command(
        after_help = "Example:\n  gametab lookup sample --side mastermind --days 8 --u 0.42 --brain 0,1 --killer 1,0"
    )]
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
    #[command(after_help = "Example:\n  gametab lookup brain --days 5 --brain 0,0 --killer 1,1")]
    Brain {
        /// Turns left when the turn is played (1..=8).
        #[arg(long, value_parser = parse_days)]
        days: DaysLeft,
        /// The post-card state.
        #[command(flatten)]
        state: StateArgs,
    },
    /// Optimal win rate for a horizon, from one start or on average.
    #[command(
        after_help = "Example:\n  gametab lookup win-rate --horizon 8 --brain 0,1 --killer 1,0"
    )]
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
    /// Every stored win rate: each horizon's average and every start's.
    #[command(after_help = "Example:\n  gametab lookup win-rates")]
    WinRates,
}

/// The JSON answer of a query: the one document both `gametab lookup` and
/// the server's `/v1/murder-plan/...` endpoints print.
///
/// # Errors
/// A query the tables cannot answer: days out of the table's range, a
/// state already won (no strategy), `u` outside [0, 1).
pub fn answer(mp: &MurderPlanTables, query: &Query) -> Result<Answer> {
    Ok(match *query {
        Query::State { days, ref state } => {
            Answer::State(Box::new(StateDocument::new(mp, days, state.state()?)?))
        }
        Query::Moves {
            side,
            days,
            ref state,
        } => {
            let s = state.state()?;
            Answer::Moves(MovesDocument {
                days_left: days,
                side: side.name(),
                value: mp.value(days, s)?,
                gap: mp.gap(days, s)?,
                moves: moves_of(mp, side, days, s)?,
            })
        }
        Query::Value { days, ref state } => {
            let s = state.state()?;
            Answer::Other(json!({
                "days_left": days,
                "value": mp.value(days, s)?,
                "gap": mp.gap(days, s)?,
                "reachable": mp.reachable(days, s)?,
                "mastermind_won": s.is_win(),
            }))
        }
        Query::Strategy {
            side,
            days,
            ref state,
        } => {
            let s = state.state()?;
            let support = match side {
                Side::Mastermind => support_of(mp.mastermind_strategy(days, s)?, |c| c.label()),
                Side::Protagonists => support_of(mp.protagonists_strategy(days, s)?, |c| c.label()),
            };
            Answer::Other(
                json!({ "days_left": days, "value": mp.value(days, s)?, "support": support }),
            )
        }
        Query::Sample {
            side,
            days,
            u,
            ref state,
        } => {
            let s = state.state()?;
            let action = match side {
                Side::Mastermind => Cards::of(mp.sample_mastermind(days, s, u)?, |c| c.label()),
                Side::Protagonists => Cards::of(mp.sample_protagonists(days, s, u)?, |c| c.label()),
            };
            Answer::Other(json!({ "days_left": days, "u": u, "action": action }))
        }
        Query::Brain { days, ref state } => {
            let (target, value) = mp.brain_choice(days, state.state()?)?;
            Answer::Other(json!({ "days_left": days, "target": target.label(), "value": value }))
        }
        Query::WinRate {
            horizon,
            brain,
            killer,
        } => {
            let start = brain.zip(killer);
            Answer::Other(json!({
                "horizon": horizon,
                "start": start.map_or("average".to_string(), |(x, y)| format!("x={x} y={y}")),
                "value": mp.win_rate(horizon, start)?,
            }))
        }
        Query::WinRates => Answer::Other(win_rates_document(mp)?),
    })
}

/// Run a lookup query and write its JSON answer to `out`.
///
/// # Errors
/// Tables that do not load, a query they cannot answer, or `out` refusing
/// the answer.
pub fn run(args: LookupArgs, out: &mut impl Write) -> Result<()> {
    let tables = crate::table_set::open(&args.tables)?;
    let answer = answer(tables.murder_plan()?, &args.query)?;
    writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    Ok(())
}
