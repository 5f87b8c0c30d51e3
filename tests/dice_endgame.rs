//! The Liar's Dice endgame tables of the run's shared build: every
//! published value reproduced exactly as a fraction, every stored game
//! certified, the lookup crate's answers, and `gametab dice endgame` with
//! good and bad arguments.

use crate::common;

use gametab_games::dice::endgame::{Action, Endgame, History, Player};
use gametab_lookup::Tables;
use serde_json::Value;

/// The published values (`docs/liars-dice.md`): dice of the
/// two players, rules, first number of sides, the values from there up.
const PUBLISHED: [(u8, u8, bool, u8, &[&str]); 6] = [
    (1, 1, false, 1, &["1", "0", "-1/9", "-1/8", "-3/25", "-1/9"]),
    (1, 1, true, 2, &["1", "1/3", "0", "0", "-7/327"]),
    (
        2,
        1,
        false,
        1,
        &["1", "1/4", "1/9", "345/1696", "2128/8375"],
    ),
    (2, 1, true, 2, &["1", "1/3", "1/4", "34/125"]),
    (1, 2, false, 1, &["1", "0", "-1/27", "-1/8", "-27/125"]),
    (1, 2, true, 2, &["1", "-1/27", "-1/32", "-3/125"]),
];

fn tables() -> Tables {
    Tables::open(common::built_tables()).unwrap()
}

