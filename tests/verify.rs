//! `gametab verify` against a real table set: a clean build verifies, and
//! every kind of damage is named by file, row and column: a changed Murder
//! Plan value or strategy probability (rewritten with a matching manifest
//! digest, so only the semantic checks can see it), a truncated file,
//! swapped files, a damaged browser bundle, and a changed Liar's Dice,
//! Cluedo or Werewolf row in the sample; a changed Murder Plan value is
//! also named by the browser bundle's comparison with the tables. Also: a
//! build killed midway leaves the previous set in place.
//!
//! The set is the run's shared one (`common`), copied into a fresh
//! directory for each test.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use bytes::Bytes;
use gametab_build::parquet_write::write_parquet;
use gametab_build::registry;
use gametab_build::verify::sample::sample_rows;
use gametab_build::verify::{verify, Report, Sampling, DEFAULT_SAMPLE, DEFAULT_SEED};
use gametab_games::murder_plan::model::{Offset, State, STATE_COUNT};
use gametab_lookup::io::{blake2_hex, read_parquet, Column, TableData};
use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};
use gametab_lookup::schema::TableSchema;
use gametab_lookup::{cluedo, dice, murder_plan, werewolf, Tables};

/// A fresh copy of the shared set: (its temporary parent, the table dir).
fn fresh_copy() -> (tempfile::TempDir, PathBuf) {
    common::copy_of_tables()
}

fn read_table(dir: &Path, schema: &TableSchema) -> TableData {
    let bytes = std::fs::read(dir.join(schema.file)).unwrap();
    read_parquet(Bytes::from(bytes), schema).unwrap()
}

/// Rewrite a table after `change`, and record the new file in the manifest
/// (digest, size, rows) so that only a semantic check can notice.
fn rewrite(dir: &Path, schema: &TableSchema, change: impl FnOnce(&mut TableData)) {
    let mut data = read_table(dir, schema);
    change(&mut data);
    let bytes = write_parquet(&data).unwrap();
    std::fs::write(dir.join(schema.file), &bytes).unwrap();
    let path = dir.join(MANIFEST_FILE);
    let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let entry = manifest
        .files
        .iter_mut()
        .find(|e| e.file == schema.file)
        .unwrap();
    entry.blake2b_256 = blake2_hex(&bytes);
    entry.bytes = bytes.len() as u64;
    entry.rows = data.rows() as u64;
    std::fs::write(&path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
}

fn f64_column<'a>(data: &'a mut TableData, name: &str) -> &'a mut Vec<f64> {
    let i = data.schema.column_index(name).unwrap();
    match &mut data.columns[i] {
        Column::Float64(values) => values,
        other => panic!("{name} is {other:?}"),
    }
}

fn run_verify(dir: &Path) -> Report {
    verify(dir, &Sampling::default(), &registry::verifiers()).unwrap()
}

/// The findings of `file`, asserting there is at least one.
fn findings_of<'a>(report: &'a Report, file: &str) -> Vec<&'a gametab_build::verify::Finding> {
    let found: Vec<_> = report.findings().filter(|f| f.file == file).collect();
    assert!(!found.is_empty(), "nothing found in {file}:\n{report}");
    found
}

use crate::common::gametab;

/// The values-table row of a start state with `days_left` turns left.
fn start_row(days_left: usize) -> usize {
    let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
    days_left * STATE_COUNT + start.index()
}

#[test]
fn a_clean_set_verifies_and_the_cli_agrees() {
    let tables = common::built_tables();
    let report = run_verify(tables);
    assert!(report.is_ok(), "{report}");
    assert_eq!(
        report.files.len(),
        15,
        "manifest, thirteen tables and the browser bundle"
    );
    let bundle = report.file(murder_plan::bundle::FILE).unwrap();
    assert_eq!(bundle.rows_checked, bundle.rows_total);
    assert!(bundle.rows_total > 10_000, "{bundle:?}");
    // The endgame tables are checked whole: every row rebuilt from the
    // stored strategies after the certificate ran again.
    for schema in dice::schema::ENDGAME {
        let check = report.file(schema.file).unwrap();
        assert_eq!(check.rows_checked, check.rows_total, "{}", schema.file);
        assert!(check.rows_total > 0, "{}", schema.file);
    }
    for file in murder_plan::schema::ALL.map(|s| s.file) {
        let check = report.file(file).unwrap();
        assert_eq!(check.rows_checked, check.rows_total, "{file}");
        assert!(check.rows_total > 0);
    }
    for schema in [
        dice::schema::DECISIONS,
        cluedo::schema::FEW_CANDIDATES,
        werewolf::schema::WEREWOLF_EARLY,
    ] {
        let check = report.file(schema.file).unwrap();
        assert_eq!(check.rows_checked, DEFAULT_SAMPLE, "{}", schema.file);
    }
    let dir = tables.to_str().unwrap();
    let (ok, out, err) = gametab(&["verify", "--tables", dir]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("\nOK\n"), "{out}");
    let (ok, out, err) = gametab(&["verify", "--tables", dir, "--json", "--sample", "10"]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["sample"], 10);
    assert_eq!(json["files"].as_array().unwrap().len(), 15);
}

