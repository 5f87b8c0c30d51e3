//! Each endgame a job of its own: `gametab dice endgame solve` solves one
//! game (or resumes it) into its job file in the cache directory
//! (`<cache>/dice_endgame/2v2-5-wild.bin`, [`gametab_solve::endgame::job`]),
//! and `gametab build` merges every job file it finds, certifying each
//! game again. A batch engine runs one line per game; there is no
//! scheduler here.
//!
//! The method per game ([`method_and_options`]) is the build's: the full
//! LP for the small wild games, the double oracle with the dual simplex
//! warm-started from the last basis for the default games and the
//! four-dice games up to four sides, and with the interior point method
//! without crossover (finished by the simplex, from a crossover's basis)
//! for the four-dice games of five and six sides, where the restricted LPs
//! pass 7,000 rows. Measured by `cargo bench --bench endgame_methods`
//! (`ENDGAME_METHODS_RUN`), one HiGHS thread, on the
//! 2-core machine shared with other work: on the four-sided four-dice
//! games (12 and 16 bids) the warm simplex took 4 to 24 s, the interior
//! point method with crossover 8 to 96 s and without it 9 to 51 s, so the
//! simplex stays there; on 1v3 and 3v1 five-sided normal (20 bids) the
//! interior point method took 29 and 82 s with crossover, 10 and 58 s
//! without it; on 2v2 five-sided normal the simplex took over 25 minutes
//! where the interior point method took 56 s (`cargo bench --bench
//! endgame_frontier`); on 3v1 five-sided wild (16 bids), run side by side
//! for 10 minutes, the simplex reached 56 rounds and a bracket 0.11 wide,
//! the interior point method without crossover 79 rounds and a bracket
//! 0.0076 wide; on 2v2 five-sided wild 40 rounds and 0.33 against 65
//! rounds and 0.093. Pruning the restricted game (`--prune true`,
//! `LpOptions::prune`) narrowed 3v1 five-sided wild's bracket faster but
//! did not solve the five-sided wild games clearly sooner, so it is not
//! the build's choice (`docs/development.md`). The four-dice games up to four sides add two
//! look-ahead steps to each round ([`SIMPLEX_LOOKAHEAD`]): on the six
//! four-sided ones the rounds fell from 22-56 to 12-46 and the simplex
//! iterations by a quarter in all (`docs/development.md`).

