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
        (
            &["--dice", "2,2", "--sides", "6"][..],
            "beyond the frontier",
        ),
        (
            &["--dice", "1,1", "--players", "3"][..],
            "unexpected argument",
        ),
    ] {
        let mut all = base.to_vec();
        all.extend_from_slice(args);
        let (ok, _, err) = gametab(&all);
        assert!(!ok, "{all:?} succeeded");
        assert!(err.contains(needle), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{all:?}: {err}");
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

#[test]
fn a_file_naming_a_game_too_large_to_hold_is_refused_before_allocating() {
    use gametab_lookup::dice::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
    use gametab_lookup::io::{read_parquet, Column};
    let dir = common::built_tables();
    let read = |file: &str| bytes::Bytes::from(std::fs::read(dir.join(file)).unwrap());
    let mut values = read_parquet(read(ENDGAME_VALUES.file), &ENDGAME_VALUES).unwrap();
    // The last row (2v1, five sides, wild) becomes 2v2 with six sides: 20
    // bids and 21 hands each, a dense strategy of 22 M slots per player.
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
        err.contains("2v2 6-sided") && err.contains("larger than any stored endgame"),
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
/// it without any cache; and a solved job file of a game the build does
/// not list is reported, certified by the sparse certificate.
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
    let build = |cache: Option<&std::path::Path>, budget| {
        let out = tempfile::tempdir().unwrap();
        let options = gametab_build::options::BuildOptions {
            out: out.path().to_path_buf(),
            threads: 1,
            progress: gametab_build::progress::Progress::hidden(),
            lp: Default::default(),
            cache: cache.map(|c| c.join("games.bin")),
            endgame_frontier: true,
            endgame_budget: budget,
        };
        let mut writer = gametab_build::output::TableWriter::new(out.path()).unwrap();
        let lines =
            gametab_build::dice::endgame::build::build(&[default, frontier], &options, &mut writer)
                .unwrap();
        let values = std::fs::read(out.path().join("dice_endgame_values.parquet")).unwrap();
        let strategy = std::fs::read(out.path().join("dice_endgame_strategy.parquet")).unwrap();
        (lines, values, strategy)
    };
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
    // Taken from the job file: the same bytes as the build that solved it.
    let (_, again_values, again_strategy) = build(Some(cache.path()), None);
    assert_eq!((values, strategy), (again_values, again_strategy));
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
