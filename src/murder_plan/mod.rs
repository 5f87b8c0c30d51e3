//! Murder Plan: the batch solver and its tables.
//!
//! [`turns`] precomputes per-inventory action lists and turn outcomes,
//! [`layers`] enumerates the reachable layers from the 16 starts, [`solver`]
//! runs the backward induction with matrix-game dedupe, and [`tables`] turns
//! the solution into Parquet tables; [`cache`] keeps solved games on disk
//! between builds. The rules themselves live in
//! `gametab_lookup::murder_plan::model`.

pub mod cache;
pub mod cli;
pub mod layers;
pub mod solver;
pub mod tables;
pub mod turns;

use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::TableWriter;
use crate::pipeline::BuildOptions;
use gametab_lookup::murder_plan::schema::MAX_DAYS;
use layers::Layers;

/// Solve D = 1..=8, write every Murder Plan table, and return summary lines.
pub fn build_tables(options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let started = Instant::now();
    let bar = if options.progress {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "murder plan {msg:>14} [{bar:40}] {pos}/{len} games {elapsed}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let on_day = |d: u8, games: usize| {
        bar.set_message(format!("days_left {d}"));
        bar.set_position(0);
        bar.set_length(games as u64);
    };
    let on_game = || bar.inc(1);
    let solution = solver::solve(MAX_DAYS, options.lp, &on_day, &on_game)
        .context("solving the Murder Plan matrix games")?;
    bar.finish_and_clear();
    let solved_at = Instant::now();

    let layers = Layers::enumerate(&solution.turns, MAX_DAYS);
    let layers_at = Instant::now();
    let rows: Vec<String> = writer
        .write_all(&tables::all(&solution, &layers))?
        .iter()
        .map(|written| format!("{} {}", written.file, written.rows))
        .collect();
    let written_at = Instant::now();

    let stats = &solution.stats;
    let average_cells = if stats.lps > 0 {
        stats.reduced_cells as f64 / stats.lps as f64
    } else {
        0.0
    };
    Ok(vec![
        format!(
            "reachable layers (non-winning states, D = {MAX_DAYS}): {:?}",
            &layers.sizes()[..usize::from(MAX_DAYS)]
        ),
        format!(
            "canonical games per days_left 1..={MAX_DAYS}: {:?}",
            &stats.games_per_day[1..]
        ),
        format!(
            "payoff matrices {}, distinct games {}, LPs solved {} (avg reduced size {:.1} cells), saddle points {}",
            stats.matrices,
            stats.distinct_games,
            stats.lps,
            average_cells,
            stats.distinct_games - stats.lps
        ),
        format!(
            "LP back end {}, double-oracle games solved whole {}, fallbacks to HiGHS {}, avg {:.1} us per distinct game solved",
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
            "time: brain choices + digests {:.3} s, reduce + LP + certify {:.3} s, solve total {:.3} s, layers {:.3} s, tables {:.3} s",
            stats.digest_time.as_secs_f64(),
            stats.solve_time.as_secs_f64(),
            (solved_at - started).as_secs_f64(),
            (layers_at - solved_at).as_secs_f64(),
            (written_at - layers_at).as_secs_f64()
        ),
        format!("rows: {}", rows.join(", ")),
    ])
}
