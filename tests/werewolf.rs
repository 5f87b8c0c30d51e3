//! End-to-end checks of `gametab werewolf` and the Werewolf table builder:
//! the CLI reads the published demo log (text and JSON), bad logs exit
//! non-zero with the event named, and the early-game table is byte-identical
//! across thread counts and reads back through the lookup crate.

use std::process::Command;

use gametab_build::output::TableWriter;
use gametab_build::pipeline::BuildOptions;
use gametab_games::werewolf::{EarlyRole, EarlySituation, EarlyVote, ScoringRule, EARLY_FAMILY};
use gametab_lookup::werewolf::EarlyGameTable;
use gametab_lookup::Tables;

const DEMO: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scripts/examples/werewolf-demo.json"
);
const ROLES_7: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scripts/examples/werewolf-roles-7.json"
);
const ROLES_12: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scripts/examples/werewolf-roles-12.json"
);
const RULES_12: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scripts/examples/werewolf-roles-rules.json"
);

fn gametab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn cli_reads_the_demo_log() {
    let output = gametab(&["werewolf", "--log", DEMO, "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["players"], 12);
    assert_eq!(report["wolves"], 4);
    assert_eq!(report["wolf_sets"], 165);
    let beliefs = report["beliefs"].as_array().unwrap();
    assert_eq!(beliefs.len(), 12);
    let living: f64 = beliefs
        .iter()
        .filter(|b| b["alive"].as_bool().unwrap())
        .map(|b| b["p_wolf"].as_f64().unwrap())
        .sum();
    assert!((living - 3.0).abs() < 1e-9, "{living}");
    assert_eq!(report["ranking"][0], 7);
    assert_eq!(report["ranking"].as_array().unwrap().len(), 11);
    assert_eq!(report["baseline_ranking"].as_array().unwrap().len(), 11);

    let text = gametab(&["werewolf", "--log", DEMO, "--rule", "probability"]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("P(wolf) exact") && text.contains("P(wolf) baseline"),
        "{text}"
    );
    assert!(
        text.contains("vote ranking (probability, exact):    7 "),
        "{text}"
    );
}

/// The demo (a side-only log) gets no role section; role logs get one
/// with every player's role distribution, and the text shows a column per
/// role of the setup.
#[test]
fn cli_reads_role_logs_and_keeps_side_only_reports() {
    let demo = gametab(&["werewolf", "--log", DEMO, "--json"]);
    let demo: serde_json::Value = serde_json::from_slice(&demo.stdout).unwrap();
    assert!(demo.get("roles").is_none());
    for (log, players, present) in [
        (
            ROLES_7,
            7,
            vec!["wolf", "villager", "seer", "witch", "hunter", "guard"],
        ),
        (
            ROLES_12,
            12,
            vec![
                "wolf", "villager", "seer", "witch", "hunter", "guard", "cupid",
            ],
        ),
    ] {
        let output = gametab(&["werewolf", "--log", log, "--json"]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let roles = &report["roles"];
        let lines = roles["players"].as_array().unwrap();
        assert_eq!(lines.len(), players);
        for (line, belief) in lines.iter().zip(report["beliefs"].as_array().unwrap()) {
            let total: f64 = [
                "wolf", "villager", "seer", "witch", "hunter", "guard", "cupid",
            ]
            .iter()
            .map(|r| line[*r].as_f64().unwrap())
            .sum();
            assert!((total - 1.0).abs() < 1e-9, "{line}");
            assert_eq!(line["wolf"], belief["p_wolf"]);
        }
        let counted: Vec<&str> = roles["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c[0].as_str().unwrap())
            .collect();
        assert_eq!(counted, present);
        let text = gametab(&["werewolf", "--log", log]);
        let text = String::from_utf8(text.stdout).unwrap();
        for role in &present {
            assert!(text.contains(&format!("P({role})")), "{text}");
        }
    }
    // The 12-player game: the shooter is the hunter, the lovers are named
    // by the lover's death, the viewer-less ranking leaves the dead out.
    let output = gametab(&["werewolf", "--log", ROLES_12, "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["roles"]["players"][3]["hunter"], 1.0);
    assert_eq!(
        report["roles"]["lovers"][0]["players"],
        serde_json::json!([7, 10])
    );
    assert_eq!(report["roles"]["lovers"][0]["p"], 1.0);
    assert_eq!(report["ranking"].as_array().unwrap().len(), 5);
    let text = String::from_utf8(gametab(&["werewolf", "--log", ROLES_12]).stdout).unwrap();
    assert!(text.contains("lovers, most likely: 7+10 1.0000"), "{text}");
}

/// A role log read by a wolf: the report works, and the viewer is in
/// neither ranking.
#[test]
fn a_wolf_viewer_reads_a_role_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wolf.json");
    std::fs::write(
        &path,
        r#"{"players": 7, "wolves": 2, "roles": {"seer": 1, "witch": 1},
            "viewer": 4, "viewer_role": "wolf",
            "events": [{"kind": "night", "deaths": [1]},
                       {"kind": "claim", "player": 2, "role": "seer", "target": 4, "result": "wolf"},
                       {"kind": "vote", "voter": 4, "target": 2}]}"#,
    )
    .unwrap();
    let output = gametab(&["werewolf", "--log", path.to_str().unwrap(), "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["roles"]["players"][3]["wolf"], 1.0);
    for ranking in ["ranking", "baseline_ranking"] {
        let seats = report[ranking].as_array().unwrap();
        assert_eq!(seats.len(), 5, "{ranking}");
        assert!(!seats.contains(&serde_json::json!(4)), "{ranking}");
    }
}

/// The 12-player game from the guard's seat with every rule in it (his
/// own targets, identity checks, a tie with its revote and a day without
/// elimination): the report says the game goes on and who is what.
#[test]
fn cli_reads_the_rules_example() {
    let output = gametab(&["werewolf", "--log", RULES_12, "--json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let roles = &report["roles"];
    assert_eq!(roles["outcome"]["ongoing"], 1.0);
    assert_eq!(roles["outcome"]["winner"], serde_json::Value::Null);
    // The viewer is the guard, the shooter the hunter, the card shown a wolf.
    assert_eq!(roles["players"][5]["guard"], 1.0);
    assert_eq!(roles["players"][3]["hunter"], 1.0);
    assert_eq!(roles["players"][2]["wolf"], 1.0);
    assert_eq!(roles["lovers"][0]["players"], serde_json::json!([7, 10]));
    assert_eq!(roles["lovers"].as_array().unwrap().len(), 1);
    assert!(!report["ranking"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!(6)));
    let text = String::from_utf8(gametab(&["werewolf", "--log", RULES_12]).stdout).unwrap();
    assert!(text.contains("the game goes on"), "{text}");
}

/// A log that ends with the game over says who has won.
#[test]
fn the_report_says_who_has_won() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("over.json");
    std::fs::write(
        &path,
        r#"{"players": 5, "wolves": 1, "roles": ["seer"],
            "events": [{"kind": "vote", "voter": 2, "target": 1},
                       {"kind": "eliminated", "player": 1, "role": "wolf"}]}"#,
    )
    .unwrap();
    let output = gametab(&["werewolf", "--log", path.to_str().unwrap(), "--json"]);
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["roles"]["outcome"]["winner"], "village");
    assert_eq!(report["roles"]["outcome"]["village"], 1.0);
    let text =
        String::from_utf8(gametab(&["werewolf", "--log", path.to_str().unwrap()]).stdout).unwrap();
    assert!(text.contains("game over: the village has won"), "{text}");
}

#[test]
fn bad_logs_exit_non_zero_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            r#"{"players": 6, "wolves": 2, "events": [
                {"kind": "seer", "target": 2, "result": "wolf"},
                {"kind": "eliminated", "player": 2, "revealed": "village"}]}"#,
            "event 2",
        ),
        (r#"{"players": 6, "wolves": 6, "events": []}"#, "wolves"),
        (
            r#"{"players": 6, "wolves": 2, "events": [{"kind": "vote", "voter": 1}]}"#,
            "not a valid Werewolf game log",
        ),
        (r#"{"players": 40, "wolves": 10, "events": []}"#, "limit"),
        (
            r#"{"players": 6, "wolves": 2, "events": [{"kind": "night", "deaths": [1]}]}"#,
            "roles",
        ),
        (
            r#"{"players": 6, "wolves": 2, "roles": {"witch": 1}, "events": [
                {"kind": "night", "deaths": []},
                {"kind": "hunter_shot", "hunter": 1, "target": 2}]}"#,
            "event 2",
        ),
        (
            r#"{"players": 14, "wolves": 4, "roles": {"seer": 1, "witch": 1, "hunter": 1,
                "guard": 1, "cupid": 1}, "events": []}"#,
            "limit",
        ),
        // Votes after the last wolf is out.
        (
            r#"{"players": 6, "wolves": 1, "roles": ["seer"], "events": [
                {"kind": "eliminated", "player": 2, "revealed": "wolf"},
                {"kind": "vote", "voter": 1, "target": 3}]}"#,
            "event 2 (vote 1 -> 3): the game is over after event 1: every wolf is dead",
        ),
        // An old-style night kill after the last wolf is out.
        (
            r#"{"players": 6, "wolves": 1, "roles": ["seer"], "events": [
                {"kind": "eliminated", "player": 2, "role": "wolf"},
                {"kind": "night_kill", "victim": 3}]}"#,
            "the village has won",
        ),
        // A claim by a dead player; a seer check by a viewer who is not
        // the seer.
        (
            r#"{"players": 6, "wolves": 1, "roles": ["seer"], "events": [
                {"kind": "eliminated", "player": 2},
                {"kind": "claim", "player": 2, "role": "seer"}]}"#,
            "event 2 (player 2 claims seer): player 2 is already dead",
        ),
        (
            r#"{"players": 6, "wolves": 1, "roles": ["seer"], "viewer": 1, "events": [
                {"kind": "seer", "target": 2, "result": "wolf"}]}"#,
            "it needs the seer as the viewer",
        ),
        // A viewer out of range is the viewer.
        (
            r#"{"players": 6, "wolves": 1, "roles": ["seer"], "viewer": 7, "events": []}"#,
            "viewer is out of range: player 7",
        ),
        // No assignment left: the event after which none is.
        (
            r#"{"players": 5, "wolves": 1, "roles": ["witch"],
                "model": {"wolves_knife_wolf": 0, "witch_poisons_herself": 0}, "events": [
                {"kind": "night", "deaths": [5]},
                {"kind": "tie", "players": [1, 2]}, {"kind": "no_elimination"},
                {"kind": "night", "deaths": []},
                {"kind": "tie", "players": [1, 2]}, {"kind": "no_elimination"},
                {"kind": "night", "deaths": []}]}"#,
            "event 7 (quiet night): no role assignment explains the events up to this one",
        ),
        // Two nights with no day between.
        (
            r#"{"players": 5, "wolves": 1, "roles": ["witch"], "events": [
                {"kind": "night", "deaths": [5]}, {"kind": "night", "deaths": []}]}"#,
            "event 2 (quiet night): days and nights alternate",
        ),
    ];
    for (index, (log, expected)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad-{index}.json"));
        std::fs::write(&path, log).unwrap();
        let output = gametab(&["werewolf", "--log", path.to_str().unwrap()]);
        assert!(!output.status.success(), "case {index} was accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "case {index}: {stderr}");
        assert!(!stderr.contains("panicked"), "case {index}: {stderr}");
        assert!(
            stderr.matches("inconsistent input").count() <= 1,
            "case {index}: {stderr}"
        );
    }
    let missing = gametab(&["werewolf", "--log", "/nonexistent/game.json"]);
    assert!(!missing.status.success());
}

