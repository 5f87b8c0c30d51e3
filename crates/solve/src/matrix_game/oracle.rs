//! The double oracle: solve a matrix game on a small sub-game that grows by
//! best responses, starting from a guess of the supports.
//!
//! The sub-game (some rows, some columns) is solved exactly; its strategies,
//! padded with zeros, are played against the full matrix. An action outside
//! the sub-game that does better against the opponent's strategy than the
//! sub-game's value is added, and the sub-game is solved again. When no
//! outside action improves, the padded pair is an equilibrium of the full
//! game, which the certificate on the full matrix confirms (McMahan, Gordon
//! and Blum, "Planning in the presence of cost functions controlled by an
//! adversary", ICML 2003).
//!
//! With a good guess (the supports of the same state one day earlier, in
//! backward induction), one or two small LPs settle a game, instead of a
//! reduction of the full matrix and an LP on what remains.
//!
//! Sub-games with a pure saddle point and 2x2 games without one are solved
//! in closed form; only the rest go to the LP back end. A game's sub-games
//! only grow, so every LP after a game's first is handed over as the last
//! one grown ([`MatrixGameSolver::solve_grown`]): the native simplex
//! re-optimises from its last tableau instead of starting again, and a
//! grown solve that does not certify is repeated from scratch. One round reads
//! each outside action's payoffs against the opponent's support once: the
//! same sums give the sub-game's bounds (its certificate) and the best
//! responses. The buffers live in [`OracleBuffers`], one per worker thread,
//! so the rounds of a game allocate almost nothing.

use std::time::{Duration, Instant};

use super::{
    polish, Certificate, MatrixGameSolver, PayoffMatrix, Payoffs, SolveError, SolvedGame,
    StrategyPair, GAP_TOLERANCE,
};

/// An outside action must beat the sub-game's bound by more than this to be
/// added; below it the difference is rounding in the payoff sums.
const IMPROVEMENT: f64 = 1e-13;

/// At most this many best responses join the sub-game per side and round,
/// the most improving first.
const ADDED_PER_ROUND: usize = 3;

/// What the double oracle did for one game.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct OracleStats {
    /// Sub-games solved (rounds).
    pub rounds: u32,
    /// Sub-games solved by the LP back end.
    pub lps: u32,
    /// Sub-games solved in closed form (pure saddle point or 2x2).
    pub closed_forms: u32,
    /// Of the LPs, those handed to the back end as the previous LP's
    /// sub-game grown ([`MatrixGameSolver::solve_grown`]).
    pub grown: u32,
    /// Time spent inside the LP back end.
    pub lp_time: Duration,
}

impl OracleStats {
    /// Add `other`'s counts and time to these.
    pub fn add(&mut self, other: &OracleStats) {
        self.rounds += other.rounds;
        self.lps += other.lps;
        self.closed_forms += other.closed_forms;
        self.grown += other.grown;
        self.lp_time += other.lp_time;
    }
}

/// Payoffs of every row against a column strategy and of every column
/// against a row strategy.
#[derive(Debug, Default)]
struct Responses {
    rows: Vec<f64>,
    cols: Vec<f64>,
}

/// Reusable buffers of [`solve_from_with`]; one per worker thread.
#[derive(Debug, Default)]
pub struct OracleBuffers {
    /// Sub-game rows and columns, increasing.
    rows: Vec<usize>,
    cols: Vec<usize>,
    /// Membership of every full-game row and column in the sub-game.
    row_kept: Vec<bool>,
    col_kept: Vec<bool>,
    /// The supports of the current pair, `(full index, probability)`.
    row_support: Vec<(usize, f64)>,
    col_support: Vec<(usize, f64)>,
    /// Responses to the current pair, and to a polished candidate.
    current: Responses,
    candidate: Responses,
    /// The sub-game's payoffs, row-major (handed to the LP and taken back).
    sub: Vec<f64>,
    /// Column maxima for the pure security actions and the closed forms.
    col_max: Vec<f64>,
    /// The rows and columns of this game's last LP sub-game, and where they
    /// sit in the current one: the LP back end grows its last tableau.
    lp_rows: Vec<usize>,
    lp_cols: Vec<usize>,
    kept_rows: Vec<usize>,
    kept_cols: Vec<usize>,
}

