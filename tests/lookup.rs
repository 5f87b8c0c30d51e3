//! The lookup crate against the pipeline's own output: every query answered
//! from freshly written tables equals the solver's answer, and every error
//! variant is triggered on purpose. Corrupted bytes give errors, not panics.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use bytes::Bytes;
use gametab_build::known_answers;
use gametab_build::murder_plan::layers::Layers;
use gametab_build::murder_plan::solver::{self, Solution};
use gametab_build::murder_plan::tables;
use gametab_build::output::TableWriter;
use gametab_build::parquet_write::write_parquet;
use gametab_build::pipeline::BuildOptions;
use gametab_games::dice::{DiceGrid, Reliability};
use gametab_games::murder_plan::model::State;
use gametab_games::murder_plan::{BrainTarget, Offset};
use gametab_lookup::io::{blake2_hex, read_parquet, Column};
use gametab_lookup::manifest::Manifest;
use gametab_lookup::murder_plan::schema;
use gametab_lookup::{Error, Tables};
use gametab_solve::matrix_game::LpBackend;

struct Fixture {
    solution: Solution,
    dir: tempfile::TempDir,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let solution = solver::solve(8, LpBackend::Native, &|_, _| {}, &|| {}).expect("solves");
        let layers = Layers::enumerate(&solution.successors, 8);
        let dir = tempfile::tempdir().unwrap();
        let mut writer = TableWriter::new(dir.path()).unwrap();
        for data in tables::all(&solution, &layers).unwrap() {
            writer.write(&data).unwrap();
        }
        writer.write_manifest(0.0).unwrap();
        Fixture { solution, dir }
    })
}

fn files(dir: &Path) -> BTreeMap<String, Bytes> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                Bytes::from(std::fs::read(e.path()).unwrap()),
            )
        })
        .collect()
}

/// Load the Murder Plan tables of `files` the one way tables load.
fn load_murder_plan(files: &BTreeMap<String, Bytes>) -> gametab_lookup::Result<()> {
    Tables::from_files(files)?.murder_plan().map(drop)
}

/// Put `bytes` in `set` as `file` and record them in the set's manifest, so
/// that the decoder, not the digest check, is what meets them.
fn replace(set: &mut BTreeMap<String, Bytes>, file: &str, bytes: Bytes) {
    let mut manifest: Manifest = serde_json::from_slice(&set["manifest.json"]).unwrap();
    let entry = manifest.files.iter_mut().find(|e| e.file == file).unwrap();
    entry.blake2b_256 = blake2_hex(&bytes);
    entry.bytes = bytes.len() as u64;
    set.insert(file.to_string(), bytes);
    set.insert(
        "manifest.json".into(),
        Bytes::from(serde_json::to_vec(&manifest).unwrap()),
    );
}

fn loaded() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::open(fixture().dir.path()).expect("fresh tables load"))
}

#[test]
fn values_gaps_and_brain_choices_match_the_solver() {
    let (s, t) = (&fixture().solution, loaded().murder_plan().unwrap());
    for d in 0..=8u8 {
        for state in State::all() {
            assert_eq!(t.value(d, state).unwrap(), s.value(d, state));
            assert_eq!(
                t.gap(d, state).unwrap(),
                s.gaps[usize::from(d)][state.index()]
            );
            if d >= 1 {
                let (target, value) = t.brain_choice(d, state).unwrap();
                let expected = s.brain[usize::from(d)][state.index()];
                assert_eq!((target, value), (expected.target, expected.value));
            }
        }
    }
}

