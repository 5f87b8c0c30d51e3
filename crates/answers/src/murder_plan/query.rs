//! `gametab lookup`: the Murder Plan queries answered from a built table
//! set with the `gametab-lookup` crate (no solver): the queries
//! ([`Query`]), their typed answers ([`Answer`], built by [`document`], the
//! one document the server's `/v1/murder-plan/...` endpoints send too) and
//! their text for the terminal ([`render`], in the
//! `text` module; `--json` prints the document).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use gametab_games::murder_plan::{DaysLeft, Offset};
use gametab_lookup::murder_plan::MurderPlanTables;

use crate::error::{Error, Parameter, Result};
use crate::murder_plan::documents::{
    moves_of, support_of, Cards, MovesDocument, Side, StateDocument, SupportEntry,
};
use crate::murder_plan::state::{parse_days, parse_offset, StateArgs};
use crate::murder_plan::text::render;

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
    /// Print the answer's JSON document instead of text.
    #[arg(long, global = true)]
    pub json: bool,
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

/// `V_d(S)` alone (`lookup value`, `GET /v1/murder-plan/value`).
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct ValueDocument {
    /// Turns left.
    pub days_left: DaysLeft,
    /// The certificate gap of the stored strategies.
    pub gap: f64,
    /// Whether the mastermind has already won.
    pub mastermind_won: bool,
    /// Whether the state occurs in some game of horizon <= 8.
    pub reachable: bool,
    /// V_d(S).
    pub value: f64,
}

/// One side's optimal mixed strategy (`lookup strategy`).
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct StrategyDocument {
    /// Turns left.
    pub days_left: DaysLeft,
    /// Whose strategy.
    pub side: &'static str,
    /// The support, in the stored order.
    pub strategy: Vec<SupportEntry>,
    /// V_d(S).
    pub value: f64,
}

/// One sampled action (`lookup sample`).
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct SampleDocument {
    /// The action drawn.
    pub action: Cards,
    /// Turns left.
    pub days_left: DaysLeft,
    /// Whose action.
    pub side: &'static str,
    /// The uniform number it was drawn from.
    pub u: f64,
}

/// The brain's choice in a post-card state (`lookup brain`).
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct BrainDocument {
    /// Turns left when the turn is played.
    pub days_left: DaysLeft,
    /// `killer`, `key_person` or `nobody`.
    pub target: &'static str,
    /// The value after the choice.
    pub value: f64,
}

/// One optimal win rate (`lookup win-rate`): from one start, or the
/// average over the 16 starts (`brain` and `killer` null).
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct WinRateDocument {
    /// The start's brain offset `[a, b]` (null: the average).
    pub brain: Option<[u8; 2]>,
    /// The horizon D.
    pub horizon: DaysLeft,
    /// The start's killer offset `[a, b]` (null: the average).
    pub killer: Option<[u8; 2]>,
    /// The start as the win-rates table writes it: `x=(a,b) y=(c,d)`, or
    /// `average`.
    pub start: String,
    /// V_D(start), or its average.
    pub value: f64,
}

/// One start's win rate in [`HorizonWinRates`].
#[derive(Debug, Clone, Serialize)]
pub struct StartWinRate {
    /// Brain offset `[a, b]`.
    pub brain: [u8; 2],
    /// Killer offset `[a, b]`.
    pub killer: [u8; 2],
    /// The start as the win-rates table writes it: `x=(a,b) y=(c,d)`.
    pub start: String,
    /// V_D(start).
    pub value: f64,
}

/// One horizon's win rates in [`WinRatesDocument`].
#[derive(Debug, Clone, Serialize)]
pub struct HorizonWinRates {
    /// The average over the 16 starts.
    pub average: f64,
    /// The horizon D.
    pub horizon: DaysLeft,
    /// Every start's.
    pub starts: Vec<StartWinRate>,
}

/// Every stored win rate (`lookup win-rates`).
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct WinRatesDocument {
    /// Horizons 1 to 8.
    pub win_rates: Vec<HorizonWinRates>,
}

crate::sorted::sorted_keys!(
    ValueDocument,
    StrategyDocument,
    SampleDocument,
    BrainDocument,
    WinRateDocument,
    WinRatesDocument,
);

