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

fn native_solved(g: &PayoffMatrix) -> SolvedGame {
    solve(g, &mut NativeSolver::new()).expect("native solves")
}

/// The native LP alone (no reduction, no polish) on `g`, certified.
fn native_raw(g: &PayoffMatrix) -> (StrategyPair, Certificate) {
    let pair = NativeSolver::new().solve(g).expect("native LP solves");
    let certificate = certify(g, &pair);
    (pair, certificate)
}

#[test]
fn native_matching_pennies() {
    let g = game(2, 2, &[1.0, 0.0, 0.0, 1.0]);
    let (pair, c) = native_raw(&g);
    assert!(c.gap().abs() < 1e-15);
    assert!((c.value() - 0.5).abs() < 1e-15);
    assert!(pair
        .row
        .iter()
        .chain(&pair.col)
        .all(|p| (p - 0.5).abs() < 1e-15));
    let s = native_solved(&g);
    assert!((s.certificate.value() - 0.5).abs() < 1e-12);
}

#[test]
fn native_rock_paper_scissors() {
    let g = game(3, 3, &[0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5]);
    let (pair, c) = native_raw(&g);
    assert!(c.gap().abs() < 1e-14);
    assert!((c.value() - 0.5).abs() < 1e-14);
    for p in pair.row.iter().chain(&pair.col) {
        assert!((p - 1.0 / 3.0).abs() < 1e-14);
    }
}

#[test]
fn native_saddle_points() {
    // Unreduced, the LP itself must find the pure saddle point.
    let g = game(2, 3, &[0.1, 0.2, 0.9, 0.4, 0.3, 0.8]);
    let (pair, c) = native_raw(&g);
    assert_eq!(c.gap(), 0.0);
    assert_eq!(c.value(), 0.3);
    assert_eq!(pair.row, vec![0.0, 1.0]);
    assert_eq!(pair.col, vec![0.0, 1.0, 0.0]);
    // A constant game: every pair is optimal.
    let g = game(3, 4, &[0.25; 12]);
    let (_, c) = native_raw(&g);
    assert_eq!(c.gap(), 0.0);
    assert_eq!(c.value(), 0.25);
    // A 1x1 game and a single row / single column.
    assert_eq!(native_raw(&game(1, 1, &[0.7])).1.value(), 0.7);
    assert_eq!(native_raw(&game(1, 3, &[0.7, 0.2, 0.9])).1.value(), 0.2);
    assert_eq!(native_raw(&game(3, 1, &[0.7, 0.2, 0.9])).1.value(), 0.9);
}

#[test]
fn native_known_3x3_game_matches_highs() {
    let g = game(3, 3, &[0.9, 0.1, 0.4, 0.2, 0.8, 0.3, 0.5, 0.4, 0.7]);
    let n = native_solved(&g);
    let h = solved(&g);
    assert!(n.certificate.gap() <= 1e-14);
    assert!((n.certificate.value() - h.certificate.value()).abs() <= 1e-12);
}

/// A small deterministic generator (xorshift64*), so the tests need no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn native_degenerate_games_with_many_ties() {
    // Payoffs drawn from a handful of levels, as in Murder Plan (win, lose,
    // a few continuation values): many tied ratios and degenerate pivots.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let levels = [0.0, 0.25, 0.5, 1.0];
    for round in 0..300 {
        let rows = 2 + rng.below(40) as usize;
        let cols = 2 + rng.below(40) as usize;
        let payoffs: Vec<f64> = (0..rows * cols)
            .map(|_| levels[rng.below(levels.len() as u64) as usize])
            .collect();
        let g = game(rows, cols, &payoffs);
        let (_, c) = native_raw(&g);
        assert!(c.gap() <= 1e-12, "round {round}: raw gap {:e}", c.gap());
        let h = solved(&g);
        assert!(
            (c.value() - h.certificate.value()).abs() <= 1e-9,
            "round {round}: native {} vs HiGHS {}",
            c.value(),
            h.certificate.value()
        );
    }
    // Identical rows and columns everywhere (unreduced): a 0/1 block game.
    let mut payoffs = Vec::new();
    for r in 0..12 {
        for c in 0..10 {
            payoffs.push(if (r / 3 + c / 2) % 2 == 0 { 1.0 } else { 0.0 });
        }
    }
    let g = game(12, 10, &payoffs);
    let (_, c) = native_raw(&g);
    assert!(c.gap().abs() <= 1e-14);
    assert!((c.value() - 0.5).abs() <= 1e-14);
}

