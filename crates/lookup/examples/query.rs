//! Open a table directory and answer a few queries of every game.
//!
//! ```text
//! cargo run -p gametab-lookup --example query -- tables
//! ```
//!
//! Exits non-zero with the error chain when the tables are missing, damaged
//! or foreign.

use std::process::ExitCode;
use std::time::Instant;

use gametab_lookup::games::dice::endgame::Endgame;
use gametab_lookup::games::murder_plan::{Offset, State};
use gametab_lookup::Tables;

fn run(dir: &str) -> gametab_lookup::Result<()> {
    let started = Instant::now();
    let tables = Tables::open(dir)?;
    println!(
        "opened {dir} in {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    );

    let (x, y) = (Offset::new(0, 1), Offset::new(1, 0));
    let start = State::start(x.expect("valid offset"), y.expect("valid offset"));
    let mp = tables.murder_plan()?;
    println!("Murder Plan, brain at (0,1), killer at (1,0):");
    for days in [1, 4, 8] {
        println!(
            "  V_{days} = {:.6} (certificate gap {:.1e})",
            mp.value(days, start)?,
            mp.gap(days, start)?
        );
    }
    for (action, p) in mp.mastermind_strategy(8, start)? {
        println!("  sigma*: {:?} with probability {p:.4}", action.cards());
    }
    println!("  average win rate at D = 8: {:.4}", mp.win_rate(8, None)?);

    let started = Instant::now();
    tables.load_all()?;
    println!(
        "loaded Liar's Dice, Cluedo and Werewolf in {:.1} ms ({} Cluedo configurations, {} Werewolf rows)",
        started.elapsed().as_secs_f64() * 1e3,
        tables.cluedo()?.len(),
        tables.werewolf()?.len(),
    );

    // The exact Liar's Dice endgame: 2 dice against 1, five sides, after
    // the bids 1x5 and 2x3, player 1 holding 3 and 5.
    let endgame = tables.dice_endgame()?.game(Endgame::new(2, 1, 5, false)?)?;
    let point = endgame.at("15,23", Some(&[3, 5]))?;
    println!(
        "Liar's Dice endgame {}: value {} (exploitability {:.1e})",
        endgame.game, endgame.value_exact, endgame.exploitability
    );
    for a in point
        .actions
        .iter()
        .flatten()
        .filter(|a| a.probability > 0.0)
    {
        println!("  {} with probability {:.4}", a.action, a.probability);
    }
    for h in point
        .opponent_posterior
        .iter()
        .flatten()
        .filter(|h| h.probability > 0.0)
    {
        println!("  opponent holds {}: {:.4}", h.hand, h.probability);
    }
    Ok(())
}

fn main() -> ExitCode {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tables".to_string());
    match run(&dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                eprintln!("  caused by: {cause}");
                source = cause.source();
            }
            ExitCode::FAILURE
        }
    }
}
