//! Tests of the endgame jobs ([`super`]): the method per game, the
//! job's log, checkpoints and resumption, refused caches, durations and
//! file names.

use super::*;

/// The look-ahead goes to the four-dice games of the simplex alone: the
/// default games keep their options (and the cache's fingerprint, so
/// the default tables), the interior point's games theirs.
#[test]
fn the_look_ahead_is_the_four_sided_four_dice_games_alone() {
    for game in crate::dice::endgame::build::default_games() {
        let (method, options) = method_and_options(game);
        assert_eq!(method, method_for(game), "{game}");
        assert_eq!(options.lookahead, 0, "{game}");
        assert_eq!(
            fingerprint(options),
            fingerprint(LpOptions::default()),
            "{game}"
        );
    }
    let four = Endgame::new(2, 2, 4, true).unwrap();
    assert_eq!(method_and_options(four).1.lookahead, SIMPLEX_LOOKAHEAD);
    assert!(fingerprint(method_and_options(four).1).ends_with(", 2 look-ahead steps"));
    let five = Endgame::new(2, 2, 5, true).unwrap();
    let (_, options) = method_and_options(five);
    assert_eq!((options.method, options.lookahead), ("ipm", 0));
    // Pruning is a job's choice (`--prune true`), not the build's.
    assert_eq!(options.prune, None);
    assert_eq!(method_and_options(four).1.prune, None);
    let pruned = LpOptions {
        prune: Some(gametab_solve::endgame::oracle::PRUNE_FROM),
        ..options
    };
    assert!(fingerprint(pruned).contains(", pruned from 2000 sequences"));
}

/// The four-dice wild games measured quicker with the copies from
/// [`WILD_LARGE_ROWS`] rows take them, and their fingerprint says so; the
/// rest keep the default (the default games, so the cache's fingerprint,
/// the normal four-dice games, 3v1 and 2v2 six-sided wild).
#[test]
fn the_copies_start_early_on_the_measured_wild_games_alone() {
    use gametab_solve::endgame::lp::IPM_FINISH_ROWS;
    for (a, b, sides, wild, early) in [
        (1, 3, 5, true, true),
        (2, 2, 5, true, true),
        (3, 1, 5, true, true),
        (1, 3, 6, true, true),
        (3, 1, 6, true, false),
        (2, 2, 6, true, false),
        (2, 2, 5, false, false),
        (1, 3, 6, false, false),
        (2, 2, 4, true, false),
        (2, 1, 6, true, false),
    ] {
        let game = Endgame::new(a, b, sides, wild).unwrap();
        assert_eq!(copies_early(game), early, "{game}");
        let options = method_and_options(game).1;
        let rows = if early {
            WILD_LARGE_ROWS
        } else {
            IPM_FINISH_ROWS
        };
        assert_eq!(options.ipm_finish_rows, rows, "{game}");
        let width = if early {
            WILD_PAIR_WIDTH
        } else {
            gametab_solve::endgame::oracle::PAIR_WIDTH
        };
        assert_eq!(options.pair_width, width, "{game}");
        assert_eq!(
            fingerprint(options)
                .contains(", large restricted LPs from 20000 rows, pair width 1e-11"),
            early,
            "{game}"
        );
    }
}

use crate::dice::endgame::round_log::LOG_EVERY;

