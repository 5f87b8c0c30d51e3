//! Integration tests of the Cluedo lookup: the documented example log, and a
//! write-then-read round trip of a few-candidate table answering queries
//! (from the table and, outside it, from the engine).

use std::collections::BTreeMap;

use bytes::Bytes;
use gametab_lookup::cluedo::schema::FEW_CANDIDATES;
use gametab_lookup::cluedo::{
    analyse, Category, FewCandidates, FewCandidatesTable, GameLog, Model, Opponents, Place, Seat,
    Source,
};
use gametab_lookup::io::{read_parquet, write_parquet, Column, TableData};
use gametab_lookup::Error;

const EXAMPLE: &str = include_str!("../../scripts/examples/cluedo-game.json");

#[test]
fn the_example_log_gives_an_exact_notebook() {
    let log = GameLog::from_json(EXAMPLE).unwrap();
    let knowledge = log.knowledge().unwrap();
    let deck = *knowledge.rules().deck();
    let card = |n: &str| deck.parse_card(n).unwrap();
    for model in Model::ALL {
        let notebook = analyse(&knowledge, model).unwrap();
        // Ann showed me the Spanner; Bob the Conservatory; Cat holds the
        // Lead Piping; my cards are mine.
        assert_eq!(notebook.p_holds(Seat(1), card("Spanner")), 1.0);
        assert_eq!(notebook.p_holds(Seat(2), card("Conservatory")), 1.0);
        assert_eq!(notebook.p_holds(Seat(3), card("Lead Piping")), 1.0);
        assert_eq!(notebook.p_holds(Seat(0), card("Hall")), 1.0);
        // Everybody passed on Plum, Candlestick, Ballroom except their
        // suggester (Bob): each is Bob's or in the envelope.
        for name in ["Professor Plum", "Candlestick", "Ballroom"] {
            let c = card(name);
            let sum = notebook.p_envelope(c) + notebook.p_holds(Seat(2), c);
            assert!((sum - 1.0).abs() < 1e-12, "{name}");
        }
        // Probabilities of every card add up to one; the envelope holds one
        // card per category.
        for c in 0..21u8 {
            let c = gametab_lookup::cluedo::Card(c);
            let total: f64 = std::iter::once(Place::Envelope)
                .chain(knowledge.rules().seats().map(Place::Hand))
                .map(|p| notebook.probability(c, p))
                .sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
        for category in Category::ALL {
            let sum: f64 = deck
                .category_cards(category)
                .cards()
                .map(|c| notebook.p_envelope(c))
                .sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn malformed_logs_are_typed_errors() {
    assert!(matches!(
        GameLog::from_json("{\"players\": 4"),
        Err(Error::OutOfRange { .. })
    ));
    let bad_card = EXAMPLE.replace("\"Rope\", \"Kitchen\"", "\"Rop\", \"Kitchen\"");
    let log = GameLog::from_json(&bad_card).unwrap();
    assert!(matches!(
        log.knowledge(),
        Err(Error::OutOfRange { what: "card", .. })
    ));
    let seven = EXAMPLE.replace("\"players\": 4", "\"players\": 7");
    assert!(GameLog::from_json(&seven).unwrap().knowledge().is_err());
    // Claiming Ann passed on the Spanner she showed me is a contradiction
    // naming both facts.
    let mut log = GameLog::from_json(EXAMPLE).unwrap();
    log.facts
        .push(gametab_lookup::cluedo::LoggedFact::HoldsNone {
            player: 1,
            cards: vec!["Spanner".into()],
        });
    let message = analyse(&log.knowledge().unwrap(), Model::EqualDeals)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("player 1 holds none of {Spanner}"),
        "{message}"
    );
    assert!(message.contains("showed me Spanner"), "{message}");
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
    let mut columns: Vec<Column> = Vec::new();
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
    columns.extend([
        Column::Utf8(un.into()),
        Column::Utf8(ho.into()),
        Column::Int32(ca),
        Column::Int32(cn),
        Column::Int32(ac),
        Column::Int32(ot),
        Column::Int64(de),
        Column::Int64(en),
        Column::Float64(pe),
        Column::Float64(ph),
    ]);
    (
        family,
        TableData {
            schema: FEW_CANDIDATES,
            columns,
            params: BTreeMap::new(),
        },
    )
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