#[test]
fn a_changed_murder_plan_value_is_named() {
    let (_keep, dir) = fresh_copy();
    let row = start_row(3);
    rewrite(&dir, &murder_plan::schema::VALUES, |data| {
        f64_column(data, "value")[row] += 1e-6;
    });
    // The lookup crate accepts the file: the digest matches, the value is
    // in range. Only the certificate sees it.
    Tables::open(&dir).expect("a well-formed file");
    let report = run_verify(&dir);
    let found = findings_of(&report, murder_plan::schema::VALUES.file);
    assert!(
        found
            .iter()
            .any(|f| f.row == Some(row) && f.column == "value"),
        "{report}"
    );
    assert!(found[0].key.contains("days_left=3"), "{}", found[0]);
    // The browser bundle still holds the built value: its comparison with
    // the tables names the same state.
    let bundle = findings_of(&report, murder_plan::bundle::FILE);
    assert!(
        bundle
            .iter()
            .any(|f| f.column == "value" && f.key.starts_with("days_left 3,")),
        "{report}"
    );
    // The binary reports the same line and fails.
    let (ok, out, _) = gametab(&["verify", "--tables", dir.to_str().unwrap()]);
    assert!(!ok);
    let line = format!("MISMATCH murder_plan_values.parquet row {row} ");
    assert!(out.contains(&line), "{out}");
}

#[test]
fn a_damaged_browser_bundle_is_named() {
    let (_keep, dir) = fresh_copy();
    let file = murder_plan::bundle::FILE;
    let mut bytes = std::fs::read(dir.join(file)).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x20;
    std::fs::write(dir.join(file), &bytes).unwrap();
    // Its manifest entry still has the built digest: named as such, and
    // the file does not decode.
    let report = run_verify(&dir);
    let found = findings_of(&report, file);
    assert!(found.iter().any(|f| f.column == "blake2b_256"), "{report}");
    assert!(
        found
            .iter()
            .any(|f| f.column == "file" && f.found.contains("unreadable browser bundle")),
        "{report}"
    );
    // The lookup crate (and so the server) refuses the set as a whole.
    let tables = Tables::open(&dir).unwrap();
    assert!(tables.load_all().is_err());
    assert_eq!(report.files.iter().filter(|f| !f.is_ok()).count(), 1);
}

#[test]
fn a_changed_strategy_probability_is_named() {
    let (_keep, dir) = fresh_copy();
    let schema = murder_plan::schema::MASTERMIND_STRATEGY;
    let data = read_table(&dir, &schema);
    // The first support of the horizon-8 start with at least two actions.
    let days = data.i32s("days_left").unwrap();
    let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
    let key_of = |row: usize| {
        let i = |name: &str| data.i32s(name).unwrap()[row];
        (
            days[row],
            i("brain_x"),
            i("brain_y"),
            i("killer_x"),
            i("killer_y"),
        )
    };
    let target = (8, 0, 1, 1, 0);
    let first = (0..data.rows())
        .find(|&r| {
            key_of(r) == target
                && data.i32s("killer_intrigue").unwrap()[r] == i32::from(start.killer_intrigue)
                && data.bools("diagonal_left").unwrap()[r]
                && data.bools("intrigue2_left").unwrap()[r]
                && data.i32s("forbid_movement_left").unwrap()[r] == 3
                && data.i32s("key_person_intrigue").unwrap()[r] == 0
        })
        .expect("the start's support");
    assert_eq!(key_of(first + 1), target, "a mixed strategy");
    // Move probability between two actions: the sum stays 1.
    rewrite(&dir, &schema, |data| {
        let p = f64_column(data, "probability");
        let shift = p[first + 1].min(0.05) / 2.0;
        p[first] += shift;
        p[first + 1] -= shift;
    });
    Tables::open(&dir).expect("a well-formed file");
    let report = run_verify(&dir);
    let found = findings_of(&report, schema.file);
    assert!(
        found
            .iter()
            .any(|f| f.row == Some(first) && f.column == "probability"),
        "{report}"
    );
    // The protagonists' strategy and the value are fine.
    assert!(report
        .findings()
        .all(|f| f.file == schema.file || f.row != Some(start_row(8))));
}

