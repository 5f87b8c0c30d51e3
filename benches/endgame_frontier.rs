//! How far the exact Liar's Dice endgame reaches on this machine: solves
//! the games beyond the default build (two dice each, three against one
//! and one against three, 4 to 6 sides, both rule sets) one at a time,
//! smallest first, by the double oracle, and reports for each its value,
//! the final restricted LP beside the full LP's size, the rounds, the time
//! and the process's peak memory, until a time budget is spent
//! (`ENDGAME_FRONTIER_SECONDS`, default 1200; a game that starts before
//! the budget ends is finished). One HiGHS thread, as in the build.
//!
//! A game whose strategies fit the dense layout the tables use
//! ([`fits`]) is solved as the build solves it: the double oracle, the
//! best-response fill and the independent certificate over every history.
//! A larger one (24 bids, or 20 bids with many hands) is solved by the
//! double oracle alone, whose bounds are best responses on the full game
//! computed by its pruned walk ([`solve_double_oracle`]); it could not be
//! tabulated.
//!
//! `cargo bench --bench endgame_frontier` (a plain program, not criterion:
//! each point is one solve of seconds to hours). `ENDGAME_FRONTIER` may
//! name the games, e.g. `2,2,6,normal;3,1,4,wild`.

use std::time::Instant;

use gametab::dice::endgame::build::fits;
use gametab::dice::endgame::oracle::solve_double_oracle;
use gametab::dice::endgame::{exact_value, lp, solve, Certificate, LpOptions, MAX_EXPLOITABILITY};
use gametab_games::dice::endgame::{Endgame, Player};

/// The nonzeros the full LP would have, roughly: histories times hand
/// pairs.
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

fn parse_game(text: &str) -> Option<Endgame> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [a, b, s, rules] = parts[..] else {
        return None;
    };
    Endgame::new(
        a.parse().ok()?,
        b.parse().ok()?,
        s.parse().ok()?,
        rules == "wild",
    )
    .ok()
}

/// The frontier of the issue: 2v2, 3v1 and 1v3 with 4 to 6 sides, normal
/// and wild.
fn frontier() -> Vec<Endgame> {
    let mut games = Vec::new();
    for (a, b) in [(2, 2), (3, 1), (1, 3)] {
        for sides in 4..=6 {
            for wild in [false, true] {
                games.extend(Endgame::new(a, b, sides, wild));
            }
        }
    }
    games
}

fn main() {
    let budget: f64 = std::env::var("ENDGAME_FRONTIER_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1200.0);
    let mut games: Vec<Endgame> = match std::env::var("ENDGAME_FRONTIER") {
        Ok(list) => list.split(';').filter_map(parse_game).collect(),
        Err(_) => frontier(),
    };
    games.sort_by_key(|&g| (estimated_size(g), g));
    let start = Instant::now();
    println!("game | bids | how | rounds | restricted LP rows x columns (nonzeros) | full LP rows x columns (nonzeros) | seconds | bounds | exploitability | value | peak MiB");
    for game in games {
        if start.elapsed().as_secs_f64() > budget {
            println!("{game}: not started, the {budget} s budget is spent");
            continue;
        }
        let began = Instant::now();
        let full = lp::full_size(game);
        let line = if fits(game) {
            solve(game, LpOptions::default()).map(|s| {
                (
                    "solved and certified",
                    s.lps,
                    s.size,
                    s.certificate,
                    s.exact,
                    s.value,
                )
            })
        } else {
            solve_double_oracle(game, LpOptions::default()).map(|o| {
                let bounds = Certificate {
                    upper: o.bounds[0],
                    lower: o.bounds[1],
                };
                (
                    "double oracle only (too large to tabulate)",
                    o.rounds,
                    o.size,
                    bounds,
                    exact_value(o.value, &bounds),
                    o.value,
                )
            })
        };
        match line {
            Ok((how, rounds, size, cert, exact, value)) => println!(
                "{game} | {} | {how} | {rounds} | {} x {} ({}) | {} x {} ({}) | {:.1} | [{:.15}, {:.15}] | {:.1e}{} | {} | {:.0}",
                game.bid_count(),
                size.rows,
                size.columns,
                size.nonzeros,
                full.rows,
                full.columns,
                full.nonzeros,
                began.elapsed().as_secs_f64(),
                cert.lower,
                cert.upper,
                cert.exploitability(),
                if cert.exploitability() <= MAX_EXPLOITABILITY { "" } else { " (NOT certified)" },
                exact.map_or_else(|| format!("{value:.12}"), |f| f.to_string()),
                peak_mib()
            ),
            Err(e) => println!("{game}: {e:#}"),
        }
    }
}
