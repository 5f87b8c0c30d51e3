//! Reduction of a matrix game before the LP: duplicate rows and columns are
//! merged and weakly dominated ones removed, iterated to a fixed point, with
//! the bookkeeping to expand reduced strategies back to the full game.
//!
//! Every equilibrium of the reduced game, expanded with zeros on the removed
//! actions, is an equilibrium of the full game (a removed action is weakly
//! worse than a kept one against everything the opponent keeps, so neither
//! side's guarantee changes). The certificate is checked on the full matrix
//! all the same.

use super::{PayoffMatrix, StrategyPair};

/// The kept rows and columns of a game, in increasing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduction {
    /// Kept row indices of the full game.
    pub rows: Vec<usize>,
    /// Kept column indices of the full game.
    pub cols: Vec<usize>,
}

impl Reduction {
    /// Expand strategies of the reduced game to the full game (zero on every
    /// removed action).
    pub fn expand(&self, game: &PayoffMatrix, reduced: &StrategyPair) -> StrategyPair {
        let mut row = vec![0.0; game.rows()];
        for (&r, &p) in self.rows.iter().zip(&reduced.row) {
            row[r] = p;
        }
        let mut col = vec![0.0; game.cols()];
        for (&c, &p) in self.cols.iter().zip(&reduced.col) {
            col[c] = p;
        }
        StrategyPair { row, col }
    }
}

/// Payoffs closer than this count as equal when comparing actions. Values
/// that are equal in exact arithmetic come out of different LPs a few ulps
/// apart; without the slack those actions would survive as near-duplicates
/// and inflate the LPs. Removing an action that is dominated only up to
/// `DOMINANCE_SLACK` can cost at most that much of a side's guarantee per
/// elimination round, far below the certificate tolerance, and the
/// certificate is checked on the full matrix regardless.
pub const DOMINANCE_SLACK: f64 = 1e-13;

/// Whether row `a` is at least as good as row `b` for the maximiser on the
/// kept columns.
fn row_dominates(game: &PayoffMatrix, a: usize, b: usize, cols: &[usize]) -> bool {
    let (ra, rb) = (game.row(a), game.row(b));
    cols.iter().all(|&c| ra[c] >= rb[c] - DOMINANCE_SLACK)
}

/// Whether column `a` is at least as good as column `b` for the minimiser
/// on the kept rows.
fn col_dominates(game: &PayoffMatrix, a: usize, b: usize, rows: &[usize]) -> bool {
    rows.iter()
        .all(|&r| game.at(r, a) <= game.at(r, b) + DOMINANCE_SLACK)
}

/// Remove from `kept` every index weakly dominated by another kept index.
/// Scanning in order and removing immediately makes exact ties keep exactly
/// one member (the last one scanned), and the result is deterministic.
fn prune(kept: &mut Vec<usize>, dominates: impl Fn(usize, usize) -> bool) -> bool {
    let mut removed_any = false;
    let mut i = 0;
    while i < kept.len() {
        let candidate = kept[i];
        let dominated = kept
            .iter()
            .any(|&other| other != candidate && dominates(other, candidate));
        if dominated {
            kept.remove(i);
            removed_any = true;
        } else {
            i += 1;
        }
    }
    removed_any
}

/// Iterated elimination of weakly dominated (including duplicate) rows and
/// columns until neither side changes.
pub fn reduce(game: &PayoffMatrix) -> Reduction {
    let mut rows: Vec<usize> = (0..game.rows()).collect();
    let mut cols: Vec<usize> = (0..game.cols()).collect();
    loop {
        let rows_changed = prune(&mut rows, |a, b| row_dominates(game, a, b, &cols));
        let cols_changed = prune(&mut cols, |a, b| col_dominates(game, a, b, &rows));
        if !rows_changed && !cols_changed {
            break;
        }
    }
    Reduction { rows, cols }
}
