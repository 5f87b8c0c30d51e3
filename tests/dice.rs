//! Liar's Dice tables end to end: build them on a small grid, read them back
//! through the lookup crate, and check every row against the engine (bit for
//! bit), the fallback off the grid, determinism across thread counts,
//! damaged files, and the `gametab dice` command.

use std::path::Path;
use std::process::Command;

use gametab_build::dice::{build_tables_on, rows};
use gametab_build::known_answers;
use gametab_build::output::TableWriter;
use gametab_build::parquet_write::write_parquet;
use gametab_games::dice::{
    bidder_posterior, Bid, BidQuestion, BidRow, DecisionKey, DecisionRow, DiceGrid, DiceInPlay,
    Face, FaceClass, PosteriorQuestion, Reliability, Variant,
};
use gametab_lookup::dice::schema::{ALL, BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use gametab_lookup::dice::{BidTable, DiceTables, Source};
use gametab_lookup::io::{Column, TableData};
use gametab_lookup::Error;
use gametab_lookup::Tables;

/// The published Liar's Dice case with two fives in my hand, bid 5 fives
/// (the parameters of its rows in `data/published.csv`).
const CASE: &str = "total_dice=20;my_dice=5;bidder_dice=5;wild_ones=false;face_class=other;bid_count=5;my_matching=2";

/// The bidder's side of that case at rel 2.
const POSTERIOR_CASE: &str =
    "total_dice=20;bidder_dice=5;wild_ones=false;face_class=other;bid_count=5;reliability=2";

/// A grid small enough to check every row: N <= 12, m and n_b in 1..=3,
/// three reliabilities, decisions for 2 players with 2 dice each.
fn small_grid() -> DiceGrid {
    DiceGrid {
        max_total_dice: 12,
        max_my_dice: 3,
        max_bidder_dice: 3,
        reliabilities: [0.0, 0.5, 2.0]
            .map(|r| Reliability::new(r).unwrap())
            .to_vec(),
        min_players: 2,
        max_players: 3,
        dice_per_player: 2,
    }
}

fn build(dir: &Path, grid: &DiceGrid) -> Vec<String> {
    let mut writer = TableWriter::new(dir).unwrap();
    let lines = build_tables_on(grid, &mut writer).unwrap();
    writer.write_manifest(0.0).unwrap();
    lines
}

/// The dice tables of `dir`, loaded the one way tables load.
fn open_dice(dir: &Path) -> gametab_lookup::Result<DiceTables> {
    Tables::open(dir)?.dice().cloned()
}

fn rel(r: f64) -> Reliability {
    Reliability::new(r).unwrap()
}

#[test]
fn every_stored_row_is_the_engine_answer() {
    let dir = tempfile::tempdir().unwrap();
    let grid = small_grid();
    let lines = build(dir.path(), &grid);
    assert_eq!(lines.len(), 3);
    let tables = open_dice(dir.path()).unwrap();
    assert_eq!(tables.grid(), &grid);

    let mut bid_rows = 0;
    for (total, mine, bidder) in grid.bid_blocks() {
        let dice = DiceInPlay::new(total, mine, bidder).unwrap();
        for variant in [Variant::Plain, Variant::WildOnes] {
            for class in FaceClass::ALL {
                for &r in &grid.reliabilities {
                    for q in 1..=total {
                        for k in 0..=mine {
                            let question = BidQuestion::new(dice, variant, class, q, k, r).unwrap();
                            let stored = tables.bid_table().get(&question).unwrap();
                            assert_eq!(stored, BidRow::compute(&question));
                            bid_rows += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        lines[0].contains(&format!("{bid_rows} rows")),
        "{}",
        lines[0]
    );

    for (total, bidder) in grid.posterior_blocks() {
        for class in FaceClass::ALL {
            for q in 1..=total {
                let question =
                    PosteriorQuestion::new(total, bidder, Variant::WildOnes, class, q, rel(2.0))
                        .unwrap();
                let stored = tables.posterior_table().get(&question).unwrap();
                assert_eq!(stored, bidder_posterior(&question));
            }
        }
    }

    for players in grid.players() {
        for hand in grid.hands() {
            for variant in [Variant::Plain, Variant::WildOnes] {
                for q in 1..=players * grid.dice_per_player {
                    for face in Face::all() {
                        let key = DecisionKey {
                            players,
                            variant,
                            reliability: rel(0.5),
                            hand: hand.clone(),
                            standing: Bid::new(q, face).unwrap(),
                        };
                        let stored = tables.decision_table().get(&key).unwrap();
                        assert_eq!(stored, DecisionRow::compute(&key).unwrap());
                    }
                }
            }
        }
    }
}

#[test]
fn off_the_grid_the_engine_answers() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &small_grid());
    let tables = open_dice(dir.path()).unwrap();
    let on = BidQuestion::new(
        DiceInPlay::new(10, 2, 3).unwrap(),
        Variant::Plain,
        FaceClass::Other,
        4,
        1,
        rel(2.0),
    )
    .unwrap();
    assert_eq!(tables.bid(&on).unwrap().source, Source::Table);
    // A reliability, a table size and a hand size off the grid.
    for off in [
        BidQuestion {
            reliability: rel(1.5),
            ..on
        },
        BidQuestion::new(
            DiceInPlay::new(20, 5, 5).unwrap(),
            Variant::Plain,
            FaceClass::Other,
            5,
            1,
            rel(2.0),
        )
        .unwrap(),
    ] {
        assert!(matches!(
            tables.bid_table().get(&off),
            Err(Error::NotInTable { .. })
        ));
        let answer = tables.bid(&off).unwrap();
        assert_eq!(answer.source, Source::Computed);
        assert_eq!(answer.value, BidRow::compute(&off));
    }
    let published = tables
        .bid(
            &BidQuestion::new(
                DiceInPlay::new(20, 5, 5).unwrap(),
                Variant::Plain,
                FaceClass::Other,
                5,
                2,
                rel(0.5),
            )
            .unwrap(),
        )
        .unwrap();
    let expected = known_answers::find(
        "dice",
        "corrected_probability",
        &format!("{CASE};reliability=0.5"),
    )
    .unwrap();
    let corrected = published.value.corrected_probability;
    assert!(expected.reproduced_by(corrected), "{corrected}");
    let posterior =
        PosteriorQuestion::new(30, 5, Variant::Plain, FaceClass::Other, 9, rel(1.0)).unwrap();
    assert_eq!(
        tables.posterior(&posterior).unwrap().source,
        Source::Computed
    );
    // Six players of five dice: not in this small decisions table.
    let key = DecisionKey {
        players: 6,
        variant: Variant::WildOnes,
        reliability: rel(2.0),
        hand: "1,5,5,2,3".parse().unwrap(),
        standing: "9x5".parse().unwrap(),
    };
    let decision = tables.decision(&key).unwrap();
    assert_eq!(decision.source, Source::Computed);
    assert_eq!(decision.value, DecisionRow::compute(&key).unwrap());
    // A key that is no legal situation is an error, not a computation.
    let impossible = DecisionKey {
        standing: "31x5".parse().unwrap(),
        ..key
    };
    assert!(matches!(
        tables.decision(&impossible),
        Err(Error::OutOfRange { .. })
    ));
}

#[test]
fn output_is_identical_across_runs_and_thread_counts() {
    let grid = small_grid();
    let bytes_with = |threads: usize| {
        let dir = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| build(dir.path(), &grid));
        ALL.map(|schema| std::fs::read(dir.path().join(schema.file)).unwrap())
    };
    let one = bytes_with(1);
    assert_eq!(one, bytes_with(2));
    assert_eq!(one, bytes_with(3));
}

#[test]
fn damaged_or_foreign_files_are_errors() {
    let grid = small_grid();
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &grid);
    let read = |schema: &gametab_lookup::schema::TableSchema| {
        std::fs::read(dir.path().join(schema.file)).unwrap()
    };
    let (bids, posteriors, decisions) = (
        read(&BID_PROBABILITIES),
        read(&BIDDER_POSTERIORS),
        read(&DECISIONS),
    );
    for cut in [0, 10, bids.len() / 2, bids.len() - 1] {
        assert!(
            BidTable::from_bytes(bids[..cut].to_vec()).is_err(),
            "cut at {cut}"
        );
    }
    assert!(matches!(
        DiceTables::from_bytes(posteriors.clone(), bids.clone(), decisions.clone()),
        Err(Error::ForeignTable { .. })
    ));

    // Rows out of order, a probability out of range, a missing block.
    let mut data = rows::bid_probabilities(&grid).unwrap();
    let table = |data: &TableData| BidTable::from_bytes(write_parquet(data).unwrap());
    if let Column::Int32(counts) = &mut data.columns[6] {
        counts.swap(0, 2);
    }
    assert!(matches!(table(&data), Err(Error::BadRow { .. })));
    let mut data = rows::bid_probabilities(&grid).unwrap();
    if let Column::Float64(raw) = &mut data.columns[8] {
        raw[5] = 1.5;
    }
    assert!(matches!(table(&data), Err(Error::BadRow { row: 5, .. })));
    // A builder that swapped two same-typed columns (the raw and the
    // corrected probability under each other's names) writes a file the
    // loader refuses: ev_open no longer matches the corrected column.
    let mut data = rows::bid_probabilities(&grid).unwrap();
    let raw = BID_PROBABILITIES.column_index("raw_probability").unwrap();
    let corrected = BID_PROBABILITIES
        .column_index("corrected_probability")
        .unwrap();
    data.columns.swap(raw, corrected);
    assert!(matches!(table(&data), Err(Error::BadRow { .. })));
    let mut data = rows::bid_probabilities(&grid).unwrap();
    for column in &mut data.columns {
        match column {
            Column::Int32(v) => v.truncate(v.len() - 1),
            Column::Bool(v) => v.truncate(v.len() - 1),
            Column::Float64(v) => v.truncate(v.len() - 1),
            Column::Utf8(v) => v.truncate(v.len() - 1),
            Column::Int64(v) => v.truncate(v.len() - 1),
        }
    }
    assert!(matches!(table(&data), Err(Error::BadRow { .. })));
    // A grid parameter missing from the metadata.
    let mut data = rows::bid_probabilities(&grid).unwrap();
    data.params.remove("reliabilities");
    assert!(matches!(table(&data), Err(Error::ForeignTable { .. })));

    std::fs::remove_file(dir.path().join(DECISIONS.file)).unwrap();
    assert!(matches!(
        open_dice(dir.path()),
        Err(Error::MissingFile { .. })
    ));
}

fn gametab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn command_prints_odds_posterior_and_advice() {
    let out = gametab(&[
        "dice",
        "--players",
        "4",
        "--bid",
        "5x5",
        "--hand",
        "1,5,5,2,3",
        "--rel",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // Two fives in my hand, rel 2: the published numbers, as printed (the
    // command rounds as the spec does).
    let published = |quantity, parameters: &str| {
        known_answers::find("dice", quantity, parameters)
            .unwrap()
            .value_text
    };
    let raw = published("raw_probability", CASE);
    let corrected = published("corrected_probability", &format!("{CASE};reliability=2"));
    let mean = published("bidder_posterior_mean", POSTERIOR_CASE);
    assert!(
        text.contains(&format!("raw probability        {raw}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("corrected probability  {corrected}")),
        "{text}"
    );
    assert!(text.contains(&format!("(mean {mean})")), "{text}");
    assert!(text.contains("advice (published rule)"), "{text}");

    let out = gametab(&[
        "dice",
        "--players",
        "4",
        "--bid",
        "5x5",
        "--hand",
        "1,5,5,2,3",
        "--wild",
        "--json",
    ]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["my_matching"], 3);
    assert_eq!(json["advice"]["rule"], "published");
    let p = json["odds"]["raw_probability"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
}

#[test]
fn command_refuses_bad_input() {
    for args in [
        &[
            "dice",
            "--players",
            "2",
            "--bid",
            "5x7",
            "--hand",
            "1,2,3,4,5",
        ][..],
        &[
            "dice",
            "--players",
            "2",
            "--bid",
            "5x0",
            "--hand",
            "1,2,3,4,5",
        ],
        &[
            "dice",
            "--players",
            "2",
            "--bid",
            "11x5",
            "--hand",
            "1,2,3,4,5",
        ],
        &[
            "dice",
            "--players",
            "2",
            "--bid",
            "3x5",
            "--hand",
            "1,2,3,4,5",
            "--rel",
            "-1",
        ],
        &[
            "dice",
            "--players",
            "2",
            "--bid",
            "3x5",
            "--hand",
            "1,2,3,4,5",
            "--total-dice",
            "8",
        ],
        &[
            "dice",
            "--players",
            "1",
            "--bid",
            "3x5",
            "--hand",
            "1,2,3,4,5",
        ],
        &["dice", "--players", "3", "--bid", "3x5", "--hand", "1,2,8"],
    ] {
        let out = gametab(args);
        assert!(!out.status.success(), "{args:?} was accepted");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(!message.contains("panicked"), "{args:?}: {message}");
        assert!(!message.trim().is_empty());
    }
}