#[test]
fn every_published_value_is_reproduced_exactly() {
    let tables = tables();
    let endgames = tables.dice_endgame().unwrap();
    let mut checked = 0;
    for (a, b, wild, first, values) in PUBLISHED {
        for (k, published) in values.iter().enumerate() {
            let game = Endgame::new(a, b, first + k as u8, wild).unwrap();
            let stored = endgames.game(game).unwrap();
            assert_eq!(stored.value_exact, *published, "{game}");
            let (n, d) = published.split_once('/').unwrap_or((published, "1"));
            let exact = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
            assert!(
                (stored.value - exact).abs() <= 1e-12,
                "{game}: {}",
                stored.value
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 29);
}

/// The four six-sided three-dice games the published table left blank (or
/// never had): exact, certified, and for the normal rules the values that
/// the public analysis's raw output prints from its floating-point LP
/// (thomasahle/snyd, `outputs/21_6.normal` and `outputs/12_6.normal`:
/// `212027/771552` and `-22/81`).
#[test]
fn the_six_sided_three_dice_games_are_exact() {
    let tables = tables();
    let endgames = tables.dice_endgame().unwrap();
    for (a, b, wild, exact) in [
        (2, 1, false, "212027/771552"),
        (1, 2, false, "-22/81"),
        (2, 1, true, "7/27"),
        (1, 2, true, "-5/54"),
    ] {
        let game = Endgame::new(a, b, 6, wild).unwrap();
        let stored = endgames.game(game).unwrap();
        assert_eq!(stored.value_exact, exact, "{game}");
        assert!(stored.exploitability <= 1e-9, "{game}");
        let (n, d) = exact.split_once('/').unwrap();
        let value = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        assert!((stored.value - value).abs() <= 1e-12, "{game}");
        assert_eq!(stored.method, "double_oracle", "{game}");
        // The restricted LP is a small part of the full one.
        assert!(stored.lp_size[2] * 10 < stored.full_lp_size[2], "{game}");
    }
}

#[test]
fn every_stored_game_is_certified_and_brackets_its_value() {
    let tables = tables();
    let endgames = tables.dice_endgame().unwrap();
    // 1v1, 2v1 and 1v2: 6 normal + 5 wild each.
    assert_eq!(endgames.len(), 33);
    for stored in endgames.games() {
        assert!(stored.exploitability <= 1e-9, "{}", stored.game);
        assert!(stored.exploitability >= -1e-15, "{}", stored.game);
        let [upper, lower] = stored.best_responses;
        assert!(lower - 1e-12 <= stored.value && stored.value <= upper + 1e-12);
        assert!(!stored.value_exact.is_empty(), "{}", stored.game);
        assert!(stored.lp_size.iter().all(|&n| n > 0));
        // One-sided dice all show 1: the opener bids every die and wins.
        if stored.game.sides() == 1 {
            assert_eq!(stored.value_exact, "1");
        }
    }
}

#[test]
fn lookups_give_sound_probabilities_and_posteriors() {
    let tables = tables();
    let endgames = tables.dice_endgame().unwrap();
    let game = Endgame::new(2, 1, 5, false).unwrap();
    let stored = endgames.game(game).unwrap();
    // The opening, for every hand of player 1: a distribution over bids.
    for hand in game.hands(Player::One).iter() {
        let point = stored.at("", Some(hand.faces())).unwrap();
        assert_eq!(point.to_move, 1);
        let actions = point.actions.unwrap();
        assert_eq!(actions.len(), 15, "no call before a bid");
        let sum: f64 = actions.iter().map(|a| a.probability).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{hand}: {sum}");
        // Before any bid the posterior is the prior.
        let prior = point.opponent_posterior.unwrap();
        assert_eq!(prior.len(), 5);
        assert!(prior.iter().all(|h| (h.probability - 0.2).abs() < 1e-15));
    }
    // After an opening player 1 plays, player 2's posterior over his hand
    // is a distribution that sums to 1; after one he never plays, none.
    let [one, _] = stored.strategies().unwrap();
    let one = &one;
    let hands = game.hands(Player::One);
    let opening = (0..hands.len())
        .flat_map(|i| game.actions(History::EMPTY).map(move |a| (i, a)))
        .find(|&(i, a)| one.probability(i, History::EMPTY, a) > 0.0)
        .unwrap();
    let bid = match opening.1 {
        Action::Bid(b) => game.bid(b).to_string(),
        Action::Call => unreachable!("no call at the opening"),
    };
    let point = stored.at(&bid, None).unwrap();
    let posterior = point.opponent_posterior.unwrap();
    let sum: f64 = posterior.iter().map(|h| h.probability).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    let never = game
        .actions(History::EMPTY)
        .find(|&a| (0..hands.len()).all(|i| one.probability(i, History::EMPTY, a) == 0.0));
    if let Some(Action::Bid(b)) = never {
        let point = stored.at(&game.bid(b).to_string(), None).unwrap();
        assert!(point.opponent_posterior.is_none());
    }
}

use crate::common::gametab;

#[test]
fn the_command_prints_value_moves_and_posterior() {
    let dir = common::built_tables().display().to_string();
    let (ok, out, err) = gametab(&[
        "dice",
        "endgame",
        "--tables",
        &dir,
        "--dice",
        "1,1",
        "--sides",
        "6",
        "--hand",
        "4",
        "--history",
        "1x3",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("1v1 6-sided normal: value to player 1 -0.111111 = -1/9"),
        "{out}"
    );
    assert!(
        out.contains("after bids 1x3: player 2 to move, holding 4"),
        "{out}"
    );
    assert!(out.contains("  call "), "{out}");
    let (ok, json, err) = gametab(&[
        "dice",
        "endgame",
        "--tables",
        &dir,
        "--dice",
        "1,1",
        "--sides",
        "6",
        "--hand",
        "4",
        "--history",
        "1x3",
        "--json",
    ]);
    assert!(ok, "{err}");
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["game"]["value_exact"], "-1/9");
    assert_eq!(doc["point"]["history"], "1x3");
    let actions = doc["point"]["actions"].as_array().unwrap();
    assert_eq!(actions[0]["action"], "call");
    assert_eq!(actions.len(), 1 + 9, "call, then 1x4..2x6");
    let sum: f64 = actions
        .iter()
        .map(|a| a["probability"].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9);
    // The same answer as the lookup crate's.
    let tables = tables();
    let stored = tables
        .dice_endgame()
        .unwrap()
        .game(Endgame::new(1, 1, 6, false).unwrap())
        .unwrap();
    let point = stored.at("13", Some(&[4])).unwrap();
    assert_eq!(doc["point"], serde_json::to_value(&point).unwrap());
}

/// `gametab base.. args..` fails, naming `needle`, without a panic.
fn assert_refused(base: &[&str], args: &[&str], needle: &str) {
    let mut all = base.to_vec();
    all.extend_from_slice(args);
    let (ok, _, err) = gametab(&all);
    assert!(!ok, "{all:?} succeeded");
    assert!(err.contains(needle), "{all:?}: {err}");
    assert!(!err.contains("panicked"), "{all:?}: {err}");
}

#[test]
fn bad_endgame_arguments_are_named() {
    let dir = common::built_tables().display().to_string();
    let base = ["dice", "endgame", "--tables", dir.as_str()];
    for (args, needle) in [
        (&["--dice", "2"][..], "write the two players' dice as A,B"),
        (&["--dice", "0,1"][..], "player 1's dice is out of range"),
        (
            &["--dice", "1,1", "--sides", "7"][..],
            "sides is out of range",
        ),
        (
            &["--dice", "1,1", "--wild", "--sides", "1"][..],
            "with wild ones",
        ),
        (
            &["--dice", "1,1", "--history", "1x6,1x5"][..],
            "1x5 does not raise 1x6",
        ),
        (
            &["--dice", "1,1", "--history", "3x1"][..],
            "count must be 1 to 2",
        ),
        (
            &["--dice", "1,1", "--wild", "--history", "1x1"][..],
            "ones are wild",
        ),
        (
            &["--dice", "1,1", "--hand", "2,3"][..],
            "2 dice given, this player holds 1",
        ),
        (&["--dice", "1,1", "--hand", "9"][..], "face 9"),
        (&["--dice", "2,2", "--sides", "3"][..], "--endgame-frontier"),
        (&["--dice", "2,2", "--sides", "6"][..], "--endgame-frontier"),
        (&["--dice", "2,3", "--sides", "4"][..], "--endgame-frontier"),
        (&["--dice", "3,2", "--sides", "2"][..], "--endgame-frontier"),
        (
            &["--dice", "2,3", "--sides", "5"][..],
            "25 bids; at most 24 are supported",
        ),
        (
            &["--dice", "3,2", "--sides", "3", "--wild"][..],
            "no build lists it",
        ),
        (&["--dice", "3,3", "--sides", "2"][..], "no build lists it"),
        (
            &["--dice", "1,1", "--players", "3"][..],
            "unexpected argument",
        ),
    ] {
        assert_refused(&base, args, needle);
    }
    let (ok, _, err) = gametab(&[
        "dice",
        "endgame",
        "--tables",
        "/nonexistent",
        "--dice",
        "1,1",
    ]);
    assert!(!ok && err.contains("/nonexistent"), "{err}");
}

/// A job's bad options (and bad HiGHS options for a measurement) are
/// refused before anything is solved or written, each naming what is
/// wrong.
#[test]
fn bad_job_options_are_named() {
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().display().to_string();
    let base = ["dice", "endgame", "solve", "--cache", dir.as_str()];
    for (args, needle) in [
        (
            &["--dice", "2,2", "--sides", "4", "--checkpoint", "0s"][..],
            "--checkpoint",
        ),
        (
            &["--dice", "2,2", "--sides", "4", "--checkpoint", "banana"][..],
            "not a duration",
        ),
        (
            &["--dice", "2,2", "--sides", "4", "--prune", "maybe"][..],
            "possible values: true, false",
        ),
        (
            &["--dice", "2,2", "--sides", "4", "--threads", "0"][..],
            "--threads",
        ),
    ] {
        assert_refused(&base, args, needle);
    }
    // The measurements' HiGHS options: an option or value HiGHS does not
    // know is named, and nothing is written.
    for (options, needle) in [
        ("ipx_dualize_strategy=x", "\"x\" is no value of its type"),
        ("no_such_option=1", "\"no_such_option\" (no such option?)"),
        ("presolve", "\"presolve\" is not option=value"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gametab"))
            .args(base)
            .args(["--dice", "1,2", "--sides", "5", "--wild"])
            .env("GAMETAB_HIGHS_OPTIONS", options)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{options}");
        assert!(err.contains(needle), "{options}: {err}");
    }
    let written: Vec<_> = walk(cache.path());
    assert!(written.is_empty(), "{written:?}");
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Build the endgame tables of `games` into a fresh directory with
/// `threads` workers and the cache `cache`; the table files' bytes by
/// name, and the summary lines.
fn build_endgames(
    games: &[Endgame],
    threads: usize,
    cache: Option<&std::path::Path>,
) -> (Vec<(String, Vec<u8>)>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let options = gametab_build::options::BuildOptions {
        out: dir.path().to_path_buf(),
        threads,
        progress: gametab_build::progress::Progress::hidden(),
        lp: Default::default(),
        cache: cache.map(|c| c.join("games.bin")),
        endgame_frontier: false,
        endgame_budget: None,
        endgame_merge_only: false,
    };
    let mut writer = gametab_build::output::TableWriter::new(dir.path()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let lines = pool
        .install(|| gametab_build::dice::endgame::build::build(games, &options, &mut writer))
        .unwrap();
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    (files, lines)
}

#[test]
fn the_same_bytes_whatever_the_threads_and_from_the_cache() {
    let games: Vec<Endgame> = [(1, 1, 4, false), (2, 1, 3, true), (1, 2, 3, false)]
        .into_iter()
        .map(|(a, b, s, w)| Endgame::new(a, b, s, w).unwrap())
        .collect();
    let cache = tempfile::tempdir().unwrap();
    let (one, lines) = build_endgames(&games, 1, Some(cache.path()));
    assert_eq!(one.len(), 3);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("3 games (0 from the cache")),
        "{lines:?}"
    );
    let (two, _) = build_endgames(&games, 2, None);
    assert_eq!(one, two, "the thread count changed the bytes");
    let (cached, lines) = build_endgames(&games, 2, Some(cache.path()));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("3 games (3 from the cache")),
        "{lines:?}"
    );
    assert_eq!(one, cached, "the cache changed the bytes");
    // A damaged cache is a warning, and the games are solved again.
    let path = cache.path().join("dice_endgame_games.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&path, bytes).unwrap();
    let (again, lines) = build_endgames(&games, 2, Some(cache.path()));
    assert!(
        lines.iter().any(|l| l.starts_with("warning: ignoring the endgame cache")
            && l.contains("checksum")),
        "{lines:?}"
    );
    assert_eq!(one, again);
}

/// A job's thread count (`gametab dice endgame solve --threads`, HiGHS's
/// threads on each LP) changes no byte of its job file: 2v1 four-sided
/// wild by the interior point rounds without crossover (HiPO) and their
/// exact finish, with one thread and with two.
#[test]
fn a_jobs_thread_count_changes_no_byte() {
    let files: Vec<Vec<u8>> = ["1", "2"]
        .into_iter()
        .map(|threads| {
            let cache = tempfile::tempdir().unwrap();
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_gametab"))
                .args(["dice", "endgame", "solve", "--dice", "2,1", "--sides", "4"])
                .args(["--wild", "--lp", "ipm-no-crossover", "--quiet", "--threads"])
                .arg(threads)
                .arg("--cache")
                .arg(cache.path())
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{threads}: {out:?}");
            assert!(said.contains("solved, value"), "{threads}: {said}");
            let files = walk(cache.path());
            assert_eq!(files.len(), 1, "{files:?}");
            std::fs::read(&files[0]).unwrap()
        })
        .collect();
    assert!(
        files[0] == files[1],
        "the thread count changed the job file"
    );
}

#[test]
fn a_file_naming_a_game_without_strategy_rows_is_refused() {
    use gametab_lookup::dice::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
    use gametab_lookup::io::{read_parquet, Column};
    let dir = common::built_tables();
    let read = |file: &str| bytes::Bytes::from(std::fs::read(dir.join(file)).unwrap());
    let mut values = read_parquet(read(ENDGAME_VALUES.file), &ENDGAME_VALUES).unwrap();
    // The last row (2v1, five sides, wild) becomes 2v2 with six sides (a
    // game stored by its support, when stored), which has no rows.
    let last = values.rows() - 1;
    for (name, value) in [("dice_one", 2), ("dice_two", 2), ("sides", 6)] {
        let i = values.schema.column_index(name).unwrap();
        match &mut values.columns[i] {
            Column::Int32(column) => column[last] = value,
            other => panic!("{name} is {other:?}"),
        }
    }
    let bytes = gametab_build::parquet_write::write_parquet(&values).unwrap();
    let err = gametab_lookup::dice::EndgameTables::from_bytes(bytes, read(ENDGAME_STRATEGY.file))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("2v2 6-sided") && err.contains("has no rows"),
        "{err}"
    );
}

/// The strategy table rewritten with the writer's default row groups
/// (groups of 2^20 rows that mix games, as another tool might write it):
/// the loader indexes it by decoding its key columns and gives the same
/// strategies and answers.
#[test]
fn a_strategy_table_grouped_otherwise_gives_the_same_answers() {
    use gametab_lookup::dice::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
    use gametab_lookup::dice::EndgameTables;
    use gametab_lookup::io::read_parquet;
    let dir = common::built_tables();
    let read = |file: &str| bytes::Bytes::from(std::fs::read(dir.join(file)).unwrap());
    let strategy = read_parquet(read(ENDGAME_STRATEGY.file), &ENDGAME_STRATEGY).unwrap();
    let regrouped = gametab_build::parquet_write::write_parquet(&strategy).unwrap();
    let built =
        EndgameTables::from_bytes(read(ENDGAME_VALUES.file), read(ENDGAME_STRATEGY.file)).unwrap();
    let other = EndgameTables::from_bytes(read(ENDGAME_VALUES.file), regrouped).unwrap();
    for (a, b, sides, wild, hand, history) in [
        (1, 1, 6, false, &[4u8][..], "13"),
        (2, 1, 6, false, &[3, 5][..], "15,23"),
        (1, 2, 6, true, &[2][..], "16"),
        (2, 1, 3, false, &[1, 3][..], ""),
    ] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let (x, y) = (built.game(game).unwrap(), other.game(game).unwrap());
        assert_eq!(x.strategies().unwrap(), y.strategies().unwrap(), "{game}");
        let mover_hand = if game.history_of(history).unwrap().len().is_multiple_of(2) {
            (game.dice(Player::One) as usize == hand.len()).then_some(hand)
        } else {
            (game.dice(Player::Two) as usize == hand.len()).then_some(hand)
        };
        assert_eq!(
            x.at(history, mover_hand).unwrap(),
            y.at(history, mover_hand).unwrap(),
            "{game}"
        );
    }
}

