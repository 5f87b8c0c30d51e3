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

use super::{
    certify, polish, sparse_responses, Certificate, MatrixGameSolver, Payoffs, SolveError,
    SolvedGame, StrategyPair, GAP_TOLERANCE,
};

/// An outside action must beat the sub-game's bound by more than this to be
/// added; below it the difference is rounding in the payoff sums.
const IMPROVEMENT: f64 = 1e-13;

/// At most this many best responses join the sub-game per side and round,
/// the most improving first.
const ADDED_PER_ROUND: usize = 3;

/// Add to `kept` (sorted) up to [`ADDED_PER_ROUND`] outside indices whose
/// score beats `bound` by more than [`IMPROVEMENT`] (`better` orients the
/// comparison); returns whether any was added.
fn add_best(
    kept: &mut Vec<usize>,
    scores: &[f64],
    bound: f64,
    better: fn(f64, f64) -> bool,
) -> bool {
    let mut outside: Vec<(usize, f64)> = scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| better(s, bound) && kept.binary_search(&i).is_err())
        .map(|(i, &s)| (i, s))
        .collect();
    if outside.is_empty() {
        return false;
    }
    // Most improving first; ties by index, so the result is deterministic.
    outside.sort_by(|a, b| {
        if better(a.1, b.1) {
            std::cmp::Ordering::Less
        } else if better(b.1, a.1) {
            std::cmp::Ordering::Greater
        } else {
            a.0.cmp(&b.0)
        }
    });
    for &(i, _) in outside.iter().take(ADDED_PER_ROUND) {
        let at = kept.binary_search(&i).unwrap_err();
        kept.insert(at, i);
    }
    true
}

/// The row whose worst payoff is largest and the column whose best payoff is
/// smallest: the pure maximin and minimax actions, a start when there is no
/// guess.
fn pure_security(game: &impl Payoffs) -> (usize, usize) {
    let mut best_row = (0, f64::NEG_INFINITY);
    let mut col_max = vec![f64::NEG_INFINITY; game.cols()];
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

/// Solve `game` by double oracle from the guessed supports `rows` and `cols`
/// (indices into the full game; empty means the pure security actions).
///
/// # Errors
/// The sub-game solver's error, or [`SolveError::Uncertified`] when no
/// outside action improves and yet the pair does not certify within
/// [`GAP_TOLERANCE`] (numerical trouble: the caller falls back to a full
/// solve).
pub fn solve_from(
    game: &impl Payoffs,
    solver: &mut dyn MatrixGameSolver,
    rows: &[usize],
    cols: &[usize],
) -> Result<SolvedGame, SolveError> {
    let (mut rows, mut cols) = (rows.to_vec(), cols.to_vec());
    for (kept, len) in [(&mut rows, game.rows()), (&mut cols, game.cols())] {
        kept.retain(|&i| i < len);
        kept.sort_unstable();
        kept.dedup();
    }
    // The security actions cost a pass over the whole matrix: only without
    // a guess.
    if rows.is_empty() || cols.is_empty() {
        let (security_row, security_col) = pure_security(game);
        if rows.is_empty() {
            rows.push(security_row);
        }
        if cols.is_empty() {
            cols.push(security_col);
        }
    }
    // Every round adds at least one action, so this bound is never reached
    // by a correct solver; it guards against a cycling one.
    let mut gap = f64::NAN;
    'rounds: for _ in 0..=game.rows() + game.cols() {
        let sub = game.select(&rows, &cols);
        let (mut pair, mut polished) = if sub.rows() == 1 && sub.cols() == 1 {
            let pure = StrategyPair {
                row: vec![1.0],
                col: vec![1.0],
            };
            (pure, true)
        } else {
            (solver.solve(&sub)?, false)
        };
        // The LP's pair decides which actions join; it is polished only once
        // nothing outside improves, and checked again after polishing.
        let (row_payoffs, col_payoffs) = loop {
            let sub_certificate = certify(&sub, &pair);
            let (row_payoffs, col_payoffs) =
                sparse_responses(game, &rows, &pair.row, &cols, &pair.col);
            let more_rows = add_best(
                &mut rows,
                &row_payoffs,
                sub_certificate.upper + IMPROVEMENT,
                |a, b| a > b,
            );
            let more_cols = add_best(
                &mut cols,
                &col_payoffs,
                sub_certificate.lower - IMPROVEMENT,
                |a, b| a < b,
            );
            if more_rows || more_cols {
                continue 'rounds;
            }
            if polished {
                break (row_payoffs, col_payoffs);
            }
            polished = true;
            match polish::polish(&sub, &pair) {
                Some(better) if certify(&sub, &better).gap() < sub_certificate.gap() => {
                    pair = better
                }
                _ => break (row_payoffs, col_payoffs),
            }
        };
        let certificate = Certificate::from_responses(&row_payoffs, &col_payoffs);
        gap = certificate.gap();
        if gap.is_nan() || gap > GAP_TOLERANCE {
            break;
        }
        let mut full = StrategyPair {
            row: vec![0.0; game.rows()],
            col: vec![0.0; game.cols()],
        };
        for (&r, &p) in rows.iter().zip(&pair.row) {
            full.row[r] = p;
        }
        for (&c, &p) in cols.iter().zip(&pair.col) {
            full.col[c] = p;
        }
        return Ok(SolvedGame {
            strategies: full,
            certificate,
            reduced_rows: sub.rows(),
            reduced_cols: sub.cols(),
            used_lp: sub.rows() > 1 || sub.cols() > 1,
        });
    }
    Err(SolveError::Uncertified {
        gap,
        tolerance: GAP_TOLERANCE,
        rows: game.rows(),
        cols: game.cols(),
    })
}
