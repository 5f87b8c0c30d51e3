//! How far the exact Liar's Dice endgame reaches on this machine: solves
//! the games beyond the default build (two dice each, three against one
//! and one against three, 4 to 6 sides, both rule sets) one at a time,
//! smallest first, by the double oracle, and reports for each its value,
//! the final restricted LP beside the full LP's size, the rounds, the time,
//! the peak memory and the machine's load, until a time budget is spent
//! (`ENDGAME_FRONTIER_SECONDS`, default 1200: no game starts after it).
//! One HiGHS thread, as in the build.
//!
//! `ENDGAME_FRONTIER_GAME_SECONDS` gives each game a budget of its own:
//! once it is spent, the double oracle stops after the round it is in (a
//! round is never cut short, so a game may overrun its budget by one
//! round) and the row says "NOT SOLVED in budget", with the state at that
//! point: the rounds, the last restricted LP's rows x columns (nonzeros),
//! the included sequences, and the bracket [lower, upper] on the game
//! value that the last round's two best responses on the full game give
//! (both are valid bounds whatever the restricted strategies are; the
//! tightest bounds of any round are printed beside them when they differ).
//! Unset, every game runs until it is solved.
//!
//! Each game is solved by the build's method for it
//! (`gametab_build::dice::endgame::job::method_and_options`, what
//! `gametab build --endgame-frontier` and `gametab dice endgame solve`
//! use), so that a row here is what the build would do.
//! `ENDGAME_FRONTIER_LP=simplex` (or `ipm`, `choose`) solves every round's
//! restricted LP by that HiGHS solver instead, the other options the
//! default's: `simplex` is the dual simplex from the last basis, `ipm` the
//! interior point method with crossover. Profiled on 2v2 with five sides,
//! wild (`perf`, 300 s, by the dual simplex, the build's method for it at
//! the time): HiGHS takes 99.9 % of the time, almost all of it in the simplex's basis
//! factor solves (ftran/btran 45 %, reindexing 13 %); the best responses
//! take 0.1 s and building the trees and LPs 0.3 s. The warm-started
//! simplex needs 5,000 to 12,000 iterations a round from 10,000 rows on:
//! 8 to 33 s per LP of 10,000 to 17,600 rows. The interior point method
//! solved LPs of 10,000 to 16,300 rows in 1.1 to 3.1 s, of 17,000 to
//! 22,500 rows in 9 to 21 s (load 5 to 8 on the 2 cores), and reached 40
//! rounds in 150 s where the simplex reached 35 in 300 s (a different
//! optimum of the same LP may be chosen, so the rounds differ from the
//! simplex's; every bound and the certificate hold either way). Nothing
//! outside HiGHS is worth speeding up at this size.
//!
//! A solved game whose strategies fit the dense layout the tables use
//! ([`fits`]) is then certified as the build certifies it: the
//! best-response fill and the independent certificate over every history
//! ("solved and certified"). A larger one (24 bids, or 20 bids with many
//! hands) is certified by the sparse certificate of its stored entries
//! (`gametab_solve::endgame::sparse`: both best responses walked over what
//! the stored strategies reach, independently of the oracle); it could not
//! be tabulated. A value is printed as a fraction only when the fraction
//! lies inside the bracket ([`value_text`]), else as a float.
//!
//! Each game runs in a process of its own (this program again, with
//! `ENDGAME_FRONTIER_CHILD` naming the game), so that its peak resident
//! memory (VmHWM) is its own and a game killed for its memory ends only
//! its row.
//!
//! `cargo bench --bench endgame_frontier` (a plain program, not criterion:
//! each point is one solve of seconds to hours). `ENDGAME_FRONTIER` may
//! name the games, e.g. `2,2,6,normal;3,1,4,wild`.
//!
//! The frontier table, measured game by game as jobs of the build's
//! method, is in `docs/liars-dice.md` (four dice: the frontier).

use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use gametab_build::dice::endgame::build::fits;
use gametab_build::dice::endgame::job::method_and_options;
use gametab_games::dice::endgame::{Endgame, Player};
use gametab_solve::endgame::oracle::{solve_double_oracle, OracleOutcome, OracleState};
use gametab_solve::endgame::{
    cache, certify_oracle, exact_value, lp, solve, sparse, Certificate, Fraction, LpOptions,
    LpSize, Method, BRACKET_ROUNDING, FRACTION_TOLERANCE, MAX_CLAIM_SPREAD, MAX_DENOMINATOR,
    MAX_EXPLOITABILITY,
};

#[path = "endgame_common/mod.rs"]
mod endgame_common;
use endgame_common::{game_text, parse_game, peak_mib};