/// Where each of the increasing `old` indices sits in the increasing `new`,
/// which contains them all.
fn positions(old: &[usize], new: &[usize], out: &mut Vec<usize>) {
    out.clear();
    let mut at = 0;
    for &i in old {
        while new[at] != i {
            at += 1;
        }
        out.push(at);
    }
}

impl OracleBuffers {
    /// Empty buffers.
    pub fn new() -> OracleBuffers {
        OracleBuffers::default()
    }
}

/// `(index, probability)` of the positive entries of `probabilities`, which
/// belong to the increasing indices `indices`.
fn support_of(indices: &[usize], probabilities: &[f64], out: &mut Vec<(usize, f64)>) {
    out.clear();
    out.extend(
        indices
            .iter()
            .zip(probabilities)
            .filter(|&(_, &p)| p != 0.0)
            .map(|(&i, &p)| (i, p)),
    );
}

/// Payoffs of every row against `col_support` and of every column against
/// `row_support`, summed in increasing index order over the support: the
/// same bits as [`super::sparse_responses`].
///
/// The sums run support action by support action over whole rows and
/// columns ([`Payoffs::add_column`], [`Payoffs::add_row`]): every output's
/// additions are independent of the others', instead of one chain of
/// dependent additions per output.
fn responses_into(
    game: &impl Payoffs,
    row_support: &[(usize, f64)],
    col_support: &[(usize, f64)],
    out: &mut Responses,
) {
    out.rows.clear();
    out.rows.resize(game.rows(), 0.0);
    for &(c, q) in col_support {
        game.add_column(c, q, &mut out.rows);
    }
    out.cols.clear();
    out.cols.resize(game.cols(), 0.0);
    for &(r, p) in row_support {
        game.add_row(r, p, &mut out.cols);
    }
}

/// The sub-game's certificate, read off the full responses: the best kept
/// row against the column strategy, the best kept column against the row
/// strategy. Bit for bit [`super::certify`] on the sub-matrix, whose sums
/// differ only by terms that are exact zeros.
fn sub_certificate(responses: &Responses, rows: &[usize], cols: &[usize]) -> Certificate {
    Certificate {
        lower: cols
            .iter()
            .map(|&c| responses.cols[c])
            .fold(f64::INFINITY, f64::min),
        upper: rows
            .iter()
            .map(|&r| responses.rows[r])
            .fold(f64::NEG_INFINITY, f64::max),
    }
}

/// Add to `kept` (increasing, with membership `in_kept`) up to
/// [`ADDED_PER_ROUND`] outside indices whose score beats `bound` by more than
/// [`IMPROVEMENT`]; `maximise` orients the comparison. The most improving
/// join first, ties by lower index. Returns whether any joined.
fn add_best(
    kept: &mut Vec<usize>,
    in_kept: &mut [bool],
    scores: &[f64],
    bound: f64,
    maximise: bool,
) -> bool {
    // Orient so that larger is better.
    let sign = if maximise { 1.0 } else { -1.0 };
    let threshold = sign * bound + IMPROVEMENT;
    // The best outside indices so far, most improving first.
    let mut best = [(0usize, 0.0f64); ADDED_PER_ROUND];
    let mut len = 0;
    for (i, &score) in scores.iter().enumerate() {
        let s = sign * score;
        // NaN never improves.
        let improves = s > threshold;
        if !improves || in_kept[i] || (len == ADDED_PER_ROUND && s <= best[len - 1].1) {
            continue;
        }
        // Replace the last (or fill the next) place and move up past worse
        // scores only: an equal score keeps the lower index first.
        let mut at = len.min(ADDED_PER_ROUND - 1);
        best[at] = (i, s);
        while at > 0 && best[at - 1].1 < s {
            best.swap(at - 1, at);
            at -= 1;
        }
        len = (len + 1).min(ADDED_PER_ROUND);
    }
    for &(i, _) in &best[..len] {
        in_kept[i] = true;
        let at = kept.binary_search(&i).unwrap_err();
        kept.insert(at, i);
    }
    len > 0
}

/// The row whose worst payoff is largest and the column whose best payoff is
/// smallest: the pure maximin and minimax actions, a start when there is no
/// guess.
fn pure_security(game: &impl Payoffs, col_max: &mut Vec<f64>) -> (usize, usize) {
    let mut best_row = (0, f64::NEG_INFINITY);
    col_max.clear();
    col_max.resize(game.cols(), f64::NEG_INFINITY);
    for r in 0..game.rows() {
        let mut worst = f64::INFINITY;
        for (c, m) in col_max.iter_mut().enumerate() {
            let v = game.at(r, c);
            worst = worst.min(v);
            *m = m.max(v);
        }
        if worst > best_row.1 {
            best_row = (r, worst);
        }
    }
    let best_col =
        col_max.iter().enumerate().fold(
            (0, f64::INFINITY),
            |best, (c, &v)| if v < best.1 { (c, v) } else { best },
        );
    (best_row.0, best_col.0)
}