/// A frontier game as a job of its own: a job cut off by its budget keeps
/// its restricted game and leaves the game out of the tables; the build
/// resumes it and tabulates it; a build finding the solved job file takes
/// it (certified again) and writes the same bytes as a build that solved
/// it without any cache; a merge-only build spends no round on a game cut
/// off and takes a solved one as the others do; and a solved job file of a
/// game the build does not list is reported, certified by the sparse
/// certificate.
#[test]
fn frontier_games_are_jobs_the_build_merges() {
    use gametab_build::dice::endgame::job;
    let frontier = Endgame::new(2, 2, 2, false).unwrap();
    let default = Endgame::new(1, 1, 3, false).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().join("dice_endgame");
    let (method, options) = job::method_and_options(frontier);
    let cut = job::solve_job(
        frontier,
        &dir,
        method,
        options,
        Some(std::time::Duration::ZERO),
    )
    .unwrap();
    assert!(cut.line.contains("NOT solved yet"), "{}", cut.line);
    let build_with = |cache: Option<&std::path::Path>, budget, merge_only| {
        let out = tempfile::tempdir().unwrap();
        let options = gametab_build::options::BuildOptions {
            out: out.path().to_path_buf(),
            threads: 1,
            progress: gametab_build::progress::Progress::hidden(),
            lp: Default::default(),
            cache: cache.map(|c| c.join("games.bin")),
            endgame_frontier: true,
            endgame_budget: budget,
            endgame_merge_only: merge_only,
        };
        let mut writer = gametab_build::output::TableWriter::new(out.path()).unwrap();
        let lines =
            gametab_build::dice::endgame::build::build(&[default, frontier], &options, &mut writer)
                .unwrap();
        let values = std::fs::read(out.path().join("dice_endgame_values.parquet")).unwrap();
        let strategy = std::fs::read(out.path().join("dice_endgame_strategy.parquet")).unwrap();
        (lines, values, strategy)
    };
    let build = |cache, budget| build_with(cache, budget, false);
    // Merge only: the job file as it is, not a round more.
    let job_file = dir.join("2v2-2-normal.bin");
    let before = std::fs::read(&job_file).unwrap();
    let (lines, ..) = build_with(Some(cache.path()), None, true);
    assert!(
        lines.iter().any(|l| l.contains("NOT solved yet")
            && l.contains("after 1 rounds")
            && l.contains("left as it is (--merge-only)")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1 games") && l.contains("1 not solved yet, left as they are")),
        "{lines:?}"
    );
    assert_eq!(std::fs::read(&job_file).unwrap(), before);
    // A budget of nothing: one more round, still cut off, not tabulated.
    let (lines, ..) = build(Some(cache.path()), Some(std::time::Duration::ZERO));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("NOT solved yet") && l.contains("resumed")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1 games") && l.contains("1 cut off")),
        "{lines:?}"
    );
    // No budget: resumed and solved.
    let (lines, ..) = build(Some(cache.path()), None);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("2v2 2-sided normal: solved") && l.contains("resumed")),
        "{lines:?}"
    );
    let (lines, values, strategy) = build(Some(cache.path()), None);
    assert!(lines.iter().any(|l| l.contains("already in")), "{lines:?}");
    // Taken from the job file: the same bytes as the build that solved it,
    // merging only or not.
    let (_, again_values, again_strategy) = build(Some(cache.path()), None);
    assert_eq!((&values, &strategy), (&again_values, &again_strategy));
    let (lines, merged_values, merged_strategy) = build_with(Some(cache.path()), None, true);
    assert!(lines.iter().any(|l| l.contains("already in")), "{lines:?}");
    assert_eq!((values, strategy), (merged_values, merged_strategy));
    // A game without a job file: named, not solved.
    std::fs::remove_file(&job_file).unwrap();
    let (lines, ..) = build_with(Some(cache.path()), None, true);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("2v2 2-sided normal: NOT solved yet: no job file")),
        "{lines:?}"
    );
    assert!(!job_file.exists());
    job::solve_job(frontier, &dir, method, options, None).unwrap();
    // The resumed oracle may stop at another equilibrium than a fresh
    // solve: both are certified, and the value is the same.
    let file = gametab_solve::endgame::job::load(&dir.join("2v2-2-normal.bin"))
        .unwrap()
        .unwrap();
    let gametab_solve::endgame::job::JobState::Solved(solved) = file.state else {
        panic!("not solved")
    };
    let fresh = gametab_solve::endgame::solve(frontier, Default::default()).unwrap();
    assert!((solved.value - fresh.value).abs() < 1e-12);
    assert_eq!(solved.restore().unwrap().exact, fresh.exact);
    // Another game's solved job file: reported, certified on its support.
    let other = Endgame::new(1, 3, 2, false).unwrap();
    let (method, options) = job::method_and_options(other);
    job::solve_job(other, &dir, method, options, None).unwrap();
    let (lines, ..) = build(Some(cache.path()), None);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("1v3 2-sided normal: solved job")
                && l.contains("certified again on its support")),
        "{lines:?}"
    );
}

