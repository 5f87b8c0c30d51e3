//! Liar's Dice tables: bid probabilities, bidder posteriors and the
//! published rule's decisions, computed by the engine of
//! `gametab_games::dice` over a [`DiceGrid`] and written as Parquet.
//! The `gametab dice` subcommand is `gametab_answers::dice`'s.

pub mod endgame;
pub mod rows;

use std::time::Instant;

use anyhow::Result;

use gametab_games::dice::DiceGrid;
use gametab_lookup::io::TableData;

use crate::game::{command_of, parse, GameBuild, GameCommand, Plot};
use crate::options::BuildOptions;
use crate::output::TableWriter;
use gametab_lookup::GameId;

/// Computes one table's rows over a grid.
type TableRows = fn(&DiceGrid) -> Result<TableData>;

/// Liar's Dice in the registry: the three tables over the default grid,
/// recomputed by sampling in `verify`, the raw-vs-corrected chart and
/// `gametab dice`.
pub const GAME: GameBuild = GameBuild {
    id: GameId::LiarsDice,
    build: build_tables,
    verify: crate::verify::dice::check,
    plots: &[
        Plot {
            file: "dice_raw_vs_corrected.svg",
            draw: crate::plots::dice_raw_vs_corrected,
        },
        Plot {
            file: "dice_endgame_posteriors.svg",
            draw: crate::plots::dice_endgame_posteriors,
        },
    ],
    commands: &[GameCommand {
        name: "dice",
        command: || {
            command_of::<gametab_answers::dice::cli::DiceArgs>(
                "dice",
                "Liar's Dice: odds of a standing bid, the bidder's posterior and advice",
            )
            .subcommand(command_of::<gametab_answers::dice::endgame::EndgameArgs>(
                "endgame",
                "The exact equilibrium of a two-player endgame: value, my moves, the opponent's hand",
            ))
            .subcommand_negates_reqs(true)
            .args_conflicts_with_subcommands(true)
        },
        run: |m, out| match m.subcommand() {
            Some(("endgame", sub)) => gametab_answers::dice::endgame::run(parse(sub)?, out),
            _ => gametab_answers::dice::cli::run(parse(m)?, &mut { out }),
        },
    }],
};

/// Build the three tables on the default grid ([`DiceGrid::default`]:
/// `N <= 40`, `m, n_b` in 1..=5, reliabilities {0, 0.25, 0.5, 1, 2, 4},
/// decisions for 2 to 6 players with 5 dice each).
///
/// # Errors
/// A table that cannot be encoded or written.
pub fn build_tables(options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let mut games = endgame::build::default_games();
    if options.endgame_frontier {
        games.extend(endgame::build::frontier_games());
    }
    // The bid tables and the endgame are independent: built side by side,
    // the endgame's tables listed after the bid tables as before.
    let mut endgame_writer = writer.fork();
    let (bids, endgame) = rayon::join(
        || build_tables_on(&DiceGrid::default(), writer),
        || endgame::build::build(&games, options, &mut endgame_writer),
    );
    let mut lines = bids?;
    writer.absorb(endgame_writer);
    lines.extend(endgame?);
    Ok(lines)
}

/// Build the three tables on `grid` and return one summary line per table.
///
/// # Errors
/// An invalid grid, or a table that cannot be encoded or written.
pub fn build_tables_on(grid: &DiceGrid, writer: &mut TableWriter) -> Result<Vec<String>> {
    grid.validate()?;
    let builders: [(&str, TableRows); 3] = [
        ("bid probabilities", rows::bid_probabilities),
        ("bidder posteriors", rows::bidder_posteriors),
        ("decisions", rows::decisions),
    ];
    let mut lines = Vec::new();
    for (what, build) in builders {
        let start = Instant::now();
        let data = build(grid)?;
        let computed = start.elapsed();
        let written = writer.write(&data)?;
        lines.push(format!(
            "{what}: {} rows, {} bytes in {} (computed in {:.3} s, written in {:.3} s)",
            written.rows,
            written.bytes,
            written.file,
            computed.as_secs_f64(),
            (start.elapsed() - computed).as_secs_f64()
        ));
    }
    Ok(lines)
}
