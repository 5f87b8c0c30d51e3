//! Zero-sum matrix games: the payoff matrix, the reduction by duplicate and
//! dominated actions, the LP solver interface, and the certificate.
//!
//! The row player (the mastermind in Murder Plan) maximises, the column
//! player minimises. [`solve`] reduces the game, solves the reduced game
//! (closed form for a saddle point, otherwise an LP through a
//! [`MatrixGameSolver`]), expands both strategies back to the full action
//! sets and certifies the pair on the full matrix. [`GameSolver`] wraps the
//! back end chosen by [`LpBackend`] with the HiGHS fallback.

mod highs_solver;
mod native;
mod oracle;
mod polish;
mod reduce;

pub use highs_solver::HighsSolver;
pub use native::NativeSolver;
pub use oracle::{solve_from, solve_from_with, OracleBuffers, OracleStats};
pub use reduce::{reduce, Reduction};

/// A payoff matrix, row-major, payoffs to the row player.
#[derive(Debug, Clone, PartialEq)]
pub struct PayoffMatrix {
    rows: usize,
    cols: usize,
    payoffs: Vec<f64>,
}

impl PayoffMatrix {
    /// A `rows x cols` matrix from row-major payoffs.
    ///
    /// # Panics
    /// If `payoffs.len() != rows * cols`: matrices are built by this crate,
    /// never from outside input.
    pub fn new(rows: usize, cols: usize, payoffs: Vec<f64>) -> PayoffMatrix {
        assert_eq!(payoffs.len(), rows * cols, "payoff matrix shape");
        PayoffMatrix {
            rows,
            cols,
            payoffs,
        }
    }

    /// Number of row-player actions.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of column-player actions.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The payoff of row `r` against column `c`.
    pub fn at(&self, r: usize, c: usize) -> f64 {
        self.payoffs[r * self.cols + c]
    }

    /// Row `r` as a slice.
    pub fn row(&self, r: usize) -> &[f64] {
        &self.payoffs[r * self.cols..(r + 1) * self.cols]
    }

    /// The row-major payoffs, to reuse their buffer.
    pub fn into_payoffs(self) -> Vec<f64> {
        self.payoffs
    }
}

/// Read access to the payoffs of a game, for solvers that look at only some
/// entries (the double oracle): a [`PayoffMatrix`], or a game whose entries
/// are computed on demand.
pub trait Payoffs {
    /// Number of row-player actions.
    fn rows(&self) -> usize;

    /// Number of column-player actions.
    fn cols(&self) -> usize;

    /// The payoff of row `r` against column `c`.
    fn at(&self, r: usize, c: usize) -> f64;

    /// Add `weight * at(r, c)` to `out[r]` for every row `r`: column `c`'s
    /// share of every row's payoff against a mixed column strategy.
    /// `out.len()` is [`Payoffs::rows`]. Summing a support in increasing
    /// column order from zeros gives exactly the bits of the fold
    /// `acc + at(r, c) * q`; implementors keep that (they may only read the
    /// column faster).
    fn add_column(&self, c: usize, weight: f64, out: &mut [f64]) {
        for (r, total) in out.iter_mut().enumerate() {
            *total += self.at(r, c) * weight;
        }
    }

    /// Add `weight * at(r, c)` to `out[c]` for every column `c`; as
    /// [`Payoffs::add_column`] for the other player.
    fn add_row(&self, r: usize, weight: f64, out: &mut [f64]) {
        for (c, total) in out.iter_mut().enumerate() {
            *total += self.at(r, c) * weight;
        }
    }

    /// The sub-matrix of the given rows and columns, in the given order.
    fn select(&self, rows: &[usize], cols: &[usize]) -> PayoffMatrix {
        let mut payoffs = Vec::with_capacity(rows.len() * cols.len());
        for &r in rows {
            payoffs.extend(cols.iter().map(|&c| self.at(r, c)));
        }
        PayoffMatrix::new(rows.len(), cols.len(), payoffs)
    }

    /// The whole matrix.
    fn to_matrix(&self) -> PayoffMatrix {
        let rows: Vec<usize> = (0..self.rows()).collect();
        let cols: Vec<usize> = (0..self.cols()).collect();
        self.select(&rows, &cols)
    }
}

