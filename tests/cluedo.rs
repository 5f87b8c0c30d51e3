//! Integration tests of the Cluedo table builder and CLI glue: the
//! tabulated family against a brute-force enumeration, rows equal to a fresh
//! exact count, deterministic bytes across thread counts, and simulated logs
//! that the engine accepts.

use bytes::Bytes;
use gametab::cluedo::{family, simulate::simulated_log, table};
use gametab_lookup::cluedo::schema::{MAX_ACTIVE_OPPONENTS, MAX_UNKNOWN_WITH_THREE_ACTIVE};
use gametab_lookup::cluedo::{
    analyse, FewCandidates, FewCandidatesTable, Model, Opponents, Source,
};
use gametab_lookup::io::write_parquet;

/// The family the slow way: every triple of sorted holder lists over every
/// sorted vector of unknown cards, kept when `canonical()` leaves it as it
/// is, sorted by the table's text key (strings).
fn brute_force_family() -> Vec<FewCandidates> {
    let mut found = Vec::new();
    for active in 0..=MAX_ACTIVE_OPPONENTS {
        let masks = 1u8 << active;
        let mut lists: Vec<Vec<Opponents>> = (1..=3)
            .flat_map(|len| {
                (0..u32::from(masks).pow(len)).filter_map(move |code| {
                    let list: Vec<u8> = (0..len)
                        .map(|i| (code / u32::from(masks).pow(i) % u32::from(masks)) as u8)
                        .collect();
                    list.windows(2)
                        .all(|w| w[0] <= w[1])
                        .then(|| list.into_iter().map(Opponents).collect())
                })
            })
            .collect();
        // The canonical order of categories: length, then holder sets.
        lists.sort_by_key(|l| (l.len(), l.clone()));
        let unknown_vectors = (0..7u32.pow(active as u32)).filter_map(|code| {
            let u: Vec<u8> = (0..active)
                .map(|i| (code / 7u32.pow(i as u32) % 7) as u8 + 1)
                .filter(|&u| u <= 6)
                .collect();
            let sorted = u.len() == active && u.windows(2).all(|w| w[0] >= w[1]);
            let total: usize = u.iter().map(|&x| usize::from(x)).sum();
            let small = active < MAX_ACTIVE_OPPONENTS || total <= MAX_UNKNOWN_WITH_THREE_ACTIVE;
            (sorted && small).then_some(u)
        });
        for unknown in unknown_vectors {
            let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
            // Canonical categories are sorted, so sorted triples suffice.
            let n = lists.len();
            for a in 0..n {
                for b in a..n {
                    for c in b..n {
                        let holders = [a, b, c].map(|i| lists[i].clone());
                        let candidates: usize = holders.iter().map(Vec::len).sum();
                        let Some(other) = (slots + 3).checked_sub(candidates) else {
                            continue;
                        };
                        let config =
                            FewCandidates::new(holders, unknown.clone(), other as u8).unwrap();
                        if config.canonical().0 == config {
                            found.push(config);
                        }
                    }
                }
            }
        }
    }
    found.sort_by_cached_key(|c| (c.unknown_text(), c.holders_text()));
    found
}

#[test]
fn family_is_every_canonical_configuration_in_key_order() {
    let family = family();
    assert!(family.len() > 200_000, "{}", family.len());
    assert!(family == brute_force_family());
}

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