use crate::error::{chain, fail, Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gametab_games::dice::endgame::{Endgame, Player};
use gametab_solve::endgame::job::{self, JobFile, JobRound, JobState, PartialGame, RoundEnd};

use super::round_log::RoundLog;
use gametab_solve::endgame::{method_for, LpOptions, Method, FULL_LP_MAX_WILD_BIDS};

use crate::output::write_atomically;

/// The directory of the job files in a cache directory.
pub fn job_dir(cache_dir: &Path) -> PathBuf {
    cache_dir.join("dice_endgame")
}

/// Games of four dice or more with at least this many sides are solved by
/// the double oracle with the interior point method.
pub const IPM_MIN_SIDES: u8 = 5;

/// Look-ahead steps of the double oracle ([`LpOptions::lookahead`]) for
/// the four-dice games it solves by the dual simplex (fewer than
/// [`IPM_MIN_SIDES`] sides): measured fewer rounds and simplex iterations
/// (`docs/development.md`).
pub const SIMPLEX_LOOKAHEAD: u32 = 2;

/// The restricted LP rows from which the four-dice wild games that
/// [`copies_early`] names count as large ([`LpOptions::ipm_finish_rows`]:
/// the rounds there solve the copies of one player completed, keep each
/// player's best strategy for the pair, and finish by the interior point
/// method with crossover), instead of
/// [`IPM_FINISH_ROWS`](gametab_solve::endgame::lp::IPM_FINISH_ROWS).
/// Measured on 6 December 2026, each a job from nothing (one HiGHS
/// thread, two jobs side by side on the 2-core machine), with
/// [`WILD_PAIR_WIDTH`]: 1v3 five-sided wild 100.7 s, 2v2 five-sided
/// 173.6 s, 3v1 five-sided 437.0 s, 1v3 six-sided 218.2 s; without the
/// copies (the `endgame_methods` bench) 1v3 five-sided took 331.7 s and
/// 3v1 five-sided 958.6 s, and 2v2 five-sided and 1v3 six-sided had
/// taken about 1,450 s and 6,860 s over their jobs
/// (`docs/development.md`).
pub const WILD_LARGE_ROWS: usize = 20_000;

/// The pair width ([`LpOptions::pair_width`]) of the games
/// [`copies_early`] names, instead of
/// [`PAIR_WIDTH`](gametab_solve::endgame::oracle::PAIR_WIDTH) (5e-10): a
/// pair that wide ends a run certified but claims no fraction of
/// denominator above about 4,500 ([`exact_value`](gametab_solve::endgame::exact_value)).
/// 3v1 five-sided wild ended at 3.5e-10 without its 3089/9375; with
/// this width its next copy took the bracket to 4.8e-14 and it claims it,
/// in the same 46 LPs (528.0 and 492.6 s).
pub const WILD_PAIR_WIDTH: f64 = 1e-11;

/// Whether `game` takes [`WILD_LARGE_ROWS`] and [`WILD_PAIR_WIDTH`]: the four-dice wild games of
/// five sides, and 1v3 six-sided wild. Not 3v1 and 2v2 six-sided wild:
/// there player 1's copy brought 227,000 and 97,000 sequences into the
/// restricted game from round 26, whose LPs then took 65 to 145 s a
/// round, and after 15 minutes their brackets were still 0.038 and 0.11
/// wide (both are solved and kept in the repository,
/// `data/dice_endgame/`).
pub fn copies_early(game: Endgame) -> bool {
    game.wild()
        && game.total_dice() == 4
        && (game.sides() == 5 || (game.sides() == 6 && game.dice(Player::One) == 1))
}

/// The method and LP options the build (and a job) uses for `game`: the
/// default games' as ever ([`method_for`], the dual simplex); four-dice
/// games of [`IPM_MIN_SIDES`] sides or more by the double oracle with the
/// interior point method without crossover, finished by the simplex
/// (the wild ones [`copies_early`] names large from [`WILD_LARGE_ROWS`]
/// rows, their pair width [`WILD_PAIR_WIDTH`]); fewer sides by the double oracle with the dual simplex and
/// [`SIMPLEX_LOOKAHEAD`] look-ahead steps a round.
pub fn method_and_options(game: Endgame) -> (Method, LpOptions) {
    let method = method_for(game);
    let options = if method == Method::DoubleOracle && game.total_dice() >= 4 {
        if game.sides() >= IPM_MIN_SIDES {
            let ipm = LpOptions {
                method: "ipm",
                crossover: false,
                ..LpOptions::default()
            };
            if copies_early(game) {
                LpOptions {
                    ipm_finish_rows: WILD_LARGE_ROWS,
                    pair_width: WILD_PAIR_WIDTH,
                    ..ipm
                }
            } else {
                ipm
            }
        } else {
            LpOptions {
                lookahead: SIMPLEX_LOOKAHEAD,
                ..LpOptions::default()
            }
        }
    } else {
        LpOptions::default()
    };
    (method, options)
}

/// What produced a cached game: a change here invalidates the cache (a
/// game solved by another method or tolerance would be a different,
/// equally certified equilibrium, and the tables would depend on the
/// cache). The default options' text is the one the build's cache has
/// always had.
pub fn fingerprint(options: LpOptions) -> String {
    let mut text = format!(
        "gametab {} dice endgame; HiGHS {}, tolerances 1e-10; full LP for wild games up to {} bids, else the double oracle to {:e}, warm start {}",
        env!("CARGO_PKG_VERSION"),
        options.method,
        FULL_LP_MAX_WILD_BIDS,
        gametab_solve::endgame::oracle::IMPROVEMENT,
        options.warm_start
    );
    if options.method == "ipm" {
        text.push_str(&format!(
            ", the double oracle's interior point by HiGHS's {} ({} system)",
            gametab_solve::endgame::lp::ORACLE_IPM_SOLVER,
            gametab_solve::endgame::lp::HIPO_SYSTEM
        ));
    }
    if !options.crossover {
        text.push_str(&format!(
            ", no crossover (rounds to {:e}, finished by the simplex from a crossover)",
            gametab_solve::endgame::lp::IPM_ROUND_TOLERANCE
        ));
    }
    if options.lookahead > 0 {
        text.push_str(&format!(", {} look-ahead steps", options.lookahead));
    }
    if let Some(from) = options.prune {
        text.push_str(&format!(", pruned from {from} sequences"));
    }
    if options.ipm_finish_rows != gametab_solve::endgame::lp::IPM_FINISH_ROWS {
        text.push_str(&format!(
            ", large restricted LPs from {} rows",
            options.ipm_finish_rows
        ));
    }
    if options.pair_width != gametab_solve::endgame::oracle::PAIR_WIDTH {
        text.push_str(&format!(", pair width {:e}", options.pair_width));
    }
    if let Some(extra) = std::env::var_os(gametab_solve::endgame::HIGHS_OPTIONS_VAR) {
        text.push_str(&format!(", HiGHS options {}", extra.to_string_lossy()));
    }
    text
}

/// A duration written `90`, `90s`, `10m`, `2h` or combined (`1h30m`).
///
/// # Errors
/// Anything else, or no time at all.
pub fn parse_duration(text: &str) -> Result<Duration> {
    let mut total = 0.0;
    let mut number = String::new();
    let mut any = false;
    for c in text.trim().chars() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => 1.0,
            'm' => 60.0,
            'h' => 3600.0,
            _ => fail!(Invalid, "{text:?}: not a duration (90s, 10m, 2h, 1h30m)"),
        };
        let n: f64 = number.parse().map_err(|_| {
            Error::Invalid(format!("{text:?}: not a duration (90s, 10m, 2h, 1h30m)"))
        })?;
        total += n * unit;
        number.clear();
        any = true;
    }
    if !number.is_empty() {
        total += number
            .parse::<f64>()
            .map_err(|_| Error::Invalid(format!("{text:?}: not a duration")))?;
        any = true;
    }
    if !any || !total.is_finite() || total <= 0.0 {
        fail!(
            Invalid,
            "{text:?}: not a positive duration (90s, 10m, 2h, 1h30m)"
        );
    }
    Ok(Duration::from_secs_f64(total))
}

