//! Role-engine checks against an independent brute force: every full role
//! assignment, every lovers' pair and every hidden night choice (victim,
//! guard target given the last one, witch's save, poison and target)
//! enumerated one by one straight from the model's description, on small
//! setups where each role is present, on hand-made logs using every event
//! kind and on hundreds of random legal games; plus hand-checked values of
//! each rule, the agreement with the side-only engine when no special role
//! is present, long logs against a rescaled computation, and the refusals
//! (`werewolf_roles/rules.rs`).

use gametab_games::werewolf::roles::{
    Known, RevealRule, Role, RoleEvent, RoleGame, RoleModel, RolePosterior, RoleSetup, Winner,
};
use gametab_games::werewolf::{Event, Game, Player, Posterior, Side};

#[path = "werewolf_roles/brute.rs"]
mod brute;
#[path = "werewolf_roles/brute_night.rs"]
mod brute_night;
#[path = "werewolf_roles/cycle.rs"]
mod cycle;
#[path = "werewolf_roles/defects.rs"]
mod defects;
#[path = "werewolf_roles/private.rs"]
mod private;
#[path = "werewolf_roles/random.rs"]
mod random;
#[path = "werewolf_roles/rescaled.rs"]
mod rescaled;
#[path = "werewolf_roles/rules.rs"]
mod rules;

use brute::brute;

pub fn seat(n: u32) -> Player {
    Player::from_number(n, gametab_games::werewolf::Setup::new(64, 1).unwrap()).unwrap()
}

/// The largest difference between the engine and the brute force on
/// `game`, after checking each answer within its tolerance.
pub fn assert_agrees(game: &RoleGame) -> f64 {
    let exact = RolePosterior::compute(game).unwrap_or_else(|e| panic!("{e}"));
    let brute = brute(game);
    let mut worst: f64 = 0.0;
    let mut check = |what: String, e: f64, b: f64, tolerance: f64| {
        let d = (e - b).abs();
        assert!(d < tolerance, "{what}: engine {e}, brute force {b}");
        worst = worst.max(d);
    };
    for player in game.setup().sides().all_players() {
        for role in Role::ALL {
            check(
                format!("{player} {role}"),
                exact.p_role(player, role),
                brute.roles[player.index()][role.index()],
                1e-10,
            );
        }
        check(
            format!("{player} lover"),
            exact.p_lover(player),
            brute.lovers[player.index()],
            1e-10,
        );
        for (i, reveal) in [RevealRule::Role, RevealRule::Side].into_iter().enumerate() {
            check(
                format!("{player} information gain ({})", reveal.name()),
                exact.information_gain(player, reveal),
                brute.gains[player.index()][i],
                1e-9,
            );
        }
    }
    check(
        "joint entropy".into(),
        exact.joint_entropy(),
        brute.entropy_bits,
        1e-9,
    );
    let engine_outcome = [
        exact.p_ongoing(),
        exact.p_won(Winner::Village),
        exact.p_won(Winner::Wolves),
        exact.p_won(Winner::Lovers),
    ];
    for (i, (&e, &b)) in engine_outcome.iter().zip(&brute.outcome).enumerate() {
        check(format!("outcome {i}"), e, b, 1e-10);
    }
    // Every pair listed has its probability, and no impossible pair is.
    assert_eq!(exact.lovers().len(), brute.pairs.len(), "pairs listed");
    for &((a, b), p) in exact.lovers() {
        let q = brute
            .pairs
            .get(&(a.index(), b.index()))
            .copied()
            .unwrap_or(0.0);
        check(format!("pair {a} {b}"), p, q, 1e-10);
    }
    worst
}

/// The default model with the two rules the older hand checks leave out
/// (knifing a wolf, the witch poisoning herself) at 0.
pub fn without_knife_or_self_poison() -> RoleModel {
    RoleModel {
        wolves_knife_wolf: 0.0,
        witch_poisons_herself: 0.0,
        ..RoleModel::default()
    }
}

pub fn game_with(
    setup: RoleSetup,
    model: RoleModel,
    viewer: Option<(u32, Role)>,
    events: Vec<RoleEvent>,
) -> RoleGame {
    let mut game =
        RoleGame::new(setup, model, viewer.map(|(n, r)| (seat(n), Known::Role(r)))).unwrap();
    for event in events {
        let shown = event.to_string();
        game.push(event).unwrap_or_else(|e| panic!("{shown}: {e}"));
    }
    game
}

pub fn game(setup: RoleSetup, viewer: Option<(u32, Role)>, events: Vec<RoleEvent>) -> RoleGame {
    game_with(setup, RoleModel::default(), viewer, events)
}

pub fn night(deaths: &[u32]) -> RoleEvent {
    RoleEvent::Night {
        deaths: deaths.iter().map(|&n| seat(n)).collect(),
        guarded: None,
    }
}

pub fn guarded_night(deaths: &[u32], guarded: u32) -> RoleEvent {
    RoleEvent::Night {
        deaths: deaths.iter().map(|&n| seat(n)).collect(),
        guarded: Some(seat(guarded)),
    }
}

