//! Logs the rules refuse, each with its message and the index of the event
//! it names: events after the game's end, claims and checks by the dead or
//! by the wrong viewer, a guard's target twice, revotes outside the tie,
//! consequences away from their step, logs no assignment explains (the
//! first event after which none is left), and malformed log fields.

use gametab_games::werewolf::roles::{Known, Role, RoleEvent, RoleGame, RoleModel, RoleSetup};
use gametab_games::werewolf::GameLog;

use super::{claim, guarded_night, night, out, seat, tie, vote, VILLAGE, WOLF};

/// Push `events` into a fresh game; the last must be refused: its error
/// text contains `expected` and names the last event's index.
fn refused(setup: RoleSetup, viewer: Option<(u32, Known)>, events: Vec<RoleEvent>, expected: &str) {
    let mut game = RoleGame::new(
        setup,
        RoleModel::default(),
        viewer.map(|(n, k)| (seat(n), k)),
    )
    .unwrap();
    let last = events.len() - 1;
    for (index, event) in events.into_iter().enumerate() {
        let shown = event.to_string();
        let result = game.push(event);
        if index < last {
            result.unwrap_or_else(|e| panic!("event {index} ({shown}): {e}"));
        } else {
            let error = result.expect_err(&format!("{shown} was accepted"));
            assert_eq!(error.event_index(), Some(last), "{error}");
            let text = error.to_string();
            assert!(text.contains(expected), "{shown}: {text}");
            assert_eq!(
                text.matches("inconsistent input").count().max(1),
                1,
                "{text}"
            );
        }
    }
}

#[test]
fn nothing_follows_a_public_end() {
    let five = RoleSetup::new(5, 1, &[Role::Seer]).unwrap();
    // Votes after the last wolf is out.
    refused(
        five,
        None,
        vec![out(1, Some(WOLF)), vote(2, 3)],
        "the village has won",
    );
    // An old-style night kill after the last wolf is out.
    refused(
        five,
        None,
        vec![
            out(1, Some(Known::Role(Role::Wolf))),
            RoleEvent::NightKill { victim: seat(2) },
        ],
        "every wolf is dead",
    );
    // Votes after the wolves reach parity.
    let four = RoleSetup::new(4, 1, &[]).unwrap();
    refused(
        four,
        None,
        vec![
            RoleEvent::Revealed {
                player: seat(1),
                known: WOLF,
            },
            out(2, None),
            night(&[3]),
            vote(1, 4),
        ],
        "the wolves (or a wolf-villager pair of lovers) have won",
    );
    // A wolf viewer knows: with one wolf left, the vote that leaves him
    // with one other player ends the game.
    refused(
        four,
        Some((4, Known::Role(Role::Wolf))),
        vec![out(1, None), night(&[2]), claim(3, Role::Seer, None)],
        "the game is over after event 2",
    );
}

/// When the end is not public but holds under every assignment left, the
/// posterior refuses the next event and says the game was over.
#[test]
fn an_end_in_every_assignment_is_named() {
    use gametab_games::werewolf::roles::RolePosterior;
    let setup = RoleSetup::new(4, 1, &[]).unwrap();
    let mut game = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    for event in [out(1, None), night(&[2])] {
        game.push(event).unwrap();
    }
    // The log may end here: the village won if 2 was the wolf (1 cannot
    // be: an event followed), knifed by himself with 0.05 against 0.95 / 2
    // for each of 3 and 4 as the wolf: P = 0.05 / (0.05 + 0.95); else the
    // wolves won.
    let posterior = RolePosterior::compute(&game).unwrap();
    assert_eq!(posterior.p_ongoing(), 0.0);
    assert!(
        (posterior.p_won(gametab_games::werewolf::roles::Winner::Village) - 0.05).abs() < 1e-12
    );
    game.push(vote(3, 4)).unwrap();
    let error = RolePosterior::compute(&game).unwrap_err();
    assert_eq!(error.event_index(), Some(2));
    let text = error.to_string();
    assert!(
        text.contains("event 3 (vote 3 -> 4)")
            && text.contains("already over after event 2")
            && text.contains("the village won with probability 0.0500")
            && text.contains("the wolves won with probability 0.9500"),
        "{text}"
    );
}

