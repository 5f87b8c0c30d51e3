//! Polishing an LP equilibrium to full double precision.
//!
//! An LP solver's strategies are feasible only to its tolerances (~1e-10
//! here), which shows up directly in the certificate gap. When the two
//! supports have the same size (the non-degenerate case), the equilibrium
//! is the solution of the square "equaliser" systems: the row strategy makes
//! every column of the opponent's support pay the same, and vice versa.
//! Solving those systems by Gaussian elimination gives strategies accurate to
//! a few ulps; the caller keeps them only if they certify better.

use super::{PayoffMatrix, StrategyPair};

/// Solve `a x = b` for a square `n x n` row-major `a` by Gaussian elimination
/// with partial pivoting; `None` when singular.
fn solve_linear(mut a: Vec<f64>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for k in 0..n {
        let pivot = (k..n).max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))?;
        if a[pivot * n + k].abs() < 1e-12 {
            return None;
        }
        if pivot != k {
            for c in 0..n {
                a.swap(k * n + c, pivot * n + c);
            }
            b.swap(k, pivot);
        }
        for i in k + 1..n {
            let factor = a[i * n + k] / a[k * n + k];
            if factor != 0.0 {
                for c in k..n {
                    a[i * n + c] -= factor * a[k * n + c];
                }
                b[i] -= factor * b[k];
            }
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let tail: f64 = (k + 1..n).map(|c| a[k * n + c] * x[c]).sum();
        x[k] = (b[k] - tail) / a[k * n + k];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The strategy over `own` (rows of `payoff(own, other)`) that equalises the
/// opponent's `other` actions, or `None` if the system is singular or the
/// solution leaves the simplex.
fn equaliser(
    own: &[usize],
    other: &[usize],
    payoff: impl Fn(usize, usize) -> f64,
) -> Option<Vec<f64>> {
    let n = own.len() + 1;
    // Unknowns: p over own, then v. Equations: one per opponent action
    // (sum_i p_i payoff(i, j) - v = 0), then sum_i p_i = 1.
    let mut a = vec![0.0; n * n];
    let mut b = vec![0.0; n];
    for (e, &j) in other.iter().enumerate() {
        for (u, &i) in own.iter().enumerate() {
            a[e * n + u] = payoff(i, j);
        }
        a[e * n + own.len()] = -1.0;
    }
    let last = other.len();
    for u in 0..own.len() {
        a[last * n + u] = 1.0;
    }
    b[last] = 1.0;
    let x = solve_linear(a, b)?;
    let p = &x[..own.len()];
    if p.iter().any(|&v| v < -1e-12) {
        return None;
    }
    Some(p.iter().map(|&v| v.max(0.0)).collect())
}

/// Re-solve the equaliser systems on the supports of `pair`; `None` when the
/// supports differ in size or a system is singular.
pub fn polish(game: &PayoffMatrix, pair: &StrategyPair) -> Option<StrategyPair> {
    let rows: Vec<usize> = (0..game.rows()).filter(|&r| pair.row[r] > 0.0).collect();
    let cols: Vec<usize> = (0..game.cols()).filter(|&c| pair.col[c] > 0.0).collect();
    if rows.len() != cols.len() || rows.len() < 2 {
        return None;
    }
    let sigma = equaliser(&rows, &cols, |i, j| game.at(i, j))?;
    let tau = equaliser(&cols, &rows, |j, i| game.at(i, j))?;
    let mut polished = StrategyPair {
        row: vec![0.0; game.rows()],
        col: vec![0.0; game.cols()],
    };
    for (&r, p) in rows.iter().zip(sigma) {
        polished.row[r] = p;
    }
    for (&c, p) in cols.iter().zip(tau) {
        polished.col[c] = p;
    }
    super::normalise(&mut polished.row);
    super::normalise(&mut polished.col);
    Some(polished)
}
