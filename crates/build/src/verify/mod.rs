//! `gametab verify`: check a built table directory independently of the
//! build path. Nothing here calls the solver or the table builders; the
//! checks use the lookup crate (readers, loaders, game engines) and the
//! matrix-game certificate, which only evaluates payoffs.
//!
//! [`files`] checks `manifest.json` against the directory and decodes every
//! table; [`murder_plan`] re-certifies every stored strategy pair on a
//! payoff matrix rebuilt from the stored values of the day before and
//! recomputes the derived tables; [`dice`], [`cluedo`] and [`werewolf`]
//! recompute a deterministic [`sample`] of rows (or all of them) with the
//! lookup engines ([`jobs`] runs the endgame check's games on the thread
//! pool). Everything lands in a [`Report`]: one [`Finding`] per mismatch
//! and a [`TableCheck`] summary per file.

pub mod cli;
pub mod cluedo;
pub mod dice;
pub mod dice_endgame;
pub mod files;
pub mod jobs;
pub mod murder_plan;
pub mod report;
pub mod sample;
pub mod werewolf;

use crate::error::Result;
use std::path::Path;

use rayon::prelude::*;

pub use report::{Finding, Report, TableCheck};

use files::LoadedFiles;

/// A game's `gametab verify` check: one [`TableCheck`] per table file,
/// from the decoded files (the file-level checks are done before). Each
/// game names its own ([`crate::game::GameBuild::verify`]); the registry
/// hands the list to [`verify`] ([`crate::registry::verifiers`]).
pub type GameVerifier = fn(&LoadedFiles, &Sampling) -> Vec<TableCheck>;

/// Default rows sampled per table of the engine-checked games.
pub const DEFAULT_SAMPLE: usize = 2000;
/// Default seed of the sample (the same seed checks the same rows).
pub const DEFAULT_SEED: u64 = 20_261_130;

/// Which rows of the engine-checked tables are recomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampling {
    /// Check every row.
    pub full: bool,
    /// Rows per table otherwise.
    pub sample: usize,
    /// Seed of the sample.
    pub seed: u64,
}

impl Sampling {
    /// How many of a table's `rows` to check.
    pub fn rows(&self, rows: usize) -> usize {
        if self.full {
            rows
        } else {
            self.sample.min(rows)
        }
    }
}

impl Default for Sampling {
    fn default() -> Sampling {
        Sampling {
            full: false,
            sample: DEFAULT_SAMPLE,
            seed: DEFAULT_SEED,
        }
    }
}

/// Verify the table directory `dir`: the file-level checks, then every
/// game's check of `games` (in that order).
///
/// # Errors
/// Only when `dir` is not a directory; every problem with its contents is a
/// finding in the report.
pub fn verify(dir: &Path, sampling: &Sampling, games: &[GameVerifier]) -> Result<Report> {
    // A directory without a manifest is checked (its report says what is
    // missing); no directory at all is refused, as every command refuses it.
    if !dir.is_dir() {
        gametab_answers::table_set::require(dir)?;
    }
    let (mut checks, loaded) = files::check_files(dir);
    // The games' checks are independent of each other, so they run in
    // parallel; their results are merged in the order of `games`.
    let semantic: Vec<Vec<TableCheck>> = games
        .par_iter()
        .map(|check| check(&loaded, sampling))
        .collect();
    // One entry per file: the semantic check merged into the file check.
    for check in semantic.into_iter().flatten() {
        match checks.iter_mut().find(|c| c.file == check.file) {
            Some(file) => merge(file, check),
            None => checks.push(check),
        }
    }
    Ok(Report {
        tables: dir.display().to_string(),
        full: sampling.full,
        sample: sampling.sample,
        seed: sampling.seed,
        files: checks,
    })
}

/// Add the semantic check of a file to its file-level check.
fn merge(into: &mut TableCheck, check: TableCheck) {
    into.rows_total = into.rows_total.max(check.rows_total);
    into.rows_checked += check.rows_checked;
    into.mismatches += check.mismatches;
    into.max_error = into.max_error.max(check.max_error);
    into.notes.extend(check.notes);
    let room = report::MAX_FINDINGS_PER_FILE.saturating_sub(into.findings.len());
    into.findings.extend(check.findings.into_iter().take(room));
}
