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
//! without crossover (finished by the simplex) for the four-dice games of
//! five and six sides, where the restricted LPs pass 7,000 rows. Measured by `cargo bench --bench
//! endgame_methods` (`ENDGAME_METHODS_RUN`), one HiGHS thread, on the
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

use gametab_games::dice::endgame::Endgame;
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

/// The method and LP options the build (and a job) uses for `game`: the
/// default games' as ever ([`method_for`], the dual simplex); four-dice
/// games of [`IPM_MIN_SIDES`] sides or more by the double oracle with the
/// interior point method without crossover, finished by the simplex;
/// fewer sides by the double oracle with the dual simplex and
/// [`SIMPLEX_LOOKAHEAD`] look-ahead steps a round.
pub fn method_and_options(game: Endgame) -> (Method, LpOptions) {
    let method = method_for(game);
    let options = if method == Method::DoubleOracle && game.total_dice() >= 4 {
        if game.sides() >= IPM_MIN_SIDES {
            LpOptions {
                method: "ipm",
                crossover: false,
                ..LpOptions::default()
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
    if !options.crossover {
        text.push_str(", no crossover (finished by the simplex)");
    }
    if options.lookahead > 0 {
        text.push_str(&format!(", {} look-ahead steps", options.lookahead));
    }
    if let Some(from) = options.prune {
        text.push_str(&format!(", pruned from {from} sequences"));
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
    /// simplex.
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

/// A one-line description of a job state.
pub fn describe(game: Endgame, state: &JobState, seconds: f64) -> String {
    match state {
        JobState::Solved(g) => {
            let exact = gametab_solve::endgame::exact_value(
                g.value,
                &gametab_solve::endgame::Certificate {
                    upper: g.certificate.0,
                    lower: g.certificate.1,
                },
            );
            format!(
                "{game}: solved, value {} ({}), certified on its support to {:.1e} (bracket [{:.16}, {:.16}]), {} ({} LPs), last LP {} x {} ({} nonzeros), {seconds:.1} s",
                exact.map_or_else(|| format!("{:.16}", g.value), |f| f.to_string()),
                if exact.is_some() { "exact" } else { "no fraction inside the bracket" },
                g.certificate.0 - g.certificate.1,
                g.certificate.1,
                g.certificate.0,
                g.method,
                g.lps,
                g.size.0,
                g.size.1,
                g.size.2,
            )
        }
        JobState::Partial(p) => format!(
            "{game}: NOT solved yet: value in [{:.12}, {:.12}] after {} rounds and {:.0} s over all its jobs (last restricted LP {} x {}, {} nonzeros; {} sequences kept to resume from)",
            p.bracket.0,
            p.bracket.1,
            p.rounds,
            p.seconds,
            p.size.0,
            p.size.1,
            p.size.2,
            p.included.len()
        ),
    }
}

/// How often a job saves where it stands by default (`--checkpoint`): at
/// the end of the first round this long after the last save, so that a
/// job killed (a batch engine's time limit, a reboot) loses at most this
/// much work and a round.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// What a job finds in its job file before it solves anything.
enum Found {
    /// The solved game, certified again: the job's report.
    Solved(JobReport),
    /// A restricted game to resume from, or nothing; a warning for the
    /// line (a file set aside, or made by another solver).
    Resume(Option<PartialGame>, String),
}

/// Read `game`'s job file at `path` (`print`: this solver's fingerprint).
/// A file that cannot be read, is damaged or holds another game is set
/// aside with a warning, as is a solved game that does not certify again.
fn find(game: Endgame, path: &Path, print: &str) -> Found {
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
                let line = describe(game, &state, 0.0);
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
    let line = describe(game, &file.state, start.elapsed().as_secs_f64());
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
            let line = describe(game, &state, 0.0);
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
mod tests {
    use super::*;

    /// The look-ahead goes to the four-dice games of the simplex alone: the
    /// default games keep their options (and the cache's fingerprint, so
    /// the default tables), the interior point's games theirs.
    #[test]
    fn the_look_ahead_is_the_four_sided_four_dice_games_alone() {
        for game in crate::dice::endgame::build::default_games() {
            let (method, options) = method_and_options(game);
            assert_eq!(method, method_for(game), "{game}");
            assert_eq!(options.lookahead, 0, "{game}");
            assert_eq!(
                fingerprint(options),
                fingerprint(LpOptions::default()),
                "{game}"
            );
        }
        let four = Endgame::new(2, 2, 4, true).unwrap();
        assert_eq!(method_and_options(four).1.lookahead, SIMPLEX_LOOKAHEAD);
        assert!(fingerprint(method_and_options(four).1).ends_with(", 2 look-ahead steps"));
        let five = Endgame::new(2, 2, 5, true).unwrap();
        let (_, options) = method_and_options(five);
        assert_eq!((options.method, options.lookahead), ("ipm", 0));
        // Pruning is a job's choice (`--prune true`), not the build's.
        assert_eq!(options.prune, None);
        assert_eq!(method_and_options(four).1.prune, None);
        let pruned = LpOptions {
            prune: Some(gametab_solve::endgame::oracle::PRUNE_FROM),
            ..options
        };
        assert!(fingerprint(pruned).ends_with(", pruned from 2000 sequences"));
    }

    use crate::dice::endgame::round_log::LOG_EVERY;

    /// A job's log: a line per round when every round may log, counting
    /// on over a resumed job (rounds, time), the bracket narrowing to the
    /// value the job ends with; no line at all within the interval.
    #[test]
    fn a_jobs_log_follows_its_rounds_over_its_jobs() {
        let dir = tempfile::tempdir().unwrap();
        let game = Endgame::new(2, 1, 4, false).unwrap();
        let (method, options) = method_and_options(game);
        let run = |budget, every| {
            let mut log = RoundLog::with(game, None, Some(Vec::new()), every);
            let report =
                solve_job_watched(game, dir.path(), method, options, budget, None, &mut |r| {
                    log.round(r)
                })
                .unwrap();
            let text = String::from_utf8(log.finish().unwrap()).unwrap();
            (report, text)
        };
        let (cut, text) = run(Some(Duration::ZERO), Duration::ZERO);
        let JobState::Partial(p) = &cut.state else {
            panic!("not cut off: {}", cut.line)
        };
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(
            text.starts_with("2v1 4-sided normal: round 1, value in ["),
            "{text}"
        );
        let (solved, text) = run(None, Duration::ZERO);
        let JobState::Solved(g) = &solved.state else {
            panic!("not solved: {}", solved.line)
        };
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() as u32, g.lps - p.rounds, "{text}");
        assert!(
            lines[0].starts_with(&format!("2v1 4-sided normal: round {}, ", p.rounds + 1)),
            "{text}"
        );
        let width = |line: &str| -> f64 {
            let w = line.split("(width ").nth(1).unwrap();
            w[..w.find(')').unwrap()].parse().unwrap()
        };
        assert!(width(lines.last().unwrap()) < 1e-9, "{text}");
        assert!(width(lines[0]) >= width(lines.last().unwrap()), "{text}");
        // A solved job file: no round at all.
        let (_, text) = run(None, Duration::ZERO);
        assert_eq!(text, "");
        // Rounds within the interval: no line.
        let game_dir = tempfile::tempdir().unwrap();
        let mut log = RoundLog::with(game, None, Some(Vec::new()), LOG_EVERY);
        solve_job_watched(
            game,
            game_dir.path(),
            method,
            options,
            None,
            None,
            &mut |r| log.round(r),
        )
        .unwrap();
        assert!(log.finish().unwrap().is_empty());
    }

    /// With a checkpoint at every round, the job file holds the last
    /// round's end whenever a round ends (as a job killed there would
    /// leave it), and a job resumed from any one of them solves the game
    /// to the value of a job never stopped.
    #[test]
    fn every_checkpoint_is_a_point_to_resume_from() {
        let dir = tempfile::tempdir().unwrap();
        let game = Endgame::new(2, 1, 4, false).unwrap();
        let (method, options) = method_and_options(game);
        let path = dir.path().join(job::file_name(game));
        let mut saved: Vec<(u32, Vec<u8>)> = Vec::new();
        let report = solve_job_watched(
            game,
            dir.path(),
            method,
            options,
            None,
            Some(Duration::ZERO),
            &mut |r| {
                if r.rounds > 1 {
                    let bytes = std::fs::read(&path).expect("a checkpoint after round 1");
                    saved.push((r.rounds, bytes));
                }
            },
        )
        .unwrap();
        let JobState::Solved(whole) = &report.state else {
            panic!("not solved: {}", report.line)
        };
        assert!(saved.len() >= 3, "{} rounds", saved.len());
        assert!(
            report
                .line
                .contains(&format!(", {} checkpoints", saved.len() + 1)),
            "{}",
            report.line
        );
        let mut last = 0;
        for (round, bytes) in &saved {
            let file = job::decode(bytes).unwrap();
            let JobState::Partial(p) = &file.state else {
                panic!("round {round}: not a restricted game")
            };
            assert_eq!(p.rounds, round - 1);
            assert!(p.included.len() >= last, "round {round}: sequences lost");
            last = p.included.len();
        }
        for (round, bytes) in [&saved[0], &saved[saved.len() / 2]] {
            let again = tempfile::tempdir().unwrap();
            std::fs::write(again.path().join(job::file_name(game)), bytes).unwrap();
            let resumed = solve_job(game, again.path(), method, options, None).unwrap();
            let JobState::Solved(g) = &resumed.state else {
                panic!("round {round}: not solved: {}", resumed.line)
            };
            assert!(resumed.line.contains("resumed"), "{}", resumed.line);
            assert!(g.lps >= round - 1, "round {round}: {} LPs", g.lps);
            assert!((g.value - whole.value).abs() < 1e-12, "round {round}");
        }
    }

    /// A cache where no job file can be written is refused before the
    /// first round, not after the solve.
    #[test]
    fn an_unwritable_cache_is_refused_before_any_round() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a file");
        std::fs::write(&file, b"").unwrap();
        let game = Endgame::new(2, 2, 3, false).unwrap();
        let (method, options) = method_and_options(game);
        let err = solve_job_watched(
            game,
            &job_dir(&file),
            method,
            options,
            None,
            None,
            &mut |r| panic!("a round ran: {r:?}"),
        )
        .unwrap_err();
        let text = chain(&err);
        assert!(
            text.contains("a file/dice_endgame") && text.contains("cannot create"),
            "{text}"
        );
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("90").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        for bad in ["", "m", "10x", "0s", "-5"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn job_file_names_name_their_game() {
        let game = Endgame::new(2, 2, 5, true).unwrap();
        assert_eq!(job::file_name(game), "2v2-5-wild.bin");
        assert_eq!(job::game_of_file_name("2v2-5-wild.bin"), Some(game));
        assert_eq!(job::game_of_file_name("2v2-5-wild.tmp"), None);
        assert_eq!(job::game_of_file_name("2v2-05-wild.bin"), None);
    }

    /// A game cut off by its budget keeps its restricted game, the next
    /// job resumes from it and solves it, and a third job finds it solved:
    /// the value is the one a single solve gives.
    #[test]
    fn a_job_cut_off_resumes_and_a_solved_one_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let game = Endgame::new(2, 1, 3, false).unwrap();
        let (method, options) = method_and_options(game);
        let first = solve_job(game, dir.path(), method, options, Some(Duration::ZERO)).unwrap();
        let JobState::Partial(p) = &first.state else {
            panic!("not cut off: {}", first.line)
        };
        assert_eq!(p.rounds, 1);
        assert!(!p.included.is_empty());
        let second = solve_job(game, dir.path(), method, options, None).unwrap();
        let JobState::Solved(g) = &second.state else {
            panic!("not solved: {}", second.line)
        };
        assert!(second.line.contains("resumed"), "{}", second.line);
        let once = gametab_solve::endgame::solve(game, LpOptions::default()).unwrap();
        assert!((g.value - once.value).abs() < 1e-12);
        assert_eq!(
            g.restore_sparse().unwrap().exact.map(|f| f.to_string()),
            Some("1/9".to_owned())
        );
        let third = solve_job(game, dir.path(), method, options, None).unwrap();
        assert!(third.line.contains("already in"), "{}", third.line);
        assert!(!third.line.contains("another solver"), "{}", third.line);
        assert_eq!(third.state, second.state);
        // The same file read by a job with other LP options: still taken
        // (certified again), and the line names the solver that made it.
        let other = LpOptions {
            method: "ipm",
            crossover: false,
            ..options
        };
        let fourth = solve_job(game, dir.path(), method, other, None).unwrap();
        assert!(fourth.line.contains("already in"), "{}", fourth.line);
        assert!(
            fourth.line.contains("made by another solver") && fourth.line.contains("simplex"),
            "{}",
            fourth.line
        );
        assert_eq!(fourth.state, second.state);
    }
}
