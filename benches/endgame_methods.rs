//! The full sequence-form LP against the sequence-form double oracle, game
//! by game, on the endgames of the default build: for each game and method
//! the LP sizes (the full LP's, the final restricted LP's), the rounds, the
//! time and the process's peak memory, each solve in a process of its own
//! so that the peak (VmHWM) is that solve's alone. One HiGHS thread, as in
//! the build. The full LP is run on the games up to 2v1 with five sides
//! (the six-sided three-dice full LPs need hours and about 10 GB); the
//! double oracle on every game.
//!
//! `cargo bench --bench endgame_methods` (a plain program, not criterion:
//! each point is one solve of milliseconds to minutes). `ENDGAME_METHODS`
//! may name the games, e.g. `2,1,5,normal;1,2,6,wild`, and
//! `ENDGAME_METHODS_RUN` the methods, comma-separated (`full_lp`,
//! `double_oracle`, `double_oracle_cold`, `double_oracle_ipm`,
//! `double_oracle_ipm_nox`; default the first two, the full LP only up to
//! 2v1 with five sides). A double oracle's name followed by `_lookaheadN`
//! (`double_oracle_lookahead1`, `double_oracle_ipm_nox_lookahead2`) runs
//! it with `N` look-ahead steps a round (`LpOptions::lookahead`); one
//! ending `_pruned` (`double_oracle_ipm_nox_pruned`) prunes its restricted
//! game to the equilibrium's support whenever it doubles
//! (`LpOptions::prune`, from `oracle::PRUNE_FROM` sequences); one ending
//! `_largeN` (`double_oracle_ipm_nox_large20000`) treats a restricted LP
//! of `N` rows or more as large (`LpOptions::ipm_finish_rows`: finished
//! by the interior point method with crossover, with the copies of one
//! player completed and the pair of best strategies; 200,000 by default),
//! and one ending `_pairW` after it (`double_oracle_ipm_nox_large20000_pair1e-13`)
//! ends the run by that pair within `W` (`LpOptions::pair_width`).

use std::process::Command;
use std::time::Instant;

use gametab_answers::chain;
use gametab_build::dice::endgame::build::default_games;
use gametab_games::dice::endgame::Endgame;
use gametab_solve::endgame::cache::fits;
use gametab_solve::endgame::job::{self, JobState};
use gametab_solve::endgame::{solve_with, LpOptions, LpSize, Method};

#[path = "endgame_common/mod.rs"]
mod endgame_common;
use endgame_common::{game_text, parse_game, peak_mib};

