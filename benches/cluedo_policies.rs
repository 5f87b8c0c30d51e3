//! Cluedo advice in play (not a criterion bench: a bounded report):
//! seeded games in which only I suggest, answered by the rules, played
//! until the envelope is certain, once with the exact information-gain
//! advice and once with the most-likely-triple rule, on the same deals.
//! Prints, per player count, the mean and distribution of suggestions
//! needed and how often each rule was faster.
//!
//! `cargo bench --bench cluedo_policies` (`CLUEDO_GAMES` games per player
//! count, default 200; `CLUEDO_PLAYERS`, default "3,4").

use gametab::cluedo::simulate::{suggestions_to_solve, Policy};

/// Suggestions each policy needed in one game (`None`: unsolved).
type Game = (Option<usize>, Option<usize>);

/// Which policy's count of a [`Game`].
type Side = fn(&Game) -> Option<usize>;

/// Give up on a game after this many suggestions.
const LIMIT: usize = 40;

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filter.is_empty()
        && !filter
            .iter()
            .any(|f| "cluedo_policies".contains(f.as_str()))
    {
        return;
    }
    let games: u64 = std::env::var("CLUEDO_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let players: Vec<usize> = std::env::var("CLUEDO_PLAYERS")
        .unwrap_or_else(|_| "3,4".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    for &n in &players {
        let started = std::time::Instant::now();
        let mut results = Vec::new();
        for seed in 0..games {
            let gain =
                suggestions_to_solve(n, seed, Policy::InformationGain, LIMIT).expect("consistent");
            let likely =
                suggestions_to_solve(n, seed, Policy::MostLikelyTriple, LIMIT).expect("consistent");
            results.push((gain, likely));
        }
        let mean = |pick: Side| {
            let solved: Vec<usize> = results.iter().filter_map(pick).collect();
            let failed = results.len() - solved.len();
            (
                solved.iter().sum::<usize>() as f64 / solved.len().max(1) as f64,
                failed,
            )
        };
        let (gain_mean, gain_failed) = mean(|r| r.0);
        let (likely_mean, likely_failed) = mean(|r| r.1);
        let cost = |r: Option<usize>| r.unwrap_or(LIMIT + 1);
        let faster = results.iter().filter(|r| cost(r.0) < cost(r.1)).count();
        let slower = results.iter().filter(|r| cost(r.0) > cost(r.1)).count();
        let histogram = |pick: Side| {
            let mut counts = std::collections::BTreeMap::new();
            for r in &results {
                *counts
                    .entry(pick(r).map_or("unsolved".to_string(), |k| format!("{k:02}")))
                    .or_insert(0) += 1;
            }
            counts
        };
        println!(
            "{n} players, {games} seeded games ({:.1} s):",
            started.elapsed().as_secs_f64()
        );
        println!(
            "  information gain:   {gain_mean:.2} suggestions on average, {gain_failed} unsolved after {LIMIT}"
        );
        println!(
            "  most likely triple: {likely_mean:.2} suggestions on average, {likely_failed} unsolved after {LIMIT}"
        );
        println!(
            "  gain faster in {faster} games, slower in {slower}, equal in {}",
            results.len() - faster - slower
        );
        println!("  suggestions needed (gain):   {:?}", histogram(|r| r.0));
        println!("  suggestions needed (likely): {:?}", histogram(|r| r.1));
    }
}