/// The LP method of a job: the build's, or one named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum JobLp {
    /// The build's choice for the game.
    Auto,
    /// The dual simplex, warm-started from the last basis.
    Simplex,
    /// The interior point method with crossover.
    Ipm,
    /// The interior point method without crossover, finished by the
    /// simplex from a crossover's basis.
    IpmNoCrossover,
}

/// `gametab dice endgame solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// The dice of player 1 and of player 2 (e.g. 2,2).
    #[arg(long)]
    pub dice: String,
    /// Sides of each die.
    #[arg(long, default_value_t = 6)]
    pub sides: u8,
    /// Ones are wild.
    #[arg(long)]
    pub wild: bool,
    /// The cache directory (the game's job file goes in its
    /// dice_endgame/ directory; `gametab build` uses the directory of its
    /// --cache file).
    #[arg(long, default_value = ".gametab-cache")]
    pub cache: PathBuf,
    /// Stop the double oracle after the round in which this much time has
    /// passed (90s, 10m, 2h); the restricted game is kept in the job file
    /// and the next job resumes from it. No limit by default.
    #[arg(long, value_parser = parse_duration)]
    pub budget: Option<Duration>,
    /// Save where the job stands to its job file at the end of the first
    /// round this long after the last save (90s, 10m, 2h), so that a job
    /// killed loses at most this much work and a round; the next job
    /// resumes from the save.
    #[arg(long, value_parser = parse_duration, default_value = "10m")]
    pub checkpoint: Duration,
    /// The LP method of the double oracle's rounds.
    #[arg(long, value_enum, default_value_t = JobLp::Auto)]
    pub lp: JobLp,
    /// Look-ahead steps of each double-oracle round (`LpOptions::lookahead`);
    /// the build's choice for the game by default.
    #[arg(long)]
    pub lookahead: Option<u32>,
    /// Prune the restricted game to the equilibrium's support whenever it
    /// has doubled (`LpOptions::prune`, from 2,000 sequences): true or
    /// false. Not the build's choice (false) by default; measured in
    /// docs/development.md.
    #[arg(long)]
    pub prune: Option<bool>,
    /// Threads HiGHS may use on each LP (the interior point solver HiPO
    /// factorises in parallel). One by default, as a machine running a
    /// job per core wants; a machine given to one job can give it every
    /// core. Not part of the job file's fingerprint: the method is the
    /// same, though HiPO's parallel factorisation rounds differently, so
    /// a large game may take other rounds to another certified
    /// equilibrium of the same value (a given count is reproducible).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// No progress on standard error (by default a line redrawn at every
    /// round on a terminal, else a line a minute at most).
    #[arg(long, short)]
    pub quiet: bool,
}

