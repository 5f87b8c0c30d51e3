//! The endgame part of `gametab build`: which games are solved, the cache
//! round trip (every cached game certified again), the LPs of the others
//! in parallel (largest first), and the three tables.
//!
//! Measured on the 2-core build machine (`gametab build` on a clean clone,
//! one HiGHS thread per game, 2 games at a time): the 33 default games take
//! 30 s cold, of which the six-sided wild three-dice games 14 s and 5 s (the
//! double oracle's restricted LPs of 7,351 x 7,945 and 6,136 x 5,704 against
//! full LPs of 5.5 M nonzeros), the six-sided normal ones 1 s each (full LPs
//! of 43.6 M nonzeros, which the full-LP build left unsolved), everything
//! else under 1 s. The full LP is kept for the wild games of at most
//! [`FULL_LP_MAX_WILD_BIDS`](gametab_solve::endgame::FULL_LP_MAX_WILD_BIDS) bids, where it is the cheaper of the two
//! (`cargo bench --bench endgame_methods` measures both on every game).

use crate::error::{chain, Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use gametab_games::dice::endgame::{Endgame, Player};

use gametab_solve::endgame::job::JobState;
use gametab_solve::endgame::{cache, solve, LpOptions, SolvedEndgame};

use super::{job, rows};
use crate::options::BuildOptions;
use crate::output::{write_atomically, TableWriter};

/// The file of the endgame cache: beside the Murder Plan cache.
pub fn cache_path(options: &BuildOptions) -> Option<PathBuf> {
    let path = options.cache.as_ref()?;
    Some(path.with_file_name("dice_endgame_games.bin"))
}

pub use gametab_answers::dice::solved::{default_games, fits, frontier_games, where_solved};

/// The directory of the per-game job files ([`super::job`]): beside the
/// cache file.
pub fn job_dir_of(options: &BuildOptions) -> Option<PathBuf> {
    let path = options.cache.as_ref()?;
    Some(path.with_file_name("dice_endgame"))
}

/// Counts one game on the endgame's progress line when dropped, whichever
/// way the game's work ends.
struct Counted<'a>(&'a indicatif::ProgressBar);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.inc(1);
    }
}

/// How one game's work ended.
enum Outcome {
    /// Solved and certified (`true`: taken from the cache or a job file).
    Solved(Box<SolvedEndgame>, bool),
    /// A game too large for the dense strategies, solved and certified by
    /// the sparse certificate (`true`: taken from a job file).
    Sparse(Box<rows::SparseGame>, bool),
    /// A frontier game its budget cut off (its line says where it stands).
    Partial,
}

/// A frontier game: solved (or resumed, or taken when solved) as its job
/// ([`job::solve_job`]) within the build's budget, or with `merge_only`
/// taken from its job file as it is ([`job::read_job`]), then restored with its
/// dense strategies when they fit ([`fits`]), by its support otherwise
/// (certified again by the sparse certificate).
fn frontier_game(
    game: Endgame,
    dir: Option<&Path>,
    budget: Option<Duration>,
    merge_only: bool,
) -> Result<(Outcome, String)> {
    let (method, options) = job::method_and_options(game);
    let (state, line, hit) = match dir {
        Some(dir) if merge_only => match job::read_job(game, dir, options) {
            (Some(state), line) => {
                let hit = matches!(state, JobState::Solved(_));
                (state, line, hit)
            }
            (None, line) => return Ok((Outcome::Partial, line)),
        },
        None if merge_only => {
            let line = format!("{game}: NOT solved yet: no cache to merge job files from");
            return Ok((Outcome::Partial, line));
        }
        Some(dir) => {
            let report = job::solve_job(game, dir, method, options, budget)?;
            (report.state, report.line, report.found)
        }
        None => {
            let began = Instant::now();
            let state = gametab_solve::endgame::job::run(game, method, options, budget, None)?;
            let line = job::describe(game, &state, Some(began.elapsed().as_secs_f64()));
            (state, line, false)
        }
    };
    match state {
        JobState::Solved(cached) if fits(game) => {
            Ok((Outcome::Solved(Box::new(cached.restore()?), hit), line))
        }
        JobState::Solved(cached) => {
            let sparse = rows::SparseGame::new(cached.restore_sparse()?, cached.strategies);
            Ok((Outcome::Sparse(Box::new(sparse), hit), line))
        }
        JobState::Partial(_) => Ok((Outcome::Partial, line)),
    }
}