#[test]
fn a_truncated_file_is_named() {
    let (_keep, dir) = fresh_copy();
    let file = dir.join(dice::schema::BIDDER_POSTERIORS.file);
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let report = run_verify(&dir);
    let found = findings_of(&report, dice::schema::BIDDER_POSTERIORS.file);
    assert!(found.iter().any(|f| f.column == "blake2b_256"));
    assert!(found.iter().any(|f| f.column == "file"), "{report}");
    let (ok, out, err) = gametab(&["verify", "--tables", dir.to_str().unwrap()]);
    assert!(!ok && !err.contains("panicked"), "{err}");
    assert!(
        out.contains("MISMATCH dice_bidder_posteriors.parquet bytes"),
        "{out}"
    );
}

#[test]
fn swapped_files_are_named() {
    let (_keep, dir) = fresh_copy();
    let swap = |a: &str, b: &str| {
        let (pa, pb) = (dir.join(a), dir.join(b));
        let tmp = dir.join("swap.tmp");
        std::fs::rename(&pa, &tmp).unwrap();
        std::fs::rename(&pb, &pa).unwrap();
        std::fs::rename(&tmp, &pb).unwrap();
    };
    let sigma = murder_plan::schema::MASTERMIND_STRATEGY.file;
    let tau = murder_plan::schema::PROTAGONISTS_STRATEGY.file;
    swap(sigma, tau);
    swap(
        dice::schema::DECISIONS.file,
        werewolf::schema::WEREWOLF_EARLY.file,
    );
    let report = run_verify(&dir);
    for file in [
        sigma,
        tau,
        dice::schema::DECISIONS.file,
        werewolf::schema::WEREWOLF_EARLY.file,
    ] {
        let found = findings_of(&report, file);
        assert!(found.iter().any(|f| f.column == "blake2b_256"), "{file}");
        assert!(
            found
                .iter()
                .any(|f| f.column == "file" && f.found.contains("the file holds table")),
            "{report}"
        );
    }
}

#[test]
fn changed_endgame_rows_are_named() {
    let (_keep, dir) = fresh_copy();
    // A posterior 1e-6 off: the rebuilt table names its row.
    let posteriors = dice::schema::ENDGAME_POSTERIORS;
    rewrite(&dir, &posteriors, |data| {
        let p = f64_column(data, "probability");
        p[0] += if p[0] > 0.5 { -1e-6 } else { 1e-6 };
    });
    // In the strategy table, 0.01 moved between the two first actions of
    // an information set on the equilibrium path (the sum stays 1, so the
    // loader accepts it): the certificate run again no longer matches.
    let strategy = dice::schema::ENDGAME_STRATEGY;
    let data = read_table(&dir, &strategy);
    let key = |row: usize| {
        let text = |name: &str| data.strings(name).unwrap()[row].to_string();
        let int = |name: &str| data.i32s(name).unwrap()[row];
        (
            (
                int("dice_one"),
                int("dice_two"),
                int("sides"),
                text("rules"),
            ),
            (int("player"), int("history"), int("hand")),
        )
    };
    let on_path = data.bools("on_path").unwrap();
    let probability = data.f64s("probability").unwrap();
    let row = (0..data.rows() - 1)
        .find(|&r| {
            on_path[r]
                && key(r) == key(r + 1)
                && probability[r] > 0.05
                && probability[r + 1] > 0.05
                && key(r).0 .2 >= 4
        })
        .expect("a mixed information set on the path");
    rewrite(&dir, &strategy, |data| {
        let p = f64_column(data, "probability");
        p[row] -= 0.01;
        p[row + 1] += 0.01;
    });
    Tables::open(&dir).expect("well-formed files");
    let report = run_verify(&dir);
    assert!(!report.is_ok());
    let found = findings_of(&report, posteriors.file);
    assert!(
        found
            .iter()
            .any(|f| f.row == Some(0) && f.column == "probability"),
        "{report}"
    );
    let values = findings_of(&report, dice::schema::ENDGAME_VALUES.file);
    assert!(
        values
            .iter()
            .any(|f| f.column.starts_with("best_response") || f.column == "exploitability"),
        "{report}"
    );
}

