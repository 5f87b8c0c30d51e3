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
//!
//! Warm start ([`MatrixGameSolver::solve_grown`]): when the double oracle's
//! sub-game grows by a few rows and columns, the last optimal tableau is
//! kept, with the same shift. A new column `c` is a new non-basic `y_c`; on
//! the original constraints it acts like lowering each row's slack by the
//! row's payoff, so its tableau column is the sum of the slack columns
//! weighted by those payoffs (plus the payoff itself on a row whose slack is
//! basic), and its reduced cost is that sum on the objective row minus 1.
//! The primal simplex restores optimality. A new row enters with its slack
//! basic: its payoffs on the non-basic `y`, minus its payoffs on the basic
//! `y` times their tableau rows; a row that beats the current strategy has
//! a negative slack, and the dual simplex (most negative slack leaves,
//! smallest ratio of reduced cost to pivot enters) restores feasibility
//! while keeping optimality. The grown game must keep every shifted entry at
//! least 1/2, or it is solved from scratch.

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
    /// The shift of the last solved game, when its final tableau is still
    /// here to be grown by [`MatrixGameSolver::solve_grown`].
    last: Option<Grown>,
    /// Buffer of the grown tableau.
    scratch: Vec<f64>,
    /// LPs solved to optimality by this instance.
    lps: u64,
    /// Of those, LPs solved from a grown tableau.
    warm_lps: u64,
    /// Pivots performed by this instance.
    pivots: u64,
}

/// What is known of the tableau left by the last solve.
#[derive(Debug, Clone, Copy)]
struct Grown {
    rows: usize,
    cols: usize,
    shift: f64,
}

/// Below this, a grown game's shifted entries are too close to zero (or
/// negative) for the kept shift: the game is solved from scratch instead.
const MIN_SHIFTED: f64 = 0.5;
/// A basic variable counts as negative (the row is infeasible for the dual
/// simplex) below this.
const FEASIBILITY_TOLERANCE: f64 = 1e-12;

impl NativeSolver {
    /// A new solver with empty buffers.
    pub fn new() -> NativeSolver {
        NativeSolver::default()
    }

    /// LPs solved to optimality so far by this instance.
    pub fn lps_solved(&self) -> u64 {
        self.lps
    }

