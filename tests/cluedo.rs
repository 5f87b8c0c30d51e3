//! Integration tests of the Cluedo table builder and CLI glue: the
//! tabulated family against a brute-force enumeration, rows equal to a fresh
//! exact count, deterministic bytes across thread counts, simulated logs
//! that the engine accepts, races that end the same with a shared memo as
//! alone, and a write-then-read round trip of a small few-candidate table
//! answering queries (from the table and, outside it, from the engine).

use std::collections::BTreeMap;

use bytes::Bytes;
use gametab_build::cluedo::simulate::{
    race, race_with, simulated_log, AccuseRule, Policy, RaceMemo, Responders, Table,
};
use gametab_build::cluedo::{family, table};
use gametab_build::parquet_write::write_parquet;
use gametab_games::cluedo::{analyse, FewCandidates, Model, Objective, Opponents, Seat};
use gametab_lookup::cluedo::schema::{
    FEW_CANDIDATES, MAX_ACTIVE_OPPONENTS, MAX_UNKNOWN_WITH_THREE_ACTIVE,
};
use gametab_lookup::cluedo::{FewCandidatesTable, Source};
use gametab_lookup::io::{read_parquet, Column, TableData};

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
    let data = table(&family).unwrap();
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let again = single.install(|| table(&family)).unwrap();
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

#[test]
fn races_sharing_a_memo_end_as_races_alone() {
    // The bench's five races per deal share one memo; each must end as it
    // does alone (same winner, turns, gamble and turns per seat).
    let rules = [
        (Objective::Certainty, AccuseRule::WhenCertain),
        (Objective::MostLikely, AccuseRule::WhenCertain),
        (Objective::Certainty, AccuseRule::AtLeast(0.5)),
        (Objective::Certainty, AccuseRule::AtLeast(0.8)),
    ];
    for (players, seed) in [(3, 1u64), (4, 2)] {
        let table = Table::new(players, seed, Responders::Uniform);
        let advised = Seat((seed % players as u64) as u8);
        let mut memo = RaceMemo::new();
        for (objective, rule) in rules {
            let policy = Policy::new(objective, Model::UniformResponder);
            let shared = race_with(&table, advised, policy, rule, 400, &mut memo).unwrap();
            let alone = race(&table, advised, policy, rule, 400).unwrap();
            assert_eq!(shared, alone, "{players} players, {objective:?}, {rule:?}");
            assert!(shared.turns < 400);
        }
    }
}

/// A small table: every canonical configuration with one opponent holding
/// unknown cards.
fn small_table() -> (Vec<FewCandidates>, TableData) {
    let holder_lists: Vec<Vec<Opponents>> = (1..=3)
        .flat_map(|len| {
            (0..(1 << len)).map(move |bits: u8| {
                (0..len)
                    .map(|i| Opponents(bits >> i & 1))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut family = Vec::new();
    for u in 1..=6u8 {
        for a in &holder_lists {
            for b in &holder_lists {
                for c in &holder_lists {
                    let k = a.len() + b.len() + c.len();
                    let Some(other) = (usize::from(u) + 3).checked_sub(k) else {
                        continue;
                    };
                    let config =
                        FewCandidates::new([a.clone(), b.clone(), c.clone()], vec![u], other as u8)
                            .unwrap();
                    let canonical = config.canonical().0;
                    if canonical == config
                        && canonical.solve().is_ok()
                        && !family.contains(&canonical)
                    {
                        family.push(canonical);
                    }
                }
            }
        }
    }
    family.sort_by_key(|c| (c.unknown_text(), c.holders_text()));
    let (mut un, mut ho, mut ca, mut cn, mut ac, mut ot, mut de, mut en, mut pe, mut ph) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for config in &family {
        let answer = config.solve().unwrap();
        for (c, list) in answer.candidates.iter().enumerate() {
            for (i, a) in list.iter().enumerate() {
                un.push(config.unknown_text());
                ho.push(config.holders_text());
                ca.push(c as i32);
                cn.push(i as i32);
                ac.push(config.active_opponents() as i32);
                ot.push(i32::from(config.other_cards));
                de.push(answer.deals as i64);
                en.push(a.envelope_deals as i64);
                pe.push(a.p_envelope);
                ph.push(a.p_heuristic);
            }
        }
    }
    let columns = [
        ("unknown_cards", Column::Utf8(un.into())),
        ("holders", Column::Utf8(ho.into())),
        ("category", Column::Int32(ca)),
        ("candidate", Column::Int32(cn)),
        ("active_opponents", Column::Int32(ac)),
        ("other_cards", Column::Int32(ot)),
        ("deals", Column::Int64(de)),
        ("envelope_deals", Column::Int64(en)),
        ("p_envelope", Column::Float64(pe)),
        ("p_heuristic", Column::Float64(ph)),
    ];
    let data = TableData::from_named(FEW_CANDIDATES, columns, BTreeMap::new()).unwrap();
    (family, data)
}

#[test]
fn table_round_trip_answers_like_the_engine() {
    let (family, data) = small_table();
    assert!(family.len() > 50);
    let bytes = write_parquet(&data).unwrap();
    assert_eq!(
        read_parquet(Bytes::from(bytes.clone()), &FEW_CANDIDATES).unwrap(),
        data
    );
    let table = FewCandidatesTable::from_bytes(Bytes::from(bytes)).unwrap();
    assert_eq!(table.configurations(), family.len());
    // The stored answers in file order: the family's, each as counted.
    assert_eq!(table.rows(), data.rows());
    assert_eq!(table.answers().len(), family.len());
    for (config, stored) in family.iter().zip(table.answers()) {
        assert_eq!(stored, &config.solve().unwrap(), "{config}");
    }
    for config in &family {
        // Reverse each category: the table still answers, in query order.
        let reversed = FewCandidates::new(
            std::array::from_fn(|c| config.holders[c].iter().rev().copied().collect()),
            config.unknown.clone(),
            config.other_cards,
        )
        .unwrap();
        let (answer, source) = table.answer(&reversed).unwrap();
        assert_eq!(source, Source::Table);
        assert_eq!(answer, reversed.solve().unwrap());
    }
    // Two opponents with unknown cards: not in this table, answered exactly.
    let ab = Opponents(0b11);
    let outside = FewCandidates::new(
        [vec![Opponents(0)], vec![ab, Opponents(1)], vec![ab]],
        vec![1, 1],
        1,
    )
    .unwrap();
    let (answer, source) = table.answer(&outside).unwrap();
    assert_eq!(source, Source::Engine);
    assert_eq!(answer, outside.solve().unwrap());
    // Corrupted bytes are an error, not a panic.
    assert!(FewCandidatesTable::from_bytes(Bytes::from_static(b"PAR1 not a table")).is_err());
}