/// An endgame's value moved 1e-9 outside its certified bracket (the
/// strategies and so the bracket unchanged) is named: the rebuilt values
/// table takes the stored value as it is, so only the bracket check sees
/// it.
#[test]
fn an_endgame_value_outside_its_bracket_is_named() {
    let (_keep, dir) = fresh_copy();
    let values = dice::schema::ENDGAME_VALUES;
    let data = read_table(&dir, &values);
    let upper = data.f64s("best_response_one").unwrap();
    let lower = data.f64s("best_response_two").unwrap();
    // A game with a mixed equilibrium (its bracket not a single float).
    let row = (0..data.rows())
        .find(|&r| data.i32s("sides").unwrap()[r] == 6 && upper[r] > lower[r])
        .expect("a six-sided game");
    let moved = upper[row] + 1e-9;
    rewrite(&dir, &values, |data| f64_column(data, "value")[row] = moved);
    let report = run_verify(&dir);
    assert!(!report.is_ok());
    let found = findings_of(&report, values.file);
    assert!(
        found.iter().any(|f| f.column == "value"
            && f.expected.contains("inside its certified bracket")
            && f.found == moved.to_string()),
        "{report}"
    );
}

/// A changed cell of the endgame strategy table, which the check rebuilds
/// and compares game by game, is named by its row in the whole file and
/// its key: a reach 1e-6 off in the last game's stretch (the strategies
/// decode as before, so only the rebuilt rows can see it).
#[test]
fn a_changed_endgame_strategy_row_is_named_with_its_key() {
    let (_keep, dir) = fresh_copy();
    let strategy = dice::schema::ENDGAME_STRATEGY;
    let data = read_table(&dir, &strategy);
    let int = |name: &str, row: usize| data.i32s(name).unwrap()[row];
    let game = |row: usize| {
        (
            int("dice_one", row),
            int("dice_two", row),
            int("sides", row),
        )
    };
    let last = data.rows() - 1;
    let reach = data.f64s("reach").unwrap();
    // The first row of the last game with a reach to change.
    let row = (0..data.rows())
        .find(|&r| game(r) == game(last) && reach[r] > 0.01)
        .expect("a reached row in the last game");
    assert!(row > 0, "the last game is not the only one");
    let (a, b, sides) = game(row);
    let rules = data.strings("rules").unwrap()[row].to_string();
    rewrite(&dir, &strategy, |data| {
        f64_column(data, "reach")[row] -= 1e-6;
    });
    let report = run_verify(&dir);
    let found = findings_of(&report, strategy.file);
    assert_eq!(report.mismatches(), 1, "{report}");
    assert_eq!(
        (found[0].row, found[0].column.as_str()),
        (Some(row), "reach")
    );
    let key = format!("dice_one={a} dice_two={b} sides={sides} rules={rules:?}");
    assert!(found[0].key.starts_with(&key), "{}", found[0].key);
    let check = report.file(strategy.file).unwrap();
    assert_eq!(check.rows_checked, data.rows());
    assert!(check.max_error >= 1e-6 * 0.99, "{}", check.max_error);
}

/// The first sampled row of a table under the default sampling.
fn sampled_row(schema: &TableSchema, rows: usize) -> usize {
    sample_rows(schema.name, rows, DEFAULT_SAMPLE, DEFAULT_SEED)[0]
}

#[test]
fn changed_rows_of_the_engine_games_are_named_when_sampled() {
    let (_keep, dir) = fresh_copy();
    let cases = [
        (dice::schema::DECISIONS, "expected_value"),
        (dice::schema::BID_PROBABILITIES, "normal_approximation"),
        (cluedo::schema::FEW_CANDIDATES, "p_heuristic"),
        (werewolf::schema::WEREWOLF_EARLY, "baseline_p_wolf"),
    ];
    let mut rows = Vec::new();
    for (schema, column) in cases {
        let row = sampled_row(&schema, read_table(&dir, &schema).rows());
        rewrite(&dir, &schema, |data| {
            let values = f64_column(data, column);
            // Stay inside [0, 1] so the loaders accept the row.
            values[row] = if values[row] > 0.5 {
                values[row] - 1e-6
            } else {
                values[row] + 1e-6
            };
        });
        rows.push((schema.file, row, column));
    }
    let report = run_verify(&dir);
    assert_eq!(report.mismatches(), rows.len(), "{report}");
    for (file, row, column) in rows {
        let found = findings_of(&report, file);
        assert_eq!(found.len(), 1, "{report}");
        assert_eq!(
            (found[0].row, found[0].column.as_str()),
            (Some(row), column)
        );
        assert!(!found[0].key.is_empty());
    }
}

