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
    #[command(
        after_help = "Examples:\n  gametab build\n  gametab build --out /srv/tables --threads 2 --quiet"
    )]
    Build(BuildArgs),
    /// Check a built table directory: manifest, digests, certificates, recomputed rows.
    #[command(
        after_help = "Examples:\n  gametab verify\n  gametab verify --tables /srv/tables --full --json"
    )]
    Verify(gametab_build::verify::cli::VerifyArgs),
    /// Serve the tables over HTTP (JSON), reloading when a new set is published.
    #[command(after_help = "Examples:\n  gametab serve\n  \
        gametab serve --tables /srv/tables --addr 0.0.0.0:8080\n\n\
        Then open http://127.0.0.1:8080/ for the explorer page; the API is described at /v1/openapi.json.")]
    Serve(gametab_serve::ServeArgs),
    /// Print the shell completion script for a shell.
    #[command(after_help = "Examples:\n  \
        gametab completions bash > ~/.local/share/bash-completion/completions/gametab\n  \
        gametab completions zsh > ~/.zfunc/_gametab\n  \
        gametab completions fish > ~/.config/fish/completions/gametab.fish")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page, or write one page per command into a directory.
    #[command(after_help = "Examples:\n  \
        gametab man | man -l -\n  \
        gametab man --out ~/.local/share/man/man1")]
    Man {
        /// Write gametab.1 and a page per subcommand (gametab-lookup.1, ...) here.
        #[arg(long)]
        out: Option<PathBuf>,
    },
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
    /// to 6 sides under both rules, 2v3 and 3v2 with 2 to 4 sides under
    /// normal rules (those too large for a dense strategy stored by their
    /// support), each a job of its own with its file in the
    /// cache's dice_endgame/ directory (`gametab dice endgame solve` runs
    /// one; the build merges every job file it finds, certified again).
    #[arg(long)]
    endgame_frontier: bool,
    /// With --endgame-frontier: the time each frontier game may take (90s,
    /// 10m, 2h). A game cut off keeps its restricted game in its job file
    /// and the next build resumes from it; it stays out of the tables until
    /// solved. No limit by default: then the build runs until every game is
    /// solved, and the six-sided wild four-dice games take hours each on
    /// one core.
    #[arg(long, requires = "endgame_frontier", value_parser = gametab_build::dice::endgame::job::parse_duration)]
    budget: Option<std::time::Duration>,
    /// With --endgame-frontier: solve nothing, only merge the job files
    /// (every solved game certified again and tabulated, every other one
    /// reported where it stands), for tables of what the jobs have solved
    /// so far without spending a round on the games they have not.
    #[arg(long, requires = "endgame_frontier", conflicts_with_all = ["budget", "no_cache"])]
    merge_only: bool,
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
        progress: gametab_build::progress::Progress::new(!args.quiet),
        lp: args.lp,
        cache: (!args.no_cache).then_some(args.cache),
        endgame_frontier: args.endgame_frontier,
        endgame_budget: args.budget,
        endgame_merge_only: args.merge_only,
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
    // What was built: the games (the verification and the plots are
    // phases of the build), the tables with their rows and bytes as the
    // published manifest records them, the plots.
    let games: Vec<&str> = reports
        .iter()
        .map(|r| r.game)
        .filter(|g| *g != pipeline::VERIFICATION && *g != pipeline::PLOTS)
        .collect();
    let manifest_path = options.out.join(gametab_lookup::manifest::MANIFEST_FILE);
    let manifest: gametab_lookup::manifest::Manifest = serde_json::from_slice(
        &std::fs::read(&manifest_path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", manifest_path.display()))?,
    )?;
    let plots = reports
        .iter()
        .find(|r| r.game == pipeline::PLOTS)
        .map_or(0, |r| r.lines.len());
    let (tables, rows, bytes) = manifest
        .files
        .iter()
        .fold((0, 0, 0), |(t, r, b), f| (t + 1, r + f.rows, b + f.bytes));
    writeln!(
        out,
        "built {} ({}): {tables} tables, {} rows, {:.1} MB, and {plots} plots into {} in {:.3} s with {threads} thread(s)",
        plural(games.len(), "game"),
        games.join(", "),
        thousands(rows),
        bytes as f64 / 1e6,
        options.out.display(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `n` things, with the plural's s when it needs one.
fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// A count with thousands separators (9,123,456).
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
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
            return Ok((command.run)(game_matches, out)?);
        }
    }
    match Cli::from_arg_matches(&matches)?.command {
        Command::Build(args) => run_build(args, &mut { out }),
        Command::Verify(args) => Ok(gametab_build::verify::cli::run(
            &args,
            &registry::verifiers(),
            &mut { out },
        )?),
        Command::Serve(args) => Ok(gametab_serve::run(args, &mut { out })?),
        Command::Completions { shell } => {
            // Into memory first: the generator panics on a failed write
            // (a reader gone), and a write error here must stay an error.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command_line(), "gametab", &mut script);
            Ok(out.write_all(&script)?)
        }
        Command::Man { out: None } => Ok(clap_mangen::Man::new(command_line()).render(out)?),
        Command::Man { out: Some(dir) } => write_man_pages(&dir, out),
    }
}

/// Write the man pages of the whole command line into `dir` (created if
/// missing): `gametab.1` and one page per subcommand, nested ones too
/// (`gametab-lookup-value.1`), but none for clap's `help` subcommands;
/// then say how many on `out`.
fn write_man_pages(dir: &std::path::Path, out: &mut dyn Write) -> Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let mut command = command_line();
    // Gives every subcommand its display name (gametab-lookup-value).
    command.build();
    let mut stack = vec![command];
    let mut written = 0;
    while let Some(command) = stack.pop() {
        stack.extend(
            command
                .get_subcommands()
                .filter(|sub| sub.get_name() != "help" && !sub.is_hide_set())
                .cloned(),
        );
        let page = clap_mangen::Man::new(command);
        page.generate_to(dir).map_err(|e| {
            anyhow::anyhow!(
                "cannot write {}: {e}",
                dir.join(page.get_filename()).display()
            )
        })?;
        written += 1;
    }
    writeln!(out, "{written} man pages in {}", dir.display())?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::{plural, thousands};

    #[test]
    fn counts_read_as_a_person_writes_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(14_338_834), "14,338,834");
        assert_eq!(plural(1, "game"), "1 game");
        assert_eq!(plural(4, "game"), "4 games");
    }
}
