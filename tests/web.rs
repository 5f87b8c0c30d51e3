//! The WebAssembly module (`web/`, built by `scripts/build-web`) against
//! the native lookup crate: this test writes what the Rust side answers
//! (the lookup crate on the Parquet tables of the shared set, the games
//! crate's rules) into a JSON file, then runs the Node conformance test
//! (`web/test/conformance.test.mjs`, `node --test`), which loads the
//! module and the set's browser bundle and checks that it answers exactly
//! the same: every value, gap and reachability of every key (and the
//! refusal of what the bundle does not hold), both strategies of every
//! position, sampling at the cumulative boundaries, move values on a
//! sample of positions, every brain choice, legal actions, brain targets
//! and the win test of every state, the transition of every legal action
//! pair from a sample of states, the win rates.
//!
//! The expectations never come from the module under test. Floats cross
//! as JSON numbers (shortest round-trip form, which JavaScript parses back
//! to the same double), so "exactly" means to the bit.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Value};

use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, BrainTarget, LimitedCards, Placement, State,
    STATE_COUNT,
};
use gametab_games::murder_plan::{CardKind, MastermindCard, ProtagonistCard};
use gametab_lookup::murder_plan::MurderPlanTables;
use gametab_lookup::Tables;

const KEYS: usize = 9 * STATE_COUNT;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn state_of(key: usize) -> State {
    State::from_index(key % STATE_COUNT).unwrap()
}

fn fields(s: State) -> Value {
    json!([
        s.brain.first(),
        s.brain.second(),
        s.killer.first(),
        s.killer.second(),
        s.killer_intrigue,
        s.key_person_intrigue,
        u8::from(s.limited.diagonal),
        u8::from(s.limited.intrigue_plus_two),
        s.limited.forbid_movement
    ])
}

fn labels<Card: CardKind>() -> Value {
    (0..Placement::<Card>::CODES)
        .map(|code| json!(Placement::<Card>::from_code(code as u8).unwrap().labels()))
        .collect()
}

fn support<Card: CardKind>(support: &[(Placement<Card>, f64)]) -> Value {
    support.iter().map(|&(a, p)| json!([a.code(), p])).collect()
}

/// A position (reachable, not won, days_left >= 1).
fn is_position(tables: &MurderPlanTables, key: usize) -> bool {
    let (days, state) = ((key / STATE_COUNT) as u8, state_of(key));
    days >= 1 && !state.is_win() && tables.reachable(days, state).unwrap()
}

/// Values (null where the bundle holds none: unreachable keys of
/// days_left >= 1 that the rules do not fix), gaps, reachability.
fn values(tables: &MurderPlanTables) -> Value {
    let (mut values, mut gaps, mut reachable) = (Vec::new(), Vec::new(), Vec::new());
    for key in 0..KEYS {
        let (days, state) = ((key / STATE_COUNT) as u8, state_of(key));
        let held = days == 0 || state.is_win() || tables.reachable(days, state).unwrap();
        values.push(held.then(|| tables.value(days, state).unwrap()));
        gaps.push(held.then(|| tables.gap(days, state).unwrap()));
        reachable.push(tables.reachable(days, state).unwrap());
    }
    json!({"values": values, "gaps": gaps, "reachable": reachable})
}

fn strategies(tables: &MurderPlanTables) -> Value {
    let (mut mastermind, mut protagonists) = (Vec::new(), Vec::new());
    for key in (0..KEYS).filter(|&k| is_position(tables, k)) {
        let (days, state) = ((key / STATE_COUNT) as u8, state_of(key));
        mastermind.push(json!([
            key,
            support(tables.mastermind_strategy(days, state).unwrap())
        ]));
        protagonists.push(json!([
            key,
            support(tables.protagonists_strategy(days, state).unwrap())
        ]));
    }
    json!({"mastermind": mastermind, "protagonists": protagonists})
}

