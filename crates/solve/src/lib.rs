//! gametab's solving layer: every LP of a table build, solved by HiGHS
//! and certified before it is used.
//!
//! - [`matrix_game`]: zero-sum matrix games (the Murder Plan day games):
//!   reduction by duplicate and dominated actions, a native simplex and
//!   HiGHS behind one back-end trait, the column-generation oracle, and the
//!   certificate on the full matrix.
//! - [`endgame`]: the two-player Liar's Dice endgame: the sequence-form LP
//!   of a whole game, the sequence-form double oracle on a growing
//!   restricted LP, the best-response certificate, and the cache of solved
//!   games (never trusted: certified again on load).
//!
//! The types a caller of the two solvers names are re-exported here
//! ([`PayoffMatrix`], [`SolvedGame`], [`LpBackend`]; [`LpOptions`],
//! [`SolvedEndgame`], [`Fraction`]).
//!
//! The rules and strategies are `gametab-games`'; the table builders that
//! run these solvers and write their answers are `gametab-build`'s. Only a
//! build needs this crate: answering queries from built tables never
//! solves an LP, so nothing that only answers links HiGHS.
//!
//! # Example
//!
//! Rock, paper, scissors, and the published value of the smallest Liar's
//! Dice endgame that is not a sure thing (one die each, three sides:
//! player 1 loses 1/9 on average):
//!
//! ```
//! use gametab_games::dice::endgame::Endgame;
//! use gametab_solve::endgame::{self, Fraction, LpOptions};
//! use gametab_solve::matrix_game::{self, NativeSolver, PayoffMatrix};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let rps = PayoffMatrix::new(3, 3, vec![
//!     0.0, -1.0, 1.0,
//!     1.0, 0.0, -1.0,
//!     -1.0, 1.0, 0.0,
//! ]);
//! let solved = matrix_game::solve(&rps, &mut NativeSolver::new())?;
//! assert!(solved.strategies.row.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-9));
//!
//! let game = Endgame::new(1, 1, 3, false)?;
//! let solved = endgame::solve(game, LpOptions::default())?;
//! assert_eq!(solved.exact, Fraction::parse("-1/9"));
//! assert!(solved.certificate.exploitability() <= endgame::MAX_EXPLOITABILITY);
//! # Ok(())
//! # }
//! ```

pub mod endgame;
pub mod matrix_game;

pub use endgame::{Fraction, LpOptions, SolvedEndgame};
pub use matrix_game::{
    GameSolver, HighsSolver, LpBackend, NativeSolver, PayoffMatrix, SolvedGame, StrategyPair,
};
