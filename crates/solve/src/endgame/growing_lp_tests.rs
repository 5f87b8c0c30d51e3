//! Tests of [`GrowingLp`] on a fixed pseudo-random LP: the simplex going on
//! from the crossover's basis, and the model it writes solving to the same
//! optimum.

use super::*;

/// `max sum x` subject to `A x <= 1`, `x >= 0`, with `A` a fixed
/// pseudo-random 40 x 40 matrix of entries 0 to 4 (dense enough that
/// presolve leaves it to the solver).
fn lp(options: LpOptions) -> GrowingLp {
    let n = 40;
    let mut lp = GrowingLp::new(options).unwrap();
    let rows = vec![
        NewRow {
            bounds: (f64::NEG_INFINITY, 1.0),
            entries: Vec::new(),
        };
        n
    ];
    lp.add_rows(&rows).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let columns: Vec<NewColumn> = (0..n)
        .map(|_| NewColumn {
            cost: 1.0,
            bounds: (0.0, f64::INFINITY),
            entries: (0..n)
                .filter_map(|row| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let a = (seed % 5) as f64;
                    (a != 0.0).then_some((row, a))
                })
                .collect(),
        })
        .collect();
    lp.add_columns(&columns).unwrap();
    lp
}

/// The interior point's solution (without crossover) handed to the
/// crossover gives an optimal basis: the simplex that goes on from it
/// needs no iteration, where a cold simplex needs some, and all three
/// agree on the optimum.
#[test]
fn the_simplex_goes_on_from_the_crossovers_basis() {
    let mut cold = lp(LpOptions::default());
    let (optimum, _, _) = cold.solve().unwrap();
    assert!(cold.iterations() > 0);
    let mut interior = lp(LpOptions {
        method: "ipm",
        crossover: false,
        ..LpOptions::default()
    });
    let (near, _, _) = interior.solve().unwrap();
    assert!(interior.ipm_iterations() > 0);
    assert!((near - optimum).abs() < 1e-7, "{near} {optimum}");
    assert!(interior.continue_by_simplex().unwrap());
    let (exact, _, _) = interior.solve().unwrap();
    assert_eq!(interior.iterations(), 0);
    assert!((exact - optimum).abs() < 1e-12, "{exact} {optimum}");
}

/// The LP written as MPS reads back into a fresh HiGHS instance with
/// the same optimum; a directory that does not exist is refused by
/// name, with the variable that names it.
#[test]
fn the_written_model_solves_to_the_same_optimum() {
    let mut lp = lp(LpOptions::default());
    let (optimum, _, _) = lp.solve().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lp-1.mps");
    lp.write_model(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("ROWS") && text.contains("COLUMNS"), "{text}");
    let copy = GrowingLp::new(LpOptions::default()).unwrap();
    let name = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a live instance and a NUL-terminated path.
    let read = unsafe { ffi::Highs_readModel(copy.ptr(), name.as_ptr()) };
    assert_eq!(read, ffi::kHighsStatusOk);
    // SAFETY: a live instance.
    assert_ne!(
        unsafe { ffi::Highs_run(copy.ptr()) },
        ffi::kHighsStatusError
    );
    // SAFETY: a live instance.
    let again = unsafe { ffi::Highs_getObjectiveValue(copy.ptr()) };
    assert!((again - optimum).abs() < 1e-9, "{again} {optimum}");
    let missing = dir.path().join("no such directory").join("lp-1.mps");
    let error = lp.write_model(&missing).unwrap_err().to_string();
    assert!(
        error.contains(crate::endgame::HIGHS_WRITE_MODEL_VAR)
            && error.contains("no such directory"),
        "{error}"
    );
}