fn build(threads: usize) -> (tempfile::TempDir, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        out: dir.path().to_path_buf(),
        threads,
        progress: gametab_build::progress::Progress::hidden(),
        lp: Default::default(),
        cache: None,
        endgame_frontier: false,
        endgame_budget: None,
        endgame_merge_only: false,
    };
    let mut writer = TableWriter::new(dir.path()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let lines = pool
        .install(|| gametab_build::werewolf::build_tables(&options, &mut writer))
        .unwrap();
    assert_eq!(lines.len(), 1);
    writer.write_manifest(0.0).unwrap();
    let bytes = std::fs::read(dir.path().join("werewolf_early.parquet")).unwrap();
    (dir, bytes)
}

#[test]
fn early_table_is_deterministic_and_serves_the_family() {
    let (dir, one_thread) = build(1);
    let (_, two_threads) = build(2);
    assert_eq!(
        one_thread, two_threads,
        "output depends on the thread count"
    );
    let tables = Tables::open(dir.path()).unwrap();
    let table = tables.werewolf().unwrap();
    assert_eq!(table.len(), EARLY_FAMILY.situations().len());
    // Spot checks against the engine, and a known answer: a trusted wolf
    // result is the vote every rule but pure information recommends.
    for situation in EARLY_FAMILY.situations().iter().step_by(97) {
        assert_eq!(
            table.lookup(situation).unwrap(),
            &situation.solve().unwrap()
        );
    }
    let situation = EarlySituation {
        players: 12,
        wolves: 4,
        checked_is_wolf: true,
        votes_for_seer: 3,
        votes_for_checked: 4,
        votes_for_suspect: 2,
        checked_votes: EarlyVote::Seer,
        suspect_votes: EarlyVote::Seer,
    };
    let answer = table.lookup(&situation).unwrap();
    assert_eq!(
        answer.recommended_by(ScoringRule::Published),
        EarlyRole::Checked
    );
    assert_eq!(
        answer.recommended_by(ScoringRule::Probability),
        EarlyRole::Checked
    );
    assert_eq!(answer.wolf_sets, 120); // C(10, 3): three wolves among the 10 unknown
    let sum: f64 = answer
        .roles
        .iter()
        .map(|r| r.p_wolf * f64::from(r.members))
        .sum();
    assert!((sum - 4.0).abs() < 1e-9);
    // N = 13 is outside the table: answered by the engine.
    let bigger = EarlySituation {
        players: 13,
        votes_for_suspect: 3,
        ..situation
    };
    assert!(table.lookup(&bigger).is_err());
    assert_eq!(table.answer(&bigger).unwrap(), bigger.solve().unwrap());
}