/// The equilibrium of `sub` in closed form, when it has one: a pure saddle
/// point (a cell that is the smallest of its row and the largest of its
/// column: the maximin row against the minimax column, first by index), or
/// the mixed equilibrium of a 2x2 game without one. Both are exact up to
/// the rounding of two divisions.
///
/// One pass over the rows finds the row minima and the column maxima
/// (`col_max` is a reused buffer); comparisons skip NaN as `f64::min` and
/// `f64::max` do.
fn closed_form(sub: &PayoffMatrix, col_max: &mut Vec<f64>) -> Option<StrategyPair> {
    let (m, n) = (sub.rows(), sub.cols());
    let mut maximin = (0, f64::NEG_INFINITY);
    col_max.clear();
    col_max.resize(n, f64::NEG_INFINITY);
    for r in 0..m {
        let mut worst = f64::INFINITY;
        for (best, &v) in col_max.iter_mut().zip(sub.row(r)) {
            if v < worst {
                worst = v;
            }
            if v > *best {
                *best = v;
            }
        }
        if worst > maximin.1 {
            maximin = (r, worst);
        }
    }
    let mut minimax = (0, f64::INFINITY);
    for (c, &best) in col_max.iter().enumerate() {
        if best < minimax.1 {
            minimax = (c, best);
        }
    }
    if maximin.1 == minimax.1 {
        let mut pair = StrategyPair {
            row: vec![0.0; m],
            col: vec![0.0; n],
        };
        pair.row[maximin.0] = 1.0;
        pair.col[minimax.0] = 1.0;
        return Some(pair);
    }
    if (m, n) != (2, 2) {
        return None;
    }
    // No saddle point: both players mix, each equalising the other's two
    // actions. The denominator is non-zero exactly because there is no
    // saddle (a - b and c - d, a - c and b - d have opposite signs).
    let (a, b, c, d) = (sub.at(0, 0), sub.at(0, 1), sub.at(1, 0), sub.at(1, 1));
    let denominator = (a - b) + (d - c);
    let p = (d - c) / denominator;
    let q = (d - b) / denominator;
    let valid = |x: f64| x.is_finite() && x > 0.0 && x < 1.0;
    if !valid(p) || !valid(q) {
        return None;
    }
    Some(StrategyPair {
        row: vec![p, 1.0 - p],
        col: vec![q, 1.0 - q],
    })
}

/// Solve `game` by double oracle from the guessed supports `rows` and `cols`
/// (indices into the full game; empty means the pure security actions).
///
/// # Errors
/// As [`solve_from_with`].
pub fn solve_from(
    game: &impl Payoffs,
    solver: &mut dyn MatrixGameSolver,
    rows: &[usize],
    cols: &[usize],
) -> Result<SolvedGame, SolveError> {
    solve_from_with(
        game,
        solver,
        &mut OracleBuffers::new(),
        &mut OracleStats::default(),
        rows,
        cols,
    )
}