#[test]
fn native_random_games_certify_and_match_highs() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut highs = HighsSolver::new();
    let mut native = NativeSolver::new();
    for round in 0..200 {
        let rows = 2 + rng.below(70) as usize;
        let cols = 2 + rng.below(70) as usize;
        let payoffs: Vec<f64> = (0..rows * cols)
            .map(|_| (rng.next() >> 11) as f64 / (1u64 << 53) as f64)
            .collect();
        let g = game(rows, cols, &payoffs);
        // The same instance reused across games of different shapes.
        let n = solve(&g, &mut native).expect("native solves");
        let h = solve(&g, &mut highs).expect("HiGHS solves");
        assert!(
            n.certificate.gap() <= 1e-12,
            "round {round}: gap {:e}",
            n.certificate.gap()
        );
        assert!(
            (n.certificate.value() - h.certificate.value()).abs() <= 1e-9,
            "round {round} {rows}x{cols}"
        );
        // Deterministic: a fresh instance gives the identical pair.
        assert_eq!(n, solve(&g, &mut NativeSolver::new()).unwrap());
    }
}

#[test]
fn native_rejects_non_finite_payoffs() {
    let g = game(2, 2, &[0.5, f64::NAN, 0.1, 0.2]);
    assert!(matches!(
        NativeSolver::new().solve(&g),
        Err(SolveError::Status {
            solver: "native",
            ..
        })
    ));
}

#[test]
fn game_solver_backends_agree() {
    let g = game(3, 3, &[0.9, 0.1, 0.4, 0.2, 0.8, 0.3, 0.5, 0.4, 0.7]);
    let (n, n_fallback) = GameSolver::new(LpBackend::Native).solve(&g).unwrap();
    let (h, h_fallback) = GameSolver::new(LpBackend::Highs).solve(&g).unwrap();
    assert!(!n_fallback && !h_fallback);
    assert!((n.certificate.value() - h.certificate.value()).abs() <= 1e-12);
}

/// A game whose entries are computed on demand, as the double oracle reads
/// Murder Plan games: the same payoffs as a matrix, through the trait.
struct Lazy<'a>(&'a PayoffMatrix);

impl Payoffs for Lazy<'_> {
    fn rows(&self) -> usize {
        self.0.rows()
    }

    fn cols(&self) -> usize {
        self.0.cols()
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.0.at(r, c)
    }
}

#[test]
fn double_oracle_matches_the_full_solve_from_any_guess() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let mut native = NativeSolver::new();
    let levels = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0];
    for round in 0..300 {
        let rows = 1 + rng.below(60) as usize;
        let cols = 1 + rng.below(60) as usize;
        // Half the games from a few levels (ties, duplicates), half generic.
        let payoffs: Vec<f64> = (0..rows * cols)
            .map(|_| {
                if round % 2 == 0 {
                    levels[rng.below(levels.len() as u64) as usize]
                } else {
                    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
                }
            })
            .collect();
        let g = game(rows, cols, &payoffs);
        let full = solve(&g, &mut native).expect("full solve");
        // No guess, a random guess (with out-of-range indices, which are
        // dropped), and the full solve's own supports.
        let random_rows: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(70) as usize).collect();
        let random_cols: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(70) as usize).collect();
        let support = |p: &[f64]| (0..p.len()).filter(|&i| p[i] > 0.0).collect::<Vec<_>>();
        let guesses = [
            (vec![], vec![]),
            (random_rows, random_cols),
            (support(&full.strategies.row), support(&full.strategies.col)),
        ];
        for (guess_rows, guess_cols) in &guesses {
            let oracle = solve_from(&Lazy(&g), &mut native, guess_rows, guess_cols)
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
            // Its certificate is the certificate on the full matrix.
            assert_eq!(oracle.certificate, certify(&g, &oracle.strategies));
            assert!(oracle.certificate.gap() <= 1e-12, "round {round}");
            assert!(
                (oracle.certificate.value() - full.certificate.value()).abs() <= 1e-9,
                "round {round} {rows}x{cols}: oracle {} vs full {}",
                oracle.certificate.value(),
                full.certificate.value()
            );
            assert!(oracle.reduced_rows <= rows && oracle.reduced_cols <= cols);
        }
    }
}

