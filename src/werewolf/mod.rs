//! Werewolf: the table builder for the early-game family and the
//! `gametab werewolf` command.
//!
//! The engine (evidence model, exact posterior, scoring rules, published
//! baseline) and the table schema live in `gametab_lookup::werewolf`; this
//! module solves every situation of
//! [`gametab_lookup::werewolf::EARLY_FAMILY`] in parallel and
//! writes the `werewolf_early` table, rows sorted by key so the file is the
//! same whatever the thread count.

pub mod cli;

use std::time::Instant;

use anyhow::{Context, Result};
use rayon::prelude::*;

use gametab_lookup::werewolf::{early_table_data, EarlyAnswer, EARLY_FAMILY};

use crate::output::TableWriter;
use crate::pipeline::BuildOptions;

/// Solve every early-game situation and write `werewolf_early.parquet`.
///
/// # Errors
/// A situation the engine refuses (a bug: the family is validated) or a
/// table that cannot be written.
pub fn build_tables(_options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let start = Instant::now();
    let situations = EARLY_FAMILY.situations();
    let answers = situations
        .par_iter()
        .map(|situation| {
            situation
                .solve()
                .with_context(|| format!("cannot solve early situation {situation:?}"))
        })
        .collect::<Result<Vec<EarlyAnswer>>>()?;
    let solved = start.elapsed();
    let data = early_table_data(&answers)?;
    let written = writer.write(&data)?;
    Ok(vec![format!(
        "{}: {} situations, {} rows, {} bytes (solved in {:.3} s)",
        written.file,
        answers.len(),
        written.rows,
        written.bytes,
        solved.as_secs_f64()
    )])
}