/// On every 41st position: the sampled action at 0, at each cumulative
/// boundary of the stored support (computed in the stored order, as the
/// lookup sums it) and just below 1.
fn samples(tables: &MurderPlanTables) -> Value {
    let mut out = Vec::new();
    let positions = (0..KEYS).filter(|&k| is_position(tables, k));
    for key in positions.step_by(41) {
        let (days, state) = ((key / STATE_COUNT) as u8, state_of(key));
        let mut boundaries = vec![0.0, 0.5, 1.0 - f64::EPSILON / 2.0];
        let mut running = 0.0;
        for &(_, p) in tables.protagonists_strategy(days, state).unwrap() {
            running += p;
            boundaries.push(running);
        }
        for u in boundaries.into_iter().filter(|u| (0.0..1.0).contains(u)) {
            let m = tables.sample_mastermind(days, state, u).unwrap().code();
            let p = tables.sample_protagonists(days, state, u).unwrap().code();
            out.push(json!([key, u, m, p]));
        }
    }
    Value::Array(out)
}

/// Every move of every 101st position, best first.
fn moves(tables: &MurderPlanTables) -> Value {
    let mut out = Vec::new();
    let positions = (0..KEYS).filter(|&k| is_position(tables, k));
    for key in positions.step_by(101) {
        let (days, state) = ((key / STATE_COUNT) as u8, state_of(key));
        let m: Vec<Value> = tables
            .mastermind_moves(days, state)
            .unwrap()
            .iter()
            .map(|m| json!([m.action.code(), m.value, m.loss, m.probability]))
            .collect();
        let p: Vec<Value> = tables
            .protagonist_moves(days, state)
            .unwrap()
            .iter()
            .map(|m| json!([m.action.code(), m.value, m.loss, m.probability]))
            .collect();
        out.push(json!({"key": key, "mastermind": m, "protagonists": p}));
    }
    Value::Array(out)
}

/// Whether the bundle holds the brain's choice after the cards of a turn
/// with `days` left (`tables/README.md`): the post-card state is
/// reachable with one day fewer, and so is (or is won, or no day is left)
/// every state a legal ability leads to from it.
fn brain_held(tables: &MurderPlanTables, days: u8, post: State) -> bool {
    let held = |s: State| days == 1 || s.is_win() || tables.reachable(days - 1, s).unwrap();
    tables.reachable(days - 1, post).unwrap()
        && BrainTarget::legal(post).all(|t| held(t.apply(post)))
}

/// The brain's choice of every post-card state the bundle holds, with its
/// value; and a few it does not hold, which the module must refuse.
fn brain_choices(tables: &MurderPlanTables) -> Value {
    let (mut held, mut refused) = (Vec::new(), Vec::new());
    for key in STATE_COUNT..KEYS {
        let (days, post) = ((key / STATE_COUNT) as u8, state_of(key));
        if brain_held(tables, days, post) {
            let (target, value) = tables.brain_choice(days, post).unwrap();
            held.push(json!([key, target.label(), value]));
        } else if refused.len() < 200 && key % 7 == 0 {
            refused.push(key);
        }
    }
    json!({"held": held, "refused": refused})
}

/// For every state: whether it is won, the brain's legal targets there
/// and the state each leads to.
fn rules_of_states() -> Value {
    let states: Vec<Value> = State::all()
        .map(|s| {
            let targets: Vec<Value> = BrainTarget::legal(s)
                .map(|t| json!([t.label(), t.apply(s).index()]))
                .collect();
            json!({"fields": fields(s), "won": s.is_win(), "brain": targets})
        })
        .collect();
    let legal = |side: &str| -> Value {
        (0..16)
            .map(|i| {
                let limited = LimitedCards::from_index(i).unwrap();
                let codes: Vec<u8> = match side {
                    "mastermind" => mastermind_actions(limited)
                        .iter()
                        .map(|a| a.code())
                        .collect(),
                    _ => protagonist_actions(limited)
                        .iter()
                        .map(|a| a.code())
                        .collect(),
                };
                json!(codes)
            })
            .collect()
    };
    json!({
        "states": states,
        "starts": State::starts().map(|s| s.index()).collect::<Vec<_>>(),
        "legal": {"mastermind": legal("mastermind"), "protagonists": legal("protagonists")},
    })
}

