//! `gametab dice endgame gather`: job files from elsewhere (other
//! machines' caches, the repository's `data/dice_endgame/`) into a cache,
//! keeping for each game the file furthest along. A solved game (certified
//! again) beats one not solved yet; of two unsolved ones the narrower
//! bracket wins, and at equal brackets the one with more time over all its
//! jobs; a tie keeps the cache's own. Of two unsolved files, the one kept
//! also takes the other's strategy of a player where it is the better
//! (each player's best strategy is what a job pairs to end a large game;
//! both bounds walked again, nothing read trusted) and the narrower of
//! their bounds: jobs of one game on several machines add up instead of
//! one winning. A file that cannot be used is named,
//! never copied, and fails the command after every other file is gathered;
//! a copy is written through a temporary file and a rename, so a cache
//! never holds half a job file.
//!
//! This is the step between fanning the jobs out over many machines and
//! `gametab build --endgame-frontier --merge-only`, and what
//! `scripts/nightly` runs to go on from the repository's job files.

use std::cmp::Ordering;
use std::io::Write;
use std::path::{Path, PathBuf};

use gametab_games::dice::endgame::Endgame;
use gametab_solve::endgame::job::{
    self as job_file, file_name, game_of_file_name, walk_kept, JobFile, JobState, KeptStrategy,
};

use super::job::{find, fingerprint, job_dir, method_and_options, Found};
use crate::error::{Error, Result};
use crate::output::write_atomically;

/// `gametab dice endgame gather`.
#[derive(Debug, Clone, clap::Args)]
pub struct GatherArgs {
    /// Job files (`2v2-6-wild.bin`), directories of them (another cache's
    /// dice_endgame/, the repository's data/dice_endgame/), or cache
    /// directories holding a dice_endgame/
    #[arg(required = true, value_name = "FROM")]
    pub from: Vec<PathBuf>,
    /// The cache directory whose dice_endgame/ receives them (as `gametab
    /// dice endgame solve --cache`)
    #[arg(long, default_value = ".gametab-cache")]
    pub cache: PathBuf,
}

/// Where one job file stands, as far as choosing between two goes.
#[derive(Debug, Clone, PartialEq)]
enum Standing {
    /// No file.
    Absent,
    /// A file that cannot be used, and why.
    Unusable(String),
    /// A restricted game: its bracket's width, rounds and seconds over all
    /// its jobs.
    Partial {
        width: f64,
        rounds: u32,
        seconds: f64,
    },
    /// The solved game, certified again.
    Solved,
}

impl Standing {
    /// Read `game`'s job file at `path`.
    fn of(game: Endgame, path: &Path) -> Standing {
        if !path.exists() {
            return Standing::Absent;
        }
        let (_, options) = method_and_options(game);
        match find(game, path, &fingerprint(options)) {
            Found::Solved(_) => Standing::Solved,
            Found::Resume(Some(p), _) => Standing::Partial {
                width: p.bracket.1 - p.bracket.0,
                rounds: p.rounds,
                seconds: p.seconds,
            },
            Found::Resume(None, warning) => Standing::Unusable(warning),
        }
    }

    /// How far along, for comparing: solved above unsolved above nothing;
    /// then the narrower bracket, then the more time.
    fn cmp_along(&self, other: &Standing) -> Ordering {
        let key = |s: &Standing| match s {
            Standing::Absent | Standing::Unusable(_) => (0, 0.0, 0.0),
            Standing::Partial { width, seconds, .. } => (1, -width, *seconds),
            Standing::Solved => (2, 0.0, 0.0),
        };
        let (a, b) = (key(self), key(other));
        a.0.cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    }
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Standing::Absent => write!(f, "none"),
            Standing::Unusable(_) => write!(f, "a file that cannot be used"),
            Standing::Partial {
                width,
                rounds,
                seconds,
            } => write!(
                f,
                "not solved, bracket {width:.1e} wide after {rounds} rounds and {seconds:.0} s"
            ),
            Standing::Solved => write!(f, "solved, certified again"),
        }
    }
}