/// The nonzeros the full LP would have, roughly: histories times hand
/// pairs.
fn estimated_size(game: Endgame) -> u64 {
    let pairs = game.hands(Player::One).len() * game.hands(Player::Two).len();
    game.history_count() as u64 * pairs as u64
}

/// The machine's load averages over 1, 5 and 15 minutes.
fn load() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
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

/// Seconds from the environment variable `name`, if set.
fn seconds(name: &str) -> Result<Option<f64>> {
    match std::env::var(name) {
        Ok(text) => {
            let s: f64 = text
                .trim()
                .parse()
                .with_context(|| format!("{name}={text}: not a number of seconds"))?;
            Ok(Some(s))
        }
        Err(_) => Ok(None),
    }
}

/// The build's method and LP options for `game` ([`method_and_options`]:
/// what `gametab build --endgame-frontier` and `gametab dice endgame
/// solve` use), or with HiGHS's `solver` from `ENDGAME_FRONTIER_LP`
/// instead (`simplex`: the dual simplex from the last basis; `ipm`: the
/// interior point method with crossover; `choose`: HiGHS's choice), the
/// other options the default's.
fn lp_options(game: Endgame) -> Result<(Method, LpOptions)> {
    let (method, options) = method_and_options(game);
    let solver = match std::env::var("ENDGAME_FRONTIER_LP").as_deref() {
        Err(_) => return Ok((method, options)),
        Ok("simplex") => "simplex",
        Ok("ipm") => "ipm",
        Ok("choose") => "choose",
        Ok(other) => anyhow::bail!("ENDGAME_FRONTIER_LP={other}: not simplex, ipm or choose"),
    };
    let options = LpOptions {
        method: solver,
        ..LpOptions::default()
    };
    Ok((method, options))
}

/// A solved game's value: the fraction the build would store
/// ([`exact_value`]: the simplest inside the bracket, to its rounding,
/// and simple enough for its width), else the float, with the simplest
/// fraction inside when it is too complex for the bracket, or the nearest
/// to the value and how far outside the bracket it lies.
fn value_text(value: f64, bounds: &Certificate) -> String {
    if let Some(f) = exact_value(bounds) {
        return f.to_string();
    }
    let (lower, upper) = (
        bounds.lower - BRACKET_ROUNDING,
        bounds.upper + BRACKET_ROUNDING,
    );
    if let Some(f) = Fraction::simplest_in(lower, upper, MAX_DENOMINATOR) {
        let q = f.denominator as f64;
        return format!(
            "{value:.16} (not {f}: q^2 w = {:.2} in the bracket, above {MAX_CLAIM_SPREAD})",
            q * q * (upper - lower)
        );
    }
    match Fraction::near(value, MAX_DENOMINATOR, FRACTION_TOLERANCE) {
        Some(f) => {
            let v = f.value();
            let outside = (bounds.lower - v).max(v - bounds.upper);
            format!("{value:.16} (not {f}: {outside:.1e} outside the bounds)")
        }
        None => format!("{value:.16}"),
    }
}

/// One row of the table.
struct Row {
    how: String,
    rounds: u32,
    size: LpSize,
    sequences: Option<usize>,
    bounds: Certificate,
    value: String,
    note: String,
}

/// The row of a game the budget stopped.
fn stopped_row(state: &OracleState, budget: f64) -> Row {
    let [upper, lower] = state.bounds;
    let [best_upper, best_lower] = state.best_bounds;
    let note = if best_upper < upper || best_lower > lower {
        format!(" (tightest of any round [{best_lower:.15}, {best_upper:.15}])")
    } else {
        String::new()
    };
    Row {
        how: format!("NOT SOLVED in budget ({budget} s)"),
        rounds: state.rounds,
        size: state.size,
        sequences: Some(state.sequences),
        bounds: Certificate { upper, lower },
        value: format!("restricted {:.12}", state.value),
        note: format!(
            "{note}; LP {:.1} s ({:.1} s in HiGHS), responses {:.1} s",
            state.lp_time.as_secs_f64(),
            state.highs_time.as_secs_f64(),
            state.response_time.as_secs_f64()
        ),
    }
}

