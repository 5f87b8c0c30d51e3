//! The `gametab` binary end to end: a whole build followed by lookups, and
//! bad arguments that must give a clear message and a non-zero exit. The
//! build is the run's shared set (`common`), which `gametab build` made.
//!
//! Also every command in a pipeline whose reader has gone (`gametab ... |
//! head -1`): it must end quietly with status 0, not panic.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};

use gametab::published;

use common::gametab;

fn fails_with(args: &[&str], needle: &str) {
    let (ok, _, err) = gametab(args);
    assert!(!ok, "{args:?} succeeded");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

#[test]
fn bad_arguments_are_named_and_exit_non_zero() {
    fails_with(&["build", "--threads", "0"], "--threads");
    fails_with(
        &[
            "murder-plan",
            "solve",
            "--days",
            "0",
            "--brain",
            "0,0",
            "--killer",
            "0,0",
        ],
        "--days",
    );
    fails_with(
        &[
            "murder-plan",
            "solve",
            "--days",
            "3",
            "--brain",
            "2,0",
            "--killer",
            "0,0",
        ],
        "0 or 1",
    );
    fails_with(
        &[
            "murder-plan",
            "solve",
            "--days",
            "3",
            "--brain",
            "0",
            "--killer",
            "0,0",
        ],
        "two components",
    );
    fails_with(
        &[
            "murder-plan",
            "solve",
            "--days",
            "3",
            "--brain",
            "0,0",
            "--killer",
            "0,0",
            "--forbid-movement-left",
            "4",
        ],
        "forbid-movement-left",
    );
    fails_with(
        &[
            "lookup",
            "--tables",
            "/nonexistent/gametab",
            "value",
            "--days",
            "1",
            "--brain",
            "0,0",
            "--killer",
            "0,0",
        ],
        "manifest.json is missing",
    );
    fails_with(&["no-such-command"], "unrecognized subcommand");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    fails_with(
        &["cluedo", "--log", log, "--advise", "--room", "Rope"],
        "Rope is not a room",
    );
    fails_with(
        &["cluedo", "--log", log, "--advise", "--room", "Attic"],
        "Attic",
    );
    fails_with(&["cluedo", "--log", log, "--room", "Hall"], "--advise");
}

#[test]
fn cluedo_advice_ranks_by_gain_and_reports_the_accusation() {
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    let (ok, out, err) = gametab(&["cluedo", "--log", log, "--advise", "--top", "324", "--json"]);
    assert!(ok, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["considered"], 324);
    let ranked = doc["suggestions"].as_array().unwrap();
    assert_eq!(ranked.len(), 324);
    let gains: Vec<f64> = ranked
        .iter()
        .map(|s| s["expected_gain_bits"].as_f64().unwrap())
        .collect();
    assert!(gains.windows(2).all(|w| w[0] >= w[1]), "best first");
    let entropy = doc["envelope_entropy_bits"].as_f64().unwrap();
    for s in ranked {
        // 0 <= gain <= H(now), outcome probabilities add up to 1, and
        // P(shown) is 1 - P(nobody).
        let gain = s["expected_gain_bits"].as_f64().unwrap();
        assert!(gain >= -1e-12 && gain <= entropy + 1e-12);
        let outcomes = s["outcomes"].as_array().unwrap();
        let total: f64 = outcomes
            .iter()
            .map(|o| o["probability"].as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-12);
        let nobody: f64 = outcomes
            .iter()
            .filter(|o| o["shown_by"].is_null())
            .map(|o| o["probability"].as_f64().unwrap())
            .sum();
        assert!((s["p_shown"].as_f64().unwrap() - (1.0 - nobody)).abs() < 1e-12);
    }
    // The accusation names the notebook's most likely cards.
    assert_eq!(doc["accusation"]["suspect"], "Professor Plum");
    let p = doc["accusation"]["probability"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0);
}

#[test]
fn solve_prints_the_published_value() {
    let (ok, out, err) = gametab(&[
        "murder-plan",
        "solve",
        "--days",
        "3",
        "--brain",
        "0,0",
        "--killer",
        "0,0",
        "--json",
    ]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let published =
        published::find("murder_plan", "value", "horizon=3;start=x=(0,0) y=(0,0)").unwrap();
    let value = json["value"].as_f64().unwrap();
    assert!(published.reproduced_by(value), "{value}");
    let total: f64 = json["mastermind_strategy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn build_then_lookup() {
    let set = common::shared_set();
    assert!(
        set.summary().contains("max certificate gap"),
        "{}",
        set.summary()
    );
    let out = set.tables();
    assert!(out.join("manifest.json").exists());
    assert!(
        !set.root().join(".tables.staging").exists(),
        "staging directory left behind"
    );
    let out_str = out.to_str().unwrap();
    let (ok, stdout, err) = gametab(&[
        "lookup",
        "--tables",
        out_str,
        "win-rate",
        "--horizon",
        "8",
        "--brain",
        "0,1",
        "--killer",
        "1,0",
    ]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let published =
        published::find("murder_plan", "win_rate", "horizon=8;start=x=(0,1) y=(1,0)").unwrap();
    let percent = 100.0 * json["value"].as_f64().unwrap();
    assert!(published.reproduced_by(percent), "{percent} %");

    // A tampered file (in a copy) is refused by name.
    let (_keep, out) = common::copy_of_tables();
    let out_str = out.to_str().unwrap();
    let values = out.join("murder_plan_values.parquet");
    let mut bytes = std::fs::read(&values).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&values, bytes).unwrap();
    fails_with(
        &[
            "lookup", "--tables", out_str, "value", "--days", "1", "--brain", "0,0", "--killer",
            "0,0",
        ],
        "murder_plan_values.parquet: BLAKE2 digest",
    );
}

/// Run `gametab` with its standard output on a pipe whose reading end is
/// closed before it starts, so its first write of an answer fails (EPIPE:
/// Rust ignores SIGPIPE) however short the answer is.
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

/// `args` answers on standard output when it is read, and ends quietly with
/// status 0 when nobody reads it.
fn ends_quietly_when_the_reader_has_gone(args: &[&str]) {
    let (ok, out, err) = gametab(args);
    assert!(ok, "{args:?}: {err}");
    assert!(!out.is_empty(), "{args:?} printed nothing to cut short");
    ends_quietly_into_a_closed_pipe(args);
}

/// `args` ends quietly with status 0 when nobody reads its answer.
fn ends_quietly_into_a_closed_pipe(args: &[&str]) {
    let cut = into_closed_pipe(args);
    let err = String::from_utf8_lossy(&cut.stderr);
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(cut.status.success(), "{args:?}: {:?}\n{err}", cut.status);
    assert!(err.is_empty(), "{args:?} complained: {err}");
}

#[test]
fn commands_without_tables_end_quietly_when_the_reader_has_gone() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/examples");
    let cluedo = examples.join("cluedo-game.json");
    let werewolf = examples.join("werewolf-demo.json");
    let (cluedo, werewolf) = (cluedo.to_str().unwrap(), werewolf.to_str().unwrap());
    let solve = [
        "murder-plan",
        "solve",
        "--days",
        "3",
        "--brain",
        "0,0",
        "--killer",
        "0,0",
    ];
    let dice = [
        "dice",
        "--players",
        "4",
        "--bid",
        "5x5",
        "--mine",
        "1,5,5,2,3",
    ];
    for json in [false, true] {
        let with = |args: &[&str]| -> Vec<String> {
            let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            if json {
                args.push("--json".into());
            }
            args
        };
        for args in [
            with(&["cluedo", "--log", cluedo]),
            with(&["werewolf", "--log", werewolf]),
            with(&dice),
            with(&solve),
        ] {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            ends_quietly_when_the_reader_has_gone(&args);
        }
    }
    ends_quietly_when_the_reader_has_gone(&["--help"]);
}

#[test]
fn commands_on_tables_end_quietly_when_the_reader_has_gone() {
    let tables = common::built_tables().to_str().unwrap();
    let state = ["--days", "8", "--brain", "0,1", "--killer", "1,0"];
    let on_state = |query: &[&'static str]| -> Vec<&str> {
        [&["lookup", "--tables", tables][..], query, &state].concat()
    };
    for args in [
        on_state(&["value"]),
        on_state(&["strategy", "--side", "mastermind"]),
        on_state(&["sample", "--side", "protagonists", "--u", "0.42"]),
        on_state(&["brain"]),
        vec!["lookup", "--tables", tables, "win-rate", "--horizon", "8"],
    ] {
        ends_quietly_when_the_reader_has_gone(&args);
    }
    // A verification recomputes every Murder Plan certificate (seconds,
    // whatever the sample), and tests/verify.rs checks what it prints:
    // here only how it ends.
    for json in [&[][..], &["--json"]] {
        let args = [&["verify", "--tables", tables, "--sample", "1"][..], json].concat();
        ends_quietly_into_a_closed_pipe(&args);
    }
}

#[test]
fn a_build_ends_quietly_when_the_reader_has_gone() {
    // A whole build, its summary printed to nobody. The shared build's game
    // caches (copies) spare it the Murder Plan and endgame LPs.
    let dir = tempfile::tempdir().unwrap();
    let cache = common::shared_set().copy_caches_to(dir.path());
    let out = dir.path().join("tables");
    let cut = into_closed_pipe(&[
        "build",
        "--quiet",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&cut.stderr);
    assert!(!err.contains("panicked"), "build panicked: {err}");
    assert!(cut.status.success(), "{:?}\n{err}", cut.status);
    assert!(err.is_empty(), "build complained: {err}");
    // The build itself was not cut short: it published the same tables.
    let manifest = |dir: &Path| -> Manifest {
        serde_json::from_slice(&std::fs::read(dir.join(MANIFEST_FILE)).unwrap()).unwrap()
    };
    assert_eq!(manifest(&out).files, manifest(common::built_tables()).files);
}

#[test]
fn a_failed_verification_is_not_hidden_by_a_closed_pipe() {
    let (_keep, tables) = common::copy_of_tables();
    // Without the values no Murder Plan table is certified: a short run.
    std::fs::remove_file(tables.join("murder_plan_values.parquet")).unwrap();
    let tables = tables.to_str().unwrap();
    let cut = into_closed_pipe(&["verify", "--tables", tables, "--sample", "1"]);
    let err = String::from_utf8_lossy(&cut.stderr);
    assert_eq!(cut.status.code(), Some(1), "{err}");
    assert!(err.contains("mismatches"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn game_logs_are_read_within_bounds_and_a_file_out_is_refused_before_building() {
    // /dev/zero never ends: the read stops at the byte limit.
    for game in ["cluedo", "werewolf"] {
        fails_with(
            &[game, "--log", "/dev/zero"],
            "over 16777216 bytes, the most a game log may hold",
        );
    }
    // The server's event limits.
    let dir = tempfile::tempdir().unwrap();
    let suggestion = r#"{"by": 1, "cards": ["Colonel Mustard", "Rope", "Hall"], "shown_by": 2}"#;
    let cluedo = format!(
        r#"{{"players": 3, "me": 0, "hand": ["Miss Scarlett", "Knife", "Kitchen", "Lead Pipe", "Study", "Mrs Peacock"], "suggestions": [{}]}}"#,
        vec![suggestion; 10_001].join(",")
    );
    let path = dir.path().join("cluedo.json");
    std::fs::write(&path, cluedo).unwrap();
    fails_with(
        &["cluedo", "--log", path.to_str().unwrap()],
        "the log has 10001 events; at most 10000",
    );
    let vote = r#"{"kind": "vote", "voter": 1, "target": 2}"#;
    let werewolf = format!(
        r#"{{"players": 5, "wolves": 1, "events": [{}]}}"#,
        vec![vote; 10_001].join(",")
    );
    let path = dir.path().join("werewolf.json");
    std::fs::write(&path, werewolf).unwrap();
    fails_with(
        &["werewolf", "--log", path.to_str().unwrap()],
        "the log has 10001 events; at most 10000",
    );
    // `build --out` naming a file is refused before any work (the file is
    // left as it was).
    let file = dir.path().join("not-a-directory");
    std::fs::write(&file, "keep me").unwrap();
    fails_with(
        &["build", "--quiet", "--out", file.to_str().unwrap()],
        "is a file, not a directory",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
}
