//! The data every part of the matrix-game layer shares: the payoff matrix
//! (dense, row-major, payoffs to the row player), the [`Payoffs`] view of a
//! game, and a pair of mixed strategies.
//!
//! Why a trait beside the matrix: the LP back ends need the dense matrix of
//! a small (reduced or sub-) game, but the double oracle and the
//! certificate of a large game read only the rows and columns of the
//! supports, so a game whose entries are computed on demand (Murder Plan's
//! outcome values through its turn table) is never expanded. The trait's
//! default methods fix the summation order, so every implementor gives the
//! same bits.

/// A payoff matrix, row-major, payoffs to the row player.
#[derive(Debug, Clone, PartialEq)]
pub struct PayoffMatrix {
    rows: usize,
    cols: usize,
    payoffs: Vec<f64>,
}

impl PayoffMatrix {
    /// A `rows x cols` matrix from row-major payoffs.
    ///
    /// # Panics
    /// If `payoffs.len() != rows * cols`: matrices are built by this crate,
    /// never from outside input.
    pub fn new(rows: usize, cols: usize, payoffs: Vec<f64>) -> PayoffMatrix {
        assert_eq!(payoffs.len(), rows * cols, "payoff matrix shape");
        PayoffMatrix {
            rows,
            cols,
            payoffs,
        }
    }

    /// Number of row-player actions.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of column-player actions.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The payoff of row `r` against column `c`.
    pub fn at(&self, r: usize, c: usize) -> f64 {
        self.payoffs[r * self.cols + c]
    }

    /// Row `r` as a slice.
    pub fn row(&self, r: usize) -> &[f64] {
        &self.payoffs[r * self.cols..(r + 1) * self.cols]
    }

    /// The row-major payoffs, to reuse their buffer.
    pub fn into_payoffs(self) -> Vec<f64> {
        self.payoffs
    }
}

/// Read access to the payoffs of a game, for solvers that look at only some
/// entries (the double oracle): a [`PayoffMatrix`], or a game whose entries
/// are computed on demand.
pub trait Payoffs {
    /// Number of row-player actions.
    fn rows(&self) -> usize;

    /// Number of column-player actions.
    fn cols(&self) -> usize;

    /// The payoff of row `r` against column `c`.
    fn at(&self, r: usize, c: usize) -> f64;

    /// Add `weight * at(r, c)` to `out[r]` for every row `r`: column `c`'s
    /// share of every row's payoff against a mixed column strategy.
    /// `out.len()` is [`Payoffs::rows`]. Summing a support in increasing
    /// column order from zeros gives exactly the bits of the fold
    /// `acc + at(r, c) * q`; implementors keep that (they may only read the
    /// column faster).
    fn add_column(&self, c: usize, weight: f64, out: &mut [f64]) {
        for (r, total) in out.iter_mut().enumerate() {
            *total += self.at(r, c) * weight;
        }
    }

    /// Add `weight * at(r, c)` to `out[c]` for every column `c`; as
    /// [`Payoffs::add_column`] for the other player.
    fn add_row(&self, r: usize, weight: f64, out: &mut [f64]) {
        for (c, total) in out.iter_mut().enumerate() {
            *total += self.at(r, c) * weight;
        }
    }

    /// The sub-matrix of the given rows and columns, in the given order.
    fn select(&self, rows: &[usize], cols: &[usize]) -> PayoffMatrix {
        let mut payoffs = Vec::with_capacity(rows.len() * cols.len());
        for &r in rows {
            payoffs.extend(cols.iter().map(|&c| self.at(r, c)));
        }
        PayoffMatrix::new(rows.len(), cols.len(), payoffs)
    }

    /// The whole matrix.
    fn to_matrix(&self) -> PayoffMatrix {
        let rows: Vec<usize> = (0..self.rows()).collect();
        let cols: Vec<usize> = (0..self.cols()).collect();
        self.select(&rows, &cols)
    }
}

impl Payoffs for PayoffMatrix {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.payoffs[r * self.cols + c]
    }

    fn add_row(&self, r: usize, weight: f64, out: &mut [f64]) {
        for (total, &p) in out.iter_mut().zip(self.row(r)) {
            *total += p * weight;
        }
    }

    fn to_matrix(&self) -> PayoffMatrix {
        self.clone()
    }
}

/// A pair of mixed strategies.
#[derive(Debug, Clone, PartialEq)]
pub struct StrategyPair {
    /// Row player's probabilities, one per row.
    pub row: Vec<f64>,
    /// Column player's probabilities, one per column.
    pub col: Vec<f64>,
}
