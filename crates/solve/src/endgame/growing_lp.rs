//! An LP that only grows, kept in one HiGHS instance between solves, so
//! that each solve starts from the last optimal basis: the double oracle's
//! restricted LP gains a few rows and columns per round, and re-optimising
//! from the previous basis takes a few simplex iterations where a fresh
//! solve takes thousands.
//!
//! The `highs` crate builds a model once and consumes it to solve; adding
//! rows and columns to a solved model needs the C API (`highs-sys`, the
//! same build the `highs` crate links), which this module wraps: one owned
//! instance, freed on drop, every call's status checked. New rows come in
//! basic (their slacks), new columns nonbasic at a bound, which is how
//! HiGHS keeps a basis valid when a model grows.

use std::ffi::{c_void, CString};
use std::ptr::NonNull;

use super::error::{Error, Result};
use highs_sys as ffi;

use super::lp::{HIPO_SYSTEM, IPM_ROUND_TOLERANCE, ORACLE_IPM_SOLVER};
use super::LpOptions;

/// Primal and dual feasibility tolerance of every solve but the interior
/// point's rounds without crossover ([`IPM_ROUND_TOLERANCE`]).
const EXACT_TOLERANCE: f64 = 1e-10;

/// A maximisation LP in a HiGHS instance that rows and columns are added to
/// between solves.
pub struct GrowingLp {
    highs: NonNull<c_void>,
    crossover: bool,
    hipo: bool,
    rows: usize,
    columns: usize,
    nonzeros: u64,
    iterations: u64,
    ipm_iterations: u64,
    solves: u64,
}

impl std::fmt::Debug for GrowingLp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GrowingLp")
            .field("rows", &self.rows)
            .field("columns", &self.columns)
            .field("nonzeros", &self.nonzeros)
            .finish()
    }
}

impl Drop for GrowingLp {
    fn drop(&mut self) {
        // SAFETY: the pointer came from Highs_create and is freed only here.
        unsafe { ffi::Highs_destroy(self.highs.as_ptr()) }
    }
}

/// A row to add: its bounds and its coefficients on existing columns.
#[derive(Debug, Clone, Default)]
pub struct NewRow {
    /// Lower and upper bound (infinite bounds as `f64::INFINITY`).
    pub bounds: (f64, f64),
    /// `(column, coefficient)` on columns already in the LP.
    pub entries: Vec<(usize, f64)>,
}

/// A column to add: its cost, bounds and coefficients on every row.
#[derive(Debug, Clone, Default)]
pub struct NewColumn {
    /// Objective coefficient.
    pub cost: f64,
    /// Lower and upper bound.
    pub bounds: (f64, f64),
    /// `(row, coefficient)` on rows of the LP (those added this round
    /// included).
    pub entries: Vec<(usize, f64)>,
}

fn check(status: ffi::HighsInt, what: &str) -> Result<()> {
    if status == ffi::kHighsStatusError {
        return Err(Error::Highs(format!("HiGHS failed in {what}")));
    }
    Ok(())
}

fn index(i: usize, what: &str) -> Result<ffi::HighsInt> {
    ffi::HighsInt::try_from(i)
        .map_err(|_| Error::Highs(format!("{what} {i} exceeds HiGHS's index type")))
}

