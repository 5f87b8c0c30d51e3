//! How far the exact Liar's Dice endgame reaches on this machine: solves
//! the games beyond the default build one at a time, smallest LP first,
//! and reports for each its LP size, the time to build and to solve it,
//! the certificate, the exact value and the process's peak memory, until a
//! time budget is spent (`ENDGAME_FRONTIER_SECONDS`, default 1200; a game
//! that starts before the budget ends is finished). One HiGHS thread, as in
//! the build.
//!
//! `cargo bench --bench endgame_frontier` (a plain program, not criterion:
//! each point is one LP of seconds to hours).

use std::time::Instant;

use gametab::dice::endgame::build::frontier_games;
use gametab::dice::endgame::{solve, LpOptions};
use gametab_games::dice::endgame::{Endgame, Player};

/// The nonzeros the LP will have, roughly: histories times hand pairs.
fn estimated_size(game: Endgame) -> u64 {
    let pairs = game.hands(Player::One).len() * game.hands(Player::Two).len();
    game.history_count() as u64 * pairs as u64
}

/// The process's peak resident memory so far, in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let budget: f64 = std::env::var("ENDGAME_FRONTIER_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1200.0);
    let mut games = frontier_games();
    games.sort_by_key(|&g| (estimated_size(g), g));
    let start = Instant::now();
    println!("game | bids | LP rows x columns | nonzeros | build s | solve s | exploitability | value | peak MiB");
    for game in games {
        if start.elapsed().as_secs_f64() > budget {
            println!("{game}: not started, the {budget} s budget is spent");
            continue;
        }
        match solve(game, LpOptions::default()) {
            Ok(s) => println!(
                "{game} | {} | {} x {} | {} | {:.2} | {:.2} | {:.1e} | {} | {:.0}",
                game.bid_count(),
                s.size.rows,
                s.size.columns,
                s.size.nonzeros,
                s.built_in.as_secs_f64(),
                s.solved_in.as_secs_f64(),
                s.certificate.exploitability(),
                s.exact
                    .map_or_else(|| format!("{:.9}", s.value), |f| f.to_string()),
                peak_mib()
            ),
            Err(e) => println!("{game}: {e:#}"),
        }
    }
}