/// The game of `--dice A,B --sides S [--wild]`.
///
/// # Errors
/// Not two dice counts, or no game of the rules.
pub fn game_of(dice: &str, sides: u8, wild: bool) -> Result<Endgame> {
    let (a, b) = dice.split_once(',').ok_or_else(|| {
        Error::Invalid(format!("--dice {dice}: give both players' dice, e.g. 2,2"))
    })?;
    let count = |n: &str| -> Result<u8> {
        n.trim().parse().map_err(|e| {
            Error::Invalid(format!(
                "--dice {dice}: {n:?} is not a number of dice ({e})"
            ))
        })
    };
    let (a, b) = (count(a)?, count(b)?);
    Ok(Endgame::new(a, b, sides, wild)?)
}

/// What a job did.
#[derive(Debug, Clone)]
pub struct JobReport {
    /// The state written.
    pub state: JobState,
    /// Whether the job file already held the solved game (certified
    /// again, nothing solved).
    pub found: bool,
    /// A line for the log.
    pub line: String,
}

/// A one-line description of a job state; `seconds`, the time a solve
/// just took (none for a game read from its job file).
pub fn describe(game: Endgame, state: &JobState, seconds: Option<f64>) -> String {
    match state {
        JobState::Solved(g) => {
            let exact = gametab_solve::endgame::exact_value(
                &gametab_solve::endgame::Certificate {
                    upper: g.certificate.0,
                    lower: g.certificate.1,
                },
            );
            format!(
                "{game}: solved, value {} ({}), certified on its support to {:.1e} (bracket [{:.16}, {:.16}]), {} ({} LPs), last LP {} x {} ({} nonzeros){}",
                exact.map_or_else(|| format!("{:.16}", g.value), |f| f.to_string()),
                if exact.is_some() { "exact" } else { "no fraction simple enough inside the bracket" },
                g.certificate.0 - g.certificate.1,
                g.certificate.1,
                g.certificate.0,
                g.method,
                g.lps,
                g.size.0,
                g.size.1,
                g.size.2,
                seconds.map_or_else(String::new, |s| format!(", {s:.1} s")),
            )
        }
        JobState::Partial(p) => format!(
            "{game}: NOT solved yet: value in [{:.12}, {:.12}] after {} rounds and {:.0} s over all its jobs (last restricted LP {} x {}, {} nonzeros; {} sequences kept to resume from{})",
            p.bracket.0,
            p.bracket.1,
            p.rounds,
            p.seconds,
            p.size.0,
            p.size.1,
            p.size.2,
            p.included.len(),
            kept_strategies(&p.kept)
        ),
    }
}

/// The best strategies a cut-off game keeps, as its line names them
/// (empty when it keeps none): each with the bound it left when kept.
fn kept_strategies(kept: &[Option<job::KeptStrategy>; 2]) -> String {
    let named: Vec<String> = kept
        .iter()
        .zip(["player 1's (lower bound", "player 2's (upper bound"])
        .filter_map(|(k, name)| k.as_ref().map(|k| format!("{name} {:.15})", k.bound)))
        .collect();
    if named.is_empty() {
        return String::new();
    }
    format!(", and the best strategies of {}", named.join(" and "))
}