impl GrowingLp {
    /// An empty maximisation LP with `options`' method and threads, quiet,
    /// primal and dual feasibility tolerances 1e-10 (as
    /// [`super::lp::run_highs`]); `ipm` is HiPO ([`ORACLE_IPM_SOLVER`],
    /// [`HIPO_SYSTEM`]), its rounds without crossover to
    /// [`IPM_ROUND_TOLERANCE`].
    ///
    /// # Errors
    /// HiGHS cannot be created or refuses an option.
    pub fn new(options: LpOptions) -> Result<GrowingLp> {
        // SAFETY: Highs_create has no preconditions; a null result is
        // handled.
        let highs = NonNull::new(unsafe { ffi::Highs_create() })
            .ok_or_else(|| Error::Highs("HiGHS could not be created".into()))?;
        let lp = GrowingLp {
            highs,
            crossover: options.crossover,
            hipo: options.method == "ipm",
            rows: 0,
            columns: 0,
            nonzeros: 0,
            iterations: 0,
            ipm_iterations: 0,
            solves: 0,
        };
        // HiGHS's own log on standard error for a diagnosis
        // (`GAMETAB_HIGHS_LOG=1`), else quiet.
        let log = std::env::var_os(super::HIGHS_LOG_VAR).is_some();
        lp.set_bool("output_flag", log)?;
        lp.set_bool("log_to_console", log)?;
        lp.set_int("threads", options.threads.max(1) as i32)?;
        let ipm = options.method == "ipm";
        let solver = if ipm {
            ORACLE_IPM_SOLVER
        } else {
            options.method
        };
        lp.set_string("solver", solver).map_err(|_| {
            Error::Highs(format!(
                "HiGHS refused the solver {solver:?} (a HiGHS built without HiPO? gametab-solve turns on highs-sys's `hipo` feature)"
            ))
        })?;
        if ipm {
            lp.set_string("hipo_system", HIPO_SYSTEM)?;
        }
        lp.set_tolerance(if ipm && !options.crossover {
            IPM_ROUND_TOLERANCE
        } else {
            EXACT_TOLERANCE
        })?;
        if !options.crossover {
            lp.set_string("run_crossover", "off")?;
        }
        // Further HiGHS options for a measurement
        // (`GAMETAB_HIGHS_OPTIONS="ipx_dualize_strategy=1 presolve=off"`),
        // set last, by HiGHS's own parsing of each value.
        if let Some(extra) = std::env::var_os(super::HIGHS_OPTIONS_VAR) {
            for pair in extra.to_string_lossy().split_whitespace() {
                let Some((option, value)) = pair.split_once('=') else {
                    return Err(Error::Highs(format!(
                        "GAMETAB_HIGHS_OPTIONS: {pair:?} is not option=value"
                    )));
                };
                lp.set_any(option, value)?;
            }
        }
        // SAFETY: a live instance.
        check(
            unsafe { ffi::Highs_changeObjectiveSense(lp.ptr(), ffi::kHighsObjSenseMaximize) },
            "setting the objective sense",
        )?;
        Ok(lp)
    }

    fn ptr(&self) -> *mut c_void {
        self.highs.as_ptr()
    }

    fn name(option: &str) -> Result<CString> {
        CString::new(option)
            .map_err(|_| Error::Internal(format!("a HiGHS option {option:?} with a NUL byte")))
    }

    fn set_bool(&self, option: &str, value: bool) -> Result<()> {
        let name = Self::name(option)?;
        // SAFETY: a live instance and a NUL-terminated name.
        check(
            unsafe { ffi::Highs_setBoolOptionValue(self.ptr(), name.as_ptr(), value.into()) },
            option,
        )
    }

    fn set_int(&self, option: &str, value: i32) -> Result<()> {
        let name = Self::name(option)?;
        // SAFETY: as above.
        check(
            unsafe { ffi::Highs_setIntOptionValue(self.ptr(), name.as_ptr(), value) },
            option,
        )
    }

    fn set_double(&self, option: &str, value: f64) -> Result<()> {
        let name = Self::name(option)?;
        // SAFETY: as above.
        check(
            unsafe { ffi::Highs_setDoubleOptionValue(self.ptr(), name.as_ptr(), value) },
            option,
        )
    }

    fn set_tolerance(&self, tolerance: f64) -> Result<()> {
        self.set_double("primal_feasibility_tolerance", tolerance)?;
        self.set_double("dual_feasibility_tolerance", tolerance)
    }

