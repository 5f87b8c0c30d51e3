//! Role-engine checks against an independent brute force: every full role
//! assignment, every lovers' pair and every hidden night choice (victim,
//! guard, witch's save, poison and target) enumerated one by one straight
//! from the model's description, on small setups where each role is
//! present; plus hand-checked directions of each event type and the
//! agreement with the side-only engine when no special role is present.

use gametab_games::werewolf::roles::{
    Known, Role, RoleEvent, RoleGame, RoleModel, RolePosterior, RoleSetup,
};
use gametab_games::werewolf::{Event, Game, Player, Posterior, Side};

fn seat(n: u32) -> Player {
    Player::from_number(n, gametab_games::werewolf::Setup::new(64, 1).unwrap()).unwrap()
}

#[path = "werewolf_roles/brute.rs"]
mod brute;

use brute::brute;

fn assert_agrees(game: &RoleGame) {
    let exact = RolePosterior::compute(game).unwrap();
    let brute = brute(game);
    for player in game.setup().sides().all_players() {
        for role in Role::ALL {
            let (e, b) = (
                exact.p_role(player, role),
                brute.roles[player.index()][role.index()],
            );
            assert!(
                (e - b).abs() < 1e-10,
                "{player} {role}: engine {e}, brute force {b}"
            );
        }
        let (e, b) = (exact.p_lover(player), brute.lovers[player.index()]);
        assert!(
            (e - b).abs() < 1e-10,
            "{player} lover: engine {e}, brute force {b}"
        );
    }
    let (e, b) = (exact.joint_entropy(), brute.entropy_bits);
    assert!(
        (e - b).abs() < 1e-9,
        "joint entropy: engine {e}, brute force {b}"
    );
}

fn game(setup: RoleSetup, viewer: Option<(u32, Role)>, events: Vec<RoleEvent>) -> RoleGame {
    let mut game = RoleGame::new(
        setup,
        RoleModel::default(),
        viewer.map(|(n, r)| (seat(n), Known::Role(r))),
    )
    .unwrap();
    for event in events {
        game.push(event).unwrap();
    }
    game
}

fn night(deaths: &[u32]) -> RoleEvent {
    RoleEvent::Night {
        deaths: deaths.iter().map(|&n| seat(n)).collect(),
    }
}

fn vote(voter: u32, target: u32) -> RoleEvent {
    RoleEvent::Vote {
        voter: seat(voter),
        target: seat(target),
    }
}

fn claim(player: u32, role: Role, check: Option<(u32, Side)>) -> RoleEvent {
    RoleEvent::Claim {
        player: seat(player),
        role,
        check: check.map(|(t, s)| (seat(t), s)),
    }
}

const ALL_BUT_CUPID: [Role; 4] = [Role::Seer, Role::Witch, Role::Hunter, Role::Guard];

#[test]
fn brute_force_quiet_night_claims_and_double_death() {
    let setup = RoleSetup::new(7, 2, &ALL_BUT_CUPID).unwrap();
    let g = game(
        setup,
        None,
        vec![
            night(&[]),
            claim(1, Role::Seer, Some((3, Side::Wolf))),
            claim(2, Role::Seer, Some((1, Side::Village))),
            vote(1, 3),
            vote(3, 1),
            vote(4, 3),
            RoleEvent::Eliminated {
                player: seat(3),
                shown: None,
            },
            night(&[4, 6]),
            vote(1, 2),
            RoleEvent::Behaviour {
                player: seat(5),
                score: 0.7,
            },
        ],
    );
    assert_agrees(&g);
}