/// The job files a `FROM` argument names: the file itself, or the job
/// files of a directory (its dice_endgame/ when it has one), by name.
fn job_files(from: &Path) -> std::result::Result<Vec<(Endgame, PathBuf)>, String> {
    if from.is_file() {
        let name = from
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return match game_of_file_name(&name) {
            Some(game) => Ok(vec![(game, from.to_owned())]),
            None => Err(format!(
                "{} is not named as a job file (GAME.bin, as 2v2-6-wild.bin)",
                from.display()
            )),
        };
    }
    if !from.is_dir() {
        return Err(format!(
            "no such file or directory {}: name job files, directories of them, or cache directories",
            from.display()
        ));
    }
    let dir = if job_dir(from).is_dir() {
        job_dir(from)
    } else {
        from.to_owned()
    };
    let entries =
        std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(game) = game_of_file_name(&name) {
            files.push((game, dir.join(name)));
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(files)
}

/// Whether two paths name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The restricted game of the job file at `path`, its kept strategies'
/// bounds walked again ([`walk_kept`]).
fn walked_partial(game: Endgame, path: &Path) -> std::result::Result<JobFile, String> {
    let why = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut file = job_file::load(path)
        .map_err(|e| why(&e))?
        .ok_or_else(|| format!("{}: no such file", path.display()))?;
    if let JobState::Partial(p) = &mut file.state {
        p.kept = walk_kept(game, &p.kept).map_err(|e| why(&e))?;
    }
    Ok(file)
}

/// Whether `a` is a better strategy of `player` (0 or 1) than `b` (or `b`
/// is none): player 1's by a greater lower bound, player 2's by a smaller
/// upper bound.
fn better(player: usize, a: &KeptStrategy, b: Option<&KeptStrategy>) -> bool {
    b.is_none_or(|b| {
        if player == 0 {
            a.bound > b.bound
        } else {
            a.bound < b.bound
        }
    })
}

/// What [`merge_partial`] changed: the strategies taken from the other
/// file (named, with their walked bounds), and the bracket when both
/// files' bounds narrowed it.
type Merged = (Vec<String>, Option<(f64, f64)>);

/// `base` (the job file kept) with what `other` (the other file of the
/// game) holds better: each player's kept strategy where the other's
/// walked bound is the better, and the bracket narrowed by the other's
/// and by both walked bounds. Returns what changed, for the line, or
/// `None` when nothing did.
fn merge_partial(base: &mut JobFile, other: &JobFile) -> Option<Merged> {
    let (JobState::Partial(b), JobState::Partial(o)) = (&mut base.state, &other.state) else {
        return None;
    };
    let mut taken = Vec::new();
    for (player, name) in [(0, "player 1's strategy"), (1, "player 2's strategy")] {
        if let Some(k) = &o.kept[player] {
            if better(player, k, b.kept[player].as_ref()) {
                let side = if player == 0 { "lower" } else { "upper" };
                taken.push(format!("{name} ({side} bound {:.15})", k.bound));
                b.kept[player] = Some(k.clone());
            }
        }
    }
    let mut bracket = (b.bracket.0.max(o.bracket.0), b.bracket.1.min(o.bracket.1));
    if let Some(x) = &b.kept[0] {
        bracket.0 = bracket.0.max(x.bound);
    }
    if let Some(y) = &b.kept[1] {
        bracket.1 = bracket.1.min(y.bound);
    }
    let narrower = bracket.1 - bracket.0 < b.bracket.1 - b.bracket.0;
    if narrower {
        b.bracket = bracket;
    }
    (!taken.is_empty() || narrower).then(|| (taken, narrower.then_some(bracket)))
}

/// Run `gametab dice endgame gather`: a line per job file found.
///
/// # Errors
/// A `FROM` that does not exist or cannot be read, a job file that cannot
/// be used (after every other file is gathered), or a cache that cannot be
/// written.
pub fn run(args: GatherArgs, out: &mut dyn Write) -> Result<()> {
    let dest_dir = job_dir(&args.cache);
    let mut problems = Vec::new();
    for from in &args.from {
        let files = match job_files(from) {
            Ok(files) => files,
            Err(problem) => {
                writeln!(out, "{problem}")?;
                problems.push(problem);
                continue;
            }
        };
        if files.is_empty() {
            writeln!(out, "no job files in {}", from.display())?;
        }
        for (game, source) in files {
            let dest = dest_dir.join(file_name(game));
            if same_file(&source, &dest) {
                writeln!(out, "{game}: {} is the cache's own file", dest.display())?;
                continue;
            }
            let offered = Standing::of(game, &source);
            if let Standing::Unusable(why) = &offered {
                let problem = format!(
                    "{game}: not copied, {} cannot be used{why}",
                    source.display()
                );
                writeln!(out, "{problem}")?;
                problems.push(problem);
                continue;
            }
            let held = Standing::of(game, &dest);
            let offered_wins = offered.cmp_along(&held) == Ordering::Greater;
            // Two restricted games of the game: the one kept takes what
            // the other holds better.
            let merged = match (&offered, &held) {
                (Standing::Partial { .. }, Standing::Partial { .. }) => {
                    let (base, other) = if offered_wins {
                        (&source, &dest)
                    } else {
                        (&dest, &source)
                    };
                    match (walked_partial(game, base), walked_partial(game, other)) {
                        (Ok(mut base), Ok(other)) => {
                            merge_partial(&mut base, &other).map(|taken| (base, taken))
                        }
                        (Err(why), _) | (_, Err(why)) => {
                            let problem = format!("{game}: not merged, {why}");
                            writeln!(out, "{problem}")?;
                            problems.push(problem);
                            continue;
                        }
                    }
                }
                _ => None,
            };
            if let Some((file, (taken, bracket))) = merged {
                let bytes = job_file::encode(&file)?;
                write_atomically(&dest, &bytes)?;
                let (kept, other) = if offered_wins {
                    (&source, &dest)
                } else {
                    (&dest, &source)
                };
                let mut line = format!(
                    "{game}: merged into {}: {} ({})",
                    dest.display(),
                    kept.display(),
                    if offered_wins { &offered } else { &held },
                );
                if !taken.is_empty() {
                    line += &format!(
                        ", with {} from {} ({})",
                        taken.join(" and "),
                        other.display(),
                        if offered_wins { &held } else { &offered },
                    );
                }
                if let Some((lower, upper)) = bracket {
                    line += &format!(
                        ", the bracket narrowed by both files' bounds to [{lower:.15}, {upper:.15}]"
                    );
                }
                writeln!(out, "{line}")?;
            } else if offered_wins {
                let bytes = std::fs::read(&source).map_err(|e| Error::io("read", &source, e))?;
                std::fs::create_dir_all(&dest_dir)
                    .map_err(|e| Error::io("create", &dest_dir, e))?;
                write_atomically(&dest, &bytes)?;
                writeln!(
                    out,
                    "{game}: copied {} to {} ({offered}; the cache had {held})",
                    source.display(),
                    dest.display()
                )?;
            } else {
                writeln!(
                    out,
                    "{game}: kept {} ({held}; {} is {offered})",
                    dest.display(),
                    source.display()
                )?;
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid(format!(
            "{} of what was named could not be gathered (above): remove or replace it, then gather again",
            if problems.len() == 1 {
                "one".to_owned()
            } else {
                problems.len().to_string()
            }
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametab_solve::endgame::job::{self as job_file, JobState};
    use std::time::Duration;

    fn gather(from: &[&Path], cache: &Path) -> (Result<()>, String) {
        let mut out = Vec::new();
        let result = run(
            GatherArgs {
                from: from.iter().map(|p| p.to_path_buf()).collect(),
                cache: cache.to_owned(),
            },
            &mut out,
        );
        (result, String::from_utf8(out).unwrap())
    }

    /// `game`'s job file in `dir` with its bracket and seconds replaced.
    fn rewrite_partial(dir: &Path, game: Endgame, bracket: (f64, f64), seconds: f64) {
        let path = dir.join(file_name(game));
        let mut file = job_file::load(&path).unwrap().unwrap();
        let JobState::Partial(p) = &mut file.state else {
            panic!("not a partial job");
        };
        p.bracket = bracket;
        p.seconds = seconds;
        std::fs::write(&path, job_file::encode(&file).unwrap()).unwrap();
    }

    /// Job files of two machines and of the cache: solved beats unsolved,
    /// the narrower bracket beats the wider, equal brackets go to more
    /// time, a tie keeps the cache's own; a damaged file is named, not
    /// copied, and fails the command after the others are gathered.
    #[test]
    fn gather_keeps_the_job_file_furthest_along() {
        let small = Endgame::new(1, 1, 3, false).unwrap();
        let cut = Endgame::new(2, 1, 4, false).unwrap();
        let other = Endgame::new(1, 2, 4, false).unwrap();
        let solve = |dir: &Path, game: Endgame, budget: Option<Duration>| {
            let (method, options) = method_and_options(game);
            super::super::job::solve_job(game, dir, method, options, budget).unwrap();
        };
        // Machine A: the small game solved, `cut` with a wide bracket.
        let a = tempfile::tempdir().unwrap();
        solve(&job_dir(a.path()), small, None);
        solve(&job_dir(a.path()), cut, Some(Duration::ZERO));
        rewrite_partial(&job_dir(a.path()), cut, (-0.5, 0.5), 100.0);
        // Machine B: `cut` narrower, `other` cut off; named by directory.
        let b = tempfile::tempdir().unwrap();
        solve(b.path(), cut, Some(Duration::ZERO));
        rewrite_partial(b.path(), cut, (-0.1, 0.1), 10.0);
        solve(b.path(), other, Some(Duration::ZERO));
        // The cache: the small game cut off, `other` as B's (a tie).
        let cache = tempfile::tempdir().unwrap();
        let dest = job_dir(cache.path());
        solve(&dest, small, Some(Duration::ZERO));
        std::fs::copy(b.path().join(file_name(other)), dest.join(file_name(other))).unwrap();

        let (result, text) = gather(&[a.path(), b.path()], cache.path());
        result.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            lines[0].starts_with("1v1 3-sided normal: copied ")
                && lines[0].contains("(solved, certified again; the cache had not solved"),
            "{text}"
        );
        assert!(
            lines[1].starts_with("2v1 4-sided normal: copied ")
                && lines[1].contains(
                    "(not solved, bracket 1.0e0 wide after 1 rounds and 100 s; the cache had none)"
                ),
            "{text}"
        );
        assert!(lines[2].starts_with("1v2 4-sided normal: kept "), "{text}");
        assert!(
            lines[3].starts_with("2v1 4-sided normal: copied ")
                && lines[3].contains("bracket 2.0e-1 wide")
                && lines[3].contains("the cache had not solved, bracket 1.0e0 wide"),
            "{text}"
        );
        for game in [small, cut, other] {
            let from = if game == small {
                job_dir(a.path())
            } else {
                b.path().to_owned()
            };
            assert_eq!(
                std::fs::read(dest.join(file_name(game))).unwrap(),
                std::fs::read(from.join(file_name(game))).unwrap(),
                "{game}"
            );
        }

        // Equal brackets: more time wins; the wider one never replaces.
        rewrite_partial(&job_dir(a.path()), cut, (-0.1, 0.1), 11.0);
        let (result, text) = gather(&[&job_dir(a.path()).join(file_name(cut))], cache.path());
        result.unwrap();
        assert!(text.starts_with("2v1 4-sided normal: copied "), "{text}");
        rewrite_partial(&job_dir(a.path()), cut, (-0.2, 0.2), 1e6);
        let (result, text) = gather(&[a.path()], cache.path());
        result.unwrap();
        assert!(text.contains("2v1 4-sided normal: kept "), "{text}");
        assert!(text.contains("1v1 3-sided normal: kept "), "{text}");

        // A damaged file and a missing path: named, nothing half-written,
        // the other files still gathered, the command fails.
        let c = tempfile::tempdir().unwrap();
        std::fs::write(c.path().join(file_name(other)), b"GAMETABJ damaged").unwrap();
        let before = std::fs::read(dest.join(file_name(other))).unwrap();
        let missing = c.path().join("nowhere");
        let (result, text) = gather(&[c.path(), &missing, b.path()], cache.path());
        let error = result.unwrap_err().to_string();
        assert!(
            text.contains("1v2 4-sided normal: not copied, ")
                && text.contains("cannot be used (ignored "),
            "{text}"
        );
        assert!(text.contains("no such file or directory "), "{text}");
        assert!(text.contains("2v1 4-sided normal: kept "), "{text}");
        assert!(error.starts_with("2 of what was named"), "{error}");
        assert_eq!(std::fs::read(dest.join(file_name(other))).unwrap(), before);
        let stray: Vec<_> = std::fs::read_dir(&dest)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().starts_with('.'))
            .collect();
        assert!(stray.is_empty(), "{stray:?}");

        // Nothing to copy: no cache directory made.
        let untouched = c.path().join("untouched");
        assert!(gather(&[&missing], &untouched).0.is_err());
        assert!(!untouched.exists());

        // A file not named as a job; the cache gathered into itself.
        let notes = c.path().join("notes.bin");
        std::fs::write(&notes, b"x").unwrap();
        let error = gather(&[&notes], cache.path()).0.unwrap_err().to_string();
        assert!(error.starts_with("one of what was named"), "{error}");
        let (result, text) = gather(&[cache.path()], cache.path());
        result.unwrap();
        assert_eq!(
            text.lines()
                .filter(|l| l.ends_with(" is the cache's own file"))
                .count(),
            3,
            "{text}"
        );
    }

    /// Two unsolved files of one game, each with one player's kept
    /// strategy: the file kept (the narrower bracket) takes the other's
    /// strategy, both bounds walked again (a false bound in a file is not
    /// believed), and the bracket they give; gathered again, nothing more
    /// is taken and the file stays as it is.
    #[test]
    fn gather_merges_each_players_best_strategy() {
        use gametab_solve::endgame::{sparse, LpOptions, Method};
        let game = Endgame::new(2, 1, 4, false).unwrap();
        let options = LpOptions {
            method: "ipm",
            crossover: false,
            ipm_finish_rows: 0,
            ..LpOptions::default()
        };
        let run = tempfile::tempdir().unwrap();
        super::super::job::solve_job(
            game,
            run.path(),
            Method::DoubleOracle,
            options,
            Some(Duration::ZERO),
        )
        .unwrap();
        let path = run.path().join(file_name(game));
        let file = job_file::load(&path).unwrap().unwrap();
        let JobState::Partial(p) = &file.state else {
            panic!("not a partial job");
        };
        let [Some(x), Some(y)] = p.kept.clone() else {
            panic!("nothing kept: {:?}", p.kept);
        };
        let cert = sparse::certify(game, &[x.entries.clone(), y.entries.clone()])
            .unwrap()
            .certificate;
        let with = |kept: [Option<KeptStrategy>; 2], bracket: (f64, f64)| {
            let mut f = file.clone();
            let JobState::Partial(p) = &mut f.state else {
                unreachable!()
            };
            p.kept = kept;
            p.bracket = bracket;
            f
        };
        // Machine A: player 1's strategy, a wide bracket. Machine B: player
        // 2's, its bound in the file false (better than it is), a narrower
        // bracket.
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let false_y = KeptStrategy {
            bound: cert.upper - 0.25,
            ..y.clone()
        };
        let file_a = with([Some(x.clone()), None], (-2.0, 2.0));
        let file_b = with([None, Some(false_y)], (-1.0, 1.0));
        std::fs::write(
            a.path().join(file_name(game)),
            job_file::encode(&file_a).unwrap(),
        )
        .unwrap();
        std::fs::write(
            b.path().join(file_name(game)),
            job_file::encode(&file_b).unwrap(),
        )
        .unwrap();

        let cache = tempfile::tempdir().unwrap();
        let dest = job_dir(cache.path()).join(file_name(game));
        let (result, text) = gather(&[a.path()], cache.path());
        result.unwrap();
        assert!(text.starts_with("2v1 4-sided normal: copied "), "{text}");
        let (result, text) = gather(&[b.path()], cache.path());
        result.unwrap();
        assert!(
            text.starts_with("2v1 4-sided normal: merged into ")
                && text.contains("with player 1's strategy (lower bound ")
                && text.contains("the bracket narrowed by both files' bounds to ["),
            "{text}"
        );
        let merged = job_file::load(&dest).unwrap().unwrap();
        let JobState::Partial(m) = &merged.state else {
            panic!("not a partial job");
        };
        let [Some(mx), Some(my)] = &m.kept else {
            panic!("not both kept: {:?}", m.kept);
        };
        assert_eq!(mx.entries, x.entries);
        assert_eq!(my.entries, y.entries);
        assert_eq!((mx.bound, my.bound), (cert.lower, cert.upper));
        assert_eq!(
            m.bracket,
            ((-1.0f64).max(cert.lower), 1.0f64.min(cert.upper))
        );
        assert_eq!(m.included, p.included);

        // Nothing better in either file now: kept, byte for byte.
        let before = std::fs::read(&dest).unwrap();
        let (result, text) = gather(&[a.path(), b.path()], cache.path());
        result.unwrap();
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("2v1 4-sided normal: kept "))
                .count(),
            2,
            "{text}"
        );
        assert_eq!(std::fs::read(&dest).unwrap(), before);
    }
}