#[test]
fn lazy_payoffs_give_the_same_matrix_and_selection() {
    let g = game(2, 3, &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    assert_eq!(Lazy(&g).to_matrix(), g);
    assert_eq!(
        Lazy(&g).select(&[1, 0], &[2, 0]),
        game(2, 2, &[0.6, 0.4, 0.3, 0.1])
    );
}

/// A 13x12 sub-game of the Murder Plan double oracle (days_left 7) whose
/// rows differ from each other by a few ulps. With an absolute pivot
/// tolerance of 1e-11 the simplex pivoted on round-off and stopped at a
/// pair with gap 7e-3; it must certify like HiGHS does.
#[test]
fn native_solver_survives_rows_that_differ_by_ulps() {
    #[rustfmt::skip]
    let payoffs = [
        1.0, 0.9848252968107927, 0.9864279935392795, 1.0, 1.0, 1.0, 0.9918117205902948, 1.0, 1.0, 0.9864279935392795, 0.9914452279060149, 0.9864279935392795,
        1.0, 0.98482529681079, 0.9864279935392769, 1.0, 1.0, 1.0, 0.9918117205902945, 1.0, 1.0, 0.9864279935392769, 0.9914452279060149, 0.9864279935392769,
        1.0, 0.9650315267841069, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9765713951130179, 0.965143123695652,
        1.0, 1.0, 0.9864279935392769, 1.0, 1.0, 1.0, 0.9918117205902945, 1.0, 1.0, 0.9864279935392769, 0.9914452279060149, 0.9853268119120718,
        0.9864279935392769, 1.0, 1.0, 0.9853268119120718, 0.9919320542278103, 0.9864279935392769, 0.9907030179785643, 1.0, 1.0, 1.0, 1.0, 1.0,
        1.0, 1.0, 1.0, 0.9853268119120723, 0.9907030179785643, 1.0, 0.9919320542278103, 1.0, 1.0, 0.9853268119120723, 0.9907030179785643, 1.0,
        0.9848252968107927, 0.9848252968107927, 0.9853268119120723, 1.0, 1.0, 0.9848252968107927, 0.9907030179785643, 0.9864279935392795, 0.9848252968107927, 1.0, 1.0, 1.0,
        0.9864279935392795, 1.0, 1.0, 1.0, 0.9918117205902948, 0.9864279935392783, 1.0, 0.9853268119120723, 0.9853268119120723, 1.0, 0.9919320542278102, 0.9853268119120723,
        1.0, 1.0, 0.98482529681079, 0.9853268119120718, 0.9907030179785643, 1.0, 0.9919320542278102, 1.0, 1.0, 0.9864279935392772, 0.9919320542278102, 1.0,
        1.0, 0.965143123695652, 1.0, 1.0, 0.9765752593950829, 1.0, 1.0, 0.9650315267841069, 0.965143123695652, 1.0, 1.0, 1.0,
        0.9864279935392772, 0.9864279935392772, 0.9864279935392772, 1.0, 1.0, 0.98482529681079, 0.9907030179785643, 1.0, 1.0, 0.98482529681079, 1.0, 1.0,
        1.0, 0.9650315267841068, 1.0, 1.0, 0.9765752593950828, 1.0, 1.0, 0.9650577605703261, 1.0, 1.0, 1.0, 1.0,
        0.9865286579737751, 0.9865286579737751, 0.9864279935392772, 1.0, 1.0, 1.0, 0.9907030179785643, 1.0, 1.0, 0.98482529681079, 1.0, 0.98482529681079,
    ];
    let g = game(13, 12, &payoffs);
    let native = NativeSolver::new().solve(&g).expect("native solves");
    let highs = HighsSolver::new().solve(&g).expect("HiGHS solves");
    let (native, highs) = (certify(&g, &native), certify(&g, &highs));
    assert!(native.gap() <= 1e-12, "native gap {:e}", native.gap());
    assert!((native.value() - highs.value()).abs() <= 1e-12);
}

/// Grow a random sub-game a few rows and columns at a time, as the double
/// oracle does, re-solving from the last tableau each time: every grown
/// solve must be an equilibrium of its game as exact as a solve from
/// scratch, on generic payoffs and on a few levels (degenerate pivots).
#[test]
fn native_grown_tableau_solves_like_a_fresh_one() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let levels = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mut native = NativeSolver::new();
    let mut grown_solves = 0;
    for round in 0..200 {
        let rows = 3 + rng.below(40) as usize;
        let cols = 3 + rng.below(40) as usize;
        let payoffs: Vec<f64> = (0..rows * cols)
            .map(|_| {
                if round % 2 == 0 {
                    levels[rng.below(levels.len() as u64) as usize]
                } else {
                    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
                }
            })
            .collect();
        let g = game(rows, cols, &payoffs);
        // Random starting subsets, grown by up to 3 random rows and columns
        // (sometimes none of one side) until the whole game is in.
        let mut kept_rows: Vec<usize> = vec![rng.below(rows as u64) as usize];
        let mut kept_cols: Vec<usize> = vec![rng.below(cols as u64) as usize];
        let mut previous: Option<(Vec<usize>, Vec<usize>)> = None;
        loop {
            let sub = g.select(&kept_rows, &kept_cols);
            let pair = match &previous {
                None => native.solve(&sub),
                Some((old_rows, old_cols)) => {
                    let at = |old: &[usize], new: &[usize]| -> Vec<usize> {
                        old.iter().map(|i| new.binary_search(i).unwrap()).collect()
                    };
                    grown_solves += 1;
                    native.solve_grown(&sub, &at(old_rows, &kept_rows), &at(old_cols, &kept_cols))
                }
            }
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
            let fresh = NativeSolver::new().solve(&sub).expect("fresh solve");
            let (grown, fresh) = (certify(&sub, &pair), certify(&sub, &fresh));
            assert!(
                grown.gap() <= 1e-10,
                "round {round} {}x{}: gap {:e}",
                sub.rows(),
                sub.cols(),
                grown.gap()
            );
            assert!((grown.value() - fresh.value()).abs() <= 1e-10);
            if kept_rows.len() == rows && kept_cols.len() == cols {
                break;
            }
            previous = Some((kept_rows.clone(), kept_cols.clone()));
            for (kept, len) in [(&mut kept_rows, rows), (&mut kept_cols, cols)] {
                for _ in 0..rng.below(4) {
                    let i = rng.below(len as u64) as usize;
                    if let Err(at) = kept.binary_search(&i) {
                        kept.insert(at, i);
                    }
                }
            }
            if previous.as_ref() == Some(&(kept_rows.clone(), kept_cols.clone())) {
                // Nothing was added: add the first missing row or column.
                let missing = |kept: &[usize], len: usize| (0..len).find(|i| !kept.contains(i));
                if let Some(r) = missing(&kept_rows, rows) {
                    kept_rows.insert(kept_rows.binary_search(&r).unwrap_err(), r);
                } else if let Some(c) = missing(&kept_cols, cols) {
                    kept_cols.insert(kept_cols.binary_search(&c).unwrap_err(), c);
                }
            }
        }
    }
    // Most grown solves really re-used the tableau.
    assert!(native.warm_lps_solved() * 10 >= grown_solves * 9);
}

