//! Liar's Dice tables: bid probabilities, bidder posteriors and the
//! published rule's decisions, computed by the engine of
//! `gametab_games::dice` over a [`DiceGrid`] and written as Parquet.
//! The `gametab dice` subcommand is `gametab_answers::dice`'s.

pub mod endgame;
pub mod rows;

use crate::error::Result;
use std::time::Instant;

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
            command_of::<gametab_answers::dice::bid::DiceArgs>(
                "dice",
                "Liar's Dice: odds of a standing bid, the bidder's posterior and advice",
                "Example (4 players, the bid is five fives, I hold 1 5 5 2 3):\n  \
                 gametab dice --players 4 --bid 5x5 --mine 1,5,5,2,3",
            )
            .subcommand(
                command_of::<gametab_answers::dice::endgame::EndgameArgs>(
                    "endgame",
                    "The exact equilibrium of a two-player endgame: value, my moves, the opponent's hand",
                    "Example (I hold 2 dice, showing 3 and 5; the opponent 1; bids so far 1x5 then 1x6):\n  \
                     gametab dice endgame --dice 2,1 --hand 3,5 --history 1x5,1x6",
                )
                .subcommand(command_of::<endgame::job::SolveArgs>(
                    "solve",
                    "Solve one endgame into its job file in the cache (resuming a game a budget cut off); `gametab build` merges the job files",
                    "Examples (one line per game, for any batch engine):\n  \
                     gametab dice endgame solve --dice 2,2 --sides 5 --wild --budget 10m\n  \
                     gametab dice endgame solve --dice 3,1 --sides 6 --cache /shared/cache",
                ))
                .subcommand(command_of::<endgame::status::StatusArgs>(
                    "status",
                    "Where every job file in the cache stands (solved games certified again); solves nothing",
                    "Examples:\n  \
                     gametab dice endgame status\n  \
                     gametab dice endgame status --cache /shared/cache",
                ))
                .subcommand(command_of::<endgame::gather::GatherArgs>(
                    "gather",
                    "Copy job files from elsewhere into the cache, keeping for each game the one furthest along",
                    "Examples (after jobs on other machines; the repository's own job files):\n  \
                     gametab dice endgame gather /mnt/node1/.gametab-cache /mnt/node2/.gametab-cache\n  \
                     gametab dice endgame gather data/dice_endgame --cache /shared/cache",
                ))
                .subcommand_negates_reqs(true)
                .args_conflicts_with_subcommands(true),
            )
            .subcommand_negates_reqs(true)
            .args_conflicts_with_subcommands(true)
        },
        run: |m, out| match m.subcommand() {
            Some(("endgame", sub)) => match sub.subcommand() {
                Some(("solve", job)) => endgame::job::run(parse(job)?, out),
                Some(("status", jobs)) => endgame::status::run(parse(jobs)?, out),
                Some(("gather", jobs)) => endgame::gather::run(parse(jobs)?, out),
                _ => Ok(gametab_answers::dice::endgame::run(parse(sub)?, out)?),
            },
            _ => Ok(gametab_answers::dice::bid::run(parse(m)?, &mut { out })?),
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
    let bar = options.progress.phase("liar's dice", 3, "tables");
    let (bids, endgame) = rayon::join(
        || {
            let lines = build_tables_on_with(&DiceGrid::default(), writer, &|| bar.inc(1));
            crate::progress::Progress::done(&bar, "bid probabilities, posteriors, decisions");
            lines
        },
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
    build_tables_on_with(grid, writer, &|| ())
}

/// [`build_tables_on`], calling `on_table` after each table.
fn build_tables_on_with(
    grid: &DiceGrid,
    writer: &mut TableWriter,
    on_table: &(dyn Fn() + Sync),
) -> Result<Vec<String>> {
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
        on_table();
    }
    Ok(lines)
}