#[test]
fn strategies_match_the_solver_and_sum_to_one() {
    let (s, t) = (&fixture().solution, loaded().murder_plan().unwrap());
    for d in 1..=8u8 {
        for state in State::all().filter(|s| !s.is_win()) {
            let (row, col) = s.strategies(d, state).unwrap();
            let table = s.turns.get(state.limited);
            let mut expected: Vec<_> = table
                .mastermind
                .iter()
                .zip(&row)
                .filter(|(_, &p)| p > 0.0)
                .map(|(&a, &p)| (a, p))
                .collect();
            let mut got = t.mastermind_strategy(d, state).unwrap().to_vec();
            expected.sort_by_key(|a| a.0);
            got.sort_by_key(|a| a.0);
            assert_eq!(got, expected);
            let sum: f64 = t
                .protagonists_strategy(d, state)
                .unwrap()
                .iter()
                .map(|x| x.1)
                .sum();
            assert!((sum - 1.0).abs() < 1e-12);
            assert_eq!(
                t.protagonists_strategy(d, state).unwrap().len(),
                col.iter().filter(|&&p| p > 0.0).count()
            );
        }
    }
}

#[test]
fn sampling_is_cumulative_over_the_stored_order() {
    let t = loaded().murder_plan().unwrap();
    let state = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
    let support = t.mastermind_strategy(8, state).unwrap();
    assert!(support.len() >= 2, "a mixed strategy");
    assert_eq!(t.sample_mastermind(8, state, 0.0).unwrap(), support[0].0);
    let just_past_first = support[0].1 + 1e-12;
    assert_eq!(
        t.sample_mastermind(8, state, just_past_first).unwrap(),
        support[1].0
    );
    let last = support.last().unwrap().0;
    assert_eq!(t.sample_mastermind(8, state, 1.0 - 1e-15).unwrap(), last);
    for bad in [1.0, -0.01, f64::NAN] {
        assert!(matches!(
            t.sample_mastermind(8, state, bad),
            Err(Error::OutOfRange {
                what: gametab_games::Argument::U,
                ..
            })
        ));
    }
}

#[test]
fn win_rates_and_clamping() {
    let (s, t) = (&fixture().solution, loaded().murder_plan().unwrap());
    let start = State::start(Offset::ZERO, Offset::ZERO);
    assert_eq!(
        t.win_rate(3, Some((Offset::ZERO, Offset::ZERO))).unwrap(),
        s.value(3, start)
    );
    let average = State::starts().map(|st| s.value(8, st)).sum::<f64>() / 16.0;
    assert_eq!(t.win_rate(8, None).unwrap(), average);
    let published =
        known_answers::find("murder_plan", "win_rate", "horizon=8;start=average").unwrap();
    assert!(published.reproduced_by(100.0 * average), "{average}");
    let mut high = State::start(Offset::ZERO, Offset::HORIZONTAL);
    high.killer_intrigue = 9;
    high.key_person_intrigue = 5;
    assert_eq!(
        t.value(2, high).unwrap(),
        1.0,
        "intrigue above the caps is clamped"
    );
    assert!(t.reachable(8, start).unwrap());
}

#[test]
fn out_of_range_and_not_in_table() {
    let t = loaded().murder_plan().unwrap();
    let start = State::start(Offset::ZERO, Offset::ZERO);
    assert!(matches!(
        t.value(9, start),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::DaysLeft,
            ..
        })
    ));
    assert!(matches!(
        t.mastermind_strategy(0, start),
        Err(Error::OutOfRange { .. })
    ));
    assert!(matches!(t.win_rate(0, None), Err(Error::OutOfRange { .. })));
    let mut bad = start;
    bad.limited.forbid_movement = 4;
    assert!(matches!(t.value(1, bad), Err(Error::OutOfRange { .. })));
    let mut won = start;
    won.killer_intrigue = 4;
    assert!(matches!(
        t.mastermind_strategy(3, won),
        Err(Error::NotInTable { .. })
    ));
    let _ = BrainTarget::Killer;
}

