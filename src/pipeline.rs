//! `gametab build`: run every game's table builder (in registry order,
//! [`crate::registry::BUILDS`]) into a staging directory, sync the new set
//! to disk, verify it by loading it with the lookup crate, draw the plots
//! from it, and only then publish it ([`crate::publish`]), so a failed or
//! interrupted build never replaces good tables with a partial or mixed set.
//!
//! The staging writer ([`TableWriter::staging`]) renames each table into
//! place without syncing it; all of them (and the manifest) are synced
//! together before verification, one journal flush instead of one per table.

use std::fs;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

pub use crate::options::BuildOptions;
use crate::output::TableWriter;
use crate::publish::{publish, recover, staging_dir};
use crate::registry::BUILDS;

/// The [`GameReport::game`] of the verification's line in the summary.
pub const VERIFICATION: &str = "verification";

/// One game's contribution to the build summary (or the verification's, or
/// the plots').
#[derive(Debug, Clone)]
pub struct GameReport {
    /// Game name (or `verification`, `plots`).
    pub game: &'static str,
    /// Wall time spent on the game, tables written included.
    pub elapsed: Duration,
    /// Human-readable summary lines (counts, per-phase times).
    pub lines: Vec<String>,
}

/// Run every game's builder and publish the verified tables into
/// `options.out`.
pub fn build(options: &BuildOptions) -> Result<Vec<GameReport>> {
    let started = Instant::now();
    recover(&options.out)?;
    let staging = staging_dir(&options.out);
    if staging.exists() {
        // Left over from an interrupted build: never trusted, rebuilt.
        fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot clear {}", staging.display()))?;
    }
    let mut writer = TableWriter::staging(&staging)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()?;
    let mut reports = Vec::new();
    for game in &BUILDS {
        let start = Instant::now();
        let lines = pool.install(|| (game.build)(options, &mut writer))?;
        reports.push(GameReport {
            game: game.name(),
            elapsed: start.elapsed(),
            lines,
        });
    }
    writer.check_complete()?;
    writer.write_manifest(started.elapsed().as_secs_f64())?;
    // The charts are drawn from the set this verification has loaded.
    let start = Instant::now();
    writer.sync()?;
    let synced = start.elapsed();
    let tables = gametab_lookup::Tables::open(&staging)
        .and_then(|tables| tables.load_all().map(|()| tables))
        .context("verifying the new tables before publishing")?;
    reports.push(GameReport {
        game: VERIFICATION,
        elapsed: start.elapsed(),
        lines: vec![format!(
            "{} tables synced to disk ({:.3} s), loaded and checked by the lookup crate",
            writer.written().len(),
            synced.as_secs_f64()
        )],
    });
    let start = Instant::now();
    let plots = crate::plots::write_plots(&crate::registry::plots(), &tables, &staging)?;
    reports.push(GameReport {
        game: "plots",
        elapsed: start.elapsed(),
        lines: plots
            .iter()
            .map(|p| format!("{}: {} bytes", p.file, p.bytes))
            .collect(),
    });
    publish(&staging, &options.out)?;
    Ok(reports)
}