/// A job's log: a line per round when every round may log, counting
/// on over a resumed job (rounds, time), the bracket narrowing to the
/// value the job ends with; no line at all within the interval.
#[test]
fn a_jobs_log_follows_its_rounds_over_its_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let (method, options) = method_and_options(game);
    let run = |budget, every| {
        let mut log = RoundLog::with(game, None, Some(Vec::new()), every);
        let report = solve_job_watched(game, dir.path(), method, options, budget, None, &mut |r| {
            log.round(r)
        })
        .unwrap();
        let text = String::from_utf8(log.finish().unwrap()).unwrap();
        (report, text)
    };
    let (cut, text) = run(Some(Duration::ZERO), Duration::ZERO);
    let JobState::Partial(p) = &cut.state else {
        panic!("not cut off: {}", cut.line)
    };
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("2v1 4-sided normal: round 1, value in ["),
        "{text}"
    );
    let (solved, text) = run(None, Duration::ZERO);
    let JobState::Solved(g) = &solved.state else {
        panic!("not solved: {}", solved.line)
    };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() as u32, g.lps - p.rounds, "{text}");
    assert!(
        lines[0].starts_with(&format!("2v1 4-sided normal: round {}, ", p.rounds + 1)),
        "{text}"
    );
    let width = |line: &str| -> f64 {
        let w = line.split("(width ").nth(1).unwrap();
        w[..w.find(')').unwrap()].parse().unwrap()
    };
    assert!(width(lines.last().unwrap()) < 1e-9, "{text}");
    assert!(width(lines[0]) >= width(lines.last().unwrap()), "{text}");
    // A solved job file: no round at all.
    let (_, text) = run(None, Duration::ZERO);
    assert_eq!(text, "");
    // Rounds within the interval: no line.
    let game_dir = tempfile::tempdir().unwrap();
    let mut log = RoundLog::with(game, None, Some(Vec::new()), LOG_EVERY);
    solve_job_watched(
        game,
        game_dir.path(),
        method,
        options,
        None,
        None,
        &mut |r| log.round(r),
    )
    .unwrap();
    assert!(log.finish().unwrap().is_empty());
}

/// With a checkpoint at every round, the job file holds the last
/// round's end whenever a round ends (as a job killed there would
/// leave it), and a job resumed from any one of them solves the game
/// to the value of a job never stopped.
#[test]
fn every_checkpoint_is_a_point_to_resume_from() {
    let dir = tempfile::tempdir().unwrap();
    let game = Endgame::new(2, 1, 4, false).unwrap();
    let (method, options) = method_and_options(game);
    let path = dir.path().join(job::file_name(game));
    let mut saved: Vec<(u32, Vec<u8>)> = Vec::new();
    let report = solve_job_watched(
        game,
        dir.path(),
        method,
        options,
        None,
        Some(Duration::ZERO),
        &mut |r| {
            if r.rounds > 1 {
                let bytes = std::fs::read(&path).expect("a checkpoint after round 1");
                saved.push((r.rounds, bytes));
            }
        },
    )
    .unwrap();
    let JobState::Solved(whole) = &report.state else {
        panic!("not solved: {}", report.line)
    };
    assert!(saved.len() >= 3, "{} rounds", saved.len());
    assert!(
        report
            .line
            .contains(&format!(", {} checkpoints", saved.len() + 1)),
        "{}",
        report.line
    );
    let mut last = 0;
    for (round, bytes) in &saved {
        let file = job::decode(bytes).unwrap();
        let JobState::Partial(p) = &file.state else {
            panic!("round {round}: not a restricted game")
        };
        assert_eq!(p.rounds, round - 1);
        assert!(p.included.len() >= last, "round {round}: sequences lost");
        last = p.included.len();
    }
    for (round, bytes) in [&saved[0], &saved[saved.len() / 2]] {
        let again = tempfile::tempdir().unwrap();
        std::fs::write(again.path().join(job::file_name(game)), bytes).unwrap();
        let resumed = solve_job(game, again.path(), method, options, None).unwrap();
        let JobState::Solved(g) = &resumed.state else {
            panic!("round {round}: not solved: {}", resumed.line)
        };
        assert!(resumed.line.contains("resumed"), "{}", resumed.line);
        assert!(g.lps >= round - 1, "round {round}: {} LPs", g.lps);
        assert!((g.value - whole.value).abs() < 1e-12, "round {round}");
    }
}

/// A cache where no job file can be written is refused before the
/// first round, not after the solve.
#[test]
fn an_unwritable_cache_is_refused_before_any_round() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a file");
    std::fs::write(&file, b"").unwrap();
    let game = Endgame::new(2, 2, 3, false).unwrap();
    let (method, options) = method_and_options(game);
    let err = solve_job_watched(
        game,
        &job_dir(&file),
        method,
        options,
        None,
        None,
        &mut |r| panic!("a round ran: {r:?}"),
    )
    .unwrap_err();
    let text = chain(&err);
    assert!(
        text.contains("a file/dice_endgame") && text.contains("cannot create"),
        "{text}"
    );
}