pub fn vote(voter: u32, target: u32) -> RoleEvent {
    RoleEvent::Vote {
        voter: seat(voter),
        target: seat(target),
    }
}

pub fn claim(player: u32, role: Role, check: Option<(u32, Known)>) -> RoleEvent {
    RoleEvent::Claim {
        player: seat(player),
        role,
        check: check.map(|(t, k)| (seat(t), k)),
    }
}

/// The day's vote tied between `players`.
pub fn tie(players: &[u32]) -> RoleEvent {
    RoleEvent::Tie {
        players: players.iter().map(|&n| seat(n)).collect(),
    }
}

pub fn out(player: u32, shown: Option<Known>) -> RoleEvent {
    RoleEvent::Eliminated {
        player: seat(player),
        shown,
    }
}

pub const WOLF: Known = Known::Side(Side::Wolf);
pub const VILLAGE: Known = Known::Side(Side::Village);
const ALL_BUT_CUPID: [Role; 4] = [Role::Seer, Role::Witch, Role::Hunter, Role::Guard];
const ALL_FIVE: [Role; 5] = [
    Role::Seer,
    Role::Witch,
    Role::Hunter,
    Role::Guard,
    Role::Cupid,
];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

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

/// 4 players, 1 wolf, a seer: "I am the seer, 2 is a wolf" by player 1.
/// By hand over the 12 assignments: a true seer's check must be right, a
/// wolf fakes with 0.2 x 0.5, a villager with 0.02 x 0.5, so Z = 1.36,
/// P(2 wolf) = 1.02 / 1.36 = 0.75 (prior 0.25), P(1 seer) = 1 / 1.36.
#[test]
fn a_seer_claim_raises_the_claimant_and_the_accused() {
    let setup = RoleSetup::new(4, 1, &[Role::Seer]).unwrap();
    let g = game(setup, None, vec![claim(1, Role::Seer, Some((2, WOLF)))]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_wolf(seat(2)), 0.75));
    assert!(close(exact.p_role(seat(1), Role::Seer), 1.0 / 1.36));
    assert!(close(exact.p_wolf(seat(1)), 0.3 / 1.36));
    assert_agrees(&g);
}

/// 4 players: a wolf, a seer, a witch, a villager. "I am the seer; 2 is
/// the witch" by player 1, by hand over the 24 assignments: the two where
/// 1 is the seer and 2 the witch weigh 1; a false seer names a village
/// card drawn from the two other than the seer's (witch, villager), so a
/// wolf's claim weighs 0.2 x 0.5 x 1/2 = 0.05 (6 assignments) and a
/// villager's or the witch's 0.02 x 0.5 x 1/2 = 0.005 (12). Z = 2.36;
/// P(2 witch) = (2 + 2 x 0.05 + 2 x 0.005) / 2.36.
#[test]
fn an_identity_check_names_the_card() {
    let setup = RoleSetup::new(4, 1, &[Role::Seer, Role::Witch]).unwrap();
    let g = game(
        setup,
        None,
        vec![claim(1, Role::Seer, Some((2, Known::Role(Role::Witch))))],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(2), Role::Witch), 2.11 / 2.36));
    assert!(close(exact.p_role(seat(1), Role::Seer), 2.0 / 2.36));
    assert!(close(exact.p_wolf(seat(1)), 0.3 / 2.36));
    assert_agrees(&g);
    // The old side form of the same report is the union of its cards.
    let g = game(setup, None, vec![claim(1, Role::Seer, Some((2, VILLAGE)))]);
    assert_agrees(&g);
}

/// 4 players, 1 wolf, no special role: a death at night is the wolves'
/// victim, a wolf with `wolves_knife_wolf` (the lone wolf knifing
/// himself) against (1 - k) / 3 for each non-wolf, so P(wolf) = k.
#[test]
fn the_wolves_may_knife_their_own() {
    let setup = RoleSetup::new(4, 1, &[]).unwrap();
    let g = game(setup, None, vec![night(&[1])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(
        close(exact.p_wolf(seat(1)), 0.05),
        "{}",
        exact.p_wolf(seat(1))
    );
    let g = game_with(
        setup,
        without_knife_or_self_poison(),
        None,
        vec![night(&[1])],
    );
    assert_eq!(RolePosterior::compute(&g).unwrap().p_wolf(seat(1)), 0.0);
}

/// 4 players, 1 wolf, a guard viewer (player 4). Night 1 quiet with 1
/// protected: the victim was 1, a wolf knifed with k against (1 - k) / 3
/// for a non-wolf, so P(1 wolf) = 3k / (2 + k). Night 2 quiet with 2
/// protected (he may not protect 1 again): the victim was 2, so P(3 wolf)
/// = ((1-k)/3)^2 / (2 k (1-k)/3 + ((1-k)/3)^2) = (1 - k) / (1 + 5k).
#[test]
fn the_guard_viewer_logs_his_targets() {
    let setup = RoleSetup::new(4, 1, &[Role::Guard]).unwrap();
    let k = RoleModel::default().wolves_knife_wolf;
    let g = game(setup, Some((4, Role::Guard)), vec![guarded_night(&[], 1)]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_wolf(seat(1)), 3.0 * k / (2.0 + k)));
    let g = game(
        setup,
        Some((4, Role::Guard)),
        vec![
            guarded_night(&[], 1),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
            guarded_night(&[], 2),
        ],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_wolf(seat(3)), (1.0 - k) / (1.0 + 5.0 * k)));
    assert_agrees(&g);
}

