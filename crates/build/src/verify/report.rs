//! The verification report: one [`Finding`] per mismatch (file, row, key
//! columns, column, expected, found), a [`TableCheck`] summary per checked
//! file, and the text and JSON renderings printed by `gametab verify`.

use std::fmt::{self, Display};

use gametab_lookup::io::{Column, TableData};
use serde::Serialize;

/// Findings kept per file; beyond this only the count grows, so a file that
/// is wrong everywhere does not flood the report.
pub const MAX_FINDINGS_PER_FILE: usize = 100;

/// One mismatch between what a file holds and what it should hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The file (name inside the table directory).
    pub file: String,
    /// Zero-based row of the file, when the finding is about a row.
    pub row: Option<usize>,
    /// The row's key columns as `name=value` pairs (empty for a whole file).
    pub key: String,
    /// The column (or, for a whole file, the manifest field or `file`).
    pub column: String,
    /// What the verifier computed or the manifest records.
    pub expected: String,
    /// What the file holds.
    pub found: String,
}

impl Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MISMATCH {}", self.file)?;
        if let Some(row) = self.row {
            write!(f, " row {row}")?;
        }
        if !self.key.is_empty() {
            write!(f, " [{}]", self.key)?;
        }
        write!(
            f,
            " {}: expected {}, found {}",
            self.column, self.expected, self.found
        )
    }
}

/// The checks of one file: how many rows were compared, how many findings,
/// the largest numerical difference, and the findings themselves (at most
/// [`MAX_FINDINGS_PER_FILE`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableCheck {
    /// The file.
    pub file: String,
    /// Rows in the file (0 when it could not be read).
    pub rows_total: usize,
    /// Rows recomputed and compared.
    pub rows_checked: usize,
    /// Every mismatch found, including those not kept in `findings`.
    pub mismatches: usize,
    /// Largest absolute difference of a compared floating-point value (for
    /// strategy files: the largest certificate gap).
    pub max_error: f64,
    /// What was checked and with which tolerance, in words.
    pub notes: Vec<String>,
    /// The first [`MAX_FINDINGS_PER_FILE`] mismatches.
    pub findings: Vec<Finding>,
}

impl TableCheck {
    /// An empty check of `file`.
    pub fn new(file: &str) -> TableCheck {
        TableCheck {
            file: file.to_string(),
            rows_total: 0,
            rows_checked: 0,
            mismatches: 0,
            max_error: 0.0,
            notes: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// Record a mismatch.
    pub fn mismatch(
        &mut self,
        row: Option<usize>,
        key: String,
        column: &str,
        expected: impl Display,
        found: impl Display,
    ) {
        self.mismatches += 1;
        if self.findings.len() < MAX_FINDINGS_PER_FILE {
            self.findings.push(Finding {
                file: self.file.clone(),
                row,
                key,
                column: column.to_string(),
                expected: expected.to_string(),
                found: found.to_string(),
            });
        }
    }

    /// A whole-file mismatch (`column` names the manifest field or `file`).
    pub fn file_mismatch(&mut self, column: &str, expected: impl Display, found: impl Display) {
        self.mismatch(None, String::new(), column, expected, found);
    }

    /// Compare two whole-file facts (manifest fields).
    pub fn file_exact<T: PartialEq + Display>(&mut self, column: &str, expected: T, found: T) {
        if expected != found {
            self.file_mismatch(column, expected, found);
        }
    }

    /// Compare a stored float with the expected one: a mismatch when they
    /// differ by more than `tolerance` (or exactly one of them is NaN).
    /// `key` is only evaluated for a mismatch.
    pub fn float(
        &mut self,
        row: usize,
        key: impl FnOnce() -> String,
        column: &str,
        expected: f64,
        found: f64,
        tolerance: f64,
    ) {
        if expected.is_nan() && found.is_nan() {
            return;
        }
        let error = (expected - found).abs();
        if !error.is_nan() {
            self.max_error = self.max_error.max(error);
        }
        if error.is_nan() || error > tolerance {
            self.mismatch(Some(row), key(), column, expected, found);
        }
    }

    /// Compare two exact values (integers, strings, flags).
    pub fn exact<T: PartialEq + Display>(
        &mut self,
        row: usize,
        key: impl FnOnce() -> String,
        column: &str,
        expected: T,
        found: T,
    ) {
        if expected != found {
            self.mismatch(Some(row), key(), column, expected, found);
        }
    }

    /// Whether nothing was found wrong.
    pub fn is_ok(&self) -> bool {
        self.mismatches == 0
    }
}

/// The report of a whole verification.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The table directory checked.
    pub tables: String,
    /// Whether every row was checked (`--full`) or a sample.
    pub full: bool,
    /// Rows sampled per file when not full.
    pub sample: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// One entry per file checked (the manifest first).
    pub files: Vec<TableCheck>,
}

impl Report {
    /// Total mismatches over every file.
    pub fn mismatches(&self) -> usize {
        self.files.iter().map(|f| f.mismatches).sum()
    }