#[test]
fn a_row_outside_the_sample_needs_full() {
    let (_keep, dir) = fresh_copy();
    let schema = werewolf::schema::WEREWOLF_EARLY;
    let rows = read_table(&dir, &schema).rows();
    let sampled = sample_rows(schema.name, rows, DEFAULT_SAMPLE, DEFAULT_SEED);
    let row = (0..rows)
        .find(|r| sampled.binary_search(r).is_err())
        .unwrap();
    rewrite(&dir, &schema, |data| {
        let p = f64_column(data, "published_score");
        p[row] += 1e-6;
    });
    assert!(run_verify(&dir).is_ok(), "the sample does not hold the row");
    let full = Sampling {
        full: true,
        ..Sampling::default()
    };
    let report = verify(&dir, &full, &registry::verifiers()).unwrap();
    let found = findings_of(&report, schema.file);
    assert_eq!(
        (found[0].row, found[0].column.as_str()),
        (Some(row), "published_score")
    );
}

#[test]
fn an_interrupted_build_leaves_the_previous_set_untouched() {
    let (parent, dir) = fresh_copy();
    let before: Vec<(String, Vec<u8>)> = files_of(&dir);
    let staging = parent.path().join(".tables.staging");
    // The shared build's caches spare these builds the Murder Plan and
    // endgame LPs (cached games are certified again, so the tables are the same);
    // a copy, as a killed build may be saving it.
    let cache = common::shared_set().copy_caches_to(parent.path());
    // Kill the build as soon as it has started writing, and again once it
    // has written a table file into the staging directory.
    for wait_for_table in [false, true] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gametab"))
            .args(["build", "--quiet", "--threads", "1", "--out"])
            .arg(&dir)
            .arg("--cache")
            .arg(&cache)
            .spawn()
            .unwrap();
        let started = Instant::now();
        loop {
            let ready = if wait_for_table {
                std::fs::read_dir(&staging).is_ok_and(|mut entries| {
                    entries.any(|e| {
                        e.is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".parquet"))
                    })
                })
            } else {
                staging.exists()
            };
            if ready || started.elapsed() > Duration::from_secs(300) {
                break;
            }
            assert!(child.try_wait().unwrap().is_none(), "the build ended early");
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(files_of(&dir), before, "the previous set changed");
        Tables::open(&dir).expect("the previous set still loads");
    }
    assert!(run_verify(&dir).is_ok());
    // A complete build then replaces the set as a whole (the leftover
    // staging directory is cleared) and keeps the README.
    std::fs::write(dir.join("README.md"), "documentation").unwrap();
    let build = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(["build", "--quiet", "--out"])
        .arg(&dir)
        .arg("--cache")
        .arg(&cache)
        .output()
        .unwrap();
    assert!(build.status.success(), "{build:?}");
    let mut after = files_of(&dir);
    let readme = after
        .iter()
        .position(|(name, _)| name == "README.md")
        .unwrap();
    assert_eq!(after.remove(readme).1, b"documentation");
    assert_eq!(after.len(), before.len());
    assert!(run_verify(&dir).is_ok());
    let mut siblings: Vec<_> = std::fs::read_dir(parent.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    siblings.sort();
    assert_eq!(
        siblings,
        ["dice_endgame_games.bin", "games.bin", "tables"],
        "staging or previous set left behind"
    );
}

/// Every file of a directory with its bytes, sorted by name.
/// Files in subdirectories are named `sub/name`.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            for (inner, bytes) in files_of(&entry.path()) {
                files.push((format!("{name}/{inner}"), bytes));
            }
        } else {
            files.push((name, std::fs::read(entry.path()).unwrap()));
        }
    }
    files.sort();
    files
}

#[test]
fn missing_and_extra_files_are_named() {
    let (_keep, dir) = fresh_copy();
    let missing = werewolf::schema::WEREWOLF_EARLY.file;
    std::fs::remove_file(dir.join(missing)).unwrap();
    std::fs::write(dir.join("stray.parquet"), b"PAR1").unwrap();
    let report = run_verify(&dir);
    let found = findings_of(&report, missing);
    assert!(found.iter().any(|f| f.column == "file"), "{report}");
    let listing = findings_of(&report, MANIFEST_FILE);
    assert!(
        listing
            .iter()
            .any(|f| f.column == "files" && f.found == "stray.parquet"),
        "{report}"
    );
    // Everything else still verifies.
    assert_eq!(report.files.iter().filter(|f| !f.is_ok()).count(), 2);
}