    fn set_string(&self, option: &str, value: &str) -> Result<()> {
        let (name, value) = (Self::name(option)?, Self::name(value)?);
        // SAFETY: as above, both strings NUL-terminated.
        check(
            unsafe { ffi::Highs_setStringOptionValue(self.ptr(), name.as_ptr(), value.as_ptr()) },
            option,
        )
    }

    /// Set `option` from its text, parsed for the option's type.
    fn set_any(&self, option: &str, value: &str) -> Result<()> {
        let name = Self::name(option)?;
        let mut kind: ffi::HighsInt = 0;
        // SAFETY: a live instance, a NUL-terminated name, an out pointer.
        check(
            unsafe { ffi::Highs_getOptionType(self.ptr(), name.as_ptr(), &mut kind) },
            &format!("looking up the HiGHS option {option:?} (no such option?)"),
        )?;
        let bad = || {
            Error::Highs(format!(
                "the HiGHS option {option}: {value:?} is no value of its type"
            ))
        };
        match kind {
            ffi::kHighsOptionTypeBool => match value {
                "true" | "on" => self.set_bool(option, true),
                "false" | "off" => self.set_bool(option, false),
                _ => Err(bad()),
            },
            ffi::kHighsOptionTypeInt => self.set_int(option, value.parse().map_err(|_| bad())?),
            ffi::kHighsOptionTypeDouble => {
                self.set_double(option, value.parse().map_err(|_| bad())?)
            }
            _ => self.set_string(option, value).map_err(|_| bad()),
        }
    }

    /// Rows so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns so far.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Simplex iterations of the last solve.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Interior point iterations of the last solve.
    pub fn ipm_iterations(&self) -> u64 {
        self.ipm_iterations
    }

    /// Nonzero coefficients so far.
    pub fn nonzeros(&self) -> u64 {
        self.nonzeros
    }