impl Payoffs for PayoffMatrix {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.payoffs[r * self.cols + c]
    }

    fn add_row(&self, r: usize, weight: f64, out: &mut [f64]) {
        for (total, &p) in out.iter_mut().zip(self.row(r)) {
            *total += p * weight;
        }
    }

    fn to_matrix(&self) -> PayoffMatrix {
        self.clone()
    }
}

/// A pair of mixed strategies.
#[derive(Debug, Clone, PartialEq)]
pub struct StrategyPair {
    /// Row player's probabilities, one per row.
    pub row: Vec<f64>,
    /// Column player's probabilities, one per column.
    pub col: Vec<f64>,
}

/// Why a matrix game could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The LP solver returned a status other than optimal.
    #[error("{solver}: LP status {status}")]
    Status {
        /// Solver name.
        solver: &'static str,
        /// The status it reported.
        status: String,
    },
    /// The solver's answer does not form an equilibrium to the required
    /// precision, even after the fallback.
    #[error("certificate gap {gap:e} exceeds {tolerance:e} on a {rows}x{cols} game")]
    Uncertified {
        /// The gap found.
        gap: f64,
        /// The tolerance.
        tolerance: f64,
        /// Full game rows.
        rows: usize,
        /// Full game columns.
        cols: usize,
    },
}

/// A linear-programming back end for zero-sum matrix games. One instance is
/// used by one thread at a time; implementations may keep state between
/// calls (a reused solver instance).
pub trait MatrixGameSolver {
    /// Short name for reports.
    fn name(&self) -> &'static str;

    /// Optimal strategies of both players of `game` (at least 1x1).
    ///
    /// # Errors
    /// [`SolveError::Status`] when the back end does not reach optimality.
    fn solve(&mut self, game: &PayoffMatrix) -> Result<StrategyPair, SolveError>;

    /// Optimal strategies of `game`, which is the game of this solver's
    /// last successful [`MatrixGameSolver::solve`] (or `solve_grown`) with
    /// rows and columns added: row `i` of that game is row `kept_rows[i]`
    /// here, column `j` is column `kept_cols[j]` (both increasing), and the
    /// other rows and columns are new. A solver that can re-optimise from
    /// its last basis does so; the default solves from scratch. The caller
    /// guarantees the kept entries are unchanged.
    ///
    /// # Errors
    /// As [`MatrixGameSolver::solve`].
    fn solve_grown(
        &mut self,
        game: &PayoffMatrix,
        kept_rows: &[usize],
        kept_cols: &[usize],
    ) -> Result<StrategyPair, SolveError> {
        let _ = (kept_rows, kept_cols);
        self.solve(game)
    }
}

/// The certificate of a strategy pair on a matrix: the guaranteed bounds of
/// each side. `lower = min_c (sigma^T M)_c`, `upper = max_r (M tau)_r`; a
/// pair is an equilibrium iff `gap = upper - lower` is zero, and the game
/// value always lies in `[lower, upper]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certificate {
    /// What the row strategy guarantees the row player.
    pub lower: f64,
    /// What the column strategy concedes at most.
    pub upper: f64,
}

impl Certificate {
    /// `upper - lower`.
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }

    /// The midpoint of the certified interval: the value stored for a game
    /// solved by LP (for a pure saddle point both bounds are the same entry).
    pub fn value(&self) -> f64 {
        if self.upper == self.lower {
            self.upper
        } else {
            0.5 * (self.upper + self.lower)
        }
    }
}

/// Payoffs of every row against the column strategy (`M tau`) and of every
/// column against the row strategy (`sigma^T M`), summed in a fixed order so
/// the result is bit-for-bit reproducible.
pub fn responses(game: &PayoffMatrix, pair: &StrategyPair) -> (Vec<f64>, Vec<f64>) {
    let mut against_row = vec![0.0; game.cols()];
    let against_col = (0..game.rows())
        .map(|r| {
            let row = game.row(r);
            let p = pair.row[r];
            if p != 0.0 {
                for (acc, &m) in against_row.iter_mut().zip(row) {
                    *acc += p * m;
                }
            }
            row.iter()
                .zip(&pair.col)
                .fold(0.0, |acc, (&m, &q)| acc + m * q)
        })
        .collect();
    (against_col, against_row)
}

