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
mod polish;
mod reduce;

pub use highs_solver::HighsSolver;
pub use native::NativeSolver;
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

    /// The sub-matrix of the given rows and columns, in the given order.
    pub fn select(&self, rows: &[usize], cols: &[usize]) -> PayoffMatrix {
        let mut payoffs = Vec::with_capacity(rows.len() * cols.len());
        for &r in rows {
            let row = self.row(r);
            payoffs.extend(cols.iter().map(|&c| row[c]));
        }
        PayoffMatrix::new(rows.len(), cols.len(), payoffs)
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

/// Certify `pair` on `game`, computing in the order rows then columns so the
/// result is bit-for-bit reproducible.
pub fn certify(game: &PayoffMatrix, pair: &StrategyPair) -> Certificate {
    let mut column_payoffs = vec![0.0; game.cols()];
    let mut upper = f64::NEG_INFINITY;
    for r in 0..game.rows() {
        let row = game.row(r);
        let p = pair.row[r];
        let mut against_tau = 0.0;
        for (c, &m) in row.iter().enumerate() {
            if p != 0.0 {
                column_payoffs[c] += p * m;
            }
            against_tau += m * pair.col[c];
        }
        upper = upper.max(against_tau);
    }
    let lower = column_payoffs.iter().copied().fold(f64::INFINITY, f64::min);
    Certificate { lower, upper }
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
/// does not certify within [`GAP_TOLERANCE`].
#[derive(Debug)]
pub struct GameSolver {
    backend: LpBackend,
    native: NativeSolver,
    highs: HighsSolver,
}

impl GameSolver {
    /// Fresh solvers for `backend`.
    pub fn new(backend: LpBackend) -> GameSolver {
        GameSolver {
            backend,
            native: NativeSolver::new(),
            highs: HighsSolver::new(),
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
