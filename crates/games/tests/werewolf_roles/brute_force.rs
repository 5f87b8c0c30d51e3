//! The role engine against the brute force (`brute.rs`): hand-made logs
//! of each kind of event and every rule, the information gain with lovers
//! and the hunter's shot, exact ties, 250 random legal games, the
//! 7-player example, and the side engine when no special role is present.

use super::*;

#[test]
fn brute_force_quiet_night_claims_and_double_death() {
    let setup = RoleSetup::new(7, 2, &ALL_BUT_CUPID).unwrap();
    let g = game(
        setup,
        None,
        vec![
            night(&[]),
            claim(1, Role::Seer, Some((3, WOLF))),
            claim(2, Role::Seer, Some((1, VILLAGE))),
            vote(1, 3),
            vote(3, 1),
            vote(4, 3),
            out(3, None),
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
            guarded_night(&[2], 7),
            RoleEvent::HunterShot {
                hunter: seat(2),
                target: seat(5),
            },
            claim(1, Role::Witch, None),
            vote(1, 4),
            vote(4, 1),
            out(4, Some(VILLAGE)),
            guarded_night(&[1], 3),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_role(seat(2), Role::Hunter), 1.0);
    let setup = RoleSetup::new(6, 2, &[Role::Witch, Role::Hunter, Role::Seer]).unwrap();
    let g = game(
        setup,
        None,
        vec![
            vote(1, 2),
            vote(2, 1),
            out(1, None),
            night(&[3, 4]),
            tie(&[2, 5]),
            RoleEvent::NoElimination,
            night(&[]),
        ],
    );
    assert_agrees(&g);
}

#[test]
fn brute_force_cupid_lovers_and_votes() {
    let setup = RoleSetup::new(6, 1, &ALL_FIVE).unwrap();
    let g = game(
        setup,
        None,
        vec![
            vote(1, 2),
            vote(2, 3),
            vote(3, 1),
            vote(4, 1),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
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

/// Every new rule in one log each: the guard's history (hidden and logged),
/// identity checks in claims and in the seer viewer's own events, a
/// knifed wolf, the witch poisoning herself, a tie with its revote and a
/// day without elimination, and the end of the game.
#[test]
fn brute_force_every_new_rule() {
    let setup = RoleSetup::new(6, 2, &[Role::Seer, Role::Witch, Role::Guard]).unwrap();
    // Three nights, the guard's last target hidden: two quiet nights in a
    // row need two different protected players (or the antidote).
    let g = game(
        setup,
        None,
        vec![
            night(&[]),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
            night(&[]),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
            night(&[1]),
            vote(2, 3),
        ],
    );
    assert_agrees(&g);
    // The guard viewer's own targets.
    let g = game(
        setup,
        Some((6, Role::Guard)),
        vec![
            guarded_night(&[], 2),
            vote(1, 2),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
            guarded_night(&[3], 1),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
            night(&[]),
        ],
    );
    assert_agrees(&g);
    // Identity checks: claimed, and seen by the seer viewer.
    let g = game(
        setup,
        Some((1, Role::Seer)),
        vec![
            RoleEvent::SeerCheck {
                target: seat(2),
                result: Known::Role(Role::Witch),
            },
            claim(3, Role::Seer, Some((4, Known::Role(Role::Guard)))),
            claim(5, Role::Seer, Some((2, Known::Role(Role::Villager)))),
            tie(&[2, 3]),
            RoleEvent::NoElimination,
            night(&[]),
            RoleEvent::SeerCheck {
                target: seat(4),
                result: VILLAGE,
            },
        ],
    );
    assert_agrees(&g);
    // A night with two deaths where the witch may have poisoned herself or
    // the wolves knifed one of their own.
    let g = game(
        setup,
        None,
        vec![night(&[1, 2]), claim(3, Role::Witch, None), vote(3, 4)],
    );
    assert_agrees(&g);
    // A tie, its revote, and no elimination; then an elimination after a
    // tie.
    let g = game(
        setup,
        None,
        vec![
            vote(1, 2),
            vote(2, 1),
            RoleEvent::Tie {
                players: vec![seat(1), seat(2)],
            },
            vote(3, 1),
            vote(1, 2),
            vote(4, 2),
            RoleEvent::NoElimination,
            night(&[5]),
            RoleEvent::Tie {
                players: vec![seat(3), seat(4), seat(6)],
            },
            vote(1, 3),
            vote(3, 6),
            out(3, None),
        ],
    );
    assert_agrees(&g);
    // The end: after these deaths the game goes on only if a wolf is left
    // among the living, which the later vote says.
    let setup = RoleSetup::new(5, 1, &[Role::Seer, Role::Witch]).unwrap();
    let g = game(setup, None, vec![out(1, None), night(&[2]), vote(3, 4)]);
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(
        exact.p_wolf(seat(1)),
        0.0,
        "1 a wolf would have ended the game"
    );
    // A log that ends with the game possibly over: who has won.
    let g = game(setup, None, vec![out(1, None), night(&[2])]);
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(exact.p_won(Winner::Village) > 0.0 && exact.p_ongoing() > 0.0);
    assert_eq!(exact.winner(), None);
}

/// The information gain counts the lover who dies with the candidate and
/// the hunter's shot; with cupid the ranking by the definition differs
/// from the card's entropy alone.
#[test]
fn information_gain_counts_the_lovers_and_the_shot() {
    let setup = RoleSetup::new(7, 2, &[Role::Seer, Role::Hunter, Role::Cupid]).unwrap();
    let g = game(
        setup,
        None,
        vec![
            vote(1, 2),
            vote(2, 3),
            vote(3, 1),
            claim(4, Role::Seer, Some((1, WOLF))),
            vote(5, 4),
            vote(6, 5),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    for n in 1..=7 {
        let p = seat(n);
        // The lover's death adds to what the card shows.
        assert!(exact.information_gain(p, RevealRule::Role) > exact.role_entropy(p) + 0.5);
    }
    // Side only: a hunter's shot shows the hunter.
    let setup = RoleSetup::new(5, 1, &[Role::Hunter]).unwrap();
    let g = game(setup, None, vec![vote(1, 2)]);
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    let side_only = gametab_games::werewolf::binary_entropy_bits(exact.p_wolf(seat(3)));
    assert!(exact.information_gain(seat(3), RevealRule::Side) > side_only + 0.3);
}

/// Seats the log treats alike tie exactly and go in seat order.
#[test]
fn exact_ties_go_to_the_lower_seat() {
    let setup = RoleSetup::new(7, 2, &[Role::Seer, Role::Cupid, Role::Hunter]).unwrap();
    let g = game(setup, None, vec![vote(1, 6), vote(7, 6)]);
    let exact = RolePosterior::compute(&g).unwrap();
    for reveal in [RevealRule::Role, RevealRule::Side] {
        for rule in gametab_games::werewolf::ScoringRule::ALL {
            let ranking: Vec<u32> = exact
                .rank(rule, reveal, None)
                .iter()
                .map(|c| c.player.number())
                .collect();
            let middle: Vec<u32> = ranking
                .iter()
                .copied()
                .filter(|n| (2..=5).contains(n))
                .collect();
            assert_eq!(middle, vec![2, 3, 4, 5], "{rule:?} {reveal:?}: {ranking:?}");
        }
    }
}

/// 250 random legal games of 4 to 7 players with every role, against the
/// brute force: every answer agrees.
#[test]
fn brute_force_on_random_legal_games() {
    let setups: Vec<(u32, u32, Vec<Role>)> = vec![
        (4, 1, vec![Role::Seer, Role::Guard]),
        (5, 1, vec![Role::Seer, Role::Witch, Role::Guard]),
        (5, 1, vec![Role::Witch, Role::Hunter, Role::Cupid]),
        (5, 2, vec![Role::Seer, Role::Witch, Role::Hunter]),
        (
            6,
            2,
            vec![Role::Seer, Role::Witch, Role::Hunter, Role::Guard],
        ),
        (6, 1, ALL_FIVE.to_vec()),
        (6, 2, vec![Role::Guard, Role::Witch, Role::Cupid]),
        (7, 2, vec![Role::Seer, Role::Witch, Role::Guard]),
        // Night roles only: the nights hang on the last special placed.
        (5, 1, vec![Role::Witch, Role::Guard]),
        (6, 2, vec![Role::Witch, Role::Hunter, Role::Guard]),
    ];
    let (mut logs, mut worst, mut events) = (0, 0f64, 0);
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 1..=25u64 {
        for (i, (players, wolves, specials)) in setups.iter().enumerate() {
            let mut rng = random::Rng(0x9e37_79b9_7f4a_7c15 ^ (seed * 131 + i as u64));
            let setup = RoleSetup::new(*players, *wolves, specials).unwrap();
            let model = RoleModel {
                wolves_knife_wolf: 0.2,
                witch_poisons_herself: 0.2,
                ..RoleModel::default()
            };
            let model = if seed % 2 == 0 {
                RoleModel::default()
            } else {
                model
            };
            let g = random::random_game(&mut rng, setup, model, 7);
            events += g.len();
            for event in g.events() {
                let kind = format!("{event:?}");
                let kind = kind.split([' ', '{', '(']).next().unwrap_or("").to_string();
                let with_card = matches!(
                    event,
                    RoleEvent::SeerCheck {
                        result: Known::Role(_),
                        ..
                    } | RoleEvent::Claim {
                        check: Some((_, Known::Role(_))),
                        ..
                    }
                );
                *kinds
                    .entry(if with_card {
                        format!("{kind} (card)")
                    } else {
                        kind
                    })
                    .or_insert(0) += 1;
                let guarded = matches!(
                    event,
                    RoleEvent::Night {
                        guarded: Some(_),
                        ..
                    }
                );
                *kinds.entry("Night (guard logged)".into()).or_insert(0) += usize::from(guarded);
            }
            worst = worst.max(assert_agrees(&g));
            logs += 1;
        }
    }
    println!("{logs} random logs ({events} events): largest difference {worst:e}");
    println!("events by kind: {kinds:?}");
    assert_eq!(logs, 250);
    // Every kind of event the random games can hold is there.
    for kind in [
        "Night",
        "Tie",
        "NoElimination",
        "HunterShot",
        "LoverDeath",
        "SeerCheck (card)",
        "Claim (card)",
        "Night (guard logged)",
        "Pack",
        "Lovers",
        "SelfDestruct",
        "WitchNight",
    ] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) > 5,
            "{kind}: {kinds:?}"
        );
    }
}

/// The 7-player example (the 12-player one is past the brute force: see
/// the relabelling test) against the brute force.
#[test]
fn brute_force_on_the_seven_player_example() {
    use gametab_games::werewolf::GameLog;
    let log: GameLog = serde_json::from_str(&example("werewolf-roles-7.json")).unwrap();
    let g = log.to_role_game().unwrap();
    let worst = assert_agrees(&g);
    println!("werewolf-roles-7.json: largest difference {worst:e}");
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
    let mut role_game = RoleGame::for_side_log(
        setup,
        RoleModel::default(),
        Some((p(1), Known::Side(Side::Village))),
    )
    .unwrap();
    for event in events {
        side_game.push(event).unwrap();
        let role_event = match event {
            Event::NightKill { victim } => RoleEvent::NightKill { victim },
            Event::SeerCheck { target, result } => RoleEvent::SeerCheck {
                target,
                result: Known::Side(result),
            },
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
