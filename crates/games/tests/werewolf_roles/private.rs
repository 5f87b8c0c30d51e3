//! The rules of the seed's structure the model had left out (issue 37,
//! item 6): what each viewer knows privately (the wolves' pack, the
//! lovers), and a wolf's self-destruct; each against the brute force and
//! with its refusals.

use gametab_games::werewolf::roles::{
    Known, Role, RoleEvent, RoleGame, RoleModel, RolePosterior, RoleSetup,
};

use super::{assert_agrees, claim, game, night, out, seat, tie, vote};

fn pack(wolves: &[u32]) -> RoleEvent {
    RoleEvent::Pack {
        wolves: wolves.iter().map(|&n| seat(n)).collect(),
    }
}

fn lovers(pair: Option<(u32, u32)>) -> RoleEvent {
    RoleEvent::Lovers {
        pair: pair.map(|(a, b)| (seat(a), seat(b))),
    }
}

/// The refusal of the last of `events` (the others accepted).
fn refusal(setup: RoleSetup, viewer: Option<(u32, Role)>, events: Vec<RoleEvent>) -> String {
    let mut g = RoleGame::new(
        setup,
        RoleModel::default(),
        viewer.map(|(n, r)| (seat(n), Known::Role(r))),
    )
    .unwrap();
    let last = events.len() - 1;
    for (index, event) in events.into_iter().enumerate() {
        match g.push(event) {
            Ok(()) => assert!(index < last, "the last event was accepted"),
            Err(error) => {
                assert_eq!(error.event_index(), Some(last), "{error}");
                return error.to_string();
            }
        }
    }
    unreachable!("the loop returns or panics on the last event")
}

