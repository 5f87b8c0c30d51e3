//! The native back end: a dense simplex specialised to small zero-sum matrix
//! games, both optimal strategies read from one tableau.
//!
//! Payoffs are shifted by `k = 1 - min M` so every entry of `A = M + k` is at
//! least 1 and the shifted value `v + k` is positive. The column player's LP
//! in the classic game form is
//!
//! ```text
//! maximise sum_j y_j  subject to  A y <= 1,  y >= 0,
//! ```
//!
//! whose optimum is `1 / (v + k)`; `tau = y / sum y` is the column player's
//! optimal strategy, and the dual solution `x` (the reduced costs of the
//! slacks in the final objective row) gives the row player's `sigma = x /
//! sum x`. The slack basis is feasible from the start (right-hand side all
//! ones), so there is no phase one.
//!
//! The tableau is Tucker's condensed form: `(rows + 1) x (cols + 1)` with one
//! column per non-basic variable, pivoted by exchanging a basic and a
//! non-basic label, so a pivot costs `O(rows * cols)`. Entering columns are
//! chosen by Dantzig's rule (most negative reduced cost) with the largest
//! pivot element among tied ratios; after a run of pivots that do not
//! increase the objective (degenerate games with many ties are common here)
//! the solver switches to Bland's rule for the rest of the solve, which
//! cannot cycle. The number of pivots is bounded; exceeding it is reported as
//! [`SolveError::Status`], as is a non-finite payoff. Every choice breaks
//! ties by index, so the output is a deterministic function of the matrix.

use super::{normalise, MatrixGameSolver, PayoffMatrix, SolveError, StrategyPair};

/// Reduced costs above `-OPTIMALITY_TOLERANCE` count as non-negative.
const OPTIMALITY_TOLERANCE: f64 = 1e-12;
/// Smallest pivot element accepted in the ratio test. Tableau entries start
/// in [1, 2]; Murder Plan sub-games have rows that differ by a few ulps, and
/// at 1e-11 the simplex pivoted on their round-off (a test keeps one).
const PIVOT_TOLERANCE: f64 = 1e-9;
/// Ratios within this of the minimum count as tied.
const RATIO_TIE: f64 = 1e-13;

/// A dense simplex for small matrix games; one instance per worker thread,
/// its buffers reused across calls.
#[derive(Debug, Default)]
pub struct NativeSolver {
    /// Row-major `(rows + 1) x (cols + 1)` condensed tableau; the last row is
    /// the objective, the last column the right-hand side.
    tableau: Vec<f64>,
    /// Label of the basic variable of each constraint row: `j < cols` is
    /// `y_j`, `cols + i` is the slack of row `i`.
    basic: Vec<usize>,
    /// Label of the non-basic variable of each tableau column.
    nonbasic: Vec<usize>,
    /// Ratio test buffer: one ratio per constraint row.
    ratios: Vec<f64>,
    /// LPs solved to optimality by this instance.
    lps: u64,
    /// Pivots performed by this instance.
    pivots: u64,
}

impl NativeSolver {
    /// A new solver with empty buffers.
    pub fn new() -> NativeSolver {
        NativeSolver::default()
    }

    /// LPs solved to optimality so far by this instance.
    pub fn lps_solved(&self) -> u64 {
        self.lps
    }

    /// Simplex pivots performed so far by this instance.
    pub fn pivots(&self) -> u64 {
        self.pivots
    }

    fn error(status: impl Into<String>) -> SolveError {
        SolveError::Status {
            solver: "native",
            status: status.into(),
        }
    }

    /// Fill the tableau for `game` with the slack basis.
    fn load(&mut self, game: &PayoffMatrix) -> Result<(), SolveError> {
        let (m, n) = (game.rows(), game.cols());
        let mut min = f64::INFINITY;
        for r in 0..m {
            for &p in game.row(r) {
                if !p.is_finite() {
                    return Err(Self::error("non-finite payoff"));
                }
                min = min.min(p);
            }
        }
        let shift = 1.0 - min;
        let width = n + 1;
        self.tableau.clear();
        self.tableau.resize((m + 1) * width, 0.0);
        for r in 0..m {
            let line = &mut self.tableau[r * width..(r + 1) * width];
            for (t, &p) in line.iter_mut().zip(game.row(r)) {
                *t = p + shift;
            }
            line[n] = 1.0;
        }
        let objective = &mut self.tableau[m * width..];
        objective[..n].fill(-1.0);
        objective[n] = 0.0;
        self.basic.clear();
        self.basic.extend(n..n + m);
        self.nonbasic.clear();
        self.nonbasic.extend(0..n);
        Ok(())
    }

    /// The entering column, or `None` at optimality.
    fn entering(&self, m: usize, n: usize, bland: bool) -> Option<usize> {
        let objective = &self.tableau[m * (n + 1)..m * (n + 1) + n];
        let mut best: Option<usize> = None;
        for (j, &d) in objective.iter().enumerate() {
            if d >= -OPTIMALITY_TOLERANCE {
                continue;
            }
            best = match best {
                None => Some(j),
                Some(b) if bland && self.nonbasic[j] < self.nonbasic[b] => Some(j),
                Some(b) if !bland && d < objective[b] => Some(j),
                keep => keep,
            };
        }
        best
    }

