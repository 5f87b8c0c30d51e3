//! The `gametab verify` subcommand: arguments, the run, the exit status.

use crate::error::{fail, Result};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::{verify, GameVerifier, Sampling, DEFAULT_SAMPLE, DEFAULT_SEED};

/// Arguments of `gametab verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The table set: a directory `gametab build` wrote.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "tables",
        env = "GAMETAB_TABLES"
    )]
    pub tables: PathBuf,
    /// Rows recomputed per Liar's Dice, Cluedo and Werewolf table.
    #[arg(long, default_value_t = DEFAULT_SAMPLE, conflicts_with = "full")]
    pub sample: usize,
    /// Recompute every row of every table.
    #[arg(long)]
    pub full: bool,
    /// Seed of the sample (the same seed checks the same rows).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Verify the tables with every check of `games` (the registry's,
/// [`crate::registry::verifiers`]), write the report to `out`, and fail
/// when anything mismatched.
///
/// # Errors
/// When the directory cannot be checked or any check fails (the report is
/// written first), or when `out` refuses the report. A failed check
/// outranks a refused report: `gametab verify | head -1` must not turn a
/// mismatch into success.
pub fn run(args: &VerifyArgs, games: &[GameVerifier], out: &mut impl Write) -> Result<()> {
    let sampling = Sampling {
        full: args.full,
        sample: args.sample,
        seed: args.seed,
    };
    let started = Instant::now();
    let report = verify(&args.tables, &sampling, games)?;
    let written = if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)
    } else {
        writeln!(out, "{report}")
            .and_then(|()| writeln!(out, "in {:.3} s", started.elapsed().as_secs_f64()))
    };
    if !report.is_ok() {
        let files = report.files.iter().filter(|f| !f.is_ok()).count();
        fail!(
            Check,
            "{} mismatches in {files} file(s) of {}",
            report.mismatches(),
            args.tables.display()
        );
    }
    Ok(written?)
}