    /// LPs solved from the tableau of the previous game, grown
    /// ([`MatrixGameSolver::solve_grown`]), so far by this instance.
    pub fn warm_lps_solved(&self) -> u64 {
        self.warm_lps
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
        self.last = Some(Grown {
            rows: m,
            cols: n,
            shift,
        });
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

impl NativeSolver {
    /// Primal simplex from a primal feasible tableau to optimality.
    fn optimise(&mut self, m: usize, n: usize) -> Result<(), SolveError> {
        let mut run = PivotRun::new(m, n, self.tableau[m * (n + 1) + n], 1.0);
        while let Some(q) = self.entering(m, n, run.bland) {
            run.before_pivot("pivot", m, n)?;
            let p = self
                .leaving(m, n, q, run.bland)
                .ok_or_else(|| Self::error("unbounded (pivot column below tolerance)"))?;
            self.pivot(m, n, p, q);
            self.pivots += 1;
            run.after_pivot(self.tableau[m * (n + 1) + n])?;
        }
        Ok(())
    }

    /// Dual simplex from a dual feasible tableau (objective row
    /// non-negative) whose right-hand side has negative entries, to
    /// optimality. The leaving row is the most negative basic variable, the
    /// entering column the smallest ratio of reduced cost to pivot element,
    /// ties to the largest pivot element; after a run of pivots that do not
    /// decrease the objective, Bland's rule (smallest labels).
    fn dual_optimise(&mut self, m: usize, n: usize) -> Result<(), SolveError> {
        let width = n + 1;
        let mut run = PivotRun::new(m, n, self.tableau[m * width + n], -1.0);
        loop {
            let bland = run.bland;
            let mut leaving: Option<usize> = None;
            for i in 0..m {
                let rhs = self.tableau[i * width + n];
                if rhs >= -FEASIBILITY_TOLERANCE {
                    continue;
                }
                leaving = match leaving {
                    None => Some(i),
                    Some(b) if bland && self.basic[i] < self.basic[b] => Some(i),
                    Some(b) if !bland && rhs < self.tableau[b * width + n] => Some(i),
                    keep => keep,
                };
            }
            let Some(p) = leaving else {
                return Ok(());
            };
            run.before_pivot("dual pivot", m, n)?;
            let row = &self.tableau[p * width..p * width + n];
            let objective = &self.tableau[m * width..m * width + n];
            let mut min_ratio = f64::INFINITY;
            for (&a, &d) in row.iter().zip(objective) {
                if a < -PIVOT_TOLERANCE {
                    min_ratio = min_ratio.min(d.max(0.0) / -a);
                }
            }
            if !min_ratio.is_finite() {
                return Err(Self::error("primal infeasible (dual unbounded)"));
            }
            let mut entering: Option<usize> = None;
            for (j, (&a, &d)) in row.iter().zip(objective).enumerate() {
                if a >= -PIVOT_TOLERANCE || d.max(0.0) / -a > min_ratio + RATIO_TIE {
                    continue;
                }
                entering = match entering {
                    None => Some(j),
                    Some(b) if bland && self.nonbasic[j] < self.nonbasic[b] => Some(j),
                    Some(b) if !bland && a < row[b] => Some(j),
                    keep => keep,
                };
            }
            let q = entering.expect("a finite minimum ratio has a column");
            self.pivot(m, n, p, q);
            self.pivots += 1;
            run.after_pivot(self.tableau[m * width + n])?;
        }
    }

    /// Both strategies from the optimal tableau of an `m x n` game.
    fn extract(&self, m: usize, n: usize) -> Result<StrategyPair, SolveError> {
        let width = n + 1;
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
        Ok(pair)
    }

    /// Grow the last optimal tableau into one of `game` and re-optimise:
    /// the new columns enter as non-basic variables (primal simplex), then
    /// the new rows as basic slacks (dual simplex). `None` when the last
    /// tableau cannot be grown into this game.
    fn grow(
        &mut self,
        game: &PayoffMatrix,
        kept_rows: &[usize],
        kept_cols: &[usize],
    ) -> Option<Result<StrategyPair, SolveError>> {
        let last = self.last?;
        let (m, n) = (game.rows(), game.cols());
        let (m0, n0) = (last.rows, last.cols);
        if kept_rows.len() != m0
            || kept_cols.len() != n0
            || m < m0
            || n < n0
            || kept_rows.iter().any(|&r| r >= m)
            || kept_cols.iter().any(|&c| c >= n)
            || !kept_rows.windows(2).all(|w| w[0] < w[1])
            || !kept_cols.windows(2).all(|w| w[0] < w[1])
        {
            return None;
        }
        let shift = last.shift;
        for r in 0..m {
            for &p in game.row(r) {
                if !p.is_finite() || p + shift < MIN_SHIFTED {
                    return None;
                }
            }
        }
        // New rows and columns: those not kept, increasing.
        let new_rows: Vec<usize> = complement(kept_rows, m);
        let new_cols: Vec<usize> = complement(kept_cols, n);
        // Relabel into the grown game's numbering: y_j is j, the slack of
        // row i is n + i.
        let relabel = |label: usize| {
            if label < n0 {
                kept_cols[label]
            } else {
                n + kept_rows[label - n0]
            }
        };
        for label in self.basic.iter_mut().chain(self.nonbasic.iter_mut()) {
            *label = relabel(*label);
        }
        self.nonbasic.extend(new_cols.iter().copied());

        // Step 1: the new columns, as non-basic y's. A new y_c acts on the
        // original rows like lowering each row's slack by its payoff, so its
        // tableau column is the slacks' columns (and basic slacks' unit
        // columns) weighted by the payoffs; its reduced cost starts at -1.
        let old_width = n0 + 1;
        let width = n + 1;
        let mut grown = std::mem::take(&mut self.scratch);
        grown.clear();
        grown.resize((m0 + 1) * width, 0.0);
        for r in 0..=m0 {
            let from = &self.tableau[r * old_width..(r + 1) * old_width];
            let to = &mut grown[r * width..(r + 1) * width];
            to[..n0].copy_from_slice(&from[..n0]);
            to[n] = from[n0];
        }
        // One new column's shifted payoffs on every row, in the ratio-test
        // buffer (unused until the next pivot).
        let mut column = std::mem::take(&mut self.ratios);
        for (k, &c) in new_cols.iter().enumerate() {
            column.clear();
            column.extend((0..m).map(|i| game.at(i, c) + shift));
            for r in 0..=m0 {
                let from = &self.tableau[r * old_width..(r + 1) * old_width];
                let mut entry = if r == m0 { -1.0 } else { 0.0 };
                if r < m0 && self.basic[r] >= n {
                    entry += column[self.basic[r] - n];
                }
                for (&t, &label) in from.iter().zip(&self.nonbasic[..n0]) {
                    if label >= n {
                        entry += t * column[label - n];
                    }
                }
                grown[r * width + n0 + k] = entry;
            }
        }
        self.ratios = column;
        self.scratch = std::mem::replace(&mut self.tableau, grown);
        if let Err(error) = self.optimise(m0, n) {
            self.last = None;
            return Some(Err(error));
        }

        // Step 2: the new rows, with their slacks basic: the row's payoffs
        // on the non-basic y's, minus its payoffs on the basic y's times
        // their rows. A row that beats the current strategy has a negative
        // slack, which the dual simplex removes.
        let mut grown = std::mem::take(&mut self.scratch);
        grown.clear();
        grown.resize((m + 1) * width, 0.0);
        grown[..m0 * width].copy_from_slice(&self.tableau[..m0 * width]);
        grown[m * width..].copy_from_slice(&self.tableau[m0 * width..]);
        for (k, &g) in new_rows.iter().enumerate() {
            let at = (m0 + k) * width;
            for (l, &label) in self.nonbasic.iter().enumerate() {
                if label < n {
                    grown[at + l] = game.at(g, label) + shift;
                }
            }
            grown[at + n] = 1.0;
            for p in 0..m0 {
                let label = self.basic[p];
                if label >= n {
                    continue;
                }
                let weight = game.at(g, label) + shift;
                for l in 0..=n {
                    grown[at + l] -= weight * self.tableau[p * width + l];
                }
            }
            self.basic.push(n + g);
        }
        self.scratch = std::mem::replace(&mut self.tableau, grown);
        let solved = self
            .dual_optimise(m, n)
            .and_then(|()| self.optimise(m, n))
            .and_then(|()| self.extract(m, n));
        self.last = solved.is_ok().then_some(Grown {
            rows: m,
            cols: n,
            shift,
        });
        Some(solved)
    }
}

/// The bookkeeping of one simplex run: the pivot limit, and the switch to
/// Bland's rule after a run of pivots that do not improve the objective.
struct PivotRun {
    max_pivots: usize,
    stall_limit: usize,
    pivots: usize,
    stalled: usize,
    /// +1 when the objective should increase (primal), -1 decrease (dual).
    direction: f64,
    best: f64,
    bland: bool,
}

impl PivotRun {
    fn new(m: usize, n: usize, objective: f64, direction: f64) -> PivotRun {
        PivotRun {
            max_pivots: 50 * (m + n) + 100,
            stall_limit: m + n,
            pivots: 0,
            stalled: 0,
            direction,
            best: direction * objective,
            bland: false,
        }
    }

    /// An error once the pivot limit is reached.
    fn before_pivot(&self, what: &str, m: usize, n: usize) -> Result<(), SolveError> {
        if self.pivots == self.max_pivots {
            return Err(NativeSolver::error(format!(
                "{what} limit {} reached on a {m}x{n} game",
                self.max_pivots
            )));
        }
        Ok(())
    }

    /// Count a pivot that left `objective`; an error when it is not finite.
    fn after_pivot(&mut self, objective: f64) -> Result<(), SolveError> {
        self.pivots += 1;
        if !objective.is_finite() {
            return Err(NativeSolver::error("non-finite objective"));
        }
        if self.direction * objective > self.best {
            self.best = self.direction * objective;
            self.stalled = 0;
        } else {
            self.stalled += 1;
            if self.stalled > self.stall_limit {
                self.bland = true;
            }
        }
        Ok(())
    }
}

/// The indices below `len` that are not in the increasing `kept`.
fn complement(kept: &[usize], len: usize) -> Vec<usize> {
    let mut next = kept.iter().peekable();
    (0..len)
        .filter(|&i| {
            if next.peek() == Some(&&i) {
                next.next();
                false
            } else {
                true
            }
        })
        .collect()
}

impl MatrixGameSolver for NativeSolver {
    fn name(&self) -> &'static str {
        "native"
    }

    fn solve(&mut self, game: &PayoffMatrix) -> Result<StrategyPair, SolveError> {
        let (m, n) = (game.rows(), game.cols());
        if m == 0 || n == 0 {
            self.last = None;
            return Err(Self::error("empty game"));
        }
        self.last = None;
        self.load(game)?;
        let solved = self.optimise(m, n).and_then(|()| self.extract(m, n));
        if solved.is_ok() {
            self.lps += 1;
        } else {
            self.last = None;
        }
        solved
    }

    /// Grow the tableau of the last game solved (see the module documentation)
    /// when it is optimal and the grown game keeps its shift; otherwise, or
    /// when growing fails, solve from scratch.
    fn solve_grown(
        &mut self,
        game: &PayoffMatrix,
        kept_rows: &[usize],
        kept_cols: &[usize],
    ) -> Result<StrategyPair, SolveError> {
        match self.grow(game, kept_rows, kept_cols) {
            Some(Ok(pair)) => {
                self.lps += 1;
                self.warm_lps += 1;
                Ok(pair)
            }
            _ => self.solve(game),
        }
    }
}