/// Solve one game by one method in this process and print its line
/// (`double_oracle_cold`: the double oracle solving each round's LP afresh
/// instead of from the last basis; `double_oracle_ipm`: each round's LP by
/// HiGHS's interior point method with crossover; `double_oracle_ipm_nox`:
/// without crossover, finished by the simplex; `_lookaheadN` after any of
/// them: `N` look-ahead steps a round; `_pruned`: pruned; `_largeN`
/// then: restricted LPs of `N` rows or more large; `_pairW` last: the
/// pair width `W`).
fn child(game: Endgame, name: &str) {
    let (name_pair, pair) = match name.rsplit_once("_pair") {
        Some((base, width)) => (base, Some(width.parse::<f64>().expect("a width"))),
        None => (name, None),
    };
    let (name_rows, large) = match name_pair.rsplit_once("_large") {
        Some((base, rows)) => (base, Some(rows.parse::<usize>().expect("rows"))),
        None => (name_pair, None),
    };
    let (unpruned, prune) = match name_rows.strip_suffix("_pruned") {
        Some(base) => (base, Some(gametab_solve::endgame::oracle::PRUNE_FROM)),
        None => (name_rows, None),
    };
    let (base, lookahead) = match unpruned.split_once("_lookahead") {
        Some((base, steps)) => (base, steps.parse().expect("look-ahead steps")),
        None => (unpruned, 0),
    };
    let (method, mut options) = match base {
        "double_oracle_ipm" => (
            Method::DoubleOracle,
            LpOptions {
                method: "ipm",
                ..LpOptions::default()
            },
        ),
        "double_oracle_ipm_nox" => (
            Method::DoubleOracle,
            LpOptions {
                method: "ipm",
                crossover: false,
                ..LpOptions::default()
            },
        ),
        "double_oracle_cold" => (
            Method::DoubleOracle,
            LpOptions {
                warm_start: false,
                ..LpOptions::default()
            },
        ),
        other => (
            Method::from_name(other).expect("a method"),
            LpOptions::default(),
        ),
    };
    options.lookahead = lookahead;
    options.prune = prune;
    if let Some(rows) = large {
        options.ipm_finish_rows = rows;
    }
    if let Some(width) = pair {
        options.pair_width = width;
    }
    let start = Instant::now();
    if !fits(game) {
        // Too large for the dense strategies: solved as a job and certified
        // by the sparse certificate alone.
        match job::run(game, method, options, None, None) {
            Ok(JobState::Solved(g)) => match g.restore_sparse() {
                Ok(s) => print_row(
                    game,
                    name,
                    (s.lps, s.size, s.full_size),
                    start.elapsed().as_secs_f64(),
                    format!("{:.1e} (sparse)", s.certificate.exploitability()),
                    s.exact
                        .map_or_else(|| format!("{:.16}", s.value), |f| f.to_string()),
                ),
                Err(e) => println!("{game} | {name} | failed: {}", chain(&e)),
            },
            Ok(JobState::Partial(_)) => println!("{game} | {name} | not solved"),
            Err(e) => println!("{game} | {name} | failed: {}", chain(&e)),
        }
        return;
    }
    match solve_with(game, options, method) {
        Ok(s) => print_row(
            game,
            name,
            (s.lps, s.size, s.full_size),
            start.elapsed().as_secs_f64(),
            format!("{:.1e}", s.certificate.exploitability()),
            s.exact
                .map_or_else(|| format!("{:.12}", s.value), |f| f.to_string()),
        ),
        Err(e) => println!("{game} | {name} | failed: {}", chain(&e)),
    }
}

fn main() {
    if let Ok(one) = std::env::var("ENDGAME_METHODS_CHILD") {
        let (game, method) = one.split_once(';').expect("game;method");
        let game = parse_game(game).expect("a game");
        child(game, method);
        return;
    }
    let games: Vec<Endgame> = match std::env::var("ENDGAME_METHODS") {
        Ok(list) => list.split(';').filter_map(parse_game).collect(),
        Err(_) => default_games(),
    };
    println!("game | method | LPs | LP rows x columns | nonzeros | full LP rows x columns | full nonzeros | seconds | exploitability | value | peak MiB");
    let exe = std::env::current_exe().expect("this program");
    for game in games {
        let full_lp = game.total_dice() <= 2 || game.sides() <= 5;
        let methods: Vec<String> = match std::env::var("ENDGAME_METHODS_RUN") {
            Ok(list) => list.split(',').map(|m| m.trim().to_owned()).collect(),
            Err(_) if full_lp => vec![
                Method::FullLp.name().into(),
                Method::DoubleOracle.name().into(),
            ],
            Err(_) => vec![Method::DoubleOracle.name().into()],
        };
        for method in methods {
            let status = Command::new(&exe)
                .env(
                    "ENDGAME_METHODS_CHILD",
                    format!("{};{method}", game_text(game)),
                )
                .status();
            if !status.is_ok_and(|s| s.success()) {
                println!("{game} | {method} | the solve's process failed");
            }
        }
    }
}

/// One row of the report: the game, the method, its LPs solved and the
/// last and full LP sizes, seconds, the certificate, the value, peak MiB.
fn print_row(
    game: Endgame,
    name: &str,
    (lps, size, full): (u32, LpSize, LpSize),
    seconds: f64,
    certificate: String,
    value: String,
) {
    println!(
        "{game} | {name} | {lps} | {} x {} | {} | {} x {} | {} | {seconds:.2} | {certificate} | {value} | {:.0}",
        size.rows,
        size.columns,
        size.nonzeros,
        full.rows,
        full.columns,
        full.nonzeros,
        peak_mib()
    );
}
