//! The `gametab` binary end to end: a whole build followed by lookups, and
//! bad arguments that must give a clear message and a non-zero exit. The
//! build is the run's shared set (`common`), which `gametab build` made.

mod common;

use std::process::Command;

fn gametab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
        "murder_plan_values.parquet is missing",
    );
    fails_with(&["no-such-command"], "unrecognized subcommand");
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
    assert!((json["value"].as_f64().unwrap() - 0.134346591935461).abs() < 1e-12);
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
    assert!((json["value"].as_f64().unwrap() - 0.7737).abs() < 5e-5);

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