/// A grown game whose new payoffs fall far below the old shift, or whose
/// kept indices do not describe the last game, is solved from scratch, and
/// still exactly.
#[test]
fn native_grown_tableau_falls_back_when_it_cannot_grow() {
    let mut native = NativeSolver::new();
    let small = game(2, 2, &[1.0, 0.5, 0.5, 1.0]);
    native.solve(&small).unwrap();
    // A new row of payoffs far below the old minimum: the old shift would
    // make them negative.
    let grown = game(3, 2, &[1.0, 0.5, 0.5, 1.0, -5.0, -4.0]);
    let pair = native.solve_grown(&grown, &[0, 1], &[0, 1]).unwrap();
    assert_eq!(native.warm_lps_solved(), 0);
    assert!(certify(&grown, &pair).gap() <= 1e-14);
    assert!((certify(&grown, &pair).value() - 0.75).abs() <= 1e-14);
    // Kept indices that do not match the last game's shape.
    let pair = native.solve_grown(&small, &[0, 1, 2], &[0]).unwrap();
    assert_eq!(native.warm_lps_solved(), 0);
    assert!((certify(&small, &pair).value() - 0.75).abs() <= 1e-14);
    // A real growth: one new column.
    let wider = game(2, 3, &[1.0, 0.5, 0.9, 0.5, 1.0, 0.9]);
    let pair = native.solve_grown(&wider, &[0, 1], &[0, 1]).unwrap();
    assert_eq!(native.warm_lps_solved(), 1);
    assert!(certify(&wider, &pair).gap() <= 1e-14);
    assert!((certify(&wider, &pair).value() - 0.75).abs() <= 1e-14);
}
