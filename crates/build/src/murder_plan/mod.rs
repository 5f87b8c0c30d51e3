//! Murder Plan: the batch solver and its tables.
//!
//! [`turns`] precomputes per-inventory action lists and turn outcomes,
//! [`successors`] where every canonical state's outcomes lead, [`layers`]
//! enumerates the reachable layers from the 16 starts, [`solver`]
//! runs the backward induction with matrix-game dedupe by [`digest`], and
//! [`tables`] turns the solution into Parquet tables; [`cache`] keeps solved
//! games on disk between builds, keyed by the same digest. [`cli`] is
//! `gametab murder-plan` (solve one state); `gametab lookup` (answer from
//! built tables) is `gametab_answers::murder_plan::lookup_cli`. The rules themselves live in
//! `gametab_games::murder_plan::model`.

pub mod cache;
pub mod cli;
pub mod digest;
pub mod layers;
pub mod solver;
pub mod successors;
pub mod tables;
pub mod turns;

use crate::error::{chain, Context, Error, Result};
use std::time::Instant;

use crate::game::{command_group_of, command_of, parse, GameBuild, GameCommand, Plot};
use crate::options::BuildOptions;
use crate::output::TableWriter;
use gametab_lookup::io::{TableData, GENERATOR_VERSION};
use gametab_lookup::murder_plan::schema::MAX_DAYS;
use gametab_lookup::murder_plan::{bundle, MurderPlanTables};
use gametab_lookup::registry::MURDER_PLAN_BUNDLE;
use gametab_lookup::GameId;
use layers::Layers;

/// Murder Plan in the registry: the solver's tables, their certificates
/// re-checked by `verify`, the win-rate charts, `gametab murder-plan` and
/// `gametab lookup`.
pub const GAME: GameBuild = GameBuild {
    id: GameId::MurderPlan,
    build: build_tables,
    verify: crate::verify::murder_plan::check_files,
    plots: &[
        Plot {
            file: "murder_plan_win_rates.svg",
            draw: crate::plots::murder_plan_win_rates,
        },
        Plot {
            file: "murder_plan_win_rate_spread.svg",
            draw: crate::plots::murder_plan_win_rate_spread,
        },
    ],
    commands: &[
        GameCommand {
            name: "murder-plan",
            command: || {
                command_group_of::<cli::MurderPlanCommand>(
                    "murder-plan",
                    "Murder Plan (Tragedy Looper): solve one state afresh, with no tables",
                    "Example:\n  gametab murder-plan solve --days 8 --brain 0,1 --killer 1,0",
                )
            },
            run: |m, out| cli::run(parse(m)?, &mut { out }),
        },
        GameCommand {
            name: "lookup",
            command: || {
                command_of::<gametab_answers::murder_plan::query::LookupArgs>(
                    "lookup",
                    "Murder Plan from the built tables: a state's value, strategies, moves, win rates (JSON)",
                    "Examples:\n  gametab lookup state --days 8 --brain 0,1 --killer 1,0\n  \
                     gametab lookup --tables /srv/tables value --days 3 --brain 0,0 --killer 0,0\n\n\
                     --brain and --killer are the brain's and the killer's positions relative to the\n\
                     key person, as a,b with a, b in {0, 1} (docs/murder-plan.md).",
                )
            },
            run: |m, out| {
                Ok(gametab_answers::murder_plan::query::run(parse(m)?, &mut {
                    out
                })?)
            },
        },
    ],
};

/// Write the browser bundle of the five tables just written: loaded by the
/// lookup crate's own Parquet loader from the same rows, encoded, and
/// proved to answer as they do ([`bundle::encode`]).
///
/// # Errors
/// Tables the loader refuses, a bundle that would answer differently, or
/// a file that cannot be written.
pub fn write_bundle(tables: Vec<TableData>, writer: &mut TableWriter) -> Result<bundle::Encoded> {
    let tables: [TableData; 5] = tables
        .try_into()
        .map_err(|_| Error::check("the Murder Plan writes five tables"))?;
    let loaded = MurderPlanTables::from_tables(tables)
        .context("loading the Murder Plan tables for the browser bundle")?;
    let encoded = bundle::encode(&loaded, GENERATOR_VERSION)
        .context("writing the Murder Plan browser bundle")?;
    writer.write_derived(&MURDER_PLAN_BUNDLE, &encoded.bytes, encoded.positions)?;
    Ok(encoded)
}

