//! Backward induction over days_left: `V_0`, then for d = 1..=D the brain
//! choice of every post-card state and the matrix game of every canonical
//! non-winning state, with identical games (same inventory, same outcome
//! values) solved once.
//!
//! Games are identified by their [`GameDigest`] (see [`super::digest`]). The
//! distinct games of one day are solved in parallel (rayon, one LP solver
//! per worker, native or HiGHS by [`LpBackend`], native falling back to
//! HiGHS game by game); everything is assembled in state order, so the result
//! does not depend on the number of threads.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use gametab_games::murder_plan::model::{BrainTarget, State, STATE_COUNT};
use rayon::prelude::*;

use super::cache::GameCache;
use super::digest::{game_digest, GameDigest};
use super::successors::{StateSuccessors, Successors};
use super::turns::{TurnTable, TurnTables};
use gametab_solve::matrix_game::{
    certify_sparse, GameSolver, LpBackend, OracleStats, PayoffMatrix, Payoffs, SolveError,
    SolveReport, SolvedGame, GAP_TOLERANCE,
};

/// The brain's best choice in a post-card state and the value it yields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BrainChoice {
    /// The chosen target (ties broken killer, then key person, then nobody).
    pub target: BrainTarget,
    /// `1` if the state after the ability wins, else `V_{d-1}` of it.
    pub value: f64,
}

/// Where the optimal strategies of a (days_left, state) pair are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRef {
    /// Index into [`Solution::games`].
    pub game: usize,
    /// The state is the axis-swapped image of the state the game was solved
    /// for: map every action through the swap.
    pub swapped: bool,
}

/// Counts and times of a solve.
#[derive(Debug, Clone, Default)]
pub struct SolveStats {
    /// Canonical non-winning states solved, per days_left (index 0 unused).
    pub games_per_day: Vec<usize>,
    /// Payoff matrices considered (canonical non-winning (d, state) pairs).
    pub matrices: usize,
    /// Distinct games after the digest dedupe (= matrices expanded).
    pub distinct_games: usize,
    /// Distinct games whose final sub-game is larger than 1x1 (a mixed
    /// equilibrium; the rest are pure saddle points).
    pub lps: usize,
    /// Sum over LP games of reduced rows x columns, for the average size.
    pub reduced_cells: usize,
    /// Largest certificate gap of any stored pair.
    pub max_gap: f64,
    /// The LP back end used.
    pub backend: LpBackend,
    /// Games where the native solver failed or did not certify and HiGHS
    /// solved them instead.
    pub fallbacks: usize,
    /// Games the double oracle did not settle, solved whole (reduction and
    /// LP) instead.
    pub oracle_fallbacks: usize,
    /// Distinct games taken from the cache (re-certified) instead of solved.
    pub cached: usize,
    /// Double-oracle rounds, sub-game LPs, closed forms and the time spent
    /// inside the LP back end (summed over worker threads), over the games
    /// the double oracle settled.
    pub oracle: OracleStats,
    /// Time spent on brain choices and game digests.
    pub digest_time: Duration,
    /// Time spent building, reducing, solving and certifying games.
    pub solve_time: Duration,
}

/// The solved game up to a horizon.
#[derive(Debug, Clone)]
pub struct Solution {
    /// Largest days_left solved.
    pub max_days: u8,
    /// `values[d][state index]` = `V_d(S)`, for d in 0..=max_days.
    pub values: Vec<Vec<f64>>,
    /// `gaps[d][state index]`: certificate gap of the stored pair (0 where no
    /// game is played).
    pub gaps: Vec<Vec<f64>>,
    /// `brain[d][post-card state index]` for d >= 1 (index 0 empty).
    pub brain: Vec<Vec<BrainChoice>>,
    /// `games[d][state index]` for non-winning states and d >= 1.
    pub game_refs: Vec<Vec<Option<GameRef>>>,
    /// Every distinct solved game.
    pub games: Vec<SolvedGame>,
    /// The turn tables the games are indexed by.
    pub turns: TurnTables,
    /// Where every canonical non-winning state's outcomes lead.
    pub successors: Successors,
    /// Counts and times.
    pub stats: SolveStats,
}