#[test]
fn missing_digest_manifest_and_foreign_files_are_named() {
    let good = files(fixture().dir.path());
    let values = schema::VALUES.file;

    let mut missing = good.clone();
    missing.remove(values);
    assert!(matches!(
        load_murder_plan(&missing),
        Err(Error::MissingFile { .. })
    ));

    let mut tampered = good.clone();
    let mut bytes = tampered[values].to_vec();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    tampered.insert(values.to_string(), Bytes::from(bytes));
    match load_murder_plan(&tampered) {
        Err(Error::DigestMismatch { file, .. }) => assert_eq!(file, values),
        other => panic!("expected a digest mismatch, got {other:?}"),
    }

    let mut bad_manifest = good.clone();
    bad_manifest.insert("manifest.json".into(), Bytes::from_static(b"{ not json"));
    assert!(matches!(
        Tables::from_files(&bad_manifest),
        Err(Error::BadManifest { .. })
    ));

    // No manifest: the set cannot be checked, so it is refused.
    let mut unlisted = good.clone();
    unlisted.remove("manifest.json");
    match Tables::from_files(&unlisted) {
        Err(Error::MissingFile { path }) => assert!(path.ends_with("manifest.json")),
        other => panic!("expected the manifest to be missing, got {other:?}"),
    }

    // Listed in the manifest, a file of another table under the values name.
    let mut foreign = good.clone();
    replace(
        &mut foreign,
        values,
        good[schema::BRAIN_CHOICE.file].clone(),
    );
    assert!(matches!(
        load_murder_plan(&foreign),
        Err(Error::ForeignTable { .. })
    ));

    let mut truncated = good.clone();
    let cut = good[values].slice(..good[values].len() - 100);
    replace(&mut truncated, values, cut);
    assert!(matches!(
        load_murder_plan(&truncated),
        Err(Error::CorruptTable { .. })
    ));
}

/// A table set with every game: the Murder Plan fixture's tables, Liar's Dice
/// on a small grid, a slice of the Cluedo family and the Werewolf table, under
/// one manifest.
/// Also returns how many of the Cluedo configurations have a consistent deal.
fn every_game() -> (BTreeMap<String, Bytes>, usize) {
    static FILES: OnceLock<(BTreeMap<String, Bytes>, usize)> = OnceLock::new();
    FILES
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let mut writer = TableWriter::new(dir.path()).unwrap();
            let solution = &fixture().solution;
            let murder_plan =
                tables::all(solution, &Layers::enumerate(&solution.successors, 8)).unwrap();
            for data in &murder_plan {
                writer.write(data).unwrap();
            }
            gametab_build::murder_plan::write_bundle(murder_plan, &mut writer).unwrap();
            let grid = DiceGrid {
                max_total_dice: 4,
                max_my_dice: 2,
                max_bidder_dice: 2,
                reliabilities: vec![Reliability::new(1.0).unwrap()],
                min_players: 2,
                max_players: 2,
                dice_per_player: 2,
            };
            gametab_build::dice::build_tables_on(&grid, &mut writer).unwrap();
            let family = &gametab_build::cluedo::family()[..200];
            writer
                .write(&gametab_build::cluedo::table(family).unwrap())
                .unwrap();
            let solvable = family.iter().filter(|c| c.solve().is_ok()).count();
            let options = BuildOptions {
                out: dir.path().to_path_buf(),
                threads: 1,
                progress: gametab_build::progress::Progress::hidden(),
                lp: LpBackend::Native,
                cache: None,
                endgame_frontier: false,
                endgame_budget: None,
                endgame_merge_only: false,
            };
            gametab_build::werewolf::build_tables(&options, &mut writer).unwrap();
            let endgames = [
                gametab_games::dice::endgame::Endgame::new(1, 1, 2, false).unwrap(),
                gametab_games::dice::endgame::Endgame::new(1, 1, 3, true).unwrap(),
            ];
            gametab_build::dice::endgame::build::build(&endgames, &options, &mut writer).unwrap();
            writer.write_manifest(0.0).unwrap();
            (files(dir.path()), solvable)
        })
        .clone()
}

