//! The solve pipeline: reduce a game, solve the reduced game (closed form
//! for a 1x1 saddle point, otherwise an LP back end through
//! [`MatrixGameSolver`]), polish, expand both strategies to the full action
//! sets and certify them there; and [`GameSolver`], the per-thread set of
//! back ends chosen by [`LpBackend`], with HiGHS as the fallback of the
//! native simplex and the whole-game solve as the fallback of the double
//! oracle.
//!
//! Kept apart from the types and the certificate so the order of the steps
//! and the fallbacks read in one place, and so a back end (`native.rs`,
//! `highs_solver.rs`) depends only on the interface it implements.

use super::certificate::{certify, Certificate};
use super::matrix::{PayoffMatrix, Payoffs, StrategyPair};
use super::oracle::{solve_from_with, OracleBuffers, OracleStats};
use super::reduce::reduce;
use super::{polish, HighsSolver, NativeSolver};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
    /// [`solve_from`](super::solve_from)), with the chosen back end for the
    /// sub-games; when that fails to certify, solve the whole game as
    /// [`GameSolver::solve`] does.
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
