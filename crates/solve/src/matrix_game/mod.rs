//! Zero-sum matrix games: the payoff matrix, the reduction by duplicate and
//! dominated actions, the LP solver interface, and the certificate.
//!
//! The row player (the mastermind in Murder Plan) maximises, the column
//! player minimises. [`solve`] reduces the game, solves the reduced game
//! (closed form for a saddle point, otherwise an LP through a
//! [`MatrixGameSolver`]), expands both strategies back to the full action
//! sets and certifies the pair on the full matrix. [`GameSolver`] wraps the
//! back end chosen by [`LpBackend`] with the HiGHS fallback.
//!
//! One file per job: `matrix.rs` the shared types, `certificate.rs` the
//! certificate, `solver.rs` the solve pipeline and the back-end interface,
//! `reduce.rs`, `polish.rs` and `oracle.rs` its steps, `native.rs` and
//! `highs_solver.rs` the back ends. Everything public is re-exported here,
//! so callers name `crate::matrix_game::X` whatever file `X` lives in.

mod certificate;
mod highs_solver;
mod matrix;
mod native;
mod oracle;
mod polish;
mod reduce;
mod solver;

pub use certificate::{certify, certify_sparse, responses, sparse_responses, Certificate};
pub use highs_solver::HighsSolver;
pub use matrix::{PayoffMatrix, Payoffs, StrategyPair};
pub use native::NativeSolver;
pub use oracle::{solve_from, solve_from_with, OracleBuffers, OracleStats};
pub use reduce::{reduce, Reduction};
pub(crate) use solver::normalise;
pub use solver::{
    solve, GameSolver, LpBackend, MatrixGameSolver, SolveError, SolveReport, SolvedGame,
    GAP_TOLERANCE,
};

#[cfg(test)]
mod tests;
