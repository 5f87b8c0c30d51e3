//! The full-game policy comparison (not a criterion bench: a bounded
//! report). Seeded standard deals, only seat 1 (the first) suggests, answered by the
//! rules with fair answers (`gametab_build::cluedo::simulate`: a responder's
//! choice is a hash of seed, turn, responder and the cards named, so
//! policies asking the same thing meet the same answer), until the
//! envelope is certain. Per player count and policy: the mean number of
//! suggestions with a 95% interval and P(certain within k); then every
//! policy paired against the first one on the same deals (mean difference
//! with a 95% interval, and how often each was faster).
//!
//! `cargo bench --bench cluedo_policies`. Environment:
//! - `CLUEDO_GAMES`: deals per player count (default 200);
//! - `CLUEDO_PLAYERS`: player counts (default "3,4,5,6");
//! - `CLUEDO_POLICIES`: policies, the first is the reference: objective
//!   names, `+deadK` for one whose first K suggestions are the best naming
//!   a dead card, `@MODEL` for one that reads past answers with another
//!   model than `CLUEDO_MODEL` (e.g. `certainty@equal-deals`, to pair a
//!   mismatched model against the matched one on the same deals) (default
//!   "certainty,most-likely,information-gain,live-bits,certainty+dead1");
//! - `CLUEDO_MODEL`: how past answers are read, `uniform-responder`
//!   (default) or `equal-deals`;
//! - `CLUEDO_RESPONDERS`: how responders choose, `uniform` (default) or
//!   `habit`.
//!
//! Games run on rayon's threads (`RAYON_NUM_THREADS`), results in seed
//! order: the report does not depend on the thread count.

use gametab_build::cluedo::simulate::{solitaire, Policy, Responders, Table};
use gametab_games::cluedo::Model;
use rayon::prelude::*;

/// Give up on a game after this many suggestions.
const LIMIT: usize = 40;
/// P(certain within k) is reported for these k.
const WITHIN: [usize; 6] = [4, 5, 6, 7, 8, 10];

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.into())
}

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
    let games: u64 = env("CLUEDO_GAMES", "200").parse().expect("CLUEDO_GAMES");
    let players: Vec<usize> = env("CLUEDO_PLAYERS", "3,4,5,6")
        .split(',')
        .map(|s| s.trim().parse().expect("CLUEDO_PLAYERS"))
        .collect();
    let model = Model::parse(&env("CLUEDO_MODEL", "uniform-responder")).expect("CLUEDO_MODEL");
    let policies: Vec<Policy> = env(
        "CLUEDO_POLICIES",
        "certainty,most-likely,information-gain,live-bits,certainty+dead1",
    )
    .split(',')
    .map(|s| {
        let (name, read_with) = match s.trim().split_once('@') {
            Some((name, other)) => (name, Model::parse(other).expect("CLUEDO_POLICIES model")),
            None => (s.trim(), model),
        };
        Policy::parse(name, read_with).expect("CLUEDO_POLICIES")
    })
    .collect();
    // A policy's label: its name, and the model when it is not the run's.
    let label = |policy: &Policy| {
        if policy.model == model {
            policy.name()
        } else {
            format!("{}@{}", policy.name(), policy.model.name())
        }
    };
    let responders = match env("CLUEDO_RESPONDERS", "uniform").as_str() {
        "uniform" => Responders::Uniform,
        "habit" => Responders::Habit,
        other => panic!("CLUEDO_RESPONDERS {other:?}: uniform or habit"),
    };
    println!(
        "solitaire: {games} seeded deals per player count, answers read with {}, responders {}",
        model.name(),
        responders.name()
    );
    for &n in &players {
        let started = std::time::Instant::now();
        // results[seed][policy]: suggestions until certain (LIMIT + 1 when
        // unsolved).
        let results: Vec<Vec<usize>> = (0..games)
            .into_par_iter()
            .map(|seed| {
                let table = Table::new(n, seed, responders);
                policies
                    .iter()
                    .map(|&policy| {
                        solitaire(&table, policy, LIMIT)
                            .expect("consistent")
                            .unwrap_or(LIMIT + 1)
                    })
                    .collect()
            })
            .collect();
        println!("\n{n} players ({:.0} s):", started.elapsed().as_secs_f64());
        print!("  {:<18} {:>15}", "policy", "mean (95%)");
        for k in WITHIN {
            print!(" {:>6}", format!("<={k}"));
        }
        println!("  unsolved");
        for (p, policy) in policies.iter().enumerate() {
            let xs: Vec<f64> = results.iter().map(|r| r[p] as f64).collect();
            let (mean, half) = interval(&xs);
            print!("  {:<18} {:>7.3} ± {:<5.3}", label(policy), mean, half);
            for k in WITHIN {
                let within = results.iter().filter(|r| r[p] <= k).count();
                print!(" {:>6.3}", within as f64 / results.len() as f64);
            }
            let unsolved = results.iter().filter(|r| r[p] > LIMIT).count();
            println!("  {unsolved}");
        }
        for (p, policy) in policies.iter().enumerate().skip(1) {
            let diff: Vec<f64> = results.iter().map(|r| r[p] as f64 - r[0] as f64).collect();
            let (mean, half) = interval(&diff);
            let slower = results.iter().filter(|r| r[p] > r[0]).count();
            let faster = results.iter().filter(|r| r[p] < r[0]).count();
            println!(
                "  {} - {}: {mean:+.3} ± {half:.3} suggestions (95%); slower in {slower}, faster in {faster} of {}",
                label(policy),
                label(&policies[0]),
                results.len()
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