/// [`solve_from`] with reused buffers, adding what it did to `stats`.
///
/// # Errors
/// The sub-game solver's error, or [`SolveError::Uncertified`] when no
/// outside action improves and yet the pair does not certify within
/// [`GAP_TOLERANCE`] (numerical trouble: the caller falls back to a full
/// solve).
pub fn solve_from_with(
    game: &impl Payoffs,
    solver: &mut dyn MatrixGameSolver,
    buffers: &mut OracleBuffers,
    stats: &mut OracleStats,
    rows: &[usize],
    cols: &[usize],
) -> Result<SolvedGame, SolveError> {
    let b = buffers;
    for (kept, in_kept, guess, len) in [
        (&mut b.rows, &mut b.row_kept, rows, game.rows()),
        (&mut b.cols, &mut b.col_kept, cols, game.cols()),
    ] {
        kept.clear();
        kept.extend(guess.iter().copied().filter(|&i| i < len));
        kept.sort_unstable();
        kept.dedup();
        in_kept.clear();
        in_kept.resize(len, false);
    }
    // The security actions cost a pass over the whole matrix: only without
    // a guess.
    if b.rows.is_empty() || b.cols.is_empty() {
        let (security_row, security_col) = pure_security(game, &mut b.col_max);
        if b.rows.is_empty() {
            b.rows.push(security_row);
        }
        if b.cols.is_empty() {
            b.cols.push(security_col);
        }
    }
    for &r in &b.rows {
        b.row_kept[r] = true;
    }
    for &c in &b.cols {
        b.col_kept[c] = true;
    }
    // No LP of this game yet: the first one starts from scratch.
    b.lp_rows.clear();
    b.lp_cols.clear();
    // Every round adds at least one action, so this bound is never reached
    // by a correct solver; it guards against a cycling one.
    let mut gap = f64::NAN;
    'rounds: for _ in 0..=game.rows() + game.cols() {
        stats.rounds += 1;
        let mut payoffs = std::mem::take(&mut b.sub);
        payoffs.clear();
        for &r in &b.rows {
            payoffs.extend(b.cols.iter().map(|&c| game.at(r, c)));
        }
        let sub = PayoffMatrix::new(b.rows.len(), b.cols.len(), payoffs);
        // A closed form is exact: nothing to polish.
        // Whether the LP back end grew its last tableau for this sub-game.
        let mut grown = false;
        let (mut pair, mut polished) = match closed_form(&sub, &mut b.col_max) {
            Some(pair) => {
                stats.closed_forms += 1;
                (pair, true)
            }
            None => {
                let started = Instant::now();
                // The sub-game only grows within a game: the previous LP's
                // sub-game is part of this one.
                let solved = if b.lp_rows.is_empty() {
                    solver.solve(&sub)
                } else {
                    positions(&b.lp_rows, &b.rows, &mut b.kept_rows);
                    positions(&b.lp_cols, &b.cols, &mut b.kept_cols);
                    grown = true;
                    stats.grown += 1;
                    solver.solve_grown(&sub, &b.kept_rows, &b.kept_cols)
                };
                stats.lp_time += started.elapsed();
                stats.lps += 1;
                b.lp_rows.clone_from(&b.rows);
                b.lp_cols.clone_from(&b.cols);
                match solved {
                    Ok(pair) => (pair, false),
                    Err(error) => {
                        b.sub = sub.into_payoffs();
                        return Err(error);
                    }
                }
            }
        };
        support_of(&b.rows, &pair.row, &mut b.row_support);
        support_of(&b.cols, &pair.col, &mut b.col_support);
        responses_into(game, &b.row_support, &b.col_support, &mut b.current);
        // The LP's pair decides which actions join; it is polished only once
        // nothing outside improves, and checked again after polishing.
        loop {
            let bounds = sub_certificate(&b.current, &b.rows, &b.cols);
            let more_rows = add_best(
                &mut b.rows,
                &mut b.row_kept,
                &b.current.rows,
                bounds.upper,
                true,
            );
            let more_cols = add_best(
                &mut b.cols,
                &mut b.col_kept,
                &b.current.cols,
                bounds.lower,
                false,
            );
            if more_rows || more_cols {
                b.sub = sub.into_payoffs();
                continue 'rounds;
            }
            if polished {
                break;
            }
            polished = true;
            let Some(better) = polish::polish(&sub, &pair) else {
                break;
            };
            support_of(&b.rows, &better.row, &mut b.row_support);
            support_of(&b.cols, &better.col, &mut b.col_support);
            responses_into(game, &b.row_support, &b.col_support, &mut b.candidate);
            if sub_certificate(&b.candidate, &b.rows, &b.cols).gap() < bounds.gap() {
                pair = better;
                std::mem::swap(&mut b.current, &mut b.candidate);
            } else {
                break;
            }
        }
        let (reduced_rows, reduced_cols) = (sub.rows(), sub.cols());
        b.sub = sub.into_payoffs();
        let certificate = Certificate::from_responses(&b.current.rows, &b.current.cols);
        gap = certificate.gap();
        if gap.is_nan() || gap > GAP_TOLERANCE {
            if grown {
                // A grown tableau carries the round-off of every earlier
                // round: solve the same sub-game once more from scratch.
                b.lp_rows.clear();
                b.lp_cols.clear();
                continue 'rounds;
            }
            break;
        }
        let mut full = StrategyPair {
            row: vec![0.0; game.rows()],
            col: vec![0.0; game.cols()],
        };
        for (&r, &p) in b.rows.iter().zip(&pair.row) {
            full.row[r] = p;
        }
        for (&c, &p) in b.cols.iter().zip(&pair.col) {
            full.col[c] = p;
        }
        return Ok(SolvedGame {
            strategies: full,
            certificate,
            reduced_rows,
            reduced_cols,
            used_lp: reduced_rows > 1 || reduced_cols > 1,
        });
    }
    Err(SolveError::Uncertified {
        gap,
        tolerance: GAP_TOLERANCE,
        rows: game.rows(),
        cols: game.cols(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix_game::{certify, NativeSolver};

    fn matrix(rows: usize, cols: usize, payoffs: &[f64]) -> PayoffMatrix {
        PayoffMatrix::new(rows, cols, payoffs.to_vec())
    }

    #[test]
    fn add_best_takes_the_three_most_improving_outside_actions() {
        let scores = [0.5, 0.9, 0.9, 0.1, 0.95, 0.9, 0.92];
        let mut kept = vec![3, 4];
        let mut in_kept = vec![false, false, false, true, true, false, false];
        assert!(add_best(&mut kept, &mut in_kept, &scores, 0.4, true));
        // 4 (0.95) is already kept; 0.92 first, then the lower indices of the
        // three tied at 0.9.
        assert_eq!(kept, vec![1, 2, 3, 4, 6]);
        assert_eq!(in_kept, vec![false, true, true, true, true, false, true]);
        // Minimising: only scores below the bound by more than IMPROVEMENT.
        let mut kept = vec![0];
        let mut in_kept = vec![true, false, false, false, false, false, false];
        assert!(add_best(&mut kept, &mut in_kept, &scores, 0.9, false));
        assert_eq!(kept, vec![0, 3]);
        // Beating the bound by less than IMPROVEMENT is rounding: nothing
        // joins; by more, it joins. NaN never joins.
        let mut kept = vec![0];
        let mut in_kept = vec![true, false, false];
        assert!(!add_best(
            &mut kept,
            &mut in_kept,
            &[0.9, 0.5 + 5e-14, 0.2],
            0.5,
            true
        ));
        assert!(!add_best(
            &mut kept,
            &mut in_kept,
            &[0.9, f64::NAN, 0.2],
            0.5,
            true
        ));
        assert_eq!(kept, vec![0]);
        assert!(add_best(
            &mut kept,
            &mut in_kept,
            &[0.9, 0.5 + 1e-12, 0.2],
            0.5,
            true
        ));
        assert_eq!(kept, vec![0, 1]);
    }

    #[test]
    fn closed_forms_are_equilibria_and_agree_with_the_lp() {
        let mut native = NativeSolver::new();
        // A saddle point (row 1, column 0) in a 3x3 game.
        let saddle = matrix(3, 3, &[0.1, 0.9, 0.8, 0.4, 0.6, 0.5, 0.2, 0.3, 0.7]);
        let pair = closed_form(&saddle, &mut Vec::new()).expect("saddle point");
        assert_eq!(pair.row, vec![0.0, 1.0, 0.0]);
        assert_eq!(pair.col, vec![1.0, 0.0, 0.0]);
        assert_eq!(certify(&saddle, &pair).gap(), 0.0);
        // Matching pennies-like 3x3 without a saddle: no closed form.
        let rock = matrix(3, 3, &[0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5]);
        assert!(closed_form(&rock, &mut Vec::new()).is_none());
        // Every 2x2 game on a grid of levels: the closed form certifies to
        // rounding and has the LP's value.
        let levels = [0.0, 0.125, 0.3, 0.5, 0.7, 1.0];
        let mut mixed = 0;
        for a in levels {
            for b in levels {
                for c in levels {
                    for d in levels {
                        let game = matrix(2, 2, &[a, b, c, d]);
                        let pair = closed_form(&game, &mut Vec::new())
                            .expect("2x2 always has a closed form");
                        let certificate = certify(&game, &pair);
                        assert!(certificate.gap() <= 1e-15, "{a} {b} {c} {d}");
                        let lp = certify(&game, &native.solve(&game).expect("solves"));
                        assert!((certificate.value() - lp.value()).abs() <= 1e-12);
                        mixed += usize::from(pair.row[0] > 0.0 && pair.row[1] > 0.0);
                    }
                }
            }
        }
        assert!(mixed > 100, "the grid has mixed games ({mixed})");
    }
}
