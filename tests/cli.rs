//! The `gametab` binary end to end: a whole build followed by lookups, and
//! bad arguments that must give a clear message and a non-zero exit. The
//! build is the run's shared set (`common`), which `gametab build` made.
//!
//! Also every command in a pipeline whose reader has gone (`gametab ... |
//! head -1`): it must end quietly with status 0, not panic.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};

use gametab_build::known_answers;

use crate::common::gametab;

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
        "no table set in /nonexistent/gametab: there is no such directory",
    );
    fails_with(&["no-such-command"], "unrecognized subcommand");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    fails_with(
        &["cluedo", "--log", log, "--advise", "--room", "Rope"],
        "(Rope is a weapon)",
    );
    fails_with(
        &["cluedo", "--log", log, "--advise", "--room", "Attic"],
        "Attic",
    );
    fails_with(&["cluedo", "--log", log, "--room", "Hall"], "--advise");
}

#[test]
fn cluedo_advice_ranks_by_its_objective_and_reports_the_accusation() {
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    let (ok, out, err) = gametab(&["cluedo", "--log", log, "--advise", "--top", "324", "--json"]);
    assert!(ok, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["considered"], 324);
    assert_eq!(doc["objective"]["name"], "certainty");
    assert!(doc["objective"]["rule"]
        .as_str()
        .unwrap()
        .starts_with("the higher chance that the envelope is certain"));
    // The live suggestions and the dead-card ones, apart, make the whole
    // ranking: ranks 1..=324 once each, increasing within each list.
    let live = doc["suggestions"].as_array().unwrap();
    let dead = &doc["dead_card_suggestions"];
    let dead_list = dead["best"].as_array().unwrap();
    assert_eq!(live.len() + dead_list.len(), 324);
    assert_eq!(dead["count"].as_u64().unwrap() as usize, dead_list.len());
    assert!(dead["note"].as_str().unwrap().contains("nobody"));
    let rank = |s: &serde_json::Value| s["rank"].as_u64().unwrap();
    let mut ranks: Vec<u64> = live.iter().chain(dead_list).map(rank).collect();
    assert!(ranks[..live.len()].windows(2).all(|w| w[0] < w[1]));
    assert!(ranks[live.len()..].windows(2).all(|w| w[0] < w[1]));
    ranks.sort_unstable();
    assert_eq!(ranks, (1..=324).collect::<Vec<_>>());
    assert!(live
        .iter()
        .all(|s| s["dead_cards"].as_array().unwrap().is_empty()));
    assert!(dead_list
        .iter()
        .all(|s| !s["dead_cards"].as_array().unwrap().is_empty()));
    // In rank order, P(certain after) never rises (the objective's first
    // key).
    let mut by_rank: Vec<&serde_json::Value> = live.iter().chain(dead_list).collect();
    by_rank.sort_by_key(|s| rank(s));
    let certain: Vec<f64> = by_rank
        .iter()
        .map(|s| s["p_certain_after"].as_f64().unwrap())
        .collect();
    assert!(certain.windows(2).all(|w| w[0] >= w[1]), "best first");
    let entropy = doc["envelope_entropy_bits"].as_f64().unwrap();
    let live_now = doc["live_triples"].as_u64().unwrap() as f64;
    for s in by_rank {
        // 0 <= gain <= H(now), outcome probabilities add up to 1, P(shown)
        // is 1 - P(nobody), P(certain after) is the weight of the outcomes
        // leaving one triple, and the live bits are their expectation.
        let gain = s["expected_gain_bits"].as_f64().unwrap();
        assert!(gain >= -1e-12 && gain <= entropy + 1e-12);
        let outcomes = s["outcomes"].as_array().unwrap();
        let p = |o: &serde_json::Value| o["probability"].as_f64().unwrap();
        let live_after = |o: &serde_json::Value| o["live_triples_after"].as_u64().unwrap();
        let total: f64 = outcomes.iter().map(p).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let nobody: f64 = outcomes
            .iter()
            .filter(|o| o["shown_by"].is_null())
            .map(p)
            .sum();
        assert!((s["p_shown"].as_f64().unwrap() - (1.0 - nobody)).abs() < 1e-12);
        assert!((s["p_nobody"].as_f64().unwrap() - nobody).abs() < 1e-12);
        let certain: f64 = outcomes.iter().filter(|o| live_after(o) == 1).map(p).sum();
        assert!((s["p_certain_after"].as_f64().unwrap() - certain).abs() < 1e-12);
        let bits: f64 = outcomes
            .iter()
            .map(|o| p(o) * (live_after(o) as f64).log2())
            .sum();
        assert!((s["live_bits_after"].as_f64().unwrap() - bits).abs() < 1e-12);
        assert!(outcomes.iter().all(|o| live_after(o) as f64 <= live_now));
    }
    // The accusation names the notebook's most likely cards.
    assert_eq!(doc["accusation"]["suspect"], "Professor Plum");
    let p = doc["accusation"]["probability"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0);
    // The race line: the opponents still in (Cat accused wrongly, so Ann
    // and Bob) with the suggestions the log shows them making and the
    // measured hazard for that many; R is the best
    // P(right after) of the 324; waiting is S * R; accuse now exactly when
    // that is below the chance now.
    let race = &doc["accusation"]["race"];
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    let text = std::fs::read_to_string(log).unwrap();
    let logged: serde_json::Value = serde_json::from_str(&text).unwrap();
    let opponents = race["opponents"].as_array().unwrap();
    assert_eq!(opponents.len(), 2);
    let mut s = 1.0;
    // Ann and Bob: the names' second and third, players 2 and 3.
    for (o, player) in opponents.iter().zip(2u64..) {
        assert_eq!(o["player"], logged["names"][player as usize - 1]);
        let made = logged["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["by"] == player)
            .count();
        assert_eq!(o["suggestions"].as_u64().unwrap() as usize, made);
        let h = gametab_answers::cluedo::race::OPPONENT_HAZARD[1][made.min(9)];
        assert_eq!(f(&o["p_certain_next_turn"]), h);
        s *= 1.0 - h;
    }
    assert!((f(&race["p_no_opponent_first"]) - s).abs() < 1e-15);
    let best = by_rank_all(&doc)
        .iter()
        .map(|x| f(&x["p_right_after"]))
        .fold(p, f64::max);
    assert_eq!(f(&race["p_right_after_next"]), best);
    assert!(best > p);
    assert!((f(&race["p_win_waiting"]) - s * best).abs() < 1e-15);
    assert_eq!(f(&race["p_win_accusing_now"]), p);
    assert!((f(&race["break_even_p_no_opponent_first"]) - p / best).abs() < 1e-15);
    assert_eq!(race["accuse_now"], p > s * best);
    assert!(race["note"]
        .as_str()
        .unwrap()
        .contains("most likely triple"));
    // The text table says the same.
    let (ok, out, err) = gametab(&["cluedo", "--log", log, "--advise"]);
    assert!(ok, "{err}");
    let verdict = if p > s * best { "accuse now" } else { "wait" };
    assert!(
        out.contains(&format!(
            "race: accusing now wins {p:.4}; waiting one round about {:.4}",
            s * best
        )) && out.contains(&format!("): {verdict} (break-even")),
        "{out}"
    );
}

/// Every suggestion of an advice document, live and dead-card ones.
fn by_rank_all(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    let live = doc["suggestions"].as_array().unwrap();
    let dead = doc["dead_card_suggestions"]["best"].as_array().unwrap();
    live.iter().chain(dead).cloned().collect()
}

#[test]
fn cluedo_refuses_a_top_the_server_refuses_and_logs_that_break_the_rules() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    // The server's `top` is 1 to 1000; so is --top.
    // (`--top=-1`: as a separate word, `-1` would read as a flag.)
    for top in ["0", "1001", "-1"] {
        let arg = format!("--top={top}");
        fails_with(&["cluedo", "--log", example, "--advise", &arg], "--top");
    }
    // A suggestion of two cards, a hand with a card twice, an accusation of
    // two weapons, a names list too short: each refused naming the entry,
    // by the notebook and by the advice.
    let text = std::fs::read_to_string(example).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            r#"["Mrs Peacock", "Dagger", "Lounge"]"#,
            r#"["Mrs Peacock", "Dagger"]"#,
            "suggestions[1]: ",
        ),
        (r#""Rope", "Kitchen""#, r#""Rope", "Rope""#, "hand: "),
        (
            r#"["Colonel Mustard", "Revolver", "Billiard Room"]"#,
            r#"["Colonel Mustard", "Revolver", "Rope"]"#,
            "accusations[0]: ",
        ),
        (r#""Ann", "Bob", "Cat""#, r#""Ann", "Bob""#, "names: "),
    ];
    for (i, (from, to, entry)) in cases.into_iter().enumerate() {
        assert!(text.contains(from), "{from}");
        let path = dir.path().join(format!("bad-{i}.json"));
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let path = path.to_str().unwrap();
        fails_with(&["cluedo", "--log", path], entry);
        fails_with(&["cluedo", "--log", path, "--advise"], entry);
    }
}