/// Solve D = 1..=8, write every Murder Plan table and the browser bundle,
/// and return summary lines.
pub fn build_tables(options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let started = Instant::now();
    let bar = options.progress.phase("murder plan", 0, "games");
    let on_day = |d: u8, games: usize| {
        bar.set_message(format!("of days_left {d}"));
        bar.set_position(0);
        bar.set_length(games as u64);
    };
    let on_game = || bar.inc(1);
    let fingerprint = solver::cache_fingerprint(options.lp);
    let mut cache = cache::GameCache::default();
    let mut warnings = Vec::new();
    if let Some(path) = &options.cache {
        let (loaded, warning) = cache::GameCache::load(path, &fingerprint);
        cache = loaded;
        warnings.extend(warning);
    }
    let cached_before = cache.len();
    // Saved after every day, so an interrupted build resumes; a failed save
    // costs only the reuse, never the build.
    let mut saving = options.cache.clone();
    let mut save = |cache: &cache::GameCache| {
        let Some(path) = &saving else { return };
        let saved = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(dir) => std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e)),
            None => Ok(()),
        }
        .and_then(|()| cache.save(path, &fingerprint));
        if let Err(e) = saved {
            warnings.push(format!(
                "cannot save the game cache {}: {}",
                path.display(),
                chain(&e)
            ));
            saving = None;
        }
    };
    let use_cache = options.cache.is_some().then_some(&mut cache);
    let solution = solver::solve_with_cache(
        MAX_DAYS, options.lp, use_cache, &mut save, &on_day, &on_game,
    )
    .context("solving the Murder Plan matrix games")?;
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    crate::progress::Progress::done(&bar, format!("days 1 to {MAX_DAYS} solved"));
    let solved_at = Instant::now();

    let layers = Layers::enumerate(&solution.successors, MAX_DAYS);
    let layers_at = Instant::now();
    let tables = tables::all(&solution, &layers)?;
    let mut rows: Vec<String> = writer
        .write_all(&tables)?
        .iter()
        .map(|written| format!("{} {}", written.file, written.rows))
        .collect();
    let written_at = Instant::now();
    let browser = write_bundle(tables, writer)?;
    rows.push(format!("{} {}", bundle::FILE, browser.positions));
    let bundle_at = Instant::now();

    let stats = &solution.stats;
    let average_cells = if stats.lps > 0 {
        stats.reduced_cells as f64 / stats.lps as f64
    } else {
        0.0
    };
    // Games the double oracle settled (not from the cache, not solved whole).
    let solved = stats.distinct_games - stats.cached - stats.oracle_fallbacks;
    let mut lines = vec![
        format!(
            "reachable layers (non-winning states, D = {MAX_DAYS}): {:?}",
            &layers.sizes()[..usize::from(MAX_DAYS)]
        ),
        format!(
            "canonical games per days_left 1..={MAX_DAYS}: {:?}",
            &stats.games_per_day[1..]
        ),
        format!(
            "payoff matrices {}, distinct games {}, mixed equilibria {} (avg final sub-game {:.1} cells), pure saddle points {}",
            stats.matrices,
            stats.distinct_games,
            stats.lps,
            average_cells,
            stats.distinct_games - stats.lps
        ),
        format!(
            "double oracle: {} rounds ({:.2} per game solved), {} sub-game LPs ({} grown from the game's previous LP), {} closed forms; LP time {:.1} us per LP, {:.1} us per distinct game solved (time inside the LP back end, summed over worker threads)",
            stats.oracle.rounds,
            f64::from(stats.oracle.rounds) / solved.max(1) as f64,
            stats.oracle.lps,
            stats.oracle.grown,
            stats.oracle.closed_forms,
            stats.oracle.lp_time.as_secs_f64() * 1e6 / f64::from(stats.oracle.lps.max(1)),
            stats.oracle.lp_time.as_secs_f64() * 1e6 / solved.max(1) as f64,
        ),
        format!(
            "LP back end {}, double-oracle games solved whole {}, fallbacks to HiGHS {}, {:.1} us wall per distinct game",
            stats.backend.name(),
            stats.oracle_fallbacks,
            stats.fallbacks,
            if stats.distinct_games > 0 {
                stats.solve_time.as_secs_f64() * 1e6 / stats.distinct_games as f64
            } else {
                0.0
            }
        ),
        format!("max certificate gap {:.3e}", stats.max_gap),
        format!(
            "browser bundle: {} positions, {} + {} distinct supports, {} bytes ({} before gzip), decoded and compared with the tables",
            browser.positions,
            browser.mastermind_supports,
            browser.protagonist_supports,
            browser.bytes.len(),
            browser.content_bytes
        ),
        format!(
            "time: successors + brain choices + digests {:.3} s, double oracle (LPs, certificates) {:.3} s, solve total {:.3} s, layers {:.3} s, tables {:.3} s, browser bundle {:.3} s",
            stats.digest_time.as_secs_f64(),
            stats.solve_time.as_secs_f64(),
            (solved_at - started).as_secs_f64(),
            (layers_at - solved_at).as_secs_f64(),
            (written_at - layers_at).as_secs_f64(),
            (bundle_at - written_at).as_secs_f64()
        ),
        format!("rows: {}", rows.join(", ")),
    ];
    lines.push(match &options.cache {
        Some(path) => format!(
            "game cache {}: {cached_before} games loaded, {} reused after re-certification, {} games saved",
            path.display(),
            stats.cached,
            cache.len()
        ),
        None => "game cache off".to_string(),
    });
    lines.extend(warnings.iter().map(|w| format!("warning: {w}")));
    Ok(lines)
}