/// A job killed mid-solve (as a batch engine's time limit kills it)
/// leaves its last checkpoint, and the next job resumes from it and
/// solves the game exactly: `gametab dice endgame solve --checkpoint`.
#[test]
fn a_job_killed_resumes_from_its_checkpoint() {
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().to_str().unwrap();
    let file = cache.path().join("dice_endgame/2v2-4-normal.bin");
    // About 20 rounds, 2 s: the job is killed at its first checkpoint.
    let args = [
        "dice", "endgame", "solve", "--dice", "2,2", "--sides", "4", "--cache", dir, "--quiet",
    ];
    let mut job = std::process::Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .args(["--checkpoint", "0.001s"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let began = std::time::Instant::now();
    while !file.exists() {
        assert!(
            began.elapsed() < std::time::Duration::from_secs(120),
            "no checkpoint"
        );
        assert!(job.try_wait().unwrap().is_none(), "the job ended first");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    job.kill().unwrap();
    job.wait().unwrap();
    let saved = gametab_solve::endgame::job::load(&file).unwrap().unwrap();
    let gametab_solve::endgame::job::JobState::Partial(p) = saved.state else {
        panic!("the job ended before it was killed")
    };
    assert!(p.rounds >= 1 && !p.included.is_empty());
    let (ok, out, err) = gametab(&args);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("2v2 4-sided normal: solved, value 7/384 (exact)")
            && out.contains("resumed"),
        "{out}"
    );
}

/// Two machines' caches gathered into a third as a process, as before the
/// build's merge: the solved game wins over the cut-off one named after
/// it, `status` shows it solved, a second gather keeps what the first
/// copied, and a path that is not there is named with a non-zero exit.
#[test]
fn job_files_of_other_machines_are_gathered_for_the_merge() {
    let machines = tempfile::tempdir().unwrap();
    let (cut, solved, cache) = (
        machines.path().join("node1"),
        machines.path().join("node2"),
        machines.path().join("cache"),
    );
    let solve = |cache: &std::path::Path, budget: Option<&str>| {
        let mut args = vec![
            "dice",
            "endgame",
            "solve",
            "--dice",
            "2,2",
            "--sides",
            "3",
            "--quiet",
            "--cache",
            cache.to_str().unwrap(),
        ];
        args.extend(budget.map(|b| ["--budget", b]).into_iter().flatten());
        let (ok, out, err) = gametab(&args);
        assert!(ok, "{out}{err}");
    };
    solve(&cut, Some("0.001s"));
    solve(&solved, None);
    let gather = |from: &[&std::path::Path]| {
        let mut args = vec![
            "dice",
            "endgame",
            "gather",
            "--cache",
            cache.to_str().unwrap(),
        ];
        args.extend(from.iter().map(|p| p.to_str().unwrap()));
        gametab(&args)
    };
    let (ok, out, err) = gather(&[&solved, &cut]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("2v2 3-sided normal: copied ")
            && out.contains("(solved, certified again; the cache had none)")
            && out.contains("2v2 3-sided normal: kept ")
            && out.contains("is not solved, bracket "),
        "{out}"
    );
    let job = "dice_endgame/2v2-3-normal.bin";
    let gathered = std::fs::read(cache.join(job)).unwrap();
    assert_eq!(gathered, std::fs::read(solved.join(job)).unwrap());
    let (ok, out, err) = gametab(&[
        "dice",
        "endgame",
        "status",
        "--cache",
        cache.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("2v2 3-sided normal: solved, value "),
        "{out}"
    );

    let missing = machines.path().join("node3");
    let (ok, out, err) = gather(&[&missing, &cut]);
    assert!(!ok);
    assert!(
        out.contains(&format!("no such file or directory {}", missing.display()))
            && out.contains("2v2 3-sided normal: kept "),
        "{out}"
    );
    assert!(err.contains("could not be gathered"), "{err}");
    assert_eq!(std::fs::read(cache.join(job)).unwrap(), gathered);
}

/// The three endgame tables of `dense` and `sparse` as `rows::tables`
/// gives them, written as the build writes them, and loaded.
fn written_endgames(
    dense: &[gametab_solve::endgame::SolvedEndgame],
    sparse: &[gametab_build::dice::endgame::rows::SparseGame],
) -> (
    gametab_lookup::dice::EndgameTables,
    gametab_build::dice::endgame::rows::EndgameRows,
) {
    use gametab_lookup::dice::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
    let tables = gametab_build::dice::endgame::rows::tables(dense, sparse).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut writer = gametab_build::output::TableWriter::new(dir.path()).unwrap();
    writer.write(&tables.values).unwrap();
    writer
        .write_grouped(&tables.strategy.data, &tables.strategy.group_starts)
        .unwrap();
    let read = |file: &str| bytes::Bytes::from(std::fs::read(dir.path().join(file)).unwrap());
    let loaded = gametab_lookup::dice::EndgameTables::from_bytes(
        read(ENDGAME_VALUES.file),
        read(ENDGAME_STRATEGY.file),
    )
    .unwrap();
    (loaded, tables)
}

/// A small game written by its support (as the build writes the games too
/// large for a dense strategy) against the same strategy written dense
/// (the solver's entries, the default everywhere else, before the
/// best-response fill): every sparse row is the dense row of the same key,
/// cell for cell (reach and on-path included); every dense row without a
/// sparse one is the default action of an information set without
/// entries; the posterior tables are the same; and `at` gives the same
/// answer at every (hand, history), saying so where it answers with the
/// default.
#[test]
fn a_game_stored_by_its_support_answers_as_its_dense_form_everywhere() {
    use gametab_build::dice::endgame::rows::SparseGame;
    use gametab_lookup::dice::default_action;
    use gametab_solve::endgame::cache::{strategies_before_fill, CachedGame};
    use gametab_solve::endgame::{solve, LpOptions};
    for (a, b, sides, wild) in [(2, 1, 3, false), (1, 2, 3, true), (1, 1, 4, false)] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        let mut solved = solve(game, LpOptions::default()).unwrap();
        let entries = solved.entries.clone();
        solved.strategies = strategies_before_fill(game, &entries).unwrap();
        let support = CachedGame::of(&solved).restore_sparse().unwrap();
        let sparse = SparseGame::new(support, entries.clone());
        let (dense_tables, dense_rows) = written_endgames(std::slice::from_ref(&solved), &[]);
        let (sparse_tables, sparse_rows) = written_endgames(&[], std::slice::from_ref(&sparse));
        // The posterior rows: the same cells.
        assert_eq!(
            dense_rows.posteriors.columns, sparse_rows.posteriors.columns,
            "{game}: posteriors"
        );
        // The strategy rows: the sparse ones a subset of the dense ones.
        let rows_of = |t: &gametab_lookup::io::TableData| {
            let int = |n: &str| t.i32s(n).unwrap().to_vec();
            let float = |n: &str| t.f64s(n).unwrap().to_vec();
            let bools = t.bools("on_path").unwrap().to_vec();
            let (p, h, i, x) = (int("player"), int("history"), int("hand"), int("action"));
            let (q, r) = (float("probability"), float("reach"));
            (0..t.rows())
                .map(|k| {
                    (
                        (p[k], h[k], i[k], x[k]),
                        (q[k].to_bits(), r[k].to_bits(), bools[k]),
                    )
                })
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        let dense_map = rows_of(&dense_rows.strategy.data);
        let sparse_map = rows_of(&sparse_rows.strategy.data);
        assert!(
            sparse_map.len() < dense_map.len(),
            "{game}: nothing left out"
        );
        for (key, cells) in &sparse_map {
            assert_eq!(dense_map.get(key), Some(cells), "{game}: row {key:?}");
        }
        let given = |p: i32, h: i32, i: i32| {
            sparse_map
                .range((p, h, i, i32::MIN)..=(p, h, i, i32::MAX))
                .next()
                .is_some()
        };
        for (&(p, h, i, x), &(q, _, _)) in &dense_map {
            if !sparse_map.contains_key(&(p, h, i, x)) {
                assert!(!given(p, h, i), "{game}: a set given in part {p} {h} {i}");
                let default = game.action_code(default_action(History(h as u32)));
                assert_eq!((x, f64::from_bits(q)), (default, 1.0), "{game}");
            }
        }
        // Every answer.
        let (dense, stored) = (
            dense_tables.game(game).unwrap(),
            sparse_tables.game(game).unwrap(),
        );
        let mut defaults = 0;
        for h in (0..game.history_count() as u32).map(History) {
            let text = game.history_text(h);
            let mover = game.to_move(h);
            let hands = game.hands(mover);
            let want = dense.at(&text, None).unwrap();
            assert_eq!(stored.at(&text, None).unwrap(), want, "{game} '{text}'");
            for i in 0..hands.len() {
                let faces = hands.hand(i).faces().to_vec();
                let want = dense.at(&text, Some(&faces)).unwrap();
                let mut got = stored.at(&text, Some(&faces)).unwrap();
                assert_eq!(want.note, None);
                let set_given = given(i32::from(mover.number()), h.0 as i32, hands.hand(i).code());
                assert_eq!(got.note.is_some(), !set_given, "{game} '{text}' {i}");
                if !set_given {
                    defaults += 1;
                    let default = default_action(h);
                    for (action, p) in game.actions(h).zip(got.actions.as_ref().unwrap()) {
                        let expected = if action == default { 1.0 } else { 0.0 };
                        assert_eq!(p.probability, expected, "{game} '{text}'");
                    }
                }
                got.note = None;
                assert_eq!(got, want, "{game} '{text}' hand {i}");
            }
        }
        assert!(defaults > 0, "{game}: no answer off the support");
        assert!(dense.strategies().is_ok());
        assert_eq!(
            stored.strategies().unwrap(),
            dense.strategies().unwrap(),
            "{game}: the sparse rows decode to the dense strategy"
        );
    }
}

/// A game too large for a dense strategy enters the tables by its
/// support: it loads, answers on and off its support (the default said),
/// refuses the dense decode naming the sparse one, and its rows decode.
#[test]
fn a_game_too_large_for_a_dense_strategy_is_stored_and_answers() {
    use gametab_lookup::dice::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
    let (cache, game, lines) = common::large_game_tables();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1v3 5-sided normal: stored by its support")),
        "{lines:?}"
    );
    let dir = cache.path().join("tables");
    let read = |file: &str| bytes::Bytes::from(std::fs::read(dir.join(file)).unwrap());
    let tables = gametab_lookup::dice::EndgameTables::from_bytes(
        read(ENDGAME_VALUES.file),
        read(ENDGAME_STRATEGY.file),
    )
    .unwrap();
    tables.check_every_row().unwrap();
    let stored = tables.game(game).unwrap();
    assert_eq!(stored.value_exact, "-29/125");
    assert!(stored.exploitability <= 1e-9);
    // The opening: player 1 (one die) on the support.
    let point = stored.at("", Some(&[3])).unwrap();
    assert_eq!(point.note, None);
    let actions = point.actions.unwrap();
    let total: f64 = actions.iter().map(|a| a.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert_eq!(
        point.opponent_posterior.unwrap().len(),
        game.hands(Player::Two).len()
    );
    // An opening bid player 1 never makes: no posterior; player 2 there
    // has no rows and calls, and the answer says so.
    let rows = stored.rows(Player::One).unwrap();
    let opening: Vec<Action> = rows
        .iter()
        .filter(|r| r.1 == History::EMPTY && r.0 == 0)
        .map(|r| r.2)
        .collect();
    let never = (0..game.bid_count() as u8)
        .rev()
        .find(|&b| {
            rows.iter()
                .all(|r| !(r.1 == History::EMPTY && r.2 == Action::Bid(b)))
        })
        .expect("a bid no hand opens with");
    let text = game.bid(never).to_string();
    let off = stored.at(&text, Some(&[2, 4, 5])).unwrap();
    assert_eq!(off.opponent_posterior, None, "{opening:?}");
    let note = off.note.expect("the default said");
    assert!(note.contains("the call"), "{note}");
    let actions = off.actions.unwrap();
    assert_eq!(
        (actions[0].action.as_str(), actions[0].probability),
        ("call", 1.0)
    );
    assert!(actions[1..].iter().all(|a| a.probability == 0.0));
    // The dense decode is refused, naming the sparse accessor.
    let err = stored.strategies().unwrap_err().to_string();
    assert!(err.contains("StoredEndgame::rows"), "{err}");
    // The loader's bound: fewer rows allowed than the game has.
    let most = rows.len().max(stored.rows(Player::Two).unwrap().len());
    let err = gametab_lookup::dice::EndgameTables::from_bytes_with_limit(
        read(ENDGAME_VALUES.file),
        read(ENDGAME_STRATEGY.file),
        most - 1,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("more than the") && err.contains("1v3 5-sided"),
        "{err}"
    );
}

/// `gametab verify` certifies a game stored by its support by the sparse
/// walk over its rows, and names a change to them: a set whose large game
/// verifies clean, then 0.01 moved between two actions of one of its
/// information sets on the path (the sum stays 1, so the loader accepts
/// it).
#[test]
fn verify_certifies_a_game_stored_by_its_support_and_names_a_changed_row() {
    use gametab_build::verify::{verify, Sampling};
    use gametab_lookup::dice::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
    use gametab_lookup::io::read_parquet;
    let (_keep, dir) = common::set_with_large_game();
    // Put `bytes` in place of `file` and record them in the manifest.
    let replace = |file: &str, bytes: &[u8], rows: usize| {
        common::replace_table(&dir, file, bytes, rows as u64);
    };
    let endgame_findings = |report: &gametab_build::verify::Report| {
        report
            .findings()
            .filter(|f| f.file.starts_with("dice_endgame"))
            .map(|f| format!("{f:?}"))
            .collect::<Vec<_>>()
    };
    let verifiers = gametab_build::registry::verifiers();
    let report = verify(&dir, &Sampling::default(), &verifiers).unwrap();
    assert_eq!(endgame_findings(&report), Vec::<String>::new(), "{report}");
    let bytes = std::fs::read(dir.join(ENDGAME_STRATEGY.file)).unwrap();
    let mut data = read_parquet(bytes::Bytes::from(bytes), &ENDGAME_STRATEGY).unwrap();
    let (history, hand) = (
        data.i32s("history").unwrap().to_vec(),
        data.i32s("hand").unwrap().to_vec(),
    );
    let on_path = data.bools("on_path").unwrap().to_vec();
    let i = data.schema.column_index("probability").unwrap();
    let gametab_lookup::io::Column::Float64(p) = &mut data.columns[i] else {
        panic!("probability is not a double column");
    };
    let row = (0..p.len() - 1)
        .find(|&r| {
            on_path[r]
                && (history[r], hand[r]) == (history[r + 1], hand[r + 1])
                && p[r] > 0.05
                && p[r + 1] > 0.05
        })
        .expect("a mixed information set on the path");
    p[row] -= 0.01;
    p[row + 1] += 0.01;
    let changed = gametab_build::parquet_write::write_parquet(&data).unwrap();
    replace(ENDGAME_STRATEGY.file, &changed, data.rows());
    let report = verify(&dir, &Sampling::default(), &verifiers).unwrap();
    let found = endgame_findings(&report);
    assert!(
        found.iter().any(|f| f.contains(ENDGAME_VALUES.file)),
        "the certificate of the changed rows differs from the stored one: {found:?}\n{report}"
    );
}

/// The default the readers apply to a (hand, history) without rows is the
/// solver's default, at every history of a game of each kind.
#[test]
fn the_readers_default_is_the_solvers() {
    for (a, b, sides, wild) in [(1, 1, 6, false), (2, 1, 4, true), (1, 2, 3, false)] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        for h in (0..game.history_count() as u32).map(History) {
            assert_eq!(
                gametab_lookup::dice::default_action(h),
                gametab_solve::endgame::restricted::default_action(h),
                "{game} '{}'",
                game.history_text(h)
            );
        }
    }
}