#[test]
fn other_games_load_on_first_use_against_the_manifest() {
    let (good, solvable) = every_game();
    assert!(solvable > 100);
    let tables = Tables::from_files(&good).unwrap();
    tables.load_all().unwrap();
    let dice = tables.dice().unwrap();
    assert_eq!(dice.grid().max_players, 2);
    assert_eq!(tables.dice_endgame().unwrap().len(), 2);
    assert_eq!(tables.cluedo().unwrap().len(), solvable);
    assert!(!tables.werewolf().unwrap().is_empty());
    let manifest = tables.manifest();
    assert_eq!(manifest.files.len(), good.len() - 1);

    // A damaged Liar's Dice file: Murder Plan still opens, dice names the
    // file, and the other games are unaffected.
    let dice_file = gametab_lookup::dice::schema::DECISIONS.file;
    let mut tampered = good.clone();
    let mut bytes = tampered[dice_file].to_vec();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    tampered.insert(dice_file.to_string(), Bytes::from(bytes));
    let tables = Tables::from_files(&tampered).unwrap();
    match tables.dice() {
        Err(Error::DigestMismatch { file, .. }) => assert_eq!(file, dice_file),
        other => panic!("expected a digest mismatch, got {other:?}"),
    }
    assert!(matches!(
        tables.load_all(),
        Err(Error::DigestMismatch { .. })
    ));
    assert!(tables.cluedo().is_ok() && tables.werewolf().is_ok());

    // A missing Werewolf file is named when the game is first asked for.
    let mut missing = good.clone();
    let werewolf_file = gametab_lookup::werewolf::schema::WEREWOLF_EARLY.file;
    missing.remove(werewolf_file);
    let tables = Tables::from_files(&missing).unwrap();
    match tables.werewolf() {
        Err(Error::MissingFile { path }) => assert_eq!(path, Path::new(werewolf_file)),
        other => panic!("expected a missing file, got {other:?}"),
    }

    // Two broken games: `load_all` (which loads the games side by side)
    // reports the first in the order dice, Cluedo, Werewolf, and the sound
    // game is loaded all the same.
    let cluedo_file = gametab_lookup::cluedo::schema::FEW_CANDIDATES.file;
    let mut bytes = missing[cluedo_file].to_vec();
    let at = bytes.len() / 3;
    bytes[at] ^= 0x10;
    missing.insert(cluedo_file.to_string(), Bytes::from(bytes));
    let tables = Tables::from_files(&missing).unwrap();
    match tables.load_all() {
        Err(Error::DigestMismatch { file, .. }) => assert_eq!(file, cluedo_file),
        other => panic!("expected the Cluedo digest mismatch, got {other:?}"),
    }
    assert!(tables.dice().is_ok());
}

#[test]
fn old_schema_versions_and_bad_rows_are_rejected() {
    let good = files(fixture().dir.path());
    let mut data = read_parquet(good[schema::VALUES.file].clone(), &schema::VALUES).unwrap();

    let mut old = data.clone();
    old.schema.version = schema::VERSION + 1;
    let mut set = good.clone();
    let old = Bytes::from(write_parquet(&old).unwrap());
    replace(&mut set, schema::VALUES.file, old);
    assert!(matches!(
        load_murder_plan(&set),
        Err(Error::SchemaVersion { .. })
    ));

    if let Column::Float64(values) =
        &mut data.columns[schema::VALUES.column_index("value").unwrap()]
    {
        values[1234] = 1.5;
    }
    let bad = Bytes::from(write_parquet(&data).unwrap());
    replace(&mut set, schema::VALUES.file, bad);
    match load_murder_plan(&set) {
        Err(Error::BadRow { row, .. }) => assert_eq!(row, 1234),
        other => panic!("expected a bad row, got {other:?}"),
    }
}

#[test]
fn corrupted_bytes_never_panic() {
    let good = files(fixture().dir.path());
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for schema in schema::ALL {
        let original = good[schema.file].clone();
        for round in 0..40 {
            let mut bytes = original.to_vec();
            match round % 3 {
                0 => bytes.truncate((next() as usize) % bytes.len()),
                1 => {
                    for _ in 0..4 {
                        let at = (next() as usize) % bytes.len();
                        bytes[at] = next() as u8;
                    }
                }
                _ => bytes = (0..(next() % 4096)).map(|_| next() as u8).collect(),
            }
            let mut set = good.clone();
            replace(&mut set, schema.file, Bytes::from(bytes));
            // Either outcome is fine as long as it is not a panic; a change
            // that still decodes must still validate.
            let _ = load_murder_plan(&set);
        }
    }
}
