//! Invariances on long and large logs: relabelling the players of the
//! 12-player games relabels the answers, and thousands of events stay
//! exact against a rescaled computation.

use super::*;

/// Renumber every player of a JSON log by `to`.
fn relabelled(log: &serde_json::Value, to: &dyn Fn(u64) -> u64) -> serde_json::Value {
    let mut log = log.clone();
    if let Some(viewer) = log["viewer"].as_u64() {
        log["viewer"] = to(viewer).into();
    }
    for event in log["events"].as_array_mut().unwrap() {
        for field in [
            "victim", "target", "voter", "player", "hunter", "lover", "guarded",
        ] {
            if let Some(number) = event[field].as_u64() {
                event[field] = to(number).into();
            }
        }
        for list in ["deaths", "players"] {
            if let Some(seats) = event.get_mut(list).and_then(|d| d.as_array_mut()) {
                for seat in seats {
                    *seat = to(seat.as_u64().unwrap()).into();
                }
            }
        }
    }
    log
}

/// Seats carry no meaning: relabelling the players of the 12-player games
/// with every role relabels the answers (a check at the size the brute
/// force cannot reach).
#[test]
fn relabelling_the_twelve_player_games_relabels_the_answers() {
    use gametab_games::werewolf::GameLog;
    for name in ["werewolf-roles-12.json", "werewolf-roles-rules.json"] {
        let original: serde_json::Value = serde_json::from_str(&example(name)).unwrap();
        let to = |n: u64| (n * 5) % 13; // a permutation of 1..=12
        let moved = relabelled(&original, &to);
        let posterior = |value: &serde_json::Value| {
            let log: GameLog = serde_json::from_value(value.clone()).unwrap();
            RolePosterior::compute(&log.to_role_game().unwrap()).unwrap()
        };
        let (before, after) = (posterior(&original), posterior(&moved));
        for n in 1..=12u32 {
            let (a, b) = (seat(n), seat(to(u64::from(n)) as u32));
            for role in Role::ALL {
                let (x, y) = (before.p_role(a, role), after.p_role(b, role));
                assert!((x - y).abs() < 1e-12, "{name} {a} {role}: {x} vs {y}");
            }
            assert!((before.p_lover(a) - after.p_lover(b)).abs() < 1e-12);
            for reveal in [RevealRule::Role, RevealRule::Side] {
                let (x, y) = (
                    before.information_gain(a, reveal),
                    after.information_gain(b, reveal),
                );
                assert!((x - y).abs() < 1e-9, "{name} {a} gain: {x} vs {y}");
            }
        }
        assert!((before.joint_entropy() - after.joint_entropy()).abs() < 1e-9);
        assert_eq!(before.assignment_count(), after.assignment_count());
        assert_eq!(before.p_ongoing(), after.p_ongoing());
    }
}

/// Long logs: thousands of votes and extreme behaviour scores, against the
/// same posterior in rescaled arithmetic.
#[test]
fn long_logs_stay_exact() {
    // 6 players with cupid and 10,000 votes, none between the lovers 2
    // and 5, and behaviour scores far past exp's range.
    let setup = RoleSetup::new(6, 2, &[Role::Seer, Role::Cupid]).unwrap();
    let mut rng = random::Rng(0x1234_5678_9abc_def1);
    let mut g = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    let mut votes = 0;
    while votes < 10_000 {
        let (voter, target) = (rng.below(6) as u32 + 1, rng.below(6) as u32 + 1);
        if voter == target || (voter.min(target), voter.max(target)) == (2, 5) {
            continue;
        }
        g.push(vote(voter, target)).unwrap();
        votes += 1;
    }
    for (player, score) in [(1, 800.0), (3, 795.5), (4, -2000.0), (6, 1e-3)] {
        g.push(RoleEvent::Behaviour {
            player: seat(player),
            score,
        })
        .unwrap();
    }
    g.push(claim(3, Role::Seer, None)).unwrap();
    let exact = RolePosterior::compute(&g).unwrap();
    let (roles, lovers) = rescaled::posterior(&g);
    let mut worst: f64 = 0.0;
    for player in setup.sides().all_players() {
        for role in Role::ALL {
            let d = (exact.p_role(player, role) - roles[player.index()][role.index()]).abs();
            worst = worst.max(d);
        }
        worst = worst.max((exact.p_lover(player) - lovers[player.index()]).abs());
    }
    println!("6 players, cupid, 10,000 votes, scores up to 2000: largest difference {worst:e}");
    assert!(worst < 1e-9, "{worst}");
    assert!(exact.p_lover(seat(2)) > 0.999);
    // 12 players, 4 wolves, every role but cupid, 10,000 votes.
    let setup = RoleSetup::new(12, 4, &ALL_BUT_CUPID).unwrap();
    let mut g = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    for _ in 0..10_000 {
        let voter = rng.below(12) as u32 + 1;
        let target = (voter + rng.below(11) as u32) % 12 + 1;
        g.push(vote(voter, target)).unwrap();
    }
    g.push(RoleEvent::Behaviour {
        player: seat(7),
        score: 1e300,
    })
    .unwrap();
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_wolf(seat(7)), 1.0);
    let mut reference = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    for event in g.events().take(10_000) {
        reference.push(event.clone()).unwrap();
    }
    let exact = RolePosterior::compute(&reference).unwrap();
    let wolves = rescaled::wolf_posterior(&reference);
    let worst = setup
        .sides()
        .all_players()
        .map(|p| (exact.p_wolf(p) - wolves[p.index()]).abs())
        .fold(0.0, f64::max);
    println!("12 players, every role but cupid, 10,000 votes: largest difference {worst:e}");
    assert!(worst < 1e-9, "{worst}");
    // The other roles spread evenly over the non-wolves.
    let seer = exact.p_role(seat(1), Role::Seer);
    assert!((seer - (1.0 - exact.p_wolf(seat(1))) / 8.0).abs() < 1e-9);
}