/// The wolves open their eyes together: a wolf viewer knows every wolf.
#[test]
fn a_wolf_viewer_knows_the_pack() {
    let setup = RoleSetup::new(6, 2, &[Role::Seer, Role::Witch, Role::Cupid]).unwrap();
    let g = game(
        setup,
        Some((2, Role::Wolf)),
        vec![
            pack(&[2, 5]),
            night(&[1]),
            claim(3, Role::Seer, None),
            vote(3, 5),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    for n in 1..=6 {
        let wolf = if n == 2 || n == 5 { 1.0 } else { 0.0 };
        assert_eq!(exact.p_wolf(seat(n)), wolf, "{n}");
    }
    // The roles of the village side are still unknown.
    assert!(exact.p_role(seat(3), Role::Seer) > 0.5);
    let text = refusal(setup, Some((1, Role::Seer)), vec![pack(&[2, 5])]);
    assert!(text.contains("only a wolf viewer"), "{text}");
    let text = refusal(setup, Some((2, Role::Wolf)), vec![pack(&[2])]);
    assert!(
        text.contains("every wolf, the viewer (player 2) among them"),
        "{text}"
    );
}

/// The lovers learn each other (not each other's cards), cupid knows the
/// pair, and a viewer not touched knows they are no lover.
#[test]
fn the_viewer_knows_the_lovers_or_that_they_are_none() {
    let setup = RoleSetup::new(5, 1, &[Role::Seer, Role::Hunter, Role::Cupid]).unwrap();
    let day = [vote(1, 2), vote(3, 4)];
    let as_lover = game(
        setup,
        Some((1, Role::Hunter)),
        [vec![lovers(Some((1, 4)))], day.to_vec()].concat(),
    );
    assert_agrees(&as_lover);
    let exact = RolePosterior::compute(&as_lover).unwrap();
    assert_eq!(exact.p_lover(seat(4)), 1.0);
    assert_eq!(exact.p_lover(seat(2)), 0.0);
    let as_cupid = game(
        setup,
        Some((5, Role::Cupid)),
        [vec![lovers(Some((2, 3)))], day.to_vec()].concat(),
    );
    assert_agrees(&as_cupid);
    let no_lover = game(
        setup,
        Some((1, Role::Seer)),
        [vec![lovers(None)], day.to_vec()].concat(),
    );
    assert_agrees(&no_lover);
    let exact = RolePosterior::compute(&no_lover).unwrap();
    assert_eq!(exact.p_lover(seat(1)), 0.0);
    assert!(exact.p_lover(seat(2)) > 0.0);
    // Refusals: a stranger's pair, cupid without the pair, a lover's
    // death that contradicts the pair the viewer knows.
    let text = refusal(setup, Some((1, Role::Seer)), vec![lovers(Some((2, 3)))]);
    assert!(text.contains("only as one of them or as cupid"), "{text}");
    let text = refusal(setup, Some((5, Role::Cupid)), vec![lovers(None)]);
    assert!(text.contains("log the pair"), "{text}");
    let text = refusal(
        setup,
        Some((1, Role::Hunter)),
        vec![
            lovers(Some((1, 4))),
            night(&[2]),
            RoleEvent::LoverDeath {
                player: seat(3),
                lover: seat(2),
            },
        ],
    );
    assert!(text.contains("the viewer knows otherwise"), "{text}");
    let no_cupid = RoleSetup::new(5, 1, &[Role::Seer]).unwrap();
    let text = refusal(no_cupid, Some((1, Role::Seer)), vec![lovers(None)]);
    assert!(text.contains("no cupid"), "{text}");
}

/// A wolf reveals himself: he is a wolf, the day's talk stops and the
/// night comes next.
#[test]
fn a_self_destruct_shows_a_wolf_and_ends_the_day() {
    let setup = RoleSetup::new(7, 2, &[Role::Seer, Role::Witch, Role::Guard]).unwrap();
    let destruct = RoleEvent::SelfDestruct { player: seat(3) };
    let g = game(
        setup,
        None,
        vec![
            night(&[7]),
            claim(
                1,
                Role::Seer,
                Some((3, Known::Side(gametab_games::werewolf::Side::Wolf))),
            ),
            vote(2, 3),
            destruct.clone(),
            night(&[]),
            vote(1, 4),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_wolf(seat(3)), 1.0);
    assert!(exact.p_role(seat(1), Role::Seer) > 0.5);
    for after in [
        claim(2, Role::Witch, None),
        vote(1, 2),
        out(2, None),
        tie(&[1, 2]),
    ] {
        let text = refusal(setup, None, vec![night(&[7]), destruct.clone(), after]);
        assert!(
            text.contains("the self-destruct") && text.contains("event 2"),
            "{text}"
        );
    }
}

/// The new events as the JSON log writes them, and a malformed `lovers`.
#[test]
fn the_log_reads_the_new_events() {
    use gametab_games::werewolf::GameLog;
    let read = |events: &str| -> Result<RoleGame, String> {
        let text = format!(
            r#"{{"players": 6, "wolves": 2, "roles": ["seer", "cupid"], "viewer": 2,
                "viewer_role": "wolf", "events": [{events}]}}"#
        );
        let log: GameLog = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        log.to_role_game().map_err(|e| e.to_string())
    };
    let g = read(
        r#"{"kind": "pack", "wolves": [2, 4]}, {"kind": "lovers", "players": []},
           {"kind": "night", "deaths": [1]}, {"kind": "self_destruct", "player": 4},
           {"kind": "night", "deaths": [3]}"#,
    )
    .unwrap();
    assert_eq!(g.len(), 5);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_wolf(seat(4)), 1.0);
    assert_eq!(exact.p_lover(seat(2)), 0.0);
    let error = read(r#"{"kind": "lovers", "players": [3]}"#).unwrap_err();
    assert!(
        error.contains("event 1") && error.contains("not 1 players"),
        "{error}"
    );
}

/// A wolf-villager pair of lovers is a third side: its wolf is out of the
/// pack's parity while both live, and the two win as the last alive.
/// Cupid (5) knows the lovers are 1 and 2; 3 is shown a villager, so the
/// wolves are two of 1, 2 and 4. With 1, 2, 4 and 5 alive the wolves
/// equal the others by cards, but the game goes on unless both lovers are
/// wolves; after the next night only a mixed pair is left.
#[test]
fn a_mixed_pair_of_lovers_is_a_third_side() {
    use gametab_games::werewolf::roles::Winner;
    let setup = RoleSetup::new(5, 2, &[Role::Cupid]).unwrap();
    let mut events = vec![
        lovers(Some((1, 2))),
        vote(4, 3),
        out(3, Some(Known::Role(Role::Villager))),
        night(&[5]),
    ];
    let g = game(setup, Some((5, Role::Cupid)), events.clone());
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_wolf(seat(4)), 1.0);
    assert!((exact.p_wolf(seat(1)) + exact.p_wolf(seat(2)) - 1.0).abs() < 1e-12);
    assert_eq!(exact.p_ongoing(), 1.0);
    // 4 voted out: the lovers are the last two and win.
    events.extend([vote(1, 4), out(4, None)]);
    let g = game(setup, Some((5, Role::Cupid)), events);
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.winner(), Some(Winner::Lovers));
}