/// Solve `game` within `budget` seconds (if any) and describe it.
fn solve_row(game: Endgame, budget: Option<f64>) -> Result<Row> {
    let (method, options) = lp_options(game)?;
    if method == Method::FullLp {
        // A small wild game: the build's full LP, never stopped.
        let s = solve(game, options)?;
        return Ok(Row {
            how: "solved and certified (full LP)".into(),
            rounds: s.lps,
            size: s.size,
            sequences: None,
            bounds: s.certificate,
            value: value_text(s.value, &s.certificate),
            note: String::new(),
        });
    }
    let deadline = budget.map(|b| Instant::now() + Duration::from_secs_f64(b));
    let outcome = solve_double_oracle(game, options, deadline)?;
    let found = match outcome {
        OracleOutcome::OutOfTime(state) => return Ok(stopped_row(&state, budget.unwrap_or(0.0))),
        OracleOutcome::Converged(found) => found,
    };
    let state = found.state;
    let times = format!(
        "; LP {:.1} s ({:.1} s in HiGHS), responses {:.1} s",
        state.lp_time.as_secs_f64(),
        state.highs_time.as_secs_f64(),
        state.response_time.as_secs_f64()
    );
    if fits(game) {
        let s = certify_oracle(game, found)?;
        return Ok(Row {
            how: "solved and certified".into(),
            rounds: s.lps,
            size: s.size,
            sequences: Some(state.sequences),
            bounds: s.certificate,
            value: value_text(s.value, &s.certificate),
            note: times,
        });
    }
    // Too large for the dense strategies: the sparse certificate of the
    // stored entries, independent of the oracle's own walk.
    let entries = found.entries.map(|list| {
        list.into_iter()
            .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
            .collect()
    });
    let bounds = sparse::certify(game, &entries)?.certificate;
    Ok(Row {
        how: "solved and certified on its support (too large to tabulate)".into(),
        rounds: state.rounds,
        size: state.size,
        sequences: Some(state.sequences),
        bounds,
        value: value_text(state.value, &bounds),
        note: times,
    })
}

/// Solve one game in this process and print its row.
fn child(game: Endgame) -> Result<()> {
    let budget = seconds("ENDGAME_FRONTIER_GAME_SECONDS")?;
    let began = Instant::now();
    let load_before = load();
    let full = lp::full_size(game);
    match solve_row(game, budget) {
        Ok(row) => println!(
            "{game} | {} | {} | {} | {} x {} ({}) | {} x {} ({}) | {} | {:.1} | [{:.15}, {:.15}]{} | {:.1e}{} | {} | {:.0} | {load_before} / {}",
            game.bid_count(),
            row.how,
            row.rounds,
            row.size.rows,
            row.size.columns,
            row.size.nonzeros,
            full.rows,
            full.columns,
            full.nonzeros,
            row.sequences.map_or_else(|| "-".into(), |s| s.to_string()),
            began.elapsed().as_secs_f64(),
            row.bounds.lower,
            row.bounds.upper,
            row.note,
            row.bounds.exploitability(),
            if row.bounds.exploitability() <= MAX_EXPLOITABILITY { "" } else { " (NOT certified)" },
            row.value,
            peak_mib(),
            load()
        ),
        Err(e) => println!("{game}: {e:#}"),
    }
    Ok(())
}

fn main() -> Result<()> {
    if let Ok(one) = std::env::var("ENDGAME_FRONTIER_CHILD") {
        let game = parse_game(&one).with_context(|| format!("not a game: {one}"))?;
        return child(game);
    }
    let budget = seconds("ENDGAME_FRONTIER_SECONDS")?.unwrap_or(1200.0);
    let game_budget = seconds("ENDGAME_FRONTIER_GAME_SECONDS")?;
    let mut games: Vec<Endgame> = match std::env::var("ENDGAME_FRONTIER") {
        Ok(list) => list.split(';').filter_map(parse_game).collect(),
        Err(_) => frontier(),
    };
    games.sort_by_key(|&g| (estimated_size(g), g));
    let start = Instant::now();
    println!(
        "budget: {budget} s in all (no game starts after it), {} per game; load {}",
        game_budget.map_or_else(|| "no limit".into(), |b| format!("{b} s")),
        load()
    );
    println!("game | bids | how | rounds | restricted LP rows x columns (nonzeros) | full LP rows x columns (nonzeros) | sequences | seconds | bounds [lower, upper] | exploitability or gap | value | peak MiB | load at start / end");
    let exe = std::env::current_exe().context("this program's path")?;
    for game in games {
        if start.elapsed().as_secs_f64() > budget {
            println!("{game}: not started, the {budget} s budget is spent");
            continue;
        }
        let status = Command::new(&exe)
            .env("ENDGAME_FRONTIER_CHILD", game_text(game))
            .status();
        if !status.as_ref().is_ok_and(|s| s.success()) {
            println!("{game}: the solve's process failed ({status:?})");
        }
    }
    println!(
        "all games in {:.0} s; load {}",
        start.elapsed().as_secs_f64(),
        load()
    );
    Ok(())
}