/// From every 293rd state (won ones skipped, and always a start and a
/// state with every limited card spent): the post-card state of every
/// legal action pair, in canonical order; for the first of them also the
/// whole outcome (moves as offset codes, intrigue added, cards spent).
fn transitions() -> Value {
    let mut chosen: Vec<State> = State::all().step_by(293).filter(|s| !s.is_win()).collect();
    chosen.push(State::starts().nth(6).unwrap());
    let mut spent = State::starts().nth(9).unwrap();
    spent.limited = LimitedCards {
        diagonal: false,
        intrigue_plus_two: false,
        forbid_movement: 0,
    };
    chosen.push(spent);
    let mut out = Vec::new();
    for (i, &state) in chosen.iter().enumerate() {
        let mut posts = Vec::new();
        let mut outcomes = Vec::new();
        for a in mastermind_actions(state.limited) {
            for b in protagonist_actions(state.limited) {
                let outcome = resolve(a, b);
                posts.push(outcome.apply(state).index());
                if i == 0 {
                    outcomes.push(json!([
                        outcome.key_person_move.code(),
                        outcome.brain_move.code(),
                        outcome.killer_move.code(),
                        outcome.killer_intrigue,
                        outcome.key_person_intrigue,
                        u8::from(outcome.diagonal_used),
                        u8::from(outcome.intrigue_plus_two_used),
                        outcome.forbid_movement_used
                    ]));
                }
            }
        }
        out.push(json!({"state": state.index(), "posts": posts, "outcomes": outcomes}));
    }
    Value::Array(out)
}

fn win_rates(tables: &MurderPlanTables) -> Value {
    let mut out = Vec::new();
    for horizon in 1..=8u8 {
        out.push(json!([
            horizon,
            Value::Null,
            tables.win_rate(horizon, None).unwrap()
        ]));
        for start in State::starts() {
            let rate = tables
                .win_rate(horizon, Some((start.brain, start.killer)))
                .unwrap();
            out.push(json!([horizon, start.index(), rate]));
        }
    }
    Value::Array(out)
}

/// Everything the Node test compares with, from the lookup crate and the
/// games crate.
/// The first draws of the module's generator for a few seeds (the
/// wrapper's `Random` reimplements it in JavaScript).
fn random_draws() -> Value {
    [0u32, 7, 20261204, u32::MAX]
        .iter()
        .map(|&seed| {
            let mut rng = gametab_web::Rng::new(seed);
            json!([seed, (0..50).map(|_| rng.next_unit()).collect::<Vec<f64>>()])
        })
        .collect()
}

fn expectations(tables: &Tables) -> Value {
    let mp = tables.murder_plan().unwrap();
    json!({
        "generator": tables.manifest().generator_version,
        "positions": (0..KEYS).filter(|&k| is_position(mp, k)).count(),
        "actions": {"mastermind": labels::<MastermindCard>(), "protagonists": labels::<ProtagonistCard>()},
        "rules": rules_of_states(),
        "keys": values(mp),
        "strategies": strategies(mp),
        "samples": samples(mp),
        "moves": moves(mp),
        "brain": brain_choices(mp),
        "transitions": transitions(),
        "win_rates": win_rates(mp),
        "random": random_draws(),
    })
}

/// The Rust side's answers, written once per run into target/tmp, so that
/// the Node tests can be rerun by hand:
/// GAMETAB_TABLES=<the shared set> GAMETAB_EXPECTED=<this file> node --test web/test/
fn expected_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let tables = Tables::open(common::built_tables()).expect("the shared set opens");
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-expected.json");
        std::fs::write(&path, serde_json::to_vec(&expectations(&tables)).unwrap()).unwrap();
        path
    })
}

