//! `gametab build`: run every game's table builder (side by side, each
//! into its own fork of the staging writer, taken back in registry order,
//! [`crate::registry::BUILDS`]) into a staging directory, sync the new set
//! to disk, verify it by loading it with the lookup crate, draw the plots
//! from it, and only then publish it ([`crate::publish`]), so a failed or
//! interrupted build never replaces good tables with a partial or mixed set.
//!
//! The staging writer ([`TableWriter::staging`]) renames each table into
//! place without syncing it; all of them (and the manifest) are synced
//! together before verification, one journal flush instead of one per table.

use crate::error::{fail, Context, Error, Result};
use std::fs;
use std::time::{Duration, Instant};

pub use crate::options::BuildOptions;
use crate::output::TableWriter;
use crate::publish::{publish, recover, staging_dir};
use crate::registry::BUILDS;

/// The [`GameReport::game`] of the verification's line in the summary.
pub const VERIFICATION: &str = "verification";

/// The [`GameReport::game`] of the plots' lines in the summary.
pub const PLOTS: &str = "plots";

/// One game's contribution to the build summary (or the verification's, or
/// the plots').
#[derive(Debug, Clone)]
pub struct GameReport {
    /// Game name (or `verification`, `plots`).
    pub game: &'static str,
    /// Wall time from the game's start to its end, tables written included
    /// (the games are built side by side, so these overlap).
    pub elapsed: Duration,
    /// Human-readable summary lines (counts, per-phase times).
    pub lines: Vec<String>,
}

/// Run every game's builder and publish the verified tables into
/// `options.out`.
pub fn build(options: &BuildOptions) -> Result<Vec<GameReport>> {
    let started = Instant::now();
    // Before any work: a file where the directory should go would only be
    // found when publishing, after the whole build.
    if options.out.exists() && !options.out.is_dir() {
        fail!(
            Invalid,
            "--out {} is a file, not a directory: the build writes a directory of tables \
             (nothing was built)",
            options.out.display()
        );
    }
    recover(&options.out)?;
    let staging = staging_dir(&options.out);
    if staging.exists() {
        // Left over from an interrupted build: never trusted, rebuilt.
        fs::remove_dir_all(&staging).map_err(|e| Error::io("clear", &staging, e))?;
    }
    let mut writer = TableWriter::staging(&staging)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()?;
    // The games are built side by side, each into its own fork of the
    // writer (a warm build is mostly the Liar's Dice endgame; the others
    // fill the cores it leaves idle). Each table's bytes do not depend on
    // what runs beside it, and the forks are taken back in registry order,
    // so the set and its manifest are the same bytes as one game at a time;
    // the first game to fail, in registry order, fails the build.
    let built: Vec<(Result<Vec<String>>, TableWriter, Duration)> = pool.install(|| {
        use rayon::prelude::*;
        BUILDS
            .par_iter()
            .map(|game| {
                let start = Instant::now();
                let mut own = writer.fork();
                let lines = (game.build)(options, &mut own);
                (lines, own, start.elapsed())
            })
            .collect()
    });
    let mut reports = Vec::new();
    for (game, (lines, own, elapsed)) in BUILDS.iter().zip(built) {
        let lines = lines?;
        writer.absorb(own);
        reports.push(GameReport {
            game: game.name(),
            elapsed,
            lines,
        });
    }
    writer.check_complete()?;
    writer.write_manifest(started.elapsed().as_secs_f64())?;
    let check = options.progress.phase("check", 0, "");
    check.set_message("the written set, loaded by the lookup crate, every row");
    // The charts are drawn from the set this verification has loaded.
    let start = Instant::now();
    writer.sync()?;
    let synced = start.elapsed();
    // The endgame's strategy table loads lazily (a query decodes only the
    // row groups it needs), so every row of it is decoded and checked here.
    let tables = gametab_lookup::Tables::open(&staging)
        .and_then(|tables| tables.load_all().map(|()| tables))
        .and_then(|tables| tables.dice_endgame()?.check_every_row().map(|()| tables))
        .context("verifying the new tables before publishing")?;
    crate::progress::Progress::done(
        &check,
        format!("{} files loaded and checked", writer.written().len()),
    );
    reports.push(GameReport {
        game: VERIFICATION,
        elapsed: start.elapsed(),
        lines: vec![format!(
            "{} files synced to disk ({:.3} s), loaded and checked by the lookup crate",
            writer.written().len(),
            synced.as_secs_f64()
        )],
    });
    let start = Instant::now();
    let drawing = options.progress.phase("plots", 0, "");
    let plots = crate::plots::write_plots(&crate::registry::plots(), &tables, &staging)?;
    crate::progress::Progress::done(&drawing, format!("{} charts drawn", plots.len()));
    reports.push(GameReport {
        game: PLOTS,
        elapsed: start.elapsed(),
        lines: plots
            .iter()
            .map(|p| format!("{}: {} bytes", p.file, p.bytes))
            .collect(),
    });
    publish(&staging, &options.out)?;
    Ok(reports)
}