/// `V_0`: 1 for a winning state, else 0.
fn terminal_values() -> Vec<f64> {
    State::all()
        .map(|s| if s.is_win() { 1.0 } else { 0.0 })
        .collect()
}

/// The brain's choice in every post-card state, given `V_{d-1}`.
fn brain_choices(previous: &[f64]) -> Vec<BrainChoice> {
    State::all()
        .map(|post| {
            let mut best: Option<BrainChoice> = None;
            for target in BrainTarget::legal(post) {
                let next = target.apply(post);
                let value = if next.is_win() {
                    1.0
                } else {
                    previous[next.index()]
                };
                // Strictly better only: ties keep the earlier preference.
                if best.is_none_or(|b| value > b.value) {
                    best = Some(BrainChoice { target, value });
                }
            }
            best.expect("nobody is always a legal target")
        })
        .collect()
}

/// Continuation value of each distinct post-card state of `successors`.
fn slot_values(successors: &StateSuccessors, brain: &[BrainChoice]) -> Vec<f64> {
    successors
        .posts
        .iter()
        .map(|&post| brain[usize::from(post)].value)
        .collect()
}

/// Continuation value of each distinct outcome, from the slot values.
fn outcome_values(successors: &StateSuccessors, slot_values: &[f64]) -> Vec<f64> {
    successors
        .slot_of
        .iter()
        .map(|&slot| slot_values[usize::from(slot)])
        .collect()
}

/// The full payoff matrix of a game from its outcome values.
pub fn payoff_matrix(table: &TurnTable, values: &[f64]) -> PayoffMatrix {
    let payoffs = table
        .outcome_of
        .iter()
        .map(|&o| values[o as usize])
        .collect();
    PayoffMatrix::new(table.rows(), table.cols(), payoffs)
}

/// A game read straight from its turn table and outcome values, without
/// expanding the matrix: what the double oracle looks at.
struct OutcomeGame<'a> {
    table: &'a TurnTable,
    values: &'a [f64],
}

impl Payoffs for OutcomeGame<'_> {
    fn rows(&self) -> usize {
        self.table.rows()
    }

    fn cols(&self) -> usize {
        self.table.cols()
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.values[usize::from(self.table.outcome_of[r * self.table.cols() + c])]
    }

    fn add_column(&self, c: usize, weight: f64, out: &mut [f64]) {
        let rows = self.table.rows();
        let outcomes = &self.table.outcome_by_col[c * rows..(c + 1) * rows];
        for (total, &o) in out.iter_mut().zip(outcomes) {
            *total += self.values[usize::from(o)] * weight;
        }
    }

    fn add_row(&self, r: usize, weight: f64, out: &mut [f64]) {
        let cols = self.table.cols();
        let outcomes = &self.table.outcome_of[r * cols..(r + 1) * cols];
        for (total, &o) in out.iter_mut().zip(outcomes) {
            *total += self.values[usize::from(o)] * weight;
        }
    }
}

/// A game waiting to be solved: its state's successors and slot values, and
/// the game its first state played one day earlier, whose supports are the
/// double oracle's first guess.
struct PendingGame<'a> {
    successors: &'a StateSuccessors,
    slot_values: Vec<f64>,
    previous: Option<usize>,
    key: GameDigest,
}

/// The indices of the actions played with positive probability.
fn support(probabilities: &[f64]) -> Vec<usize> {
    (0..probabilities.len())
        .filter(|&i| probabilities[i] > 0.0)
        .collect()
}

/// Solve the game for every days_left up to `max_days`.
///
/// `backend` solves the reduced games (native falls back to HiGHS per
/// game). `on_day(d, distinct games of the day)` is called before each day's
/// solve and `on_game()` after each game, for progress reporting.
///
/// # Errors
/// A game whose LP fails or does not certify within the tolerance.
pub fn solve(
    max_days: u8,
    backend: LpBackend,
    on_day: &(dyn Fn(u8, usize) + Sync),
    on_game: &(dyn Fn() + Sync),
) -> Result<Solution, SolveError> {
    solve_with_cache(max_days, backend, None, &mut |_| {}, on_day, on_game)
}