/// Payoffs of every row against the column strategy (`M tau`) and of every
/// column against the row strategy (`sigma^T M`), touching only the entries
/// in the supports. The sums run in increasing index order over the support,
/// so they are bit for bit those of [`responses`] on the full matrix
/// (the skipped terms are exact zeros of non-negative products). `rows` and
/// `cols` are increasing indices with their probabilities `row_p`, `col_p`.
pub fn sparse_responses(
    game: &impl Payoffs,
    rows: &[usize],
    row_p: &[f64],
    cols: &[usize],
    col_p: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let row_support: Vec<(usize, f64)> = rows
        .iter()
        .zip(row_p)
        .filter(|&(_, &p)| p != 0.0)
        .map(|(&r, &p)| (r, p))
        .collect();
    let col_support: Vec<(usize, f64)> = cols
        .iter()
        .zip(col_p)
        .filter(|&(_, &q)| q != 0.0)
        .map(|(&c, &q)| (c, q))
        .collect();
    let mut row_payoffs = vec![0.0; game.rows()];
    for (c, q) in col_support {
        game.add_column(c, q, &mut row_payoffs);
    }
    let mut col_payoffs = vec![0.0; game.cols()];
    for (r, p) in row_support {
        game.add_row(r, p, &mut col_payoffs);
    }
    (row_payoffs, col_payoffs)
}

/// Certify a full-length strategy pair on any [`Payoffs`], reading only the
/// entries in the supports; the same bits as [`certify`] on the matrix.
pub fn certify_sparse(game: &impl Payoffs, pair: &StrategyPair) -> Certificate {
    let rows: Vec<usize> = (0..pair.row.len()).collect();
    let cols: Vec<usize> = (0..pair.col.len()).collect();
    let (row_payoffs, col_payoffs) = sparse_responses(game, &rows, &pair.row, &cols, &pair.col);
    Certificate::from_responses(&row_payoffs, &col_payoffs)
}

impl Certificate {
    /// The certificate given both sides' [`responses`].
    pub fn from_responses(row_payoffs: &[f64], col_payoffs: &[f64]) -> Certificate {
        Certificate {
            lower: col_payoffs.iter().copied().fold(f64::INFINITY, f64::min),
            upper: row_payoffs
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// Certify `pair` on `game` (see [`Certificate`]).
pub fn certify(game: &PayoffMatrix, pair: &StrategyPair) -> Certificate {
    let (row_payoffs, col_payoffs) = responses(game, pair);
    Certificate::from_responses(&row_payoffs, &col_payoffs)
}

/// A solved matrix game with its certificate and how it was solved.
#[derive(Debug, Clone, PartialEq)]
pub struct SolvedGame {
    /// Optimal strategies on the full action sets.
    pub strategies: StrategyPair,
    /// Their certificate on the full matrix.
    pub certificate: Certificate,
    /// Size of the reduced game that was solved.
    pub reduced_rows: usize,
    /// Size of the reduced game that was solved.
    pub reduced_cols: usize,
    /// Whether an LP was needed (false for a pure saddle point).
    pub used_lp: bool,
}

/// Largest certificate gap accepted for a stored strategy pair.
pub const GAP_TOLERANCE: f64 = 1e-9;

/// Reduce, solve and certify `game`.
///
/// # Errors
/// The solver's error, or [`SolveError::Uncertified`] when the expanded
/// strategies do not certify within [`GAP_TOLERANCE`].
pub fn solve(
    game: &PayoffMatrix,
    solver: &mut dyn MatrixGameSolver,
) -> Result<SolvedGame, SolveError> {
    let reduction = reduce(game);
    let reduced = game.select(&reduction.rows, &reduction.cols);
    let (reduced_pair, used_lp) = if reduced.rows() == 1 && reduced.cols() == 1 {
        (
            StrategyPair {
                row: vec![1.0],
                col: vec![1.0],
            },
            false,
        )
    } else {
        let pair = solver.solve(&reduced)?;
        let pair = match polish::polish(&reduced, &pair) {
            Some(polished)
                if certify(&reduced, &polished).gap() < certify(&reduced, &pair).gap() =>
            {
                polished
            }
            _ => pair,
        };
        (pair, true)
    };
    let strategies = reduction.expand(game, &reduced_pair);
    let certificate = certify(game, &strategies);
    if certificate.gap().is_nan() || certificate.gap() > GAP_TOLERANCE {
        return Err(SolveError::Uncertified {
            gap: certificate.gap(),
            tolerance: GAP_TOLERANCE,
            rows: game.rows(),
            cols: game.cols(),
        });
    }
    Ok(SolvedGame {
        strategies,
        certificate,
        reduced_rows: reduced.rows(),
        reduced_cols: reduced.cols(),
        used_lp,
    })
}

/// Which LP back end solves the reduced games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LpBackend {
    /// HiGHS through the `highs` crate.
    Highs,
    /// The dense game simplex of this crate, with HiGHS as fallback.
    #[default]
    Native,
}

impl LpBackend {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            LpBackend::Highs => "highs",
            LpBackend::Native => "native",
        }
    }
}