#[test]
fn durations_parse() {
    assert_eq!(parse_duration("90").unwrap(), Duration::from_secs(90));
    assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
    assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
    assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
    for bad in ["", "m", "10x", "0s", "-5"] {
        assert!(parse_duration(bad).is_err(), "{bad}");
    }
}

#[test]
fn job_file_names_name_their_game() {
    let game = Endgame::new(2, 2, 5, true).unwrap();
    assert_eq!(job::file_name(game), "2v2-5-wild.bin");
    assert_eq!(job::game_of_file_name("2v2-5-wild.bin"), Some(game));
    assert_eq!(job::game_of_file_name("2v2-5-wild.tmp"), None);
    assert_eq!(job::game_of_file_name("2v2-05-wild.bin"), None);
}

/// A game cut off by its budget keeps its restricted game, the next
/// job resumes from it and solves it, and a third job finds it solved:
/// the value is the one a single solve gives.
#[test]
fn a_job_cut_off_resumes_and_a_solved_one_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let game = Endgame::new(2, 1, 3, false).unwrap();
    let (method, options) = method_and_options(game);
    let first = solve_job(game, dir.path(), method, options, Some(Duration::ZERO)).unwrap();
    let JobState::Partial(p) = &first.state else {
        panic!("not cut off: {}", first.line)
    };
    assert_eq!(p.rounds, 1);
    assert!(!p.included.is_empty());
    let second = solve_job(game, dir.path(), method, options, None).unwrap();
    let JobState::Solved(g) = &second.state else {
        panic!("not solved: {}", second.line)
    };
    assert!(second.line.contains("resumed"), "{}", second.line);
    let once = gametab_solve::endgame::solve(game, LpOptions::default()).unwrap();
    assert!((g.value - once.value).abs() < 1e-12);
    assert_eq!(
        g.restore_sparse().unwrap().exact.map(|f| f.to_string()),
        Some("1/9".to_owned())
    );
    let third = solve_job(game, dir.path(), method, options, None).unwrap();
    assert!(third.line.contains("already in"), "{}", third.line);
    assert!(!third.line.contains("another solver"), "{}", third.line);
    assert_eq!(third.state, second.state);
    // The same file read by a job with other LP options: still taken
    // (certified again), and the line names the solver that made it.
    let other = LpOptions {
        method: "ipm",
        crossover: false,
        ..options
    };
    let fourth = solve_job(game, dir.path(), method, other, None).unwrap();
    assert!(fourth.line.contains("already in"), "{}", fourth.line);
    assert!(
        fourth.line.contains("made by another solver") && fourth.line.contains("simplex"),
        "{}",
        fourth.line
    );
    assert_eq!(fourth.state, second.state);
}

/// A cut-off game's line names the best strategies its job file keeps,
/// each with its bound, and says nothing of them when none is kept.
#[test]
fn a_cut_off_games_line_names_its_kept_strategies() {
    let game = Endgame::new(3, 1, 6, true).unwrap();
    let mut partial = PartialGame {
        key: (3, 1, 6, true),
        rounds: 366,
        seconds: 31_158.0,
        value: 0.345,
        bracket: (0.3451646090534, 0.345164609054),
        size: (416_249, 453_391, 1_888_602),
        included: vec![(0, 1, 1)],
        kept: [None, None],
    };
    let bare = describe(game, &JobState::Partial(partial.clone()), None);
    assert!(!bare.contains("best strategies"), "{bare}");
    partial.kept[0] = Some(job::KeptStrategy {
        bound: 0.345164609053465,
        value: 0.345164609053498,
        entries: vec![(0, 0, 1, 1.0)],
    });
    let one = describe(game, &JobState::Partial(partial.clone()), None);
    assert!(
        one.contains("and the best strategies of player 1's (lower bound 0.345164609053465))"),
        "{one}"
    );
    partial.kept[1] = Some(job::KeptStrategy {
        bound: 0.345164609054,
        value: 0.345164609053498,
        entries: Vec::new(),
    });
    let both = describe(game, &JobState::Partial(partial), None);
    assert!(
        both.contains("player 1's (lower bound 0.345164609053465) and player 2's (upper bound 0.345164609054000)"),
        "{both}"
    );
}