/// Once her antidote is spent the witch is no longer shown the victim, so
/// her poison may land on the victim. 4 players, 1 wolf, a witch, no
/// knifed wolf or self-poison: the quiet first night spent the antidote.
/// The second night's one death, 2, was the victim; the witch (q = 0.3)
/// poisoned nobody (0.7), or, when 2 is not the witch, poisoned 2 too
/// (0.3 / 3 living others): P(2 witch) = 0.7 / (0.7 + 2 x 0.8) = 7/23,
/// not the 1/3 of a poison that always spares the victim.
#[test]
fn a_blind_poison_may_land_on_the_victim() {
    let setup = RoleSetup::new(4, 1, &[Role::Witch]).unwrap();
    let g = super::game_with(
        setup,
        super::without_knife_or_self_poison(),
        None,
        vec![
            night(&[]),
            tie(&[1, 2]),
            RoleEvent::NoElimination,
            night(&[2]),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    let p = exact.p_role(seat(2), Role::Witch);
    assert!((p - 7.0 / 23.0).abs() < 1e-12, "P(2 witch) {p}");
}

fn witch(shown: Option<u32>, saved: bool, poisoned: Option<u32>) -> RoleEvent {
    RoleEvent::WitchNight {
        shown: shown.map(seat),
        saved,
        poisoned: poisoned.map(seat),
    }
}

/// The witch is shown the wolves' victim while she holds the antidote:
/// for her the victim is evidence. 5 players, 1 wolf, the witch viewer 1
/// shown 3 and saving: the wolves knife their own (k = 0.05) or one of
/// the 4 living non-wolves, so P(3 wolf) = (k / 4) / (k / 4 + 3/4 x
/// (1 - k) / 4), where the public quiet night alone leaves 1/4.
#[test]
fn the_witch_viewer_knows_the_victim_while_she_holds_the_antidote() {
    let setup = RoleSetup::new(5, 1, &[Role::Witch, Role::Seer]).unwrap();
    let viewer = Some((1, Role::Witch));
    let g = game(setup, viewer, vec![witch(Some(3), true, None), night(&[])]);
    assert_agrees(&g);
    let k = RoleModel::default().wolves_knife_wolf;
    let expected = (k / 4.0) / (k / 4.0 + 0.75 * (1.0 - k) / 4.0);
    let p = RolePosterior::compute(&g).unwrap().p_wolf(seat(3));
    assert!(
        (p - expected).abs() < 1e-12,
        "P(3 wolf) {p}, expected {expected}"
    );
    let public = game(setup, viewer, vec![night(&[])]);
    let p = RolePosterior::compute(&public).unwrap().p_wolf(seat(3));
    assert!((p - 0.25).abs() < 1e-12, "{p}");
    // Her antidote spent, she is shown nobody; her blind poison hit 4,
    // and the wolves' victim 2 died too.
    let g = game(
        setup,
        viewer,
        vec![
            witch(Some(3), true, None),
            night(&[]),
            tie(&[2, 3]),
            RoleEvent::NoElimination,
            witch(None, false, Some(4)),
            night(&[2, 4]),
        ],
    );
    assert_agrees(&g);
    // Refusals, each naming the rule.
    let day = [tie(&[2, 3]), RoleEvent::NoElimination];
    let cases: Vec<(Vec<RoleEvent>, &str)> = vec![
        (
            vec![witch(None, false, None)],
            "while she holds the antidote",
        ),
        (vec![witch(Some(1), true, None)], "never saves herself"),
        (
            vec![witch(Some(3), true, Some(4))],
            "at most one potion a night",
        ),
        (
            [
                vec![witch(Some(3), true, None), night(&[])],
                day.to_vec(),
                vec![witch(Some(2), false, None)],
            ]
            .concat(),
            "shown nobody",
        ),
        (
            vec![witch(Some(3), false, Some(4)), night(&[3])],
            "not among the night's deaths",
        ),
        (
            vec![night(&[]), vote(2, 3), witch(Some(3), false, None)],
            "after the day's end",
        ),
    ];
    for (events, expected) in cases {
        let text = refusal(setup, viewer, events);
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let text = refusal(
        setup,
        Some((2, Role::Seer)),
        vec![witch(Some(3), true, None)],
    );
    assert!(text.contains("`viewer_role`: witch"), "{text}");
}
