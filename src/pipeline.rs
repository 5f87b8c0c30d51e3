//! `gametab build`: run every game's table builder into one output directory
//! and summarise what was done.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::output::TableWriter;

/// Options of a whole build, validated before any work starts.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Output directory.
    pub out: PathBuf,
    /// Worker threads for the parallel phases (at least 1).
    pub threads: usize,
    /// Show progress bars on standard error.
    pub progress: bool,
}

/// One game's contribution to the build summary.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// Game name.
    pub game: &'static str,
    /// Wall time spent on the game, tables written included.
    pub elapsed: Duration,
    /// Human-readable summary lines (counts, per-phase times).
    pub lines: Vec<String>,
}

/// Run every game's builder, writing into `options.out`.
pub fn build(options: &BuildOptions) -> Result<Vec<GameReport>> {
    let started = Instant::now();
    let mut writer = TableWriter::new(&options.out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()?;
    let mut reports = Vec::new();
    let builders: &[(&str, GameBuilder)] = &[
        ("murder plan", crate::murder_plan::build_tables),
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
    Ok(reports)
}

/// A game's table builder: writes its tables and returns summary lines.
pub type GameBuilder = fn(&BuildOptions, &mut TableWriter) -> Result<Vec<String>>;