#[test]
fn the_dead_claim_nothing_and_only_the_seer_sees() {
    let setup = RoleSetup::new(6, 2, &[Role::Seer, Role::Witch, Role::Guard]).unwrap();
    refused(
        setup,
        None,
        vec![out(2, None), claim(2, Role::Seer, None)],
        "player 2 is already dead",
    );
    let check = |target: u32| RoleEvent::SeerCheck {
        target: seat(target),
        result: Known::Role(Role::Witch),
    };
    refused(setup, None, vec![check(3)], "needs the seer as the viewer");
    refused(
        setup,
        Some((1, Known::Role(Role::Witch))),
        vec![check(3)],
        "viewer_role",
    );
    refused(
        setup,
        Some((1, Known::Role(Role::Seer))),
        vec![out(1, None), check(3)],
        "the seer is dead",
    );
    refused(
        setup,
        Some((1, Known::Role(Role::Seer))),
        vec![RoleEvent::SeerCheck {
            target: seat(3),
            result: Known::Role(Role::Hunter),
        }],
        "the setup has no hunter card",
    );
    refused(
        setup,
        None,
        vec![claim(1, Role::Seer, Some((3, Known::Role(Role::Seer))))],
        "never sees a second seer",
    );
}

#[test]
fn the_guard_never_protects_the_same_player_two_nights_running() {
    let setup = RoleSetup::new(6, 1, &[Role::Guard, Role::Seer]).unwrap();
    let guard = Some((6, Known::Role(Role::Guard)));
    refused(
        setup,
        guard,
        vec![
            guarded_night(&[], 2),
            vote(1, 3),
            tie(&[1, 3]),
            RoleEvent::NoElimination,
            guarded_night(&[], 2),
        ],
        "never protects the same player two nights running",
    );
    refused(
        setup,
        Some((6, Known::Role(Role::Seer))),
        vec![guarded_night(&[], 2)],
        "only a guard viewer",
    );
    refused(
        setup,
        guard,
        vec![out(6, None), guarded_night(&[], 2)],
        "the guard is dead",
    );
}

#[test]
fn a_tie_is_voted_again_among_the_tied() {
    let setup = RoleSetup::new(6, 2, &[Role::Seer]).unwrap();
    let tie = RoleEvent::Tie {
        players: vec![seat(1), seat(2)],
    };
    refused(
        setup,
        None,
        vec![tie.clone(), vote(3, 4)],
        "the revote after the tie of event 1 is among players 1, 2",
    );
    refused(
        setup,
        None,
        vec![tie.clone(), out(3, None)],
        "is among players 1, 2",
    );
    refused(setup, None, vec![tie.clone(), night(&[])], "has not ended");
    refused(setup, None, vec![tie.clone(), tie.clone()], "tied again");
    refused(
        setup,
        None,
        vec![vote(1, 2), RoleEvent::NoElimination],
        "follows a `tie`",
    );
}

#[test]
fn a_shot_or_a_lovers_death_follows_its_step() {
    let setup = RoleSetup::new(6, 2, &[Role::Hunter, Role::Cupid]).unwrap();
    refused(
        setup,
        None,
        vec![
            night(&[2]),
            vote(1, 3),
            RoleEvent::HunterShot {
                hunter: seat(2),
                target: seat(4),
            },
        ],
        "follows the night or elimination that caused it directly",
    );
    refused(
        setup,
        None,
        vec![
            out(2, Some(VILLAGE)),
            claim(1, Role::Hunter, None),
            RoleEvent::LoverDeath {
                player: seat(3),
                lover: seat(2),
            },
        ],
        "directly",
    );
}

#[test]
fn scores_stay_in_range() {
    let setup = RoleSetup::new(6, 2, &[Role::Seer]).unwrap();
    let score = |s: f64| RoleEvent::Behaviour {
        player: seat(3),
        score: s,
    };
    refused(setup, None, vec![score(f64::NAN)], "must be finite");
    refused(
        setup,
        None,
        vec![score(9e299), score(9e299)],
        "within ±1e300",
    );
}