/// Solve (or take from the cache) every game of `games`, write the three
/// tables and return the summary lines.
///
/// The default games ([`default_games`]) are cached together in
/// [`cache_path`]; every other game (`--endgame-frontier`) is a job of its
/// own ([`super::job`]) with its file in [`job_dir_of`]: solved within
/// `options.endgame_budget` (the double oracle stops after the round in
/// which it passes), resumed from its restricted game by the next build
/// when the budget cut it off, and left out of the tables until it is
/// solved. A game too large for the dense strategies ([`fits`]) is
/// certified again by the sparse certificate and written by its support
/// ([`rows::SparseGame`]). With `--endgame-frontier` the build also
/// reports every other solved job file it finds there (a game none of its
/// lists names), certified again by the sparse certificate.
///
/// # Errors
/// A game that HiGHS cannot solve or that does not certify, or a table that
/// cannot be written. A bad cache is only a warning.
pub fn build(
    games: &[Endgame],
    options: &BuildOptions,
    writer: &mut TableWriter,
) -> Result<Vec<String>> {
    let lp = LpOptions::default();
    let path = cache_path(options);
    let dir = job_dir_of(options);
    let print = job::fingerprint(lp);
    let defaults = default_games();
    let mut lines = Vec::new();
    let mut cached = BTreeMap::new();
    if let Some(path) = &path {
        match cache::load(path, &print) {
            Ok(found) => {
                for game in found.unwrap_or_default() {
                    cached.insert(game.key, game);
                }
            }
            Err(e) => lines.push(format!(
                "warning: ignoring the endgame cache {}: {}; solving every game afresh",
                path.display(),
                chain(&e)
            )),
        }
    }
    let start = Instant::now();
    let mut order: Vec<Endgame> = games.to_vec();
    // Largest first, so the long LPs start at once.
    order.sort_by_key(|g| std::cmp::Reverse((g.bid_count(), g.hands(Player::One).len())));
    let bar = options
        .progress
        .phase("endgame", order.len() as u64, "games");
    let results: Vec<(Result<Outcome>, Option<String>)> = order
        .par_iter()
        .map(|&game| {
            let _counted = Counted(&bar);
            if !defaults.contains(&game) {
                bar.set_message(format!("solving {game}"));
                return match frontier_game(
                    game,
                    dir.as_deref(),
                    options.endgame_budget,
                    options.endgame_merge_only,
                ) {
                    Ok((outcome, line)) => (Ok(outcome), Some(line)),
                    Err(e) => (Err(e), None),
                };
            }
            let key = (
                game.dice(Player::One),
                game.dice(Player::Two),
                game.sides(),
                game.wild(),
            );
            let mut warning = None;
            if let Some(entry) = cached.get(&key) {
                match entry.restore() {
                    Ok(solved) => return (Ok(Outcome::Solved(Box::new(solved), true)), None),
                    Err(e) => {
                        warning = Some(format!("warning: cached {game} refused: {}", chain(&e)))
                    }
                }
            }
            bar.set_message(format!("solving {game}"));
            let solved = solve(game, lp)
                .map(|s| Outcome::Solved(Box::new(s), false))
                .map_err(Error::from);
            (solved, warning)
        })
        .collect();
    let mut solved = Vec::new();
    let mut sparse = Vec::new();
    let mut from_cache = 0;
    let mut unsolved = 0;
    for (result, note) in results {
        let (game, hit) = match result? {
            Outcome::Solved(game, hit) => (*game, hit),
            Outcome::Sparse(game, hit) => {
                lines.extend(note);
                from_cache += usize::from(hit);
                sparse.push(*game);
                continue;
            }
            Outcome::Partial => {
                unsolved += 1;
                lines.extend(note);
                continue;
            }
        };
        lines.extend(note);
        from_cache += usize::from(hit);
        if !hit && defaults.contains(&game.game) {
            lines.push(format!(
                "{}: {} ({} LPs), LP {} x {} ({} nonzeros; full LP {} x {}, {} nonzeros), {:.3} s + {:.3} s, exploitability {:.1e}",
                game.game,
                game.method.name(),
                game.lps,
                game.size.rows,
                game.size.columns,
                game.size.nonzeros,
                game.full_size.rows,
                game.full_size.columns,
                game.full_size.nonzeros,
                game.built_in.as_secs_f64(),
                game.solved_in.as_secs_f64(),
                game.certificate.exploitability()
            ));
        }
        solved.push(game);
    }
    if options.endgame_frontier {
        if let Some(dir) = &dir {
            lines.extend(other_jobs(dir, games));
        }
    }
    crate::progress::Progress::done(
        &bar,
        format!(
            "{} games ({from_cache} from the cache, certified again)",
            solved.len() + sparse.len()
        ),
    );
    let cut = if unsolved > 0 {
        match options.endgame_merge_only {
            true => format!("; {unsolved} not solved yet, left as they are"),
            false => format!("; {unsolved} cut off by the budget, to resume"),
        }
    } else {
        String::new()
    };
    lines.push(format!(
        "endgame: {} games ({from_cache} from the cache, certified again){cut} in {:.3} s",
        solved.len() + sparse.len(),
        start.elapsed().as_secs_f64()
    ));
    if let Some(path) = &path {
        let default_solved: Vec<SolvedEndgame> = solved
            .iter()
            .filter(|s| defaults.contains(&s.game))
            .cloned()
            .collect();
        let saved = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(dir) => std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e)),
            None => Ok(()),
        }
        .and_then(|()| write_atomically(path, &cache::encode(&print, &default_solved)?));
        if let Err(e) = saved {
            lines.push(format!(
                "warning: cannot save the endgame cache {}: {}",
                path.display(),
                chain(&e)
            ));
        }
    }
    for game in &sparse {
        lines.push(format!(
            "{}: stored by its support ({} + {} rows; every other information set plays the default)",
            game.game(),
            game.entries(Player::One).len(),
            game.entries(Player::Two).len()
        ));
    }
    let tables = rows::tables(&solved, &sparse)?;
    for (what, table, starts) in [
        ("endgame values", tables.values, None),
        (
            "endgame strategies",
            tables.strategy.data,
            Some(tables.strategy.group_starts),
        ),
        ("endgame posteriors", tables.posteriors, None),
    ] {
        let written = match starts {
            Some(starts) => writer.write_grouped(&table, &starts)?,
            None => writer.write(&table)?,
        };
        lines.push(format!(
            "{what}: {} rows, {} bytes in {}",
            written.rows, written.bytes, written.file
        ));
    }
    Ok(lines)
}