/// What a cache must have been written with to be used by this solver: the
/// generator version, the game-solving scheme and the LP back end (the same
/// inputs give the same strategies only with all three the same).
pub fn cache_fingerprint(backend: LpBackend) -> String {
    format!(
        "{}; murder plan games: blake2b-256 of inventory, outcome-to-successor map and successor values, double oracle, gap tolerance {:e}; lp {}",
        gametab_lookup::io::GENERATOR_VERSION,
        GAP_TOLERANCE,
        backend.name()
    )
}

/// [`solve`] with a cache of solved games by digest (`None`: no cache, as
/// [`solve`]): a cached game is used
/// when its stored pair certifies again, on the game rebuilt from this run's
/// values, with exactly its stored certificate (never trusted blindly);
/// every game solved is added. `after_day` is called with the cache after
/// each day that solved a game, so an interrupted build can resume from the
/// last saved day.
///
/// # Errors
/// As [`solve`].
pub fn solve_with_cache(
    max_days: u8,
    backend: LpBackend,
    mut cache: Option<&mut GameCache>,
    after_day: &mut dyn FnMut(&GameCache),
    on_day: &(dyn Fn(u8, usize) + Sync),
    on_game: &(dyn Fn() + Sync),
) -> Result<Solution, SolveError> {
    let turns = TurnTables::new();
    let mut stats = SolveStats {
        games_per_day: vec![0],
        backend,
        ..SolveStats::default()
    };
    let mut values = vec![terminal_values()];
    let mut gaps = vec![vec![0.0; STATE_COUNT]];
    let mut brain = vec![Vec::new()];
    let mut game_refs = vec![vec![None; STATE_COUNT]];
    let mut games: Vec<SolvedGame> = Vec::new();
    let mut known: HashMap<GameDigest, usize> = HashMap::new();
    let started = Instant::now();
    let successors = Successors::new(&turns);
    let canonical = successors.all();
    stats.digest_time += started.elapsed();

    for d in 1..=max_days {
        let started = Instant::now();
        let choices = brain_choices(&values[usize::from(d) - 1]);
        // Outcome values and digests in parallel; the dedupe runs in state
        // order, so game numbering does not depend on the thread count.
        let digested: Vec<(Vec<f64>, GameDigest)> = canonical
            .par_iter()
            .map(|s| {
                let values = slot_values(s, &choices);
                let key = game_digest(s, &values);
                (values, key)
            })
            .collect();
        let mut day_refs: Vec<(State, usize)> = Vec::with_capacity(canonical.len());
        let mut pending: Vec<PendingGame> = Vec::new();
        for (s, (slot_values, key)) in canonical.iter().zip(digested) {
            let next_index = games.len() + pending.len();
            let previous = game_refs[usize::from(d) - 1][s.state.index()].map(|r: GameRef| r.game);
            let game = *known.entry(key).or_insert_with(|| {
                pending.push(PendingGame {
                    successors: s,
                    slot_values,
                    previous,
                    key,
                });
                next_index
            });
            day_refs.push((s.state, game));
        }
        stats.digest_time += started.elapsed();
        stats.games_per_day.push(day_refs.len());
        stats.matrices += day_refs.len();
        stats.distinct_games += pending.len();

        let started = Instant::now();
        on_day(d, pending.len());
        let solved: Vec<(SolvedGame, SolveReport, bool)> = pending
            .par_iter()
            .map_init(
                || GameSolver::new(backend),
                |solver, game| {
                    // The supports of the state's game one day earlier are
                    // the first guess; on day 1, the pure security actions.
                    let (rows, cols) = game.previous.map_or_else(
                        || (Vec::new(), Vec::new()),
                        |previous| {
                            let strategies = &games[previous].strategies;
                            (support(&strategies.row), support(&strategies.col))
                        },
                    );
                    let values = outcome_values(game.successors, &game.slot_values);
                    let lazy = OutcomeGame {
                        table: turns.get(game.successors.state.limited),
                        values: &values,
                    };
                    let cached = cache
                        .as_deref()
                        .and_then(|cache| cache.get(&game.key))
                        .filter(|cached| {
                            cached.strategies.row.len() == lazy.rows()
                                && cached.strategies.col.len() == lazy.cols()
                                && certify_sparse(&lazy, &cached.strategies) == cached.certificate
                                && cached.certificate.gap() <= GAP_TOLERANCE
                        });
                    let result = match cached {
                        Some(cached) => Ok((cached.clone(), SolveReport::default(), true)),
                        None => solver
                            .solve_from(&lazy, &rows, &cols)
                            .map(|(game, report)| (game, report, false)),
                    };
                    on_game();
                    result
                },
            )
            .collect::<Result<_, _>>()?;
        stats.solve_time += started.elapsed();
        for (pending, (game, report, cached)) in pending.iter().zip(&solved) {
            stats.cached += usize::from(*cached);
            if let Some(cache) = cache.as_deref_mut().filter(|_| !cached) {
                cache.insert(pending.key, game.clone());
            }
            stats.oracle_fallbacks += usize::from(report.whole);
            stats.fallbacks += usize::from(report.fallback);
            stats.oracle.add(&report.oracle);
            if game.used_lp {
                stats.lps += 1;
                stats.reduced_cells += game.reduced_rows * game.reduced_cols;
            }
            stats.max_gap = stats.max_gap.max(game.certificate.gap());
        }
        let added = solved.iter().any(|(.., cached)| !cached);
        games.extend(solved.into_iter().map(|(game, ..)| game));
        if let Some(cache) = cache.as_deref().filter(|_| added) {
            after_day(cache);
        }

        let mut day_values = values[usize::from(d) - 1].clone();
        let mut day_gaps = vec![0.0; STATE_COUNT];
        let mut day_games = vec![None; STATE_COUNT];
        for state in State::all() {
            if state.is_win() {
                day_values[state.index()] = 1.0;
            }
        }
        for &(state, game) in &day_refs {
            let certificate = games[game].certificate;
            for (image, swapped) in [(state, false), (state.swapped(), true)] {
                let i = image.index();
                day_values[i] = certificate.value();
                day_gaps[i] = certificate.gap();
                day_games[i] = Some(GameRef {
                    game,
                    swapped: swapped && image != state,
                });
            }
        }
        values.push(day_values);
        gaps.push(day_gaps);
        brain.push(choices);
        game_refs.push(day_games);
    }
    Ok(Solution {
        max_days,
        values,
        gaps,
        brain,
        game_refs,
        games,
        turns,
        successors,
        stats,
    })
}

impl Solution {
    /// `V_d(S)` (the state clamped to the caps).
    pub fn value(&self, days_left: u8, state: State) -> f64 {
        self.values[usize::from(days_left)][state.clamped().index()]
    }

    /// The optimal strategies of a non-winning state with days_left >= 1, as
    /// probabilities over [`TurnTable::mastermind`] and
    /// [`TurnTable::protagonists`] of the state's inventory.
    pub fn strategies(&self, days_left: u8, state: State) -> Option<(Vec<f64>, Vec<f64>)> {
        let state = state.clamped();
        let reference = (*self.game_refs.get(usize::from(days_left))?)[state.index()]?;
        let game = &self.games[reference.game];
        let table = self.turns.get(state.limited);
        if !reference.swapped {
            return Some((game.strategies.row.clone(), game.strategies.col.clone()));
        }
        // Action a in the swapped state plays like swap(a) in the solved one.
        let row = table
            .mastermind_swap
            .iter()
            .map(|&j| game.strategies.row[j])
            .collect();
        let col = table
            .protagonists_swap
            .iter()
            .map(|&j| game.strategies.col[j])
            .collect();
        Some((row, col))
    }
}