    /// Add `rows` (their coefficients on existing columns only).
    ///
    /// # Errors
    /// A coefficient on a column that does not exist, or HiGHS refusing.
    pub fn add_rows(&mut self, rows: &[NewRow]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let (mut lower, mut upper) = (
            Vec::with_capacity(rows.len()),
            Vec::with_capacity(rows.len()),
        );
        let (mut starts, mut columns, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for row in rows {
            lower.push(row.bounds.0);
            upper.push(row.bounds.1);
            starts.push(index(columns.len(), "nonzero")?);
            for &(column, value) in &row.entries {
                if column >= self.columns {
                    return Err(Error::Internal(format!(
                        "a new row's coefficient on column {column} of {}",
                        self.columns
                    )));
                }
                columns.push(index(column, "column")?);
                values.push(value);
            }
        }
        // SAFETY: every array has the length given beside it, the starts
        // rise and index into `columns`/`values`, and every column exists.
        check(
            unsafe {
                ffi::Highs_addRows(
                    self.ptr(),
                    index(rows.len(), "rows")?,
                    lower.as_ptr(),
                    upper.as_ptr(),
                    index(values.len(), "nonzeros")?,
                    starts.as_ptr(),
                    columns.as_ptr(),
                    values.as_ptr(),
                )
            },
            "adding rows",
        )?;
        self.rows += rows.len();
        self.nonzeros += values.len() as u64;
        Ok(())
    }

    /// Add `columns` (their coefficients on any existing row).
    ///
    /// # Errors
    /// A coefficient on a row that does not exist, or HiGHS refusing.
    pub fn add_columns(&mut self, columns: &[NewColumn]) -> Result<()> {
        if columns.is_empty() {
            return Ok(());
        }
        let n = columns.len();
        let (mut costs, mut lower, mut upper) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let (mut starts, mut rows, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for column in columns {
            costs.push(column.cost);
            lower.push(column.bounds.0);
            upper.push(column.bounds.1);
            starts.push(index(rows.len(), "nonzero")?);
            for &(row, value) in &column.entries {
                if row >= self.rows {
                    return Err(Error::Internal(format!(
                        "a new column's coefficient on row {row} of {}",
                        self.rows
                    )));
                }
                rows.push(index(row, "row")?);
                values.push(value);
            }
        }
        // SAFETY: as in add_rows, for columns.
        check(
            unsafe {
                ffi::Highs_addCols(
                    self.ptr(),
                    index(n, "columns")?,
                    costs.as_ptr(),
                    lower.as_ptr(),
                    upper.as_ptr(),
                    index(values.len(), "nonzeros")?,
                    starts.as_ptr(),
                    rows.as_ptr(),
                    values.as_ptr(),
                )
            },
            "adding columns",
        )?;
        self.columns += n;
        self.nonzeros += values.len() as u64;
        Ok(())
    }

    /// Solve (from the last basis, if any) and return the objective, the
    /// column values and the row duals.
    ///
    /// # Errors
    /// HiGHS fails or ends with any status but optimal.
    pub fn solve(&mut self) -> Result<(f64, Vec<f64>, Vec<f64>)> {
        self.solves += 1;
        if let Some(dir) = std::env::var_os(super::HIGHS_WRITE_MODEL_VAR) {
            self.write_model(&std::path::Path::new(&dir).join(format!("lp-{}.mps", self.solves)))?;
        }
        // SAFETY: a live instance.
        let ran = check(unsafe { ffi::Highs_run(self.ptr()) }, "solving");
        // SAFETY: as above.
        let mut status = unsafe { ffi::Highs_getModelStatus(self.ptr()) };
        if self.hipo && (ran.is_err() || status != ffi::kHighsModelStatusOptimal) {
            // HiPO failed (on some small LPs it reports a NaN as an
            // internal error, where HiGHS does not fall back by itself):
            // this solve again by IPX, the interior point solver before it.
            self.set_string("solver", "ipx")?;
            // SAFETY: as above.
            let again = check(unsafe { ffi::Highs_run(self.ptr()) }, "solving");
            self.set_string("solver", ORACLE_IPM_SOLVER)?;
            again?;
            // SAFETY: as above.
            status = unsafe { ffi::Highs_getModelStatus(self.ptr()) };
        } else {
            ran?;
        }
        if status != ffi::kHighsModelStatusOptimal && !self.crossover {
            // The interior point stopped short of its tolerance (HiGHS's
            // status unknown): this solve again with the crossover.
            self.set_string("run_crossover", "on")?;
            // SAFETY: as above.
            let ran = check(unsafe { ffi::Highs_run(self.ptr()) }, "solving");
            self.set_string("run_crossover", "off")?;
            ran?;
            // SAFETY: as above.
            status = unsafe { ffi::Highs_getModelStatus(self.ptr()) };
        }
        if status != ffi::kHighsModelStatusOptimal {
            return Err(Error::Highs(format!(
                "the restricted LP ended with HiGHS model status {status}, not optimal"
            )));
        }
        let [columns, _, row_duals] = self.solution()?;
        // SAFETY: as above.
        let objective = unsafe { ffi::Highs_getObjectiveValue(self.ptr()) };
        self.iterations = self.count("simplex_iteration_count")?;
        self.ipm_iterations = self.count("ipm_iteration_count")?;
        Ok((objective, columns, row_duals))
    }

    /// Go on by the dual simplex from a basis that a crossover finds from
    /// the last solution (an interior point's, on the LP as it is: nothing
    /// added since), instead of a cold start: the next [`GrowingLp::solve`]
    /// starts from that basis. Returns whether the crossover ended with an
    /// optimal basic solution; if not, the caller starts the simplex cold,
    /// as it would have.
    ///
    /// # Errors
    /// HiGHS refuses the options or fails in the crossover.
    pub fn continue_by_simplex(&mut self) -> Result<bool> {
        self.set_string("solver", "simplex")?;
        self.set_string("run_crossover", "on")?;
        self.set_tolerance(EXACT_TOLERANCE)?;
        self.hipo = false;
        self.crossover = true;
        let [columns, column_duals, row_duals] = self.solution()?;
        let (n, m) = (index(self.columns, "column")?, index(self.rows, "row")?);
        // SAFETY: a live instance; the arrays have its column and row
        // counts, as the call's lengths say.
        check(
            unsafe {
                ffi::Highs_crossover(
                    self.ptr(),
                    n,
                    m,
                    columns.as_ptr(),
                    column_duals.as_ptr(),
                    row_duals.as_ptr(),
                )
            },
            "the crossover",
        )?;
        // The crossover's basic solution is optimal (HiGHS's model status;
        // its basis is what the next solve starts from), or imprecise.
        // SAFETY: a live instance.
        let status = unsafe { ffi::Highs_getModelStatus(self.ptr()) };
        Ok(status == ffi::kHighsModelStatusOptimal)
    }

    /// Finish by the interior point method with crossover: every solve
    /// from here on runs HiPO to the exact solves' tolerance (1e-10) and
    /// its crossover to a basic optimal solution (HiGHS cleans up by the
    /// simplex where the crossover is imprecise). Each solve starts afresh
    /// (HiGHS drops a basis for an interior point solve), so the new rows
    /// and columns of a round never leave the simplex a dual infeasible
    /// basis to repair.
    ///
    /// # Errors
    /// HiGHS refuses the options.
    pub fn finish_by_interior_point(&mut self) -> Result<()> {
        self.set_string("run_crossover", "on")?;
        self.set_tolerance(EXACT_TOLERANCE)?;
        self.crossover = true;
        Ok(())
    }

    /// Write the LP as it is to `path`, in the format its extension names
    /// (HiGHS's `Highs_writeModel`: `.mps` or `.lp`).
    ///
    /// # Errors
    /// The path is no UTF-8 text or HiGHS cannot write it.
    pub fn write_model(&self, path: &std::path::Path) -> Result<()> {
        let refused = |why: &str| {
            Error::Highs(format!(
                "{}: could not write the restricted LP to {} ({why}; name an existing, writable directory)",
                super::HIGHS_WRITE_MODEL_VAR,
                path.display()
            ))
        };
        let text = path.to_str().ok_or_else(|| refused("not UTF-8"))?;
        let name = CString::new(text).map_err(|_| refused("a NUL byte"))?;
        // SAFETY: a live instance and a NUL-terminated path. (HiGHS warns,
        // and still writes, when the model has no row or column names.)
        let status = unsafe { ffi::Highs_writeModel(self.ptr(), name.as_ptr()) };
        if status == ffi::kHighsStatusError || !path.is_file() {
            return Err(refused("HiGHS could not write it"));
        }
        Ok(())
    }

    /// The last solution: column values, column duals and row duals.
    fn solution(&self) -> Result<[Vec<f64>; 3]> {
        let (mut columns, mut column_duals) = (vec![0.0; self.columns], vec![0.0; self.columns]);
        let (mut rows, mut row_duals) = (vec![0.0; self.rows], vec![0.0; self.rows]);
        // SAFETY: the arrays have the model's column and row counts.
        check(
            unsafe {
                ffi::Highs_getSolution(
                    self.ptr(),
                    columns.as_mut_ptr(),
                    column_duals.as_mut_ptr(),
                    rows.as_mut_ptr(),
                    row_duals.as_mut_ptr(),
                )
            },
            "reading the solution",
        )?;
        Ok([columns, column_duals, row_duals])
    }

    /// HiGHS's integer information `name` (an iteration count) of the
    /// last solve.
    fn count(&self, name: &str) -> Result<u64> {
        let mut count: ffi::HighsInt = 0;
        let key = Self::name(name)?;
        // SAFETY: a live instance, a NUL-terminated name, an out pointer.
        check(
            unsafe { ffi::Highs_getIntInfoValue(self.ptr(), key.as_ptr(), &mut count) },
            "reading an iteration count",
        )?;
        Ok(u64::try_from(count).unwrap_or(0))
    }
}

#[cfg(test)]
#[path = "growing_lp_tests.rs"]
mod tests;
