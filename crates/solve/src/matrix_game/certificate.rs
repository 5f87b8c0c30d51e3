//! The certificate of a strategy pair, the last word on every solved game:
//! what each side's strategy guarantees on the full (unreduced) matrix,
//! computed from the probabilities exactly as they will be stored.
//!
//! It lives apart from the solvers because it trusts none of them: the
//! solve pipeline certifies every answer of every back end here, the game
//! cache certifies cached pairs again before use, and `gametab verify`
//! certifies the written tables on rebuilt matrices. The sums run in a
//! fixed order ([`responses`]), and the sparse form ([`sparse_responses`],
//! reading only the supports) gives bit for bit the same numbers, so a
//! certificate is reproducible wherever it is recomputed.

use super::matrix::{PayoffMatrix, Payoffs, StrategyPair};

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
    /// The certificate given both sides' [`responses`].
    pub fn from_responses(row_payoffs: &[f64], col_payoffs: &[f64]) -> Certificate {
        Certificate {
            lower: col_payoffs.iter().copied().fold(f64::INFINITY, f64::min),
            upper: row_payoffs
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max),
        }
    }

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

/// Payoffs of every row against the column strategy (`M tau`) and of every
/// column against the row strategy (`sigma^T M`), summed in a fixed order so
/// the result is bit-for-bit reproducible.
pub fn responses(game: &PayoffMatrix, pair: &StrategyPair) -> (Vec<f64>, Vec<f64>) {
    let mut against_row = vec![0.0; game.cols()];
    let against_col = (0..game.rows())
        .map(|r| {
            let row = game.row(r);
            let p = pair.row[r];
            if p != 0.0 {
                for (acc, &m) in against_row.iter_mut().zip(row) {
                    *acc += p * m;
                }
            }
            row.iter()
                .zip(&pair.col)
                .fold(0.0, |acc, (&m, &q)| acc + m * q)
        })
        .collect();
    (against_col, against_row)
}

/// Payoffs of every row against the column strategy (`M tau`) and of every
/// column against the row strategy (`sigma^T M`), touching only the entries
/// in the supports. The sums run in increasing index order over the support,
/// so they are bit for bit those of [`responses`] on the full matrix
/// (the skipped terms are exact zeros of non-negative products). `rows` and
/// `cols` are increasing indices with their probabilities `row_p`, `col_p`.
pub fn sparse_responses(
    game: &impl Payoffs,
    rows: &[usize],
    row_p: &[f64],
    cols: &[usize],
    col_p: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let row_support: Vec<(usize, f64)> = rows
        .iter()
        .zip(row_p)
        .filter(|&(_, &p)| p != 0.0)
        .map(|(&r, &p)| (r, p))
        .collect();
    let col_support: Vec<(usize, f64)> = cols
        .iter()
        .zip(col_p)
        .filter(|&(_, &q)| q != 0.0)
        .map(|(&c, &q)| (c, q))
        .collect();
    let mut row_payoffs = vec![0.0; game.rows()];
    for (c, q) in col_support {
        game.add_column(c, q, &mut row_payoffs);
    }
    let mut col_payoffs = vec![0.0; game.cols()];
    for (r, p) in row_support {
        game.add_row(r, p, &mut col_payoffs);
    }
    (row_payoffs, col_payoffs)
}

/// Certify a full-length strategy pair on any [`Payoffs`], reading only the
/// entries in the supports; the same bits as [`certify`] on the matrix.
pub fn certify_sparse(game: &impl Payoffs, pair: &StrategyPair) -> Certificate {
    let rows: Vec<usize> = (0..pair.row.len()).collect();
    let cols: Vec<usize> = (0..pair.col.len()).collect();
    let (row_payoffs, col_payoffs) = sparse_responses(game, &rows, &pair.row, &cols, &pair.col);
    Certificate::from_responses(&row_payoffs, &col_payoffs)
}

/// Certify `pair` on `game` (see [`Certificate`]).
pub fn certify(game: &PayoffMatrix, pair: &StrategyPair) -> Certificate {
    let (row_payoffs, col_payoffs) = responses(game, pair);
    Certificate::from_responses(&row_payoffs, &col_payoffs)
}
