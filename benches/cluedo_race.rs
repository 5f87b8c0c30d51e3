//! The race (not a criterion bench: a bounded report). Seeded standard
//! deals; every player suggests in turn; one advised player (its seat
//! rotates with the seed) against opponents who suggest the most likely
//! triple and accuse when certain (`gametab_build::cluedo::simulate::race`, fair
//! hashed answers). Per player count: the advised player's win rate with a
//! 95% interval against the fair share 1/N, for each advice policy, paired
//! against the most-likely rule in the same seat of the same deals; the
//! opponents' chance of becoming certain at their k-th turn; and the
//! accusation rules "accuse when P(most likely) >= t after my suggestion"
//! against waiting for certainty. The races of one deal share a
//! [`RaceMemo`]: they replay the same turns until their choices differ.
//!
//! `cargo bench --bench cluedo_race`. Environment: `CLUEDO_GAMES` (races
//! per player count, default 200), `CLUEDO_PLAYERS` (default "3,4,5,6"),
//! `CLUEDO_POLICIES` (advice objectives, default
//! "certainty,most-likely"), `CLUEDO_THRESHOLDS` (default
//! "0.5,0.67,0.8"), `CLUEDO_MODEL` (default `uniform-responder`).

use gametab_answers::cluedo::race::HAZARD_TURNS;
use gametab_build::cluedo::simulate::{
    race_with, AccuseRule, Policy, RaceMemo, RaceResult, Responders, Table,
};
use gametab_games::cluedo::{Model, Objective, Seat};
use rayon::prelude::*;

/// Turn limit of a race (never reached in practice: someone is certain
/// long before).
const LIMIT: usize = 400;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.into())
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filter.is_empty() && !filter.iter().any(|f| "cluedo_race".contains(f.as_str())) {
        return;
    }
    let games: u64 = env("CLUEDO_GAMES", "200").parse().expect("CLUEDO_GAMES");
    let players: Vec<usize> = env("CLUEDO_PLAYERS", "3,4,5,6")
        .split(',')
        .map(|s| s.trim().parse().expect("CLUEDO_PLAYERS"))
        .collect();
    let objectives: Vec<Objective> = env("CLUEDO_POLICIES", "certainty,most-likely")
        .split(',')
        .map(|s| Objective::parse(s.trim()).expect("CLUEDO_POLICIES"))
        .collect();
    let thresholds: Vec<f64> = env("CLUEDO_THRESHOLDS", "0.5,0.67,0.8")
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().expect("CLUEDO_THRESHOLDS"))
        .collect();
    let model = Model::parse(&env("CLUEDO_MODEL", "uniform-responder")).expect("CLUEDO_MODEL");
    println!(
        "race: {games} seeded deals per player count, the advised seat rotating; answers read \
         with {}, responders uniform",
        model.name()
    );
    for &n in &players {
        let started = std::time::Instant::now();
        // Per seed: one race per objective (waiting for certainty), then
        // one per threshold with the first objective.
        let runs: Vec<(Vec<RaceResult>, Vec<RaceResult>)> = (0..games)
            .into_par_iter()
            .map(|seed| {
                let table = Table::new(n, seed, Responders::Uniform);
                let advised = Seat((seed % n as u64) as u8);
                let mut memo = RaceMemo::new();
                let mut play = |objective, rule| {
                    let policy = Policy::new(objective, model);
                    race_with(&table, advised, policy, rule, LIMIT, &mut memo).expect("consistent")
                };
                let by_policy = objectives
                    .iter()
                    .map(|&o| play(o, AccuseRule::WhenCertain))
                    .collect();
                let by_rule = thresholds
                    .iter()
                    .map(|&t| play(objectives[0], AccuseRule::AtLeast(t)))
                    .collect();
                (by_policy, by_rule)
            })
            .collect();
        let advised = |seed: usize| Seat((seed % n) as u8);
        let won =
            |seed: usize, r: &RaceResult| f64::from(u8::from(r.winner == Some(advised(seed))));
        println!(
            "\n{n} players ({:.0} s), fair share 1/{n} = {:.3}:",
            started.elapsed().as_secs_f64(),
            1.0 / n as f64
        );
        let reference: Vec<f64> = runs
            .iter()
            .enumerate()
            .map(|(s, r)| won(s, &r.0[0]))
            .collect();
        for (p, objective) in objectives.iter().enumerate() {
            let wins: Vec<f64> = runs
                .iter()
                .enumerate()
                .map(|(s, r)| won(s, &r.0[p]))
                .collect();
            let (mean, half) = interval(&wins);
            print!(
                "  advised by {:<16} wins {mean:.3} ± {half:.3}",
                objective.name()
            );
            if p > 0 {
                let diff: Vec<f64> = wins.iter().zip(&reference).map(|(a, b)| a - b).collect();
                let (d, h) = interval(&diff);
                print!(
                    "   (paired, minus {}: {d:+.3} ± {h:.3})",
                    objectives[0].name()
                );
            }
            println!();
        }
        // The opponents' hazard: of the opponents who reached their k-th
        // turn, the share that accused (rightly) at it; printed as the row
        // of `gametab_answers::cluedo::race::OPPONENT_HAZARD` for this N (entry j:
        // an opponent who has made j suggestions, certain at turn j + 1;
        // the last entry pools every later turn).
        let rows = HAZARD_TURNS;
        let mut at_risk = vec![0usize; rows + 1];
        let mut finished = vec![0usize; rows + 1];
        for (seed, r) in runs.iter().enumerate() {
            let r = &r.0[0];
            for (seat, &t) in r.turns_of.iter().enumerate() {
                if seat == advised(seed).index() {
                    continue;
                }
                for turn in 1..=t {
                    at_risk[turn.min(rows)] += 1;
                }
                if r.winner == Some(Seat(seat as u8)) {
                    finished[t.min(rows)] += 1;
                }
            }
        }
        // A turn fewer than 50 opponents reached carries the last hazard
        // measured on more.
        let mut last = 0.0;
        let hazard: Vec<String> = (1..=rows)
            .map(|turn| {
                if at_risk[turn] >= 50 {
                    last = finished[turn] as f64 / at_risk[turn] as f64;
                }
                format!("{last:.3}")
            })
            .collect();
        println!(
            "  opponent hazard, N={n} (opponents reaching turn 1..{rows}+: {:?}): [{}],",
            &at_risk[1..],
            hazard.join(", ")
        );
        for (t, &threshold) in thresholds.iter().enumerate() {
            let wins: Vec<f64> = runs
                .iter()
                .enumerate()
                .map(|(s, r)| won(s, &r.1[t]))
                .collect();
            let gambles = runs.iter().filter(|r| r.1[t].gambled).count();
            let (mean, half) = interval(&wins);
            let diff: Vec<f64> = wins.iter().zip(&reference).map(|(a, b)| a - b).collect();
            let (d, h) = interval(&diff);
            println!(
                "  accuse at P >= {threshold:.2}: wins {mean:.3} ± {half:.3} (paired, minus waiting: \
                 {d:+.3} ± {h:.3}); accused uncertain in {gambles} races"
            );
        }
    }
}

/// The mean and the half-width of its 95% normal interval.
fn interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}
