//! `gametab dice endgame status`: where every job in a cache directory
//! stands, without solving anything. A solved game is certified again
//! (as the build would before merging it), an unsolved one is described by
//! its bracket, rounds, time and restricted LP, and a file that cannot be
//! used says why. This is what a user who fans the jobs out over many
//! machines reads before copying job files back, and how the job files
//! kept in the repository (`data/dice_endgame/`) are shown.

use std::io::Write;
use std::path::{Path, PathBuf};

use gametab_games::dice::endgame::Endgame;
use gametab_solve::endgame::job::{game_of_file_name, JobState};

use super::job::{describe, find, fingerprint, job_dir, method_and_options, Found};
use crate::error::{Error, Result};

/// `gametab dice endgame status`.
#[derive(Debug, Clone, clap::Args)]
pub struct StatusArgs {
    /// The cache directory whose dice_endgame/ job files are read (as
    /// `gametab dice endgame solve --cache`).
    #[arg(long, default_value = ".gametab-cache")]
    pub cache: PathBuf,
}

/// One job file's line: the game's state, or why the file cannot be used
/// (`Err`). Which solver made a usable file is not said: a restricted
/// game from any solver is a place to resume from, and a solved game is
/// certified again here.
pub fn status_line(game: Endgame, path: &Path) -> std::result::Result<String, String> {
    let (_, options) = method_and_options(game);
    match find(game, path, &fingerprint(options)) {
        Found::Solved(report) => Ok(format!(
            "{}, certified again",
            describe(game, &report.state, None)
        )),
        Found::Resume(Some(partial), _) => Ok(describe(game, &JobState::Partial(partial), None)),
        Found::Resume(None, warning) => Err(format!(
            "{game}: the job file cannot be used{warning}; remove it, or run `gametab dice endgame solve` for the game again"
        )),
    }
}

/// Run `gametab dice endgame status`: a line per job file in the cache's
/// dice_endgame/ directory, by file name.
///
/// # Errors
/// No such directory, a directory that cannot be read, or a job file that
/// cannot be used (after every line is written).
pub fn run(args: StatusArgs, out: &mut dyn Write) -> Result<()> {
    let dir = job_dir(&args.cache);
    if !dir.is_dir() {
        return Err(Error::Invalid(format!(
            "no job directory {}: `gametab dice endgame solve --cache {}` writes the job files there",
            dir.display(),
            args.cache.display()
        )));
    }
    let entries = std::fs::read_dir(&dir).map_err(|e| Error::io("read", &dir, e))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io("read", &dir, e))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    let (mut jobs, mut unusable) = (0, 0);
    for name in &names {
        let Some(game) = game_of_file_name(name) else {
            continue;
        };
        jobs += 1;
        let path = dir.join(name);
        match status_line(game, &path) {
            Ok(line) => writeln!(out, "{line}; {}", path.display())?,
            Err(line) => {
                unusable += 1;
                writeln!(out, "{line}")?;
            }
        }
    }
    if jobs == 0 {
        writeln!(
            out,
            "no job files in {} (`gametab dice endgame solve` writes them)",
            dir.display()
        )?;
    }
    if unusable > 0 {
        return Err(Error::Invalid(format!(
            "{unusable} of the {jobs} job files in {} cannot be used (above)",
            dir.display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved job, an unsolved one and a damaged one, each described;
    /// the damaged one fails the command after every line is written.
    #[test]
    fn status_reads_every_job_file_and_fails_on_a_damaged_one() {
        let cache = tempfile::tempdir().unwrap();
        let dir = job_dir(cache.path());
        let small = Endgame::new(1, 1, 3, false).unwrap();
        let cut = Endgame::new(2, 1, 4, false).unwrap();
        for (game, budget) in [(small, None), (cut, Some(std::time::Duration::ZERO))] {
            let (method, options) = method_and_options(game);
            super::super::job::solve_job(game, &dir, method, options, budget).unwrap();
        }
        std::fs::write(dir.join("notes.txt"), "not a job").unwrap();
        let status = |cache: &Path| {
            let mut out = Vec::new();
            let result = run(
                StatusArgs {
                    cache: cache.to_owned(),
                },
                &mut out,
            );
            (result, String::from_utf8(out).unwrap())
        };
        let (result, text) = status(cache.path());
        result.unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].starts_with("1v1 3-sided normal: solved, value ")
                && lines[0].contains("(exact)")
                && lines[0].contains(", certified again; ")
                && lines[0].ends_with("1v1-3-normal.bin"),
            "{text}"
        );
        assert!(
            lines[1].starts_with("2v1 4-sided normal: NOT solved yet: value in [")
                && lines[1].contains("after 1 rounds"),
            "{text}"
        );

        std::fs::write(dir.join("2v2-3-wild.bin"), b"GAMETABJ damaged").unwrap();
        let (result, text) = status(cache.path());
        let error = result.unwrap_err().to_string();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(
            text.contains("2v2 3-sided wild: the job file cannot be used (ignored "),
            "{text}"
        );
        assert!(error.contains("1 of the 3 job files"), "{error}");

        let empty = tempfile::tempdir().unwrap();
        let error = status(empty.path()).0.unwrap_err().to_string();
        assert!(
            error.starts_with("no job directory ") && error.contains("--cache "),
            "{error}"
        );
    }
}
