//! Integration tests of the Cluedo table builder and CLI glue: the
//! tabulated family, rows equal to a fresh exact count, deterministic bytes
//! across thread counts, and simulated logs that the engine accepts.

use bytes::Bytes;
use gametab::cluedo::{family, simulate::simulated_log, table};
use gametab_lookup::cluedo::{analyse, FewCandidatesTable, Model, Source};
use gametab_lookup::io::write_parquet;

#[test]
fn few_candidate_table_is_exact_and_deterministic() {
    let family = family();
    // Every configuration with at most two active opponents is there: the
    // two-opponent (three-player) family alone has thousands.
    assert!(family.iter().filter(|c| c.active_opponents() == 2).count() > 10_000);
    assert!(family.iter().any(|c| c.active_opponents() == 3));
    let data = table(&family);
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let again = single.install(|| table(&family));
    let bytes = write_parquet(&data).unwrap();
    assert_eq!(bytes, write_parquet(&again).unwrap());
    let lookup = FewCandidatesTable::from_bytes(Bytes::from(bytes)).unwrap();
    // Every 97th configuration: the table's answer is a fresh exact count.
    for config in family.iter().step_by(97) {
        match config.solve() {
            Ok(fresh) => {
                let (stored, source) = lookup.answer(config).unwrap();
                assert_eq!(source, Source::Table);
                assert_eq!(stored, fresh, "{config}");
            }
            Err(_) => assert!(lookup.answer(config).is_err()),
        }
    }
}

#[test]
fn simulated_mid_game_logs_are_consistent() {
    for players in 3..=6 {
        for seed in 0..3 {
            let log = simulated_log(players, (seed % players as u64) as u8, 20, seed);
            let knowledge = log.knowledge().unwrap();
            for model in Model::ALL {
                let notebook = analyse(&knowledge, model).unwrap();
                assert!(notebook.deals() > 0);
            }
        }
    }
}
