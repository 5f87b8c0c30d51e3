//! End-to-end checks of the Murder Plan solver and tables: the published
//! numbers of `data/published.csv`, the certificates recomputed from the
//! written tables, round trips, and byte-identical output across runs and
//! thread counts.

use std::path::Path;
use std::sync::OnceLock;

use bytes::Bytes;
use gametab_build::known_answers::{self, PublishedNumber, Unit};
use gametab_build::murder_plan::cache::GameCache;
use gametab_build::murder_plan::layers::Layers;
use gametab_build::murder_plan::solver::{self, Solution};
use gametab_build::murder_plan::tables;
use gametab_build::output::TableWriter;
use gametab_build::parquet_write::write_parquet;
use gametab_build::pipeline::BuildOptions;
use gametab_build::verify;
use gametab_games::murder_plan::model::State;
use gametab_lookup::io::read_parquet;
use gametab_lookup::murder_plan::schema;
use gametab_solve::matrix_game::{LpBackend, GAP_TOLERANCE};

fn solution() -> &'static Solution {
    static SOLUTION: OnceLock<Solution> = OnceLock::new();
    SOLUTION.get_or_init(|| {
        solver::solve(8, LpBackend::Native, &|_, _| {}, &|| {}).expect("the game solves")
    })
}

/// The solver's value of a published row's start (`horizon`, `start` as the
/// win-rate table names it, `average` for the mean over the 16 starts).
fn start_value(s: &Solution, row: &PublishedNumber) -> f64 {
    let horizon: u8 = row.parse_parameter("horizon").unwrap();
    let start: String = row.parse_parameter("start").unwrap();
    if start == "average" {
        return State::starts().map(|st| s.value(horizon, st)).sum::<f64>() / 16.0;
    }
    let state = State::starts()
        .find(|&st| tables::start_label(st) == start)
        .unwrap_or_else(|| panic!("{}: no start {start:?}", row.name()));
    s.value(horizon, state)
}

/// The solver itself, before any table is written, against the published
/// win rates (percent) and the value to 1e-12 (`data/published.csv`;
/// `tests/published.rs` checks them again on the written tables).
#[test]
fn reproduces_the_published_win_rates_and_value() {
    let s = solution();
    let rates = known_answers::select("murder_plan", "win_rate").unwrap();
    let values = known_answers::select("murder_plan", "value").unwrap();
    assert!(!rates.is_empty() && !values.is_empty());
    for row in rates.into_iter().chain(values) {
        let value = start_value(s, &row);
        let computed = match row.unit {
            Unit::Percent => 100.0 * value,
            _ => value,
        };
        assert!(
            row.reproduced_by(computed),
            "{}: solver {computed}, published {}",
            row.name(),
            row.value_text
        );
    }
}

#[test]
fn every_stored_game_is_certified() {
    let s = solution();
    assert!(s.stats.max_gap <= GAP_TOLERANCE);
    for d in 1..=8u8 {
        for state in State::all().filter(|st| !st.is_win()) {
            assert!(s.gaps[usize::from(d)][state.index()] <= GAP_TOLERANCE);
        }
    }
    // Dedupe really happens and far fewer LPs than matrices are solved.
    assert!(s.stats.distinct_games < s.stats.matrices);
    assert!(s.stats.lps <= s.stats.distinct_games);
}

#[test]
fn values_are_monotone_in_days_left_and_probabilities() {
    let s = solution();
    for d in 1..=8usize {
        for state in State::all() {
            let (now, before) = (s.values[d][state.index()], s.values[d - 1][state.index()]);
            assert!((0.0..=1.0).contains(&now));
            assert!(now >= before - 1e-9, "more days never hurt the mastermind");
        }
    }
}

/// Recompute every game from the written tables alone (the values of the
/// previous day and the rules) and certify the written strategies on it,
/// with the checks of `gametab verify`.
#[test]
fn written_tables_certify_on_rebuilt_matrices() {
    let s = solution();
    let layers = Layers::enumerate(&s.successors, 8);
    let read = |data: gametab_lookup::io::TableData| {
        let bytes = Bytes::from(write_parquet(&data).unwrap());
        read_parquet(bytes, &data.schema).unwrap()
    };
    let tables: Vec<_> = tables::all(s, &layers)
        .unwrap()
        .into_iter()
        .map(read)
        .collect();
    let tables: [_; 5] = tables.try_into().expect("five tables");
    let checks = verify::murder_plan::check(tables.each_ref().map(Some));
    for check in &checks.files {
        assert!(check.is_ok(), "{:?}", check.findings);
        assert_eq!(check.rows_checked, check.rows_total, "{}", check.file);
    }
    assert_eq!(checks.games_certified, 8 * 2816);
    assert!(checks.max_gap <= GAP_TOLERANCE);
    // The mirror images sum their certificates in another order.
    let tolerance = verify::murder_plan::VALUE_TOLERANCE;
    assert!((checks.max_gap - s.stats.max_gap).abs() <= tolerance);
}

#[test]
fn every_table_round_trips_exactly() {
    let s = solution();
    let layers = Layers::enumerate(&s.successors, 8);
    for data in tables::all(s, &layers).unwrap() {
        let bytes = write_parquet(&data).unwrap();
        let back = read_parquet(Bytes::from(bytes), &data.schema).unwrap();
        assert_eq!(back, data, "{}", data.schema.name);
    }
    let values = tables::values(s, &layers).unwrap();
    assert_eq!(values.rows(), 9 * 3840);
    let brain = tables::brain_choice(s).unwrap();
    assert_eq!(brain.rows(), 8 * 3840);
    let rates = tables::win_rates(s).unwrap();
    assert_eq!(rates.rows(), 8 * 17);
    assert_eq!(schema::ALL.len(), 5);
}