/// The solvers of one worker thread for a chosen [`LpBackend`]: the native
/// solver falls back to HiGHS for a game when it fails or its polished pair
/// does not certify within [`GAP_TOLERANCE`]. One HiGHS instance and one set
/// of double-oracle buffers per thread, reused game after game.
#[derive(Debug)]
pub struct GameSolver {
    backend: LpBackend,
    native: NativeSolver,
    highs: HighsSolver,
    buffers: OracleBuffers,
}

/// How [`GameSolver::solve_from`] settled a game.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SolveReport {
    /// The double oracle did not certify; the whole game was reduced and
    /// solved instead.
    pub whole: bool,
    /// HiGHS replaced the native solver's answer.
    pub fallback: bool,
    /// Rounds, LPs, closed forms and LP time of the double oracle.
    pub oracle: OracleStats,
}

impl GameSolver {
    /// Fresh solvers for `backend`.
    pub fn new(backend: LpBackend) -> GameSolver {
        GameSolver {
            backend,
            native: NativeSolver::new(),
            highs: HighsSolver::new(),
            buffers: OracleBuffers::new(),
        }
    }

    /// Reduce, solve and certify `game` with the chosen back end; the flag
    /// is true when the native solver's answer was replaced by HiGHS's.
    ///
    /// # Errors
    /// As [`solve`], from HiGHS (directly or as the fallback).
    pub fn solve(&mut self, game: &PayoffMatrix) -> Result<(SolvedGame, bool), SolveError> {
        match self.backend {
            LpBackend::Highs => Ok((solve(game, &mut self.highs)?, false)),
            LpBackend::Native => match solve(game, &mut self.native) {
                Ok(solved) => Ok((solved, false)),
                Err(_) => Ok((solve(game, &mut self.highs)?, true)),
            },
        }
    }

    /// Solve `game` by double oracle from the guessed supports (see
    /// [`solve_from`]), with the chosen back end for the sub-games; when that
    /// fails to certify, solve the whole game as [`GameSolver::solve`] does.
    ///
    /// # Errors
    /// As [`GameSolver::solve`].
    pub fn solve_from(
        &mut self,
        game: &impl Payoffs,
        rows: &[usize],
        cols: &[usize],
    ) -> Result<(SolvedGame, SolveReport), SolveError> {
        let mut report = SolveReport::default();
        let solver: &mut dyn MatrixGameSolver = match self.backend {
            LpBackend::Highs => &mut self.highs,
            LpBackend::Native => &mut self.native,
        };
        let guessed = solve_from_with(
            game,
            solver,
            &mut self.buffers,
            &mut report.oracle,
            rows,
            cols,
        );
        match guessed {
            Ok(solved) => Ok((solved, report)),
            Err(_) => {
                let (solved, fallback) = self.solve(&game.to_matrix())?;
                report.whole = true;
                report.fallback = fallback;
                Ok((solved, report))
            }
        }
    }
}

/// Clean an LP strategy: clamp tiny negatives to zero and renormalise so the
/// probabilities sum to one.
pub(crate) fn normalise(probabilities: &mut [f64]) {
    for p in probabilities.iter_mut() {
        if *p < 1e-13 {
            *p = 0.0;
        }
    }
    let total: f64 = probabilities.iter().sum();
    if total > 0.0 {
        for p in probabilities.iter_mut() {
            *p /= total;
        }
    }
}

#[cfg(test)]
mod tests;