#[test]
fn brute_force_hunter_shots_at_night_and_by_vote() {
    let setup = RoleSetup::new(7, 2, &ALL_BUT_CUPID).unwrap();
    let g = game(
        setup,
        Some((7, Role::Guard)),
        vec![
            night(&[2]),
            RoleEvent::HunterShot {
                hunter: seat(2),
                target: seat(5),
            },
            claim(1, Role::Witch, None),
            vote(1, 4),
            vote(4, 1),
            RoleEvent::Eliminated {
                player: seat(4),
                shown: Some(Known::Side(Side::Village)),
            },
            night(&[1]),
        ],
    );
    assert_agrees(&g);
    // The shooter is the hunter.
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_role(seat(2), Role::Hunter), 1.0);
    let setup = RoleSetup::new(6, 2, &[Role::Witch, Role::Hunter, Role::Seer]).unwrap();
    let g = game(
        setup,
        None,
        vec![
            vote(1, 2),
            vote(2, 1),
            RoleEvent::Eliminated {
                player: seat(1),
                shown: None,
            },
            night(&[3, 4]),
            night(&[]),
        ],
    );
    assert_agrees(&g);
}

#[test]
fn brute_force_cupid_lovers_and_votes() {
    let setup = RoleSetup::new(
        6,
        1,
        &[
            Role::Seer,
            Role::Witch,
            Role::Hunter,
            Role::Guard,
            Role::Cupid,
        ],
    )
    .unwrap();
    let g = game(
        setup,
        None,
        vec![
            vote(1, 2),
            vote(2, 3),
            vote(3, 1),
            vote(4, 1),
            night(&[5]),
            claim(6, Role::Cupid, None),
        ],
    );
    assert_agrees(&g);
    let g = game(
        setup,
        Some((1, Role::Seer)),
        vec![
            night(&[3]),
            RoleEvent::LoverDeath {
                player: seat(5),
                lover: seat(3),
            },
            vote(2, 4),
            vote(4, 6),
            vote(6, 2),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_lover(seat(3)), 1.0);
    assert_eq!(exact.p_lover(seat(2)), 0.0);
    // Two night deaths and the hunter's shot: the two dead at night may be
    // lovers, the player shot may not (an unnamed lover would have died of
    // grief before the shot).
    let g = game(
        setup,
        None,
        vec![
            night(&[2, 3]),
            RoleEvent::HunterShot {
                hunter: seat(2),
                target: seat(4),
            },
            vote(1, 5),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_lover(seat(4)), 0.0);
    assert!(exact.p_lover(seat(3)) > 0.0);
}

#[test]
fn brute_force_old_event_kinds_with_roles() {
    let setup = RoleSetup::new(6, 2, &[Role::Hunter, Role::Witch]).unwrap();
    let g = game(
        setup,
        Some((1, Role::Villager)),
        vec![
            RoleEvent::NightKill { victim: seat(2) },
            RoleEvent::HunterShot {
                hunter: seat(2),
                target: seat(3),
            },
            RoleEvent::SeerCheck {
                target: seat(4),
                result: Side::Village,
            },
            vote(4, 5),
            vote(5, 6),
            RoleEvent::Revealed {
                player: seat(6),
                known: Known::Role(Role::Witch),
            },
            night(&[]),
        ],
    );
    assert_agrees(&g);
}

/// With no special role the role engine is the side engine: same P(wolf)
/// on the same events.
#[test]
fn without_special_roles_it_is_the_side_engine() {
    let setup = RoleSetup::new(8, 3, &[]).unwrap();
    let sides = setup.sides();
    let p = |n| Player::from_number(n, sides).unwrap();
    let events = vec![
        Event::NightKill { victim: p(8) },
        Event::SeerCheck {
            target: p(2),
            result: Side::Village,
        },
        Event::Vote {
            voter: p(1),
            target: p(3),
        },
        Event::Vote {
            voter: p(3),
            target: p(4),
        },
        Event::Vote {
            voter: p(4),
            target: p(3),
        },
        Event::Behaviour {
            player: p(5),
            score: 1.2,
        },
        Event::Eliminated {
            player: p(3),
            revealed: Some(Side::Wolf),
        },
        Event::Vote {
            voter: p(5),
            target: p(1),
        },
        Event::Eliminated {
            player: p(6),
            revealed: None,
        },
    ];
    let mut side_game = Game::new(sides, RoleModel::default().sides, Some(p(1))).unwrap();
    let mut role_game = RoleGame::new(
        setup,
        RoleModel::default(),
        Some((p(1), Known::Side(Side::Village))),
    )
    .unwrap();
    for event in events {
        side_game.push(event).unwrap();
        let role_event = match event {
            Event::NightKill { victim } => RoleEvent::NightKill { victim },
            Event::SeerCheck { target, result } => RoleEvent::SeerCheck { target, result },
            Event::Vote { voter, target } => RoleEvent::Vote { voter, target },
            Event::Behaviour { player, score } => RoleEvent::Behaviour { player, score },
            Event::Eliminated { player, revealed } => RoleEvent::Eliminated {
                player,
                shown: revealed.map(Known::Side),
            },
            Event::Revealed { player, side } => RoleEvent::Revealed {
                player,
                known: Known::Side(side),
            },
        };
        role_game.push(role_event).unwrap();
    }
    let side = Posterior::compute(&side_game).unwrap();
    let roles = RolePosterior::compute(&role_game).unwrap();
    for player in sides.all_players() {
        let (a, b) = (side.p_wolf(player), roles.p_wolf(player));
        assert!(
            (a - b).abs() < 1e-12,
            "{player}: side engine {a}, role engine {b}"
        );
    }
    assert!((side.joint_entropy() - roles.joint_entropy()).abs() < 1e-12);
    assert_eq!(side.wolf_set_count(), roles.wolf_set_count());
    assert_eq!(role_game.side_game().unwrap(), side_game);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// 4 players, 1 wolf, a seer: "I am the seer, 2 is a wolf" by player 1.
/// By hand over the 12 assignments: a true seer's check must be right, a
/// wolf fakes with 0.2 x 0.5, a villager with 0.02 x 0.5, so Z = 1.36,
/// P(2 wolf) = 1.02 / 1.36 = 0.75 (prior 0.25), P(1 seer) = 1 / 1.36.
#[test]
fn a_seer_claim_raises_the_claimant_and_the_accused() {
    let setup = RoleSetup::new(4, 1, &[Role::Seer]).unwrap();
    let g = game(
        setup,
        None,
        vec![claim(1, Role::Seer, Some((2, Side::Wolf)))],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_wolf(seat(2)), 0.75));
    assert!(close(exact.p_role(seat(1), Role::Seer), 1.0 / 1.36));
    assert!(close(exact.p_wolf(seat(1)), 0.3 / 1.36));
    assert_agrees(&g);
}

/// 4 players, 1 wolf, a witch: two deaths mean one was poisoned, so a dead
/// player may be the wolf, but less likely than before: 4/21 by hand
/// (victim uniform, the witch never saves herself and poisons one of the
/// living other than herself and the victim).
#[test]
fn a_double_death_lowers_the_dead_players_wolf_chance() {
    let setup = RoleSetup::new(4, 1, &[Role::Witch]).unwrap();
    let g = game(setup, None, vec![night(&[1, 2])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(
        close(exact.p_wolf(seat(1)), 4.0 / 21.0),
        "{}",
        exact.p_wolf(seat(1))
    );
    assert_agrees(&g);
    // Without a witch one death is the wolves' victim: never a wolf.
    let setup = RoleSetup::new(4, 1, &[Role::Guard]).unwrap();
    let g = game(setup, None, vec![night(&[1])]);
    assert_eq!(RolePosterior::compute(&g).unwrap().p_wolf(seat(1)), 0.0);
}

/// 5 players, 1 wolf, a witch, no guard. The night-1 victim is the witch
/// with 1 / (1 + 3 x 0.2) = 0.625 (she cannot save herself, anyone else is
/// saved with 0.8); a quiet night 2 needs the witch alive with her antidote,
/// so the dead player was not the witch.
#[test]
fn a_quiet_night_rules_out_a_dead_witch() {
    let setup = RoleSetup::new(5, 1, &[Role::Witch]).unwrap();
    let g = game(setup, None, vec![night(&[5])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(5), Role::Witch), 0.625));
    let g = game(setup, None, vec![night(&[5]), night(&[])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_role(seat(5), Role::Witch), 0.0);
    assert_agrees(&g);
    // A third quiet night: the antidote is spent and there is no guard.
    let g = game(setup, None, vec![night(&[5]), night(&[]), night(&[])]);
    let error = RolePosterior::compute(&g).unwrap_err();
    assert!(error.to_string().contains("no role assignment"), "{error}");
}

/// 5 players, 1 wolf, a hunter: a player killed without shooting is the
/// hunter with 0.25 x 0.05 / (0.25 x 0.05 + 0.75) = 1/61 (prior 1/4); one
/// voted out without a shot with 0.2 / 16.2 = 1/81 (prior 1/5); a shot
/// makes the shooter the hunter.
#[test]
fn a_death_without_a_shot_lowers_the_hunter_chance() {
    let setup = RoleSetup::new(5, 1, &[Role::Hunter]).unwrap();
    let g = game(setup, None, vec![night(&[5])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(5), Role::Hunter), 1.0 / 61.0));
    let g = game(
        setup,
        None,
        vec![RoleEvent::Eliminated {
            player: seat(3),
            shown: None,
        }],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(3), Role::Hunter), 1.0 / 81.0));
    let g = game(
        setup,
        None,
        vec![
            RoleEvent::Eliminated {
                player: seat(3),
                shown: None,
            },
            RoleEvent::HunterShot {
                hunter: seat(3),
                target: seat(1),
            },
        ],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_role(seat(3), Role::Hunter), 1.0);
    assert_agrees(&g);
}

/// Lovers never vote for each other; a lover's death names the pair; a
/// card shown is a hard fact.
#[test]
fn votes_and_deaths_move_the_lovers_and_cards_fix_roles() {
    let setup = RoleSetup::new(5, 1, &[Role::Cupid, Role::Seer]).unwrap();
    let g = game(setup, None, vec![vote(1, 2)]);
    let exact = RolePosterior::compute(&g).unwrap();
    let pair = |a: u32, b: u32| {
        exact
            .lovers()
            .iter()
            .find(|((x, y), _)| (x.number(), y.number()) == (a, b))
            .map(|(_, p)| *p)
            .unwrap()
    };
    // A vote 1 -> 2 rules out the pair {1, 2} and favours the pairs of 1
    // with someone else (1's vote then spreads over one target fewer).
    assert_eq!(pair(1, 2), 0.0);
    assert!(
        pair(1, 3) > pair(3, 4) && pair(3, 4) > 0.0,
        "{} {}",
        pair(1, 3),
        pair(3, 4)
    );
    let total: f64 = exact.lovers().iter().map(|(_, p)| p).sum();
    assert!(close(total, 1.0));
    let g = game(
        setup,
        None,
        vec![
            RoleEvent::Eliminated {
                player: seat(4),
                shown: Some(Known::Role(Role::Seer)),
            },
            RoleEvent::LoverDeath {
                player: seat(2),
                lover: seat(4),
            },
        ],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_role(seat(4), Role::Seer), 1.0);
    assert_eq!(exact.p_lover(seat(2)), 1.0);
    assert_eq!(exact.p_lover(seat(1)), 0.0);
    assert_agrees(&g);
}

/// A wolf viewer knows they are a wolf: the role engine pins them, and
/// the side projection for the published method makes them a revealed
/// wolf instead of a (village-side) viewer.
#[test]
fn a_wolf_viewer_is_pinned_and_projected_as_a_revealed_wolf() {
    let setup = RoleSetup::new(6, 2, &[Role::Seer, Role::Witch]).unwrap();
    let g = game(setup, Some((3, Role::Wolf)), vec![night(&[1]), vote(3, 2)]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_wolf(seat(3)), 1.0);
    assert!(exact
        .rank(
            gametab_games::werewolf::ScoringRule::Published,
            gametab_games::werewolf::roles::RevealRule::Role,
            None
        )
        .iter()
        .all(|c| c.player != seat(3)));
    let side = g.side_game().unwrap();
    assert_eq!(side.viewer(), None);
    assert!(side.known_wolves().contains(seat(3)));
    assert_agrees(&g);
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
    let error = g.push(night(&[1, 2])).unwrap_err().to_string();
    assert!(error.contains("no witch"), "{error}");
    let error = g
        .push(RoleEvent::LoverDeath {
            player: seat(1),
            lover: seat(3),
        })
        .unwrap_err()
        .to_string();
    assert!(error.contains("cupid"), "{error}");
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
    let error = RolePosterior::compute(&g).unwrap_err().to_string();
    assert!(
        error.contains("limit") && error.contains("10810800"),
        "{error}"
    );
    assert!(RoleSetup::new(6, 2, &[Role::Seer, Role::Seer]).is_err());
    assert!(RoleSetup::new(6, 2, &[Role::Wolf]).is_err());
    assert!(RoleSetup::new(5, 2, &[Role::Seer, Role::Witch, Role::Hunter, Role::Guard]).is_err());
    let bad = RoleModel {
        witch_save: 1.5,
        ..RoleModel::default()
    };
    assert!(RoleGame::new(setup, bad, None).is_err());
}

fn example(name: &str) -> String {
    let path = format!("{}/../scripts/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The two role examples read, validate and compute; they round-trip
/// through serde; the side-only demo keeps its exact JSON and its engine.
#[test]
fn logs_role_examples_and_the_old_demo() {
    use gametab_games::werewolf::GameLog;
    for name in ["werewolf-roles-7.json", "werewolf-roles-12.json"] {
        let text = example(name);
        let log: GameLog = serde_json::from_str(&text).unwrap();
        assert!(log.is_role_log());
        let game = log.to_role_game().unwrap_or_else(|e| panic!("{name}: {e}"));
        let exact = RolePosterior::compute(&game).unwrap();
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
    let text = example("werewolf-demo.json");
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
}

#[test]
fn bad_role_logs_name_the_problem() {
    use gametab_games::werewolf::GameLog;
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

/// Renumber every player of a JSON log by `to`.
fn relabelled(log: &serde_json::Value, to: &dyn Fn(u64) -> u64) -> serde_json::Value {
    let mut log = log.clone();
    if let Some(viewer) = log["viewer"].as_u64() {
        log["viewer"] = to(viewer).into();
    }
    for event in log["events"].as_array_mut().unwrap() {
        for field in ["victim", "target", "voter", "player", "hunter", "lover"] {
            if let Some(number) = event[field].as_u64() {
                event[field] = to(number).into();
            }
        }
        if let Some(deaths) = event.get_mut("deaths").and_then(|d| d.as_array_mut()) {
            for death in deaths {
                *death = to(death.as_u64().unwrap()).into();
            }
        }
    }
    log
}

/// Seats carry no meaning: relabelling the players of the 12-player game
/// with every role relabels the answers (a check at the size the brute
/// force cannot reach).
#[test]
fn relabelling_the_twelve_player_game_relabels_the_answers() {
    use gametab_games::werewolf::GameLog;
    let original: serde_json::Value =
        serde_json::from_str(&example("werewolf-roles-12.json")).unwrap();
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
            assert!((x - y).abs() < 1e-12, "{a} {role}: {x} vs {y}");
        }
        assert!((before.p_lover(a) - after.p_lover(b)).abs() < 1e-12);
    }
    assert!((before.joint_entropy() - after.joint_entropy()).abs() < 1e-9);
    assert_eq!(before.assignment_count(), after.assignment_count());
}
