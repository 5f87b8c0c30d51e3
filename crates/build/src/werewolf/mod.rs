//! Werewolf: the table builder for the early-game family (the
//! `gametab werewolf` command is `gametab_answers::werewolf`'s).
//!
//! The engine (evidence model, exact posterior, scoring rules, published
//! baseline) lives in `gametab_games::werewolf`, the table schema in
//! `gametab_lookup::werewolf`; this
//! module solves every situation of
//! [`gametab_games::werewolf::EARLY_FAMILY`] in parallel and
//! writes the `werewolf_early` table, rows sorted by key so the file is the
//! same whatever the thread count.

pub mod rows;

use crate::error::{Context, Result};
use std::time::Instant;

use rayon::prelude::*;

use gametab_games::werewolf::{EarlyAnswer, EARLY_FAMILY};

use crate::game::{command_of, parse, GameBuild, GameCommand};
use crate::options::BuildOptions;
use crate::output::TableWriter;
use gametab_lookup::GameId;

/// Werewolf in the registry: the early-game table, re-solved by sampling
/// in `verify`, and `gametab werewolf` (no chart yet).
pub const GAME: GameBuild = GameBuild {
    id: GameId::Werewolf,
    build: build_tables,
    verify: crate::verify::werewolf::check,
    plots: &[],
    commands: &[GameCommand {
        name: "werewolf",
        command: || {
            command_of::<gametab_answers::werewolf::posterior::WerewolfArgs>(
                "werewolf",
                "Werewolf: exact P(wolf) and P(role) per player, and the vote ranking, from a game log",
                "Examples:\n  gametab werewolf --log scripts/examples/werewolf-demo.json\n  \
                 gametab werewolf --log scripts/examples/werewolf-roles-12.json --json\n\n\
                 The log's format and its events: docs/werewolf.md.",
            )
        },
        run: |m, out| {
            Ok(gametab_answers::werewolf::posterior::run(
                &parse(m)?,
                &mut { out },
            )?)
        },
    }],
};

/// Solve every early-game situation and write `werewolf_early.parquet`.
///
/// # Errors
/// A situation the engine refuses (a bug: the family is validated) or a
/// table that cannot be written.
pub fn build_tables(options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let bar = options.progress.phase("werewolf", 0, "");
    bar.set_message("solving the early-game situations");
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
    let data = rows::early_table_data(&answers)?;
    let written = writer.write(&data)?;
    crate::progress::Progress::done(&bar, format!("{} situations solved", answers.len()));
    Ok(vec![format!(
        "{}: {} situations, {} rows, {} bytes (solved in {:.3} s)",
        written.file,
        answers.len(),
        written.rows,
        written.bytes,
        solved.as_secs_f64()
    )])
}