#[test]
fn corrupted_table_bytes_are_errors_not_panics() {
    let (_dir, bytes) = build(2);
    for cut in [0, 8, bytes.len() / 2, bytes.len() - 1] {
        let truncated = bytes::Bytes::copy_from_slice(&bytes[..cut]);
        assert!(
            EarlyGameTable::from_bytes(truncated).is_err(),
            "cut at {cut}"
        );
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..60 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut garbled = bytes.clone();
        let at = (state % garbled.len() as u64) as usize;
        garbled[at] ^= 1 << (state >> 61);
        let _ = EarlyGameTable::from_bytes(bytes::Bytes::from(garbled));
    }
}

/// docs/werewolf.md lists every event kind of the log, each as a row of
/// its table; the exhaustive match below fails to compile when a kind is
/// added, so the list cannot fall behind the reader.
#[test]
fn the_werewolf_guide_lists_every_event_kind() {
    use gametab_games::werewolf::{CheckName, EventLog, RoleName, SideName};
    let events = [
        EventLog::NightKill { victim: 1 },
        EventLog::Seer {
            target: 1,
            result: CheckName::Wolf,
        },
        EventLog::Vote {
            voter: 1,
            target: 2,
        },
        EventLog::Eliminated {
            player: 1,
            revealed: Some(SideName::Wolf),
            role: None,
        },
        EventLog::Revealed {
            player: 1,
            side: None,
            role: Some(RoleName::Seer),
        },
        EventLog::Behaviour {
            player: 1,
            score: 0.5,
        },
        EventLog::Night {
            deaths: vec![1],
            guarded: None,
        },
        EventLog::Tie {
            players: vec![1, 2],
        },
        EventLog::NoElimination,
        EventLog::HunterShot {
            hunter: 1,
            target: 2,
        },
        EventLog::LoverDeath {
            player: 1,
            lover: 2,
        },
        EventLog::Pack { wolves: vec![1] },
        EventLog::Lovers { players: vec![] },
        EventLog::SelfDestruct { player: 1 },
        EventLog::Witch {
            shown: None,
            saved: false,
            poisoned: None,
        },
        EventLog::Claim {
            player: 1,
            role: RoleName::Seer,
            target: None,
            result: None,
        },
    ];
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/werewolf.md")).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for event in &events {
        // One of each kind: a new kind fails to compile here.
        let index = match event {
            EventLog::NightKill { .. } => 0,
            EventLog::Seer { .. } => 1,
            EventLog::Vote { .. } => 2,
            EventLog::Eliminated { .. } => 3,
            EventLog::Revealed { .. } => 4,
            EventLog::Behaviour { .. } => 5,
            EventLog::Night { .. } => 6,
            EventLog::Tie { .. } => 7,
            EventLog::NoElimination => 8,
            EventLog::HunterShot { .. } => 9,
            EventLog::LoverDeath { .. } => 10,
            EventLog::Pack { .. } => 11,
            EventLog::Lovers { .. } => 12,
            EventLog::SelfDestruct { .. } => 13,
            EventLog::Witch { .. } => 14,
            EventLog::Claim { .. } => 15,
        };
        seen.insert(index);
        let json = serde_json::to_value(event).unwrap();
        let kind = json["kind"].as_str().unwrap();
        assert!(
            guide.contains(&format!("| `{kind}` |")),
            "docs/werewolf.md has no row for `{kind}`"
        );
    }
    assert_eq!(seen.len(), events.len(), "one event of each kind");
}
