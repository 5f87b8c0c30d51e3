//! Tests of the matrix-game layer on games with known answers.

use super::*;

fn game(rows: usize, cols: usize, payoffs: &[f64]) -> PayoffMatrix {
    PayoffMatrix::new(rows, cols, payoffs.to_vec())
}

fn solved(g: &PayoffMatrix) -> SolvedGame {
    solve(g, &mut HighsSolver::new()).expect("solvable")
}

#[test]
fn matching_pennies_has_value_one_half() {
    let g = game(2, 2, &[1.0, 0.0, 0.0, 1.0]);
    let s = solved(&g);
    assert!((s.certificate.value() - 0.5).abs() < 1e-12);
    assert!((s.strategies.row[0] - 0.5).abs() < 1e-12);
    assert!((s.strategies.col[1] - 0.5).abs() < 1e-12);
    assert!(s.used_lp);
}

#[test]
fn saddle_point_needs_no_lp() {
    // Row 1 dominates row 0; column 1 then dominates column 0 for the minimiser.
    let g = game(2, 3, &[0.1, 0.2, 0.9, 0.4, 0.3, 0.8]);
    let s = solved(&g);
    assert!(!s.used_lp);
    assert_eq!(s.certificate.value(), 0.3);
    assert_eq!(s.strategies.row, vec![0.0, 1.0]);
    assert_eq!(s.strategies.col, vec![0.0, 1.0, 0.0]);
}

#[test]
fn rock_paper_scissors_payoffs_in_unit_interval() {
    // Win 1, draw 0.5, lose 0: value 1/2, uniform strategies.
    let g = game(3, 3, &[0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5]);
    let s = solved(&g);
    assert!((s.certificate.value() - 0.5).abs() < 1e-12);
    for p in s.strategies.row.iter().chain(&s.strategies.col) {
        assert!((p - 1.0 / 3.0).abs() < 1e-9);
    }
}

#[test]
fn known_value_of_a_3x3_game() {
    // No dominated actions and a mixed equilibrium: compare with a brute-force
    // grid search over the row player's mixed strategies.
    let g = game(3, 3, &[0.9, 0.1, 0.4, 0.2, 0.8, 0.3, 0.5, 0.4, 0.7]);
    let s = solved(&g);
    let mut best = 0.0f64;
    let steps = 300;
    for i in 0..=steps {
        for j in 0..=(steps - i) {
            let p = [i as f64, j as f64, (steps - i - j) as f64].map(|x| x / steps as f64);
            let worst = (0..3)
                .map(|c| (0..3).map(|r| p[r] * g.at(r, c)).sum::<f64>())
                .fold(f64::INFINITY, f64::min);
            best = best.max(worst);
        }
    }
    assert!(s.certificate.value() >= best - 1e-12);
    assert!(s.certificate.value() - best < 2e-3);
    assert!(s.certificate.gap() <= GAP_TOLERANCE);
}

#[test]
fn reduction_keeps_one_of_each_duplicate() {
    let g = game(3, 2, &[0.3, 0.7, 0.3, 0.7, 0.6, 0.2]);
    let r = reduce(&g);
    assert_eq!(r.rows, vec![1, 2]);
    assert_eq!(r.cols, vec![0, 1]);
}

#[test]
fn certificate_detects_a_bad_pair() {
    let g = game(2, 2, &[1.0, 0.0, 0.0, 1.0]);
    let bad = StrategyPair {
        row: vec![1.0, 0.0],
        col: vec![0.5, 0.5],
    };
    let c = certify(&g, &bad);
    // The pure row strategy concedes 0 against column 1; the uniform column
    // strategy concedes 1/2 to either row.
    assert_eq!(c.lower, 0.0);
    assert_eq!(c.upper, 0.5);
    assert_eq!(c.gap(), 0.5);
}