/// How often a job saves where it stands by default (`--checkpoint`): at
/// the end of the first round this long after the last save, so that a
/// job killed (a batch engine's time limit, a reboot) loses at most this
/// much work and a round.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// What a job finds in its job file before it solves anything.
pub(super) enum Found {
    /// The solved game, certified again: the job's report.
    Solved(JobReport),
    /// A restricted game to resume from, or nothing; a warning for the
    /// line (a file set aside, or made by another solver).
    Resume(Option<PartialGame>, String),
}

/// Read `game`'s job file at `path` (`print`: this solver's fingerprint).
/// A file that cannot be read, is damaged or holds another game is set
/// aside with a warning, as is a solved game that does not certify again.
pub(super) fn find(game: Endgame, path: &Path, print: &str) -> Found {
    let previous = match job::load(path).map(|file| {
        file.map(|f| job::check_game(&f.state, game).map(|()| f))
            .transpose()
    }) {
        Ok(Ok(file)) => Ok(file),
        Ok(Err(e)) | Err(e) => Err(format!(" (ignored {}: {})", path.display(), chain(&e))),
    };
    let file = match previous {
        Ok(Some(file)) => file,
        Ok(None) => return Found::Resume(None, String::new()),
        Err(warning) => return Found::Resume(None, warning),
    };
    // A job file of another solver (version, LP method or tolerance) is
    // used all the same: a restricted game is only a set of sequences to
    // start from, and a solved game is certified again; the line says so.
    let mut warning = String::new();
    if file.fingerprint != print {
        warning = format!(
            " (the job file was made by another solver: {})",
            file.fingerprint
        );
    }
    match file.state {
        JobState::Solved(g) => match g.restore_sparse() {
            Ok(_) => {
                let state = JobState::Solved(g);
                let line = describe(game, &state, None);
                Found::Solved(JobReport {
                    state,
                    found: true,
                    line: format!(
                        "{line} (already in {}, certified again){warning}",
                        path.display()
                    ),
                })
            }
            Err(e) => Found::Resume(
                None,
                format!(
                    " (refused the solved game in {}: {})",
                    path.display(),
                    chain(&e)
                ),
            ),
        },
        JobState::Partial(p) => Found::Resume(Some(p), warning),
    }
}

/// Solve `game` as a job: resume its job file in `dir` when it holds a
/// restricted game, return it when it holds the solved game (certified
/// again), else solve from nothing; write the job file, and save where it
/// stands every [`CHECKPOINT_EVERY`] on the way.
///
/// # Errors
/// HiGHS fails, the solution does not certify, or the file cannot be
/// written. A damaged job file is set aside with a warning in the line.
pub fn solve_job(
    game: Endgame,
    dir: &Path,
    method: Method,
    options: LpOptions,
    budget: Option<Duration>,
) -> Result<JobReport> {
    solve_job_watched(
        game,
        dir,
        method,
        options,
        budget,
        Some(CHECKPOINT_EVERY),
        &mut |_| {},
    )
}