/// The solved job files in `dir` of games not in `games`, each certified
/// again by the sparse certificate: a line each (they are not tabulated:
/// the build tabulates the games of its lists).
fn other_jobs(dir: &Path, games: &[Endgame]) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    let mut lines = Vec::new();
    for name in names {
        let Some(game) = gametab_solve::endgame::job::game_of_file_name(&name) else {
            continue;
        };
        if games.contains(&game) {
            continue;
        }
        let path = dir.join(&name);
        let line = match gametab_solve::endgame::job::load(&path) {
            Ok(Some(file)) => match &file.state {
                JobState::Solved(g) => match g.restore_sparse() {
                    Ok(s) => format!(
                        "{game}: solved job {}, certified again on its support: value {}, exploitability {:.1e}, {} + {} entries (not in the tables: the build does not list it)",
                        path.display(),
                        s.exact.map_or_else(|| format!("{:.16}", s.value), |f| f.to_string()),
                        s.certificate.exploitability(),
                        s.entries[0],
                        s.entries[1]
                    ),
                    Err(e) => format!("warning: job {} refused: {}", path.display(), chain(&e)),
                },
                JobState::Partial(_) => job::describe(game, &file.state, None),
            },
            Ok(None) => continue,
            Err(e) => format!("warning: job {} unreadable: {}", path.display(), chain(&e)),
        };
        lines.push(line);
    }
    lines
}