/// The answer of any Murder Plan query: one typed document per query,
/// serialised as the document alone (`--json`, the HTTP body).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// `state`.
    State(Box<StateDocument>),
    /// `moves`.
    Moves(MovesDocument),
    /// `value`.
    Value(ValueDocument),
    /// `strategy`.
    Strategy(StrategyDocument),
    /// `sample`.
    Sample(SampleDocument),
    /// `brain`.
    Brain(BrainDocument),
    /// `win-rate`.
    WinRate(WinRateDocument),
    /// `win-rates`.
    WinRates(WinRatesDocument),
}

/// A start as the win-rates table's `start` column writes it.
fn start_label(brain: Offset, killer: Offset) -> String {
    format!("x={brain} y={killer}")
}

fn pair(offset: Offset) -> [u8; 2] {
    [offset.first(), offset.second()]
}

/// The answer of `query` from the tables: the one document both `gametab
/// lookup` and the server's `/v1/murder-plan/...` endpoints give.
///
/// # Errors
/// [`Error::Invalid`] for days outside the table's range (naming `days`,
/// or `horizon` for a win rate), a forbid-movement count above 3 or `u`
/// outside [0, 1); [`Error::Refused`] for a state with no turn to play
/// asked for a strategy; [`Error::NotInTables`] for a key the tables do
/// not hold.
pub fn document(mp: &MurderPlanTables, query: &Query) -> Result<Answer> {
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
            Answer::Value(ValueDocument {
                days_left: days,
                gap: mp.gap(days, s)?,
                mastermind_won: s.is_win(),
                reachable: mp.reachable(days, s)?,
                value: mp.value(days, s)?,
            })
        }
        Query::Strategy {
            side,
            days,
            ref state,
        } => {
            let s = state.state()?;
            let strategy = match side {
                Side::Mastermind => support_of(mp.mastermind_strategy(days, s)?, |c| c.label()),
                Side::Protagonists => support_of(mp.protagonists_strategy(days, s)?, |c| c.label()),
            };
            Answer::Strategy(StrategyDocument {
                days_left: days,
                side: side.name(),
                strategy,
                value: mp.value(days, s)?,
            })
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
            Answer::Sample(SampleDocument {
                action,
                days_left: days,
                side: side.name(),
                u,
            })
        }
        Query::Brain { days, ref state } => {
            let (target, value) = mp.brain_choice(days, state.state()?)?;
            Answer::Brain(BrainDocument {
                days_left: days,
                target: target.label(),
                value,
            })
        }
        Query::WinRate {
            horizon,
            brain,
            killer,
        } => {
            let start = brain.zip(killer);
            let value = mp.win_rate(horizon, start).map_err(|e| {
                Error::from_lookup(e, |argument| match argument {
                    gametab_games::Argument::DaysLeft => Some(Parameter::Horizon),
                    other => Parameter::of_argument(other),
                })
            })?;
            Answer::WinRate(WinRateDocument {
                brain: start.map(|s| pair(s.0)),
                horizon,
                killer: start.map(|s| pair(s.1)),
                start: start.map_or_else(|| "average".to_string(), |(x, y)| start_label(x, y)),
                value,
            })
        }
        Query::WinRates => Answer::WinRates(win_rates(mp)?),
    })
}

/// Every stored win rate: per horizon, the average over the 16 starts and
/// each start's.
fn win_rates(mp: &MurderPlanTables) -> Result<WinRatesDocument> {
    let mut win_rates = Vec::new();
    for d in 1..=8u8 {
        let horizon = DaysLeft::new(d);
        let mut starts = Vec::new();
        for start in gametab_games::murder_plan::State::starts() {
            starts.push(StartWinRate {
                brain: pair(start.brain),
                killer: pair(start.killer),
                start: start_label(start.brain, start.killer),
                value: mp.win_rate(horizon, Some((start.brain, start.killer)))?,
            });
        }
        win_rates.push(HorizonWinRates {
            average: mp.win_rate(horizon, None)?,
            horizon,
            starts,
        });
    }
    Ok(WinRatesDocument { win_rates })
}

/// Run a lookup query and write its answer to `out`: text, or the JSON
/// document with `--json`.
///
/// # Errors
/// A missing table set, a query the tables cannot answer, or `out`
/// refusing the answer.
pub fn run(args: LookupArgs, out: &mut dyn std::io::Write) -> crate::cli::Result<()> {
    let tables = crate::table_set::open(&args.tables)?;
    let mp = tables.murder_plan()?;
    let answer = document(mp, &args.query)?;
    let text = if args.json {
        crate::cli::pretty(&answer)?
    } else {
        render(&answer)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}
