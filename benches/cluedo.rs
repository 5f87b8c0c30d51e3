//! Benchmark of the exact Cluedo engine on the workload: the log of
//! a simulated mid-game after 20 suggestions, for N = 3..6, both models
//! (target: under 50 ms each).

use criterion::{criterion_group, criterion_main, Criterion};
use gametab::cluedo::simulate::simulated_log;
use gametab_lookup::cluedo::{analyse, Model};

fn mid_game(c: &mut Criterion) {
    for players in 3..=6 {
        let log = simulated_log(players, 0, 20, 2024 + players as u64);
        let knowledge = log.knowledge().expect("simulated logs are valid");
        for model in Model::ALL {
            c.bench_function(
                &format!("cluedo 20 suggestions N={players} {}", model.name()),
                |b| b.iter(|| analyse(&knowledge, model).expect("simulated logs are consistent")),
            );
        }
    }
}

criterion_group!(benches, mid_game);
criterion_main!(benches);