/// 12 players, 4 wolves, cupid, random votes: lovers never vote for each
/// other, so once every pair has a vote between them no assignment is
/// left; the error names exactly that vote (and until then the log is
/// read).
#[test]
fn the_last_lovers_pair_ruled_out_is_named() {
    use gametab_games::werewolf::roles::RolePosterior;
    let setup = RoleSetup::new(
        12,
        4,
        &[
            Role::Seer,
            Role::Witch,
            Role::Hunter,
            Role::Guard,
            Role::Cupid,
        ],
    )
    .unwrap();
    let mut rng = super::random::Rng(0x5eed_0000_0000_0300);
    let mut game = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    let mut covered = std::collections::HashSet::new();
    let mut all_covered_at = None;
    for index in 0..300 {
        let voter = rng.below(12) as u32 + 1;
        let target = (voter + rng.below(11) as u32) % 12 + 1;
        game.push(vote(voter, target)).unwrap();
        covered.insert((voter.min(target), voter.max(target)));
        if covered.len() == 66 && all_covered_at.is_none() {
            all_covered_at = Some(index);
        }
    }
    let at = all_covered_at.expect("300 random votes cover the 66 pairs with this seed");
    let error = RolePosterior::compute(&game).unwrap_err();
    assert_eq!(error.event_index(), Some(at));
    assert!(
        error.to_string().contains("no lovers' pair is left"),
        "{error}"
    );
    // The log up to the vote before is read.
    let before = game.prefix(at).unwrap();
    let posterior = RolePosterior::compute(&before).unwrap();
    assert_eq!(posterior.lovers().len(), 1);
    // The same votes without cupid: read.
    let setup =
        RoleSetup::new(12, 4, &[Role::Seer, Role::Witch, Role::Hunter, Role::Guard]).unwrap();
    let mut plain = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    for event in game.events() {
        plain.push(event.clone()).unwrap();
    }
    RolePosterior::compute(&plain).unwrap();
}

