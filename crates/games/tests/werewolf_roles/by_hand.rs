//! Values worked out by hand on small setups, one rule each: seer claims
//! and identity checks, a wolf knifing his own, the guard's targets, the
//! witch's potions, the hunter's shot, the lovers, and a wolf viewer.

use super::*;

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