/// The npm package as `npm pack` makes it from web/dist and the shared
/// set's bundle (web/tools/pack.mjs), and the same unpacked: what a user
/// installs.
fn packed() -> &'static (PathBuf, PathBuf) {
    static PACKED: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    PACKED.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-package");
        let _ = std::fs::remove_dir_all(&dir);
        let output = Command::new("node")
            .arg(repository().join("web/tools/pack.mjs"))
            .arg(common::web_module())
            .arg(common::built_tables().join("murder_plan_browser.bin.gz"))
            .arg(&dir)
            .output()
            .expect("node runs (scripts/setup --web installs it)");
        assert!(
            output.status.success(),
            "npm pack failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let tarball = PathBuf::from(String::from_utf8(output.stdout).unwrap().trim());
        let unpacked = dir.join("unpacked");
        std::fs::create_dir_all(&unpacked).unwrap();
        let status = Command::new("tar")
            .arg("xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&unpacked)
            .status()
            .unwrap();
        assert!(status.success(), "tar cannot unpack {}", tarball.display());
        (tarball, unpacked.join("package"))
    })
}

/// Run Node test files (`node --test`) with the set, the answers and the
/// package directory `dist` in their environment; every test must pass,
/// and at least `least` of them must have run.
fn run_node(files: &[&str], dist: &Path, extra: &[(&str, &Path)], least: usize) -> String {
    let mut command = Command::new("node");
    command.args(["--test", "--test-reporter=tap"]);
    for file in files {
        command.arg(repository().join("web/test").join(file));
    }
    command
        .env("GAMETAB_TABLES", common::built_tables())
        .env("GAMETAB_EXPECTED", expected_file())
        .env("GAMETAB_WEB_DIST", dist);
    for (name, value) in extra {
        command.env(name, value);
    }
    let output = command
        .output()
        .expect("node runs (scripts/setup --web installs it)");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "the Node tests {files:?} failed:\n{report}"
    );
    // Every test of the files ran and passed (a file whose tests never
    // start would also exit 0).
    for line in ["# fail 0", "# cancelled 0"] {
        assert!(report.contains(line), "{line} missing:\n{report}");
    }
    let passed = report
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<usize>().ok());
    assert!(
        passed.is_some_and(|n| n >= least),
        "too few tests passed:\n{report}"
    );
    println!("{report}");
    report
}

#[test]
fn the_module_answers_exactly_what_the_lookup_crate_answers() {
    let dist = common::web_module();
    run_node(&["conformance.test.mjs", "readme.test.mjs"], &dist, &[], 10);
}

/// The packed package as a program meets it: loading from every kind of
/// source, sharing, aborting, retrying, refusals by kind (load, wasm-load),
/// and the seeded fuzz of bundles and queries.
#[test]
fn the_packed_package_loads_shares_and_refuses_by_kind_under_fuzz() {
    let (_, package) = packed();
    let report = run_node(
        &["load.test.mjs", "wasm-load.test.mjs", "fuzz.test.mjs"],
        &package.join("dist"),
        &[],
        13,
    );
    assert!(report.contains("fuzz: {"), "{report}");
}

/// The example app (web/example) with the packed package, under `vite
/// build` + `vite preview` and `vite` dev, in chromium.
#[test]
fn the_example_vite_app_plays_under_build_preview_and_dev() {
    let (tarball, package) = packed();
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vite-example");
    std::fs::create_dir_all(&work).unwrap();
    run_node(
        &["vite-app.test.mjs"],
        &package.join("dist"),
        &[
            ("GAMETAB_WEB_TARBALL", tarball),
            ("GAMETAB_EXAMPLE_DIR", &work),
        ],
        4,
    );
}
