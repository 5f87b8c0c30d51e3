//! The HiGHS back end: the row player's LP, with the column player's
//! strategy read from the duals (a second LP for the column player when the
//! duals do not certify).
//!
//! Row player's LP over `sigma >= 0` and a free `v`:
//! maximise `v` subject to `sum_r sigma_r M[r][c] - v >= 0` for every column
//! `c`, and `sum_r sigma_r = 1`. The duals of the column constraints are the
//! column player's optimal strategy. Presolve is off (these LPs are tiny and
//! presolve would only cost time), HiGHS runs single-threaded (the pipeline
//! parallelises across games), and the feasibility tolerances are tightened
//! so that the stored strategies certify far below the 1e-9 gap the build
//! demands.

use std::num::NonZeroU32;

use highs::{ColProblem, HighsModelStatus, Model, Sense};

use super::{certify, normalise, MatrixGameSolver, PayoffMatrix, SolveError, StrategyPair};

/// HiGHS through the `highs` crate; one instance per worker thread.
#[derive(Debug, Default)]
pub struct HighsSolver {
    lps: u64,
}

impl HighsSolver {
    /// A new solver.
    pub fn new() -> HighsSolver {
        HighsSolver::default()
    }

    /// LPs solved so far by this instance.
    pub fn lps_solved(&self) -> u64 {
        self.lps
    }

    /// Solve the maximiser's LP of `game`; return its strategy and the duals
    /// of the column constraints.
    fn solve_row_player(
        &mut self,
        game: &PayoffMatrix,
    ) -> Result<(Vec<f64>, Vec<f64>), SolveError> {
        let mut problem = ColProblem::default();
        let column_rows: Vec<_> = (0..game.cols()).map(|_| problem.add_row(0.0..)).collect();
        let total = problem.add_row(1.0..=1.0);
        for r in 0..game.rows() {
            let row = game.row(r);
            let factors = column_rows
                .iter()
                .zip(row)
                .filter(|(_, &m)| m != 0.0)
                .map(|(&constraint, &m)| (constraint, m))
                .chain(std::iter::once((total, 1.0)));
            problem.add_column(0.0, 0.0.., factors);
        }
        // The value variable v: objective 1, coefficient -1 in every column
        // constraint, free.
        problem.add_column::<f64, _, _, _>(
            1.0,
            ..,
            column_rows.iter().map(|&constraint| (constraint, -1.0)),
        );
        let mut model = Model::try_new(problem).map_err(|status| SolveError::Status {
            solver: self.name(),
            status: format!("{status:?}"),
        })?;
        model.make_quiet();
        model.set_sense(Sense::Maximise);
        model.set_option("presolve", "off");
        model.set_threads(NonZeroU32::MIN);
        model.set_option("primal_feasibility_tolerance", 1e-10);
        model.set_option("dual_feasibility_tolerance", 1e-10);
        let solved = model.try_solve().map_err(|status| SolveError::Status {
            solver: self.name(),
            status: format!("{status:?}"),
        })?;
        self.lps += 1;
        if solved.status() != HighsModelStatus::Optimal {
            return Err(SolveError::Status {
                solver: self.name(),
                status: format!("{:?}", solved.status()),
            });
        }
        let solution = solved.get_solution();
        let sigma = solution.columns()[..game.rows()].to_vec();
        let duals = solution.dual_rows()[..game.cols()]
            .iter()
            .map(|d| d.abs())
            .collect();
        Ok((sigma, duals))
    }
}

/// The game seen from the column player: rows and columns exchanged and
/// payoffs negated, so its row player's LP yields the column player's
/// strategy.
fn column_player_game(game: &PayoffMatrix) -> PayoffMatrix {
    let mut payoffs = Vec::with_capacity(game.rows() * game.cols());
    for c in 0..game.cols() {
        payoffs.extend((0..game.rows()).map(|r| 1.0 - game.at(r, c)));
    }
    PayoffMatrix::new(game.cols(), game.rows(), payoffs)
}

impl MatrixGameSolver for HighsSolver {
    fn name(&self) -> &'static str {
        "highs"
    }

    fn solve(&mut self, game: &PayoffMatrix) -> Result<StrategyPair, SolveError> {
        let (mut row, mut col) = self.solve_row_player(game)?;
        normalise(&mut row);
        normalise(&mut col);
        let pair = StrategyPair { row, col };
        if certify(game, &pair).gap() <= super::GAP_TOLERANCE * 1e-2 {
            return Ok(pair);
        }
        // The duals were not accurate enough: solve the column player's own
        // LP (on 1 - M, which keeps payoffs in [0, 1]).
        let (mut col, _) = self.solve_row_player(&column_player_game(game))?;
        normalise(&mut col);
        Ok(StrategyPair { row: pair.row, col })
    }
}