/// Malformed logs: the message says what is wrong, with the event's index
/// where there is one.
#[test]
fn log_messages_name_the_problem() {
    let parse = |text: &str| serde_json::from_str::<GameLog>(text);
    // Roles as a list are read.
    let log =
        parse(r#"{"players": 6, "wolves": 2, "roles": ["seer", "witch"], "events": []}"#).unwrap();
    assert_eq!(
        log.role_setup().unwrap().specials(),
        vec![Role::Witch, Role::Seer]
    );
    let error = parse(r#"{"players": 6, "wolves": 2, "roles": ["seer", "wolf"], "events": []}"#)
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("counted by `wolves` and `players`"),
        "{error}"
    );
    let error = parse(r#"{"players": 6, "wolves": 2, "roles": {"seer": "yes"}, "events": []}"#)
        .unwrap_err();
    assert!(
        error.to_string().contains("a count of the role (0 or 1)"),
        "{error}"
    );
    let error = parse(r#"{"players": 6, "wolves": 2, "roles": "seer", "events": []}"#).unwrap_err();
    assert!(error.to_string().contains("as a list of names"), "{error}");
    // A viewer out of range is the viewer.
    let log =
        parse(r#"{"players": 7, "wolves": 2, "viewer": 9, "roles": {"seer": 1}, "events": []}"#)
            .unwrap();
    let error = log.to_role_game().unwrap_err().to_string();
    assert!(
        error.starts_with("viewer is out of range: player 9"),
        "{error}"
    );
    let log = parse(r#"{"players": 7, "wolves": 2, "viewer": 9, "events": []}"#).unwrap();
    let error = log.to_game().unwrap_err().to_string();
    assert!(error.starts_with("viewer is out of range"), "{error}");
    // "inconsistent input" once.
    let log = parse(r#"{"players": 6, "wolves": 2, "viewer": 1, "viewer_role": "seer", "roles": {}, "events": []}"#).unwrap();
    let error = log.to_role_game().unwrap_err().to_string();
    assert_eq!(error.matches("inconsistent input").count(), 1, "{error}");
    assert!(error.contains("viewer"), "{error}");
    // A card as a check's result needs a role log.
    let log = parse(r#"{"players": 6, "wolves": 2, "events": [{"kind": "seer", "target": 2, "result": "witch"}]}"#).unwrap();
    let error = log.to_game().unwrap_err();
    assert_eq!(error.event_index(), Some(0));
    assert!(error.to_string().contains("needs a role log"), "{error}");
    // Events in role logs name their index.
    let log = parse(
        r#"{"players": 6, "wolves": 2, "roles": {"seer": 1}, "events": [
            {"kind": "vote", "voter": 1, "target": 2},
            {"kind": "claim", "player": 1, "role": "seer", "target": 9, "result": "wolf"}]}"#,
    )
    .unwrap();
    let error = log.to_role_game().unwrap_err();
    assert_eq!(error.event_index(), Some(1));
    assert!(error.to_string().contains("(event 2)"), "{error}");
    // A guard target, a tie and no elimination round-trip.
    let text = r#"{"players": 6, "wolves": 1, "roles": {"guard": 1}, "viewer": 6, "viewer_role": "guard",
        "events": [{"kind": "night", "deaths": [], "guarded": 2},
                   {"kind": "tie", "players": [1, 2]},
                   {"kind": "vote", "voter": 3, "target": 1},
                   {"kind": "no_elimination"}]}"#;
    let log = parse(text).unwrap();
    log.to_role_game().unwrap();
    let back: GameLog = serde_json::from_str(&serde_json::to_string(&log).unwrap()).unwrap();
    assert_eq!(back, log);
}

/// The role examples read, validate and compute; they round-trip through
/// serde; the side-only demo keeps its exact JSON and its engine.
#[test]
fn logs_role_examples_and_the_old_demo() {
    use gametab_games::werewolf::roles::RolePosterior;
    for name in [
        "werewolf-roles-7.json",
        "werewolf-roles-12.json",
        "werewolf-roles-rules.json",
    ] {
        let text = super::example(name);
        let log: GameLog = serde_json::from_str(&text).unwrap();
        assert!(log.is_role_log());
        let game = log.to_role_game().unwrap_or_else(|e| panic!("{name}: {e}"));
        let exact = RolePosterior::compute(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
        for player in game.setup().sides().all_players() {
            let total: f64 = exact.role_distribution(player).iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{name} {player}: {total}");
        }
        let back: GameLog = serde_json::from_str(&serde_json::to_string(&log).unwrap()).unwrap();
        assert_eq!(back, log);
        assert!(log
            .to_game()
            .unwrap_err()
            .to_string()
            .contains("to_role_game"));
    }
    let text = super::example("werewolf-demo.json");
    let log: GameLog = serde_json::from_str(&text).unwrap();
    assert!(!log.is_role_log());
    log.to_game().unwrap();
    let original: serde_json::Value = serde_json::from_str(&text).unwrap();
    let written: serde_json::Value = serde_json::to_value(&log).unwrap();
    for key in ["roles", "viewer_role", "reveal"] {
        assert!(
            written.get(key).is_none(),
            "{key} written for a side-only log"
        );
    }
    assert_eq!(written["events"], original["events"]);
    // The demo read by the role engine keeps its unmodelled seer check.
    let game = log.to_role_game().unwrap();
    assert!(game.is_side_log());
    RolePosterior::compute(&game).unwrap();
}

#[test]
fn bad_role_logs_name_the_problem() {
    let cases = [
        (
            r#"{"players": 6, "wolves": 2, "events": [{"kind": "night", "deaths": []}]}"#,
            "roles",
        ),
        (
            r#"{"players": 6, "wolves": 2, "events": [{"kind": "vote", "voter": 1, "target": 2},
                {"kind": "claim", "player": 1, "role": "seer"}]}"#,
            "event 2: `claim` needs a role log",
        ),
        (
            r#"{"players": 6, "wolves": 2, "roles": {"seer": 2}, "events": []}"#,
            "allowed 0 or 1",
        ),
        (
            r#"{"players": 6, "wolves": 2, "roles": {"seer": 1}, "events": [
                {"kind": "claim", "player": 1, "role": "seer", "target": 2}]}"#,
            "event 1",
        ),
        (
            r#"{"players": 6, "wolves": 2, "roles": {}, "viewer_role": "seer", "events": []}"#,
            "viewer",
        ),
        (
            r#"{"players": 6, "wolves": 2, "roles": {"hunter": 1}, "events": [
                {"kind": "eliminated", "player": 2, "revealed": "wolf", "role": "hunter"}]}"#,
            "event 1",
        ),
        (
            r#"{"players": 6, "wolves": 2, "roles": {"hunter": 1}, "events": [
                {"kind": "night", "deaths": [1, 9]}]}"#,
            "event 1",
        ),
    ];
    for (text, expected) in cases {
        let log: GameLog = serde_json::from_str(text).unwrap();
        let error = if log.is_role_log() {
            log.to_role_game().unwrap_err().to_string()
        } else {
            log.to_game().unwrap_err().to_string()
        };
        assert!(error.contains(expected), "{text}: {error}");
    }
}