#[test]
fn cluedo_reads_an_old_log_numbering_seats_from_0_as_its_new_twin_with_a_warning() {
    let new = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.json");
    std::fs::write(&old, common::OLD_CLUEDO_LOG).unwrap();
    let old = old.to_str().unwrap();
    let warning = format!(
        "warning: {old}: \"me\" numbers seats from 0, the old format; write \"viewer\": 1 and \
         number every seat from 1 (docs/cluedo.md)\n"
    );
    for extra in [&["--json"][..], &["--advise", "--json"], &["--advise"], &[]] {
        let run = |log: &str| {
            let mut args = vec!["cluedo", "--log", log];
            args.extend_from_slice(extra);
            gametab(&args)
        };
        let (ok_new, out_new, err_new) = run(new);
        let (ok_old, out_old, err_old) = run(old);
        assert!(ok_new && ok_old, "{extra:?}: {err_new} {err_old}");
        assert_eq!(out_old, out_new, "{extra:?}");
        assert_eq!(err_new, "", "{extra:?}");
        assert_eq!(err_old, warning, "{extra:?}");
    }
}

#[test]
fn cluedo_refuses_a_log_with_both_viewer_and_me_and_names_seats_from_1() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    ))
    .unwrap();
    let both = write(
        "both.json",
        example.replacen(r#""viewer": 1,"#, r#""viewer": 1, "me": 0,"#, 1),
    );
    fails_with(
        &["cluedo", "--log", &both],
        "the log has both \"viewer\" and \"me\"",
    );
    // A seat off the table: named from 1 in a new log, from 0 (and said
    // so) in an old one.
    let accusation = r#""accusations": [{"by": "#;
    let new = write(
        "new.json",
        example.replacen(&format!("{accusation}4"), &format!("{accusation}5"), 1),
    );
    fails_with(
        &["cluedo", "--log", &new],
        "accusations[0]: by is out of range: player 5 is not at the table: players are 1 to 4",
    );
    let old = write(
        "old.json",
        common::OLD_CLUEDO_LOG.replacen(&format!("{accusation}3"), &format!("{accusation}4"), 1),
    );
    fails_with(
        &["cluedo", "--log", &old],
        "player 4 is not at the table: this log has \"me\", the old format, which numbers \
         players from 0, so they are 0 to 3",
    );
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
        known_answers::find("murder_plan", "value", "horizon=3;start=x=(0,0) y=(0,0)").unwrap();
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
        "--json",
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
        known_answers::find("murder_plan", "win_rate", "horizon=8;start=x=(0,1) y=(1,0)").unwrap();
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
            "lookup", "--json", "--tables", out_str, "value", "--days", "1", "--brain", "0,0",
            "--killer", "0,0",
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
        "--hand",
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
    let suggestion = r#"{"by": 2, "cards": ["Colonel Mustard", "Rope", "Hall"], "shown_by": 3}"#;
    let cluedo = format!(
        r#"{{"players": 3, "viewer": 1, "hand": ["Miss Scarlett", "Knife", "Kitchen", "Lead Pipe", "Study", "Mrs Peacock"], "suggestions": [{}]}}"#,
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