/// [`solve_job`], calling `on_round` at the end of every double-oracle
/// round with where the game stands over all its jobs, and saving the
/// restricted game to the job file at the end of the first round
/// `checkpoint` or more after the last save (none: only at the end).
///
/// # Errors
/// As [`solve_job`]. A checkpoint that cannot be written does not stop
/// the job; the line says so.
pub fn solve_job_watched(
    game: Endgame,
    dir: &Path,
    method: Method,
    options: LpOptions,
    budget: Option<Duration>,
    checkpoint: Option<Duration>,
    on_round: &mut dyn FnMut(&JobRound),
) -> Result<JobReport> {
    let path = dir.join(job::file_name(game));
    let print = fingerprint(options);
    let (partial, mut warning) = match find(game, &path, &print) {
        Found::Solved(report) => return Ok(report),
        Found::Resume(partial, warning) => (partial, warning),
    };
    let start = Instant::now();
    // The job file must be writable before hours go into the solve.
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    let mut probe = path.as_os_str().to_owned();
    probe.push(format!(".{}.probe", std::process::id()));
    let probe = PathBuf::from(probe);
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| Error::io("write the job file into", dir, e))?;
    let (mut saved, mut saves, mut unsaved) = (Instant::now(), 0u32, None);
    let mut watch = |end: &RoundEnd<'_>| {
        on_round(&end.round);
        if checkpoint.is_some_and(|every| saved.elapsed() >= every) {
            let file = JobFile {
                fingerprint: print.clone(),
                state: JobState::Partial(end.resume_point()),
            };
            match job::encode(&file)
                .map_err(Error::from)
                .and_then(|bytes| write_atomically(&path, &bytes))
            {
                Ok(()) => saves += 1,
                Err(e) => unsaved = Some(chain(&e)),
            }
            saved = Instant::now();
        }
    };
    let state = job::run_watched(game, method, options, budget, partial.as_ref(), &mut watch)?;
    if let Some(e) = unsaved {
        warning.push_str(&format!(" (a checkpoint could not be saved: {e})"));
    }
    let file = JobFile {
        fingerprint: print,
        state,
    };
    write_atomically(&path, &job::encode(&file)?)?;
    let resumed = if partial.is_some() { ", resumed" } else { "" };
    let checkpoints = match saves {
        0 => String::new(),
        1 => ", 1 checkpoint".to_owned(),
        n => format!(", {n} checkpoints"),
    };
    let line = describe(game, &file.state, Some(start.elapsed().as_secs_f64()));
    Ok(JobReport {
        state: file.state,
        found: false,
        line: format!("{line}{resumed}{checkpoints}{warning}; {}", path.display()),
    })
}

/// Take `game`'s job file in `dir` as it is, solving nothing (`gametab
/// build --merge-only`): the solved game certified again, or where an
/// unsolved one stands, or none when there is no job file (or it is set
/// aside); with the line for the build's report.
pub fn read_job(game: Endgame, dir: &Path, options: LpOptions) -> (Option<JobState>, String) {
    let path = dir.join(job::file_name(game));
    match find(game, &path, &fingerprint(options)) {
        Found::Solved(report) => (Some(report.state), report.line),
        Found::Resume(Some(p), warning) => {
            let state = JobState::Partial(p);
            let line = describe(game, &state, None);
            (
                Some(state),
                format!(
                    "{line}, left as it is (--merge-only){warning}; {}",
                    path.display()
                ),
            )
        }
        Found::Resume(None, warning) => (
            None,
            format!(
                "{game}: NOT solved yet: no job file {} (--merge-only){warning}",
                path.display()
            ),
        ),
    }
}

/// Run `gametab dice endgame solve`.
///
/// # Errors
/// As [`solve_job`], or invalid arguments.
pub fn run(args: SolveArgs, out: &mut dyn Write) -> Result<()> {
    let game = game_of(&args.dice, args.sides, args.wild)?;
    let (method, auto) = method_and_options(game);
    let mut options = match args.lp {
        JobLp::Auto => auto,
        JobLp::Simplex => LpOptions::default(),
        JobLp::Ipm => LpOptions {
            method: "ipm",
            ..LpOptions::default()
        },
        JobLp::IpmNoCrossover => LpOptions {
            method: "ipm",
            crossover: false,
            ..LpOptions::default()
        },
    };
    if let Some(steps) = args.lookahead {
        options.lookahead = steps;
    }
    if let Some(prune) = args.prune {
        options.prune = prune.then_some(gametab_solve::endgame::oracle::PRUNE_FROM);
    }
    options.threads = args.threads;
    let mut watch = RoundLog::new(game, args.quiet);
    let report = solve_job_watched(
        game,
        &job_dir(&args.cache),
        method,
        options,
        args.budget,
        Some(args.checkpoint),
        &mut |round| watch.round(round),
    )?;
    let _ = watch.finish();
    writeln!(out, "{}", report.line)?;
    Ok(())
}

#[cfg(test)]
#[path = "job_tests.rs"]
mod tests;