    /// The leaving row for entering column `q`, or `None` if unbounded.
    /// Each row's ratio is computed once (one division a row), then the
    /// tied rows are compared without dividing again.
    fn leaving(&mut self, m: usize, n: usize, q: usize, bland: bool) -> Option<usize> {
        let width = n + 1;
        self.ratios.clear();
        let mut min_ratio = f64::INFINITY;
        for line in self.tableau.chunks_exact(width).take(m) {
            let a = line[q];
            // Round-off can leave a basic variable a hair below zero: treat
            // it as zero so the step never goes backwards.
            let ratio = if a > PIVOT_TOLERANCE {
                line[n].max(0.0) / a
            } else {
                f64::INFINITY
            };
            min_ratio = min_ratio.min(ratio);
            self.ratios.push(ratio);
        }
        if !min_ratio.is_finite() {
            return None;
        }
        let mut best: Option<usize> = None;
        for (i, &ratio) in self.ratios.iter().enumerate() {
            if ratio > min_ratio + RATIO_TIE {
                continue;
            }
            best = match best {
                None => Some(i),
                Some(b) if bland && self.basic[i] < self.basic[b] => Some(i),
                Some(b) if !bland && self.tableau[i * width + q] > self.tableau[b * width + q] => {
                    Some(i)
                }
                keep => keep,
            };
        }
        best
    }

    /// Exchange the basic variable of row `p` with the non-basic variable of
    /// column `q`.
    fn pivot(&mut self, m: usize, n: usize, p: usize, q: usize) {
        let width = n + 1;
        let inverse = 1.0 / self.tableau[p * width + q];
        let (before, rest) = self.tableau.split_at_mut(p * width);
        let (pivot_row, after) = rest.split_at_mut(width);
        for (j, t) in pivot_row.iter_mut().enumerate() {
            if j != q {
                *t *= inverse;
            }
        }
        pivot_row[q] = inverse;
        for line in before
            .chunks_exact_mut(width)
            .chain(after.chunks_exact_mut(width))
        {
            let factor = line[q];
            if factor == 0.0 {
                continue;
            }
            for (t, &r) in line.iter_mut().zip(pivot_row.iter()) {
                *t -= factor * r;
            }
            line[q] = -factor * inverse;
        }
        debug_assert_eq!(self.tableau.len(), (m + 1) * width);
        std::mem::swap(&mut self.basic[p], &mut self.nonbasic[q]);
    }
}

impl MatrixGameSolver for NativeSolver {
    fn name(&self) -> &'static str {
        "native"
    }

    fn solve(&mut self, game: &PayoffMatrix) -> Result<StrategyPair, SolveError> {
        let (m, n) = (game.rows(), game.cols());
        if m == 0 || n == 0 {
            return Err(Self::error("empty game"));
        }
        self.load(game)?;
        let width = n + 1;
        let max_pivots = 50 * (m + n) + 100;
        // Switch to Bland's rule after this many pivots in a row without an
        // increase of the objective.
        let stall_limit = m + n;
        let mut bland = false;
        let mut stalled = 0;
        let mut best_objective = 0.0;
        let mut pivots = 0;
        while let Some(q) = self.entering(m, n, bland) {
            if pivots == max_pivots {
                return Err(Self::error(format!(
                    "pivot limit {max_pivots} reached on a {m}x{n} game"
                )));
            }
            let p = self
                .leaving(m, n, q, bland)
                .ok_or_else(|| Self::error("unbounded (pivot column below tolerance)"))?;
            self.pivot(m, n, p, q);
            pivots += 1;
            self.pivots += 1;
            let objective = self.tableau[m * width + n];
            if !objective.is_finite() {
                return Err(Self::error("non-finite objective"));
            }
            if objective > best_objective {
                best_objective = objective;
                stalled = 0;
            } else {
                stalled += 1;
                if stalled > stall_limit {
                    bland = true;
                }
            }
        }
        let mut pair = StrategyPair {
            row: vec![0.0; m],
            col: vec![0.0; n],
        };
        for (i, &label) in self.basic.iter().enumerate() {
            if label < n {
                pair.col[label] = self.tableau[i * width + n];
            }
        }
        for (j, &label) in self.nonbasic.iter().enumerate() {
            if label >= n {
                pair.row[label - n] = self.tableau[m * width + j];
            }
        }
        normalise(&mut pair.row);
        normalise(&mut pair.col);
        if pair.row.iter().sum::<f64>() <= 0.0 || pair.col.iter().sum::<f64>() <= 0.0 {
            return Err(Self::error("degenerate optimum (empty strategy)"));
        }
        self.lps += 1;
        Ok(pair)
    }
}