    /// Whether every check passed.
    pub fn is_ok(&self) -> bool {
        self.mismatches() == 0
    }

    /// The check of `file`, if it was checked.
    pub fn file(&self, file: &str) -> Option<&TableCheck> {
        self.files.iter().find(|f| f.file == file)
    }

    /// Every kept finding, file by file.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.files.iter().flat_map(|f| &f.findings)
    }
}

impl Display for Report {
    /// One line per mismatch, then one summary line per file and a verdict.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for check in &self.files {
            for finding in &check.findings {
                writeln!(f, "{finding}")?;
            }
            let hidden = check.mismatches - check.findings.len();
            if hidden > 0 {
                writeln!(
                    f,
                    "MISMATCH {}: {hidden} more mismatches not shown",
                    check.file
                )?;
            }
        }
        let mode = if self.full {
            "every row".to_string()
        } else {
            format!(
                "sample of {} rows per table, seed {}",
                self.sample, self.seed
            )
        };
        writeln!(f, "verified {} ({mode})", self.tables)?;
        for check in &self.files {
            writeln!(
                f,
                "  {}: {} of {} rows checked, {} mismatches, max error {:.3e}",
                check.file, check.rows_checked, check.rows_total, check.mismatches, check.max_error
            )?;
            for note in &check.notes {
                writeln!(f, "    {note}")?;
            }
        }
        if self.is_ok() {
            write!(f, "OK")
        } else {
            let files = self.files.iter().filter(|c| !c.is_ok()).count();
            write!(
                f,
                "FAILED: {} mismatches in {files} file(s)",
                self.mismatches()
            )
        }
    }
}

/// The key columns of `row` as `name=value` pairs, for a finding.
pub fn key_text(data: &TableData, row: usize) -> String {
    data.schema.columns[..data.schema.key_columns]
        .iter()
        .zip(&data.columns)
        .map(|(def, column)| format!("{}={}", def.name, cell(column, row)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One cell as text (`?` past the end, which a checked table never has).
fn cell(column: &Column, row: usize) -> String {
    let text = match column {
        Column::Bool(v) => v.get(row).map(ToString::to_string),
        Column::Int32(v) => v.get(row).map(ToString::to_string),
        Column::Int64(v) => v.get(row).map(ToString::to_string),
        Column::Float64(v) => v.get(row).map(ToString::to_string),
        Column::Utf8(v) => v.get(row).map(|s| format!("{s:?}")),
    };
    text.unwrap_or_else(|| "?".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_print_file_row_key_column_expected_found() {
        let mut check = TableCheck::new("t.parquet");
        check.float(3, || "k=1".into(), "p", 0.5, 0.5 + 1e-13, 1e-12);
        assert!(check.is_ok());
        assert_eq!(check.max_error, (0.5 + 1e-13) - 0.5);
        check.float(4, || "k=2".into(), "p", 0.5, 0.6, 1e-12);
        check.float(5, || "k=3".into(), "p", 0.5, f64::NAN, 1e-12);
        check.exact(6, || "k=4".into(), "label", "a", "b");
        check.file_mismatch("blake2b_256", "00", "ff");
        let lines: Vec<String> = check.findings.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "MISMATCH t.parquet row 4 [k=2] p: expected 0.5, found 0.6",
                "MISMATCH t.parquet row 5 [k=3] p: expected 0.5, found NaN",
                "MISMATCH t.parquet row 6 [k=4] label: expected a, found b",
                "MISMATCH t.parquet blake2b_256: expected 00, found ff",
            ]
        );
        for i in 0..2 * MAX_FINDINGS_PER_FILE {
            check.exact(i, String::new, "c", 0, 1);
        }
        assert_eq!(check.findings.len(), MAX_FINDINGS_PER_FILE);
        assert_eq!(check.mismatches, 4 + 2 * MAX_FINDINGS_PER_FILE);
        let report = Report {
            tables: "dir".into(),
            full: true,
            sample: 0,
            seed: 0,
            files: vec![check],
        };
        let text = report.to_string();
        assert!(text.contains("more mismatches not shown"), "{text}");
        assert!(
            text.ends_with("FAILED: 204 mismatches in 1 file(s)"),
            "{text}"
        );
    }
}
