//! The four defects an independent brute force found (issue 37), each on
//! the log that showed it: the winner named when the end is certain, a
//! hunter with nobody left to shoot, a refusal naming the event that
//! breaks the rule, and a seer viewer's claim repeating her own check.

use gametab_games::werewolf::roles::{
    Known, RevealRule, Role, RoleEvent, RoleGame, RoleModel, RolePosterior, RoleSetup, Winner,
};
use gametab_games::werewolf::{EvidenceModel, Side};

use super::{assert_agrees, game, game_with, night, out, seat, vote, VILLAGE, WOLF};

/// Item 1: a known wolf voted out ends the game for certain: the village
/// has won with probability exactly 1 and is named.
#[test]
fn the_winner_is_named_when_the_end_is_certain() {
    let setup = RoleSetup::new(4, 1, &[Role::Witch, Role::Guard, Role::Cupid]).unwrap();
    let g = game(
        setup,
        None,
        vec![
            night(&[]),
            RoleEvent::Revealed {
                player: seat(1),
                known: WOLF,
            },
            vote(2, 1),
            vote(3, 1),
            out(1, None),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert_eq!(exact.p_won(Winner::Village), 1.0);
    assert_eq!(exact.p_ongoing(), 0.0);
    assert_eq!(exact.winner(), Some(Winner::Village));
}

/// Item 2: the hunter killed at night has nobody to shoot once his
/// lover's grief has taken the last player, so his silence says nothing.
#[test]
fn a_hunter_with_nobody_to_shoot_is_no_evidence() {
    let setup = RoleSetup::new(4, 1, &[Role::Witch, Role::Hunter, Role::Cupid]).unwrap();
    let g = game(
        setup,
        None,
        vec![
            out(4, Some(VILLAGE)),
            night(&[1, 2]),
            RoleEvent::LoverDeath {
                player: seat(3),
                lover: seat(1),
            },
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    let p = exact.p_role(seat(3), Role::Witch);
    assert!((p - 0.1792).abs() < 5e-5, "P(3 witch) {p}");
    let h = exact.joint_entropy();
    assert!((h - 2.775).abs() < 5e-4, "joint entropy {h}");
}

/// Item 2, the information gain: once the game is over in every
/// hypothesis no elimination can follow, so none teaches anything (the
/// cards of 2, 3 and 4 are still unknown).
#[test]
fn no_information_gain_after_the_end() {
    let setup = RoleSetup::new(4, 1, &[Role::Witch, Role::Guard, Role::Cupid]).unwrap();
    let g = game(
        setup,
        None,
        vec![
            night(&[]),
            RoleEvent::Revealed {
                player: seat(1),
                known: WOLF,
            },
            out(1, None),
        ],
    );
    assert_agrees(&g);
    let exact = RolePosterior::compute(&g).unwrap();
    assert!(exact.joint_entropy() > 1.0);
    for reveal in [RevealRule::Role, RevealRule::Side] {
        for n in 2..=4 {
            assert_eq!(
                exact.information_gain(seat(n), reveal),
                0.0,
                "{n} {reveal:?}"
            );
        }
    }
}

/// Item 3: the seer viewer's check of the last wolf comes after the
/// game's end (the wolves reached parity with the elimination): the
/// check itself is refused, as the log cut after it is.
#[test]
fn the_refusal_names_the_first_event_after_the_end() {
    let setup = RoleSetup::new(4, 1, &[Role::Seer]).unwrap();
    let events = [
        night(&[2]),
        out(3, None),
        RoleEvent::SeerCheck {
            target: seat(4),
            result: WOLF,
        },
        vote(1, 4),
    ];
    for cut in [3, 4] {
        let mut g = RoleGame::new(
            setup,
            RoleModel::default(),
            Some((seat(1), Known::Role(Role::Seer))),
        )
        .unwrap();
        let mut refusal = None;
        for event in events.iter().take(cut) {
            if let Err(error) = g.push(event.clone()) {
                refusal = Some(error);
                break;
            }
        }
        let error = match refusal {
            Some(error) => error,
            None => RolePosterior::compute(&g).expect_err("the game was over"),
        };
        assert_eq!(error.event_index(), Some(2), "cut {cut}: {error}");
        assert!(error.to_string().contains("after event 2"), "{error}");
    }
}

/// Item 4: a seer viewer's public claim repeating her own logged check is
/// the same vision told, not a second one.
#[test]
fn a_claim_repeating_the_seer_viewers_check_counts_once() {
    let setup = RoleSetup::new(6, 1, &[Role::Seer]).unwrap();
    let model = RoleModel {
        sides: EvidenceModel {
            seer_accuracy: 0.7,
            ..EvidenceModel::default()
        },
        ..RoleModel::default()
    };
    let check = RoleEvent::SeerCheck {
        target: seat(2),
        result: Known::Side(Side::Wolf),
    };
    let repeated = RoleEvent::Claim {
        player: seat(1),
        role: Role::Seer,
        check: Some((seat(2), WOLF)),
    };
    let once = game_with(setup, model, Some((1, Role::Seer)), vec![check.clone()]);
    let told = game_with(setup, model, Some((1, Role::Seer)), vec![check, repeated]);
    assert_agrees(&told);
    let p_once = RolePosterior::compute(&once).unwrap().p_wolf(seat(2));
    let p_told = RolePosterior::compute(&told).unwrap().p_wolf(seat(2));
    assert!((p_once - 0.3684).abs() < 5e-5, "one vision: {p_once}");
    assert!((p_told - p_once).abs() < 1e-12, "told: {p_told}");
}