#[test]
fn strategy_supports_are_sorted_and_sum_to_one() {
    let s = solution();
    for data in [
        tables::mastermind_strategy(s).unwrap(),
        tables::protagonists_strategy(s).unwrap(),
    ] {
        let p = data.f64s("probability").unwrap();
        assert!(p.iter().all(|&x| x > 0.0 && x <= 1.0));
        let d = data.i32s("days_left").unwrap();
        assert!(d.windows(2).all(|w| w[0] <= w[1]));
    }
}

fn build_bytes(threads: usize) -> Vec<(String, Vec<u8>)> {
    build_with(threads, None).0
}

/// Build the Murder Plan tables with `threads` workers and an optional game
/// cache file: the files with their bytes, sorted by name, and the summary.
fn build_with(threads: usize, cache: Option<&Path>) -> (Vec<(String, Vec<u8>)>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        out: dir.path().to_path_buf(),
        threads,
        progress: gametab_build::progress::Progress::hidden(),
        lp: LpBackend::Native,
        cache: cache.map(Path::to_path_buf),
        endgame_frontier: false,
        endgame_budget: None,
        endgame_merge_only: false,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut writer = TableWriter::new(dir.path()).unwrap();
    let lines = pool
        .install(|| gametab_build::murder_plan::build_tables(&options, &mut writer))
        .unwrap();
    let mut files: Vec<_> = writer
        .written()
        .iter()
        .map(|w| {
            (
                w.file.to_string(),
                std::fs::read(dir.path().join(w.file)).unwrap(),
            )
        })
        .collect();
    files.sort();
    (files, lines)
}

/// The summary line about the game cache.
fn cache_line(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("game cache"))
        .expect("a game cache line")
}

#[test]
fn the_game_cache_is_reused_after_re_certification_and_never_trusted() {
    let fresh = build_bytes(2);
    let distinct = solution().stats.distinct_games;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.bin");

    // First run fills the cache, the second reuses every game.
    let (first, lines) = build_with(2, Some(&path));
    assert_eq!(first, fresh);
    assert!(cache_line(&lines).contains(" 0 reused"), "{lines:?}");
    let (second, lines) = build_with(2, Some(&path));
    assert_eq!(second, fresh);
    assert!(
        cache_line(&lines).contains(&format!(" {distinct} reused")),
        "{lines:?}"
    );

    // A cached pair changed behind the checksum's back (saved properly) is
    // caught by the re-certification and solved again.
    let fingerprint = solver::cache_fingerprint(LpBackend::Native);
    let (mut cache, warning) = GameCache::load(&path, &fingerprint);
    assert!(warning.is_none());
    let (digest, game) = cache
        .iter()
        .find(|(_, g)| g.strategies.row.iter().filter(|&&p| p > 0.0).count() >= 2)
        .map(|(d, g)| (*d, g.clone()))
        .unwrap();
    let mut tampered = game.clone();
    let support: Vec<usize> = (0..tampered.strategies.row.len())
        .filter(|&i| tampered.strategies.row[i] > 0.0)
        .collect();
    tampered.strategies.row[support[0]] += tampered.strategies.row[support[1]];
    tampered.strategies.row[support[1]] = 0.0;
    cache.insert(digest, tampered);
    cache.save(&path, &fingerprint).unwrap();
    let (third, lines) = build_with(1, Some(&path));
    assert_eq!(third, fresh);
    assert!(
        cache_line(&lines).contains(&format!(" {} reused", distinct - 1)),
        "{lines:?}"
    );

    // A corrupt file is a warning, and the build is the same.
    std::fs::write(&path, b"GAMETABC garbage").unwrap();
    let (fourth, lines) = build_with(2, Some(&path));
    assert_eq!(fourth, fresh);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("warning:") && l.contains("games.bin")),
        "{lines:?}"
    );
}

#[test]
fn builds_are_byte_identical_across_runs_and_thread_counts() {
    let one = build_bytes(1);
    let two = build_bytes(2);
    let again = build_bytes(2);
    // The five tables and the browser bundle.
    assert_eq!(one.len(), 6);
    let bundle = gametab_lookup::murder_plan::bundle::FILE;
    assert!(one.iter().any(|(name, _)| name == bundle));
    for ((name, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
    assert_eq!(two, again);
}

#[test]
fn native_and_highs_agree_on_every_state() {
    let native = solution();
    let highs = solver::solve(8, LpBackend::Highs, &|_, _| {}, &|| {}).expect("HiGHS solves");
    assert_eq!(highs.stats.fallbacks, 0);
    let mut worst = 0.0f64;
    for d in 0..=8usize {
        for (i, (a, b)) in native.values[d].iter().zip(&highs.values[d]).enumerate() {
            let diff = (a - b).abs();
            assert!(
                diff <= 1e-9,
                "days_left {d} state {i}: native {a} vs HiGHS {b}"
            );
            worst = worst.max(diff);
        }
    }
    assert!(native.stats.max_gap <= GAP_TOLERANCE);
    assert!(highs.stats.max_gap <= GAP_TOLERANCE);
    eprintln!(
        "largest native/HiGHS value difference {worst:e}, native fallbacks {}",
        native.stats.fallbacks
    );
}
