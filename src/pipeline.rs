//! `gametab build`: run every game's table builder into a staging directory,
//! verify the new set by loading it with the lookup crate, draw the plots from
//! it, and only then move it into the output directory (manifest last), so a
//! failed or interrupted build never replaces good tables with a partial set.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use gametab_lookup::manifest::MANIFEST_FILE;

use crate::output::TableWriter;
use crate::plots::{WrittenPlot, PLOTS_DIR};

/// Options of a whole build, validated before any work starts.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Output directory.
    pub out: PathBuf,
    /// Worker threads for the parallel phases (at least 1).
    pub threads: usize,
    /// Show progress bars on standard error.
    pub progress: bool,
    /// LP back end of the matrix games (Murder Plan).
    pub lp: crate::matrix_game::LpBackend,
}

/// One game's contribution to the build summary (the plots add one too).
#[derive(Debug, Clone)]
pub struct GameReport {
    /// Game name.
    pub game: &'static str,
    /// Wall time spent on the game, tables written included.
    pub elapsed: Duration,
    /// Human-readable summary lines (counts, per-phase times).
    pub lines: Vec<String>,
}

/// The staging directory of a build into `out`: a hidden sibling, so the
/// final renames stay on one file system.
fn staging_dir(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "tables".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.staging"))
}

/// Move every file of a verified staging directory into `out`, the plots
/// after the tables and the manifest last, then remove the staging directory.
fn publish(staging: &Path, out: &Path, writer: &TableWriter, plots: &[WrittenPlot]) -> Result<()> {
    let plots_dir = out.join(PLOTS_DIR);
    fs::create_dir_all(&plots_dir)
        .with_context(|| format!("cannot create {}", plots_dir.display()))?;
    let files = writer
        .written()
        .iter()
        .map(|w| w.file)
        .chain(plots.iter().map(|p| p.file.as_str()))
        .chain(std::iter::once(MANIFEST_FILE));
    for file in files {
        fs::rename(staging.join(file), out.join(file))
            .with_context(|| format!("cannot move {file} into {}", out.display()))?;
    }
    let staged_plots = staging.join(PLOTS_DIR);
    fs::remove_dir(&staged_plots)
        .with_context(|| format!("cannot remove {}", staged_plots.display()))?;
    fs::remove_dir(staging).with_context(|| format!("cannot remove {}", staging.display()))
}

/// Run every game's builder and publish the verified tables into
/// `options.out`.
pub fn build(options: &BuildOptions) -> Result<Vec<GameReport>> {
    let started = Instant::now();
    let staging = staging_dir(&options.out);
    if staging.exists() {
        // Left over from an interrupted build: never trusted, rebuilt.
        fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot clear {}", staging.display()))?;
    }
    let mut writer = TableWriter::new(&staging)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()?;
    let mut reports = Vec::new();
    let builders: &[(&str, GameBuilder)] = &[
        ("murder plan", crate::murder_plan::build_tables),
        ("cluedo", crate::cluedo::build_tables),
        ("werewolf", crate::werewolf::build_tables),
        ("liars dice", crate::dice::build_tables),
    ];
    for (game, builder) in builders {
        let start = Instant::now();
        let lines = pool.install(|| builder(options, &mut writer))?;
        reports.push(GameReport {
            game,
            elapsed: start.elapsed(),
            lines,
        });
    }
    writer.write_manifest(started.elapsed().as_secs_f64())?;
    gametab_lookup::Tables::open(&staging).context("verifying the new tables before publishing")?;
    let start = Instant::now();
    let plots = crate::plots::write_plots(&staging)?;
    reports.push(GameReport {
        game: "plots",
        elapsed: start.elapsed(),
        lines: plots
            .iter()
            .map(|p| format!("{}: {} bytes", p.file, p.bytes))
            .collect(),
    });
    publish(&staging, &options.out, &writer, &plots)?;
    Ok(reports)
}

/// A game's table builder: writes its tables and returns summary lines.
pub type GameBuilder = fn(&BuildOptions, &mut TableWriter) -> Result<Vec<String>>;
