//! Benchmarks of the Cluedo engine and table builder: the exact engine on
//! the workload (the log of a simulated mid-game after 20
//! suggestions, for N = 3..6, both models; target: under 50 ms each), the
//! advice on the same logs (every suggestion scored and ranked by the
//! default objective, both models: 324 under 1 s, one room's 36 under
//! 150 ms), and
//! the few-candidate table's work: enumerating the family, counting a
//! sample of it with the batch solver and one configuration at a time, and
//! building the whole table's rows.

use criterion::{criterion_group, criterion_main, Criterion};
use gametab_build::cluedo::simulate::simulated_log;
use gametab_build::cluedo::{family, table};
use gametab_games::cluedo::{advise, analyse, FewCandidatesSolver, Model, Seat};

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

/// The advice on the same mid-game logs: all 324 suggestions (target
/// < 1 s) and one room's 36 (target < 150 ms), under both models (the
/// answers to the suggestion scored are always the uniform responder's;
/// the model says how the log's past answers are read).
fn advice(c: &mut Criterion) {
    let mut group = c.benchmark_group("cluedo advice");
    group.sample_size(10);
    for players in 3..=6 {
        let log = simulated_log(players, 0, 20, 2024 + players as u64);
        let knowledge = log.knowledge().expect("simulated logs are valid");
        let kitchen = knowledge.rules().deck().parse_card("Kitchen").ok();
        for model in Model::ALL {
            group.bench_function(format!("all 324, N={players}, {}", model.name()), |b| {
                b.iter(|| advise(&knowledge, model, Seat(0), None).expect("consistent"))
            });
            group.bench_function(
                format!("one room's 36, N={players}, {}", model.name()),
                |b| b.iter(|| advise(&knowledge, model, Seat(0), kitchen).expect("consistent")),
            );
        }
    }
    group.finish();
}

fn few_candidates(c: &mut Criterion) {
    let family = family();
    // Every 50th configuration: about 4,500, all shapes of the family.
    let sample: Vec<_> = family.iter().step_by(50).cloned().collect();
    let mut group = c.benchmark_group("cluedo few-candidate table");
    group.sample_size(10);
    group.bench_function("count every 50th configuration, batch solver", |b| {
        let mut solver = FewCandidatesSolver::new();
        b.iter(|| sample.iter().filter(|c| solver.solve(c).is_ok()).count())
    });
    group.bench_function("count every 50th configuration, one by one", |b| {
        b.iter(|| sample.iter().filter(|c| c.solve().is_ok()).count())
    });
    group.bench_function("enumerate the family", |b| {
        b.iter(gametab_build::cluedo::family)
    });
    group.bench_function("rows of the whole family", |b| b.iter(|| table(&family)));
    group.finish();
}

criterion_group!(benches, mid_game, advice, few_candidates);
criterion_main!(benches);