/// 4 players, 1 wolf, a witch: two deaths mean one was poisoned, so a dead
/// player may be the wolf, but less likely than before: 4/21 by hand
/// (victim uniform among the non-wolves, the witch never saves herself and
/// poisons one of the living other than herself and the victim), in the
/// model without knifing or self-poison.
#[test]
fn a_double_death_lowers_the_dead_players_wolf_chance() {
    let setup = RoleSetup::new(4, 1, &[Role::Witch]).unwrap();
    let model = without_knife_or_self_poison();
    let g = game_with(setup, model, None, vec![night(&[1, 2])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(
        close(exact.p_wolf(seat(1)), 4.0 / 21.0),
        "{}",
        exact.p_wolf(seat(1))
    );
    assert_agrees(&g);
    // With the defaults as the rules allow, a checked by the brute force.
    assert_agrees(&game(setup, None, vec![night(&[1, 2])]));
    // Without a witch one death is the wolves' victim: never a wolf.
    let setup = RoleSetup::new(4, 1, &[Role::Guard]).unwrap();
    let g = game_with(setup, model, None, vec![night(&[1])]);
    assert_eq!(RolePosterior::compute(&g).unwrap().p_wolf(seat(1)), 0.0);
}

/// 5 players, 1 wolf, a witch, no guard. The night-1 victim is the witch
/// with 1 / (1 + 3 x 0.2) = 0.625 (she cannot save herself, anyone else is
/// saved with 0.8); a quiet night 2 needs the witch alive with her antidote,
/// so the dead player was not the witch.
#[test]
fn a_quiet_night_rules_out_a_dead_witch() {
    let setup = RoleSetup::new(5, 1, &[Role::Witch]).unwrap();
    let model = without_knife_or_self_poison();
    let g = game_with(setup, model, None, vec![night(&[5])]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(5), Role::Witch), 0.625));
    let day = [tie(&[1, 2]), RoleEvent::NoElimination];
    let g = game_with(
        setup,
        model,
        None,
        [vec![night(&[5])], day.to_vec(), vec![night(&[])]].concat(),
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_role(seat(5), Role::Witch), 0.0);
    assert_agrees(&g);
    // A third quiet night: the antidote is spent and there is no guard;
    // the error names the night.
    let g = game_with(
        setup,
        model,
        None,
        [
            vec![night(&[5])],
            day.to_vec(),
            vec![night(&[])],
            day.to_vec(),
            vec![night(&[])],
        ]
        .concat(),
    );
    let error = RolePosterior::compute(&g).unwrap_err();
    assert_eq!(error.event_index(), Some(6));
    assert!(
        error.to_string().contains("event 7 (quiet night)"),
        "{error}"
    );
}

/// 5 players, 1 wolf, a hunter: a player killed without shooting is the
/// hunter with 0.25 x 0.05 / (0.25 x 0.05 + 0.75) = 1/61 (prior 1/4); one
/// voted out without a shot with 0.2 / 16.2 = 1/81 (prior 1/5); a shot
/// makes the shooter the hunter.
#[test]
fn a_death_without_a_shot_lowers_the_hunter_chance() {
    let setup = RoleSetup::new(5, 1, &[Role::Hunter]).unwrap();
    let g = game_with(
        setup,
        without_knife_or_self_poison(),
        None,
        vec![night(&[5])],
    );
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(5), Role::Hunter), 1.0 / 61.0));
    let g = game(setup, None, vec![out(3, None)]);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(close(exact.p_role(seat(3), Role::Hunter), 1.0 / 81.0));
    let g = game(
        setup,
        None,
        vec![
            out(3, None),
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
/// card shown is a hard fact; impossible pairs are not listed.
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
    };
    // A vote 1 -> 2 rules out the pair {1, 2} (not listed) and favours the
    // pairs of 1 with someone else (1's vote then spreads over one target
    // fewer).
    assert_eq!(pair(1, 2), None);
    let (one_three, three_four) = (pair(1, 3).unwrap(), pair(3, 4).unwrap());
    assert!(one_three > three_four && three_four > 0.0);
    let total: f64 = exact.lovers().iter().map(|(_, p)| p).sum();
    assert!(close(total, 1.0));
    let g = game(
        setup,
        None,
        vec![
            out(4, Some(Known::Role(Role::Seer))),
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
    assert_eq!(exact.lovers().len(), 1);
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
            RevealRule::Role,
            None
        )
        .iter()
        .all(|c| c.player != seat(3)));
    let side = g.side_game().unwrap();
    assert_eq!(side.viewer(), None);
    assert!(side.known_wolves().contains(seat(3)));
    assert_agrees(&g);
}

pub fn example(name: &str) -> String {
    let path = format!(
        "{}/../../scripts/examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

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
