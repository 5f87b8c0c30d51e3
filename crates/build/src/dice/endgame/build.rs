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

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;

use gametab_games::dice::endgame::{Endgame, Player};

use gametab_solve::endgame::{cache, solve, LpOptions, SolvedEndgame};

use super::rows;
use crate::options::BuildOptions;
use crate::output::{write_atomically, TableWriter};

/// The file of the endgame cache: beside the Murder Plan cache.
pub fn cache_path(options: &BuildOptions) -> Option<PathBuf> {
    let path = options.cache.as_ref()?;
    Some(path.with_file_name("dice_endgame_games.bin"))
}

pub use gametab_answers::dice::solved::{default_games, fits, frontier_games, where_solved};

/// What produced a cached game: a change here invalidates the cache (a
/// game solved by another method or tolerance would be a different,
/// equally certified equilibrium, and the tables would depend on the
/// cache).
fn fingerprint(options: LpOptions) -> String {
    format!(
        "gametab {} dice endgame; HiGHS {}, tolerances 1e-10; full LP for wild games up to {} bids, else the double oracle to {:e}, warm start {}",
        env!("CARGO_PKG_VERSION"),
        options.method,
        gametab_solve::endgame::FULL_LP_MAX_WILD_BIDS,
        gametab_solve::endgame::oracle::IMPROVEMENT,
        options.warm_start
    )
}

/// Counts one game on the endgame's progress line when dropped, whichever
/// way the game's work ends.
struct Counted<'a>(&'a indicatif::ProgressBar);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.inc(1);
    }
}

/// Solve (or take from the cache) every game of `games`, write the three
/// tables and return the summary lines.
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
    let print = fingerprint(lp);
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
                "warning: ignoring the endgame cache {}: {e:#}; solving every game afresh",
                path.display()
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
    let results: Vec<(Result<SolvedEndgame>, bool, Option<String>)> = order
        .par_iter()
        .map(|&game| {
            let _counted = Counted(&bar);
            let key = (
                game.dice(Player::One),
                game.dice(Player::Two),
                game.sides(),
                game.wild(),
            );
            let mut warning = None;
            if let Some(entry) = cached.get(&key) {
                match entry.restore() {
                    Ok(solved) => return (Ok(solved), true, None),
                    Err(e) => warning = Some(format!("warning: cached {game} refused: {e:#}")),
                }
            }
            bar.set_message(format!("solving {game}"));
            let solved = solve(game, lp);
            (solved, false, warning)
        })
        .collect();
    let mut solved = Vec::new();
    let mut from_cache = 0;
    for (result, hit, warning) in results {
        lines.extend(warning);
        let game = result?;
        from_cache += usize::from(hit);
        if !hit {
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
    crate::progress::Progress::done(
        &bar,
        format!(
            "{} games ({from_cache} from the cache, certified again)",
            solved.len()
        ),
    );
    lines.push(format!(
        "endgame: {} games ({from_cache} from the cache, certified again) in {:.3} s",
        solved.len(),
        start.elapsed().as_secs_f64()
    ));
    if let Some(path) = &path {
        let saved = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(dir) => std::fs::create_dir_all(dir).map_err(anyhow::Error::from),
            None => Ok(()),
        }
        .and_then(|()| write_atomically(path, &cache::encode(&print, &solved)?));
        if let Err(e) = saved {
            lines.push(format!(
                "warning: cannot save the endgame cache {}: {e:#}",
                path.display()
            ));
        }
    }
    let tables = rows::tables(&solved)?;
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
