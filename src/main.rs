//! The `gametab` command line: thin glue from validated arguments to the
//! workspace's libraries (`crates/`: the build in `gametab-build`, the
//! server in `gametab-serve`, the queries in `gametab-answers`). `build`,
//! `verify` and `serve` are the pipeline's own commands; every
//! other subcommand belongs to a game and comes from the game registry
//! ([`gametab_build::registry::BUILDS`]), its arguments defined beside the game.
//! `main` prints the error chain once and returns a non-zero exit code on
//! failure.
//!
//! Commands write their answers through one buffered handle on standard
//! output, never with `println!`, which panics when the reader has gone
//! away. Rust ignores SIGPIPE, so a write to a closed pipe returns EPIPE;
//! like ripgrep, `main` takes such an error as the reader's wish to stop
//! (`gametab cluedo ... | head -1`) and exits 0 without a word.

#![warn(clippy::print_stdout)]

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use gametab_build::pipeline::{self, BuildOptions};
use gametab_build::registry::{self, BUILDS};
use gametab_solve::matrix_game::LpBackend;

#[derive(Debug, Parser)]
#[command(
    name = "gametab",
    version,
    about = "Exact strategy and probability tables for hidden-information tabletop games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build every table into the output directory.
    Build(BuildArgs),
    /// Check a built table directory: manifest, digests, certificates, recomputed rows.
    Verify(gametab_build::verify::cli::VerifyArgs),
    /// Serve the tables over HTTP (JSON), reloading when a new set is published.
    Serve(gametab_serve::ServeArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// Output directory for the tables.
    #[arg(long, default_value = "tables")]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// LP back end of the matrix games.
    #[arg(long, value_enum, default_value_t = LpBackend::Native)]
    lp: LpBackend,
    /// Cache of solved Murder Plan games: an unchanged rerun skips the LPs,
    /// an interrupted build resumes from the last finished day.
    #[arg(long, default_value = ".gametab-cache/murder_plan_games.bin")]
    cache: PathBuf,
    /// Solve every game afresh, neither reading nor writing the cache.
    #[arg(long)]
    no_cache: bool,
    /// Also solve the larger Liar's Dice endgames: 2v2, 3v1 and 1v3 with 2
    /// to 6 sides under both rules, as far as their strategies fit the
    /// tables (`cargo bench --bench endgame_frontier` reports each game's
    /// time; the four-sided ones take seconds).
    #[arg(long)]
    endgame_frontier: bool,
}

fn run_build(args: BuildArgs, out: &mut impl Write) -> Result<()> {
    let threads = match args.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let options = BuildOptions {
        out: args.out,
        threads,
        progress: !args.quiet,
        lp: args.lp,
        cache: (!args.no_cache).then_some(args.cache),
        endgame_frontier: args.endgame_frontier,
    };
    let start = Instant::now();
    let reports = pipeline::build(&options)?;
    for report in &reports {
        writeln!(
            out,
            "{} ({:.3} s)",
            report.game,
            report.elapsed.as_secs_f64()
        )?;
        for line in &report.lines {
            writeln!(out, "  {line}")?;
        }
    }
    // The verification line is a phase of the build, not something built.
    let built = reports
        .iter()
        .filter(|r| r.game != pipeline::VERIFICATION)
        .count();
    writeln!(
        out,
        "built {built} into {} in {:.3} s with {threads} thread(s)",
        options.out.display(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// The whole command line: the pipeline's commands, then every game's.
fn command_line() -> clap::Command {
    let commands = BUILDS.iter().flat_map(|game| game.commands);
    commands.fold(Cli::command(), |cli, command| {
        cli.subcommand((command.command)())
    })
}

/// Parse the command line and run the command it names, its answer
/// written to `out`.
fn run(out: &mut dyn Write) -> Result<()> {
    let matches = command_line().get_matches();
    if let Some((name, game_matches)) = matches.subcommand() {
        if let Some(command) = registry::command_named(name) {
            return (command.run)(game_matches, out);
        }
    }
    match Cli::from_arg_matches(&matches)?.command {
        Command::Build(args) => run_build(args, &mut { out }),
        Command::Verify(args) => {
            gametab_build::verify::cli::run(&args, &registry::verifiers(), &mut { out })
        }
        Command::Serve(args) => gametab_serve::run(args, &mut { out }),
    }
}

/// Whether the error is, at its root, a write to a pipe nobody reads.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .root_cause()
        .downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

fn main() -> ExitCode {
    // Not locked: the build's worker threads must never wait on main's lock.
    let mut out = BufWriter::new(io::stdout());
    let result = run(&mut out).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // What the command wrote comes before its error; a reader gone
            // by now changes nothing about the failure.
            let _ = out.flush();
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