/// Broken rules are errors naming the event, never panics.
#[test]
fn rule_breaking_events_are_errors() {
    let setup = RoleSetup::new(6, 2, &[Role::Hunter]).unwrap();
    let mut g = RoleGame::new(setup, RoleModel::default(), None).unwrap();
    g.push(night(&[3])).unwrap();
    let shot = RoleEvent::HunterShot {
        hunter: seat(2),
        target: seat(4),
    };
    let error = g.push(shot).unwrap_err().to_string();
    assert!(
        error.contains("event 2") && error.contains("player 2"),
        "{error}"
    );
    let error = g
        .push(RoleEvent::LoverDeath {
            player: seat(1),
            lover: seat(3),
        })
        .unwrap_err()
        .to_string();
    assert!(error.contains("cupid"), "{error}");
    g.push(tie(&[1, 4])).unwrap();
    g.push(RoleEvent::NoElimination).unwrap();
    let error = g.push(night(&[1, 2])).unwrap_err().to_string();
    assert!(error.contains("no witch"), "{error}");
    let error = g
        .push(RoleEvent::Revealed {
            player: seat(1),
            known: Known::Role(Role::Seer),
        })
        .unwrap_err()
        .to_string();
    assert!(error.contains("cannot be the seer"), "{error}");
    let big = RoleSetup::new(
        13,
        4,
        &[
            Role::Seer,
            Role::Witch,
            Role::Hunter,
            Role::Guard,
            Role::Cupid,
        ],
    )
    .unwrap();
    let g = RoleGame::new(big, RoleModel::default(), None).unwrap();
    let error = gametab_games::werewolf::roles::RolePosterior::compute(&g)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("limit") && error.contains("10810800"),
        "{error}"
    );
    assert!(RoleSetup::new(6, 2, &[Role::Seer, Role::Seer]).is_err());
    assert!(RoleSetup::new(6, 2, &[Role::Wolf]).is_err());
    assert!(RoleSetup::new(5, 2, &[Role::Seer, Role::Witch, Role::Hunter, Role::Guard]).is_err());
    for bad in [
        RoleModel {
            witch_save: 1.5,
            ..RoleModel::default()
        },
        RoleModel {
            wolves_knife_wolf: -0.1,
            ..RoleModel::default()
        },
    ] {
        assert!(RoleGame::new(setup, bad, None).is_err());
    }
}

/// The search for the first impossible event runs inside the caller's
/// budget, and a stop there is the budget's error, not a refusal.
#[test]
fn the_diagnosis_keeps_to_the_budget() {
    use gametab_games::budget::{Budget, Exceeded};
    use gametab_games::werewolf::roles::RolePosterior;
    use gametab_games::Error;
    let setup = RoleSetup::new(5, 1, &[Role::Witch]).unwrap();
    let mut game = RoleGame::new(setup, super::without_knife_or_self_poison(), None).unwrap();
    let day = [tie(&[1, 2]), RoleEvent::NoElimination];
    for event in [
        vec![night(&[5])],
        day.to_vec(),
        vec![night(&[])],
        day.to_vec(),
    ]
    .concat()
    .into_iter()
    .chain([night(&[])])
    {
        game.push(event).unwrap();
    }
    let error = RolePosterior::compute(&game).unwrap_err();
    assert_eq!(error.event_index(), Some(6));
    // Every budget short of the whole search (the posterior, then the
    // prefixes) stops with the budget's error, never a refusal.
    let mut steps = 1;
    loop {
        let result = Budget::with_steps(steps).run(|| RolePosterior::compute(&game).map(drop));
        match result {
            Err(Error::Budget(Exceeded::Steps { limit })) => assert_eq!(limit, steps),
            Err(found) => {
                assert_eq!(found, error);
                break;
            }
            Ok(()) => panic!("the log was explained"),
        }
        steps += 1;
    }
    assert!(steps > 10, "{steps}");
}
