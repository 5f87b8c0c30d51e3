//! Unit tests of the Murder Plan rules: one test per rule of the spec.

use super::model::*;

fn mm(
    key_person: MastermindCard,
    brain: MastermindCard,
    killer: MastermindCard,
) -> MastermindAction {
    Placement {
        key_person,
        brain,
        killer,
    }
}

fn pr(
    key_person: ProtagonistCard,
    brain: ProtagonistCard,
    killer: ProtagonistCard,
) -> ProtagonistAction {
    Placement {
        key_person,
        brain,
        killer,
    }
}

use MastermindCard as M;
use ProtagonistCard as P;

#[test]
fn action_counts_per_inventory() {
    assert_eq!(mastermind_actions(LimitedCards::ALL).len(), 136);
    assert_eq!(protagonist_actions(LimitedCards::ALL).len(), 112);
    let none_left = LimitedCards {
        forbid_movement: 0,
        ..LimitedCards::ALL
    };
    assert_eq!(protagonist_actions(none_left).len(), 54);
    // Brute force: ordered triples over the physical cards, deduplicated by
    // card kind, must equal the generated lists for every inventory.
    for index in 0..16 {
        let limited = LimitedCards::from_index(index).unwrap();
        let mut hand = vec![
            M::Horizontal,
            M::Vertical,
            M::IntriguePlusOne,
            M::Blank,
            M::Blank,
            M::Blank,
        ];
        if limited.diagonal {
            hand.push(M::Diagonal);
        }
        if limited.intrigue_plus_two {
            hand.push(M::IntriguePlusTwo);
        }
        let mut brute = std::collections::BTreeSet::new();
        for i in 0..hand.len() {
            for j in 0..hand.len() {
                for k in 0..hand.len() {
                    if i != j && j != k && i != k {
                        brute.insert(mm(hand[i], hand[j], hand[k]));
                    }
                }
            }
        }
        let listed: Vec<_> = mastermind_actions(limited);
        assert_eq!(listed, brute.into_iter().collect::<Vec<_>>());

        let mut hand = vec![P::ForbidIntrigue];
        for _ in 0..3 {
            hand.extend([P::Horizontal, P::Vertical, P::Blank]);
        }
        for _ in 0..limited.forbid_movement {
            hand.push(P::ForbidMovement);
        }
        let mut brute = std::collections::BTreeSet::new();
        for i in 0..hand.len() {
            for j in 0..hand.len() {
                for k in 0..hand.len() {
                    if i != j && j != k && i != k {
                        brute.insert(pr(hand[i], hand[j], hand[k]));
                    }
                }
            }
        }
        assert_eq!(
            protagonist_actions(limited),
            brute.into_iter().collect::<Vec<_>>()
        );
    }
}

#[test]
fn movement_composition() {
    let quiet = pr(P::Blank, P::Blank, P::Blank);
    // One side only: that move.
    let o = resolve(mm(M::Blank, M::Diagonal, M::Blank), quiet);
    assert_eq!(o.brain_move, Offset::DIAGONAL);
    let o = resolve(
        mm(M::Blank, M::Blank, M::Blank),
        pr(P::Blank, P::Blank, P::Vertical),
    );
    assert_eq!(o.killer_move, Offset::VERTICAL);
    // Same move on both sides: that move once.
    let o = resolve(
        mm(M::Horizontal, M::Blank, M::Blank),
        pr(P::Horizontal, P::Blank, P::Blank),
    );
    assert_eq!(o.key_person_move, Offset::HORIZONTAL);
    // Different moves: XOR.
    let cases = [
        (M::Horizontal, P::Vertical, Offset::DIAGONAL),
        (M::Vertical, P::Horizontal, Offset::DIAGONAL),
        (M::Diagonal, P::Horizontal, Offset::VERTICAL),
        (M::Diagonal, P::Vertical, Offset::HORIZONTAL),
    ];
    for (m, p, expected) in cases {
        let o = resolve(mm(M::Blank, M::Blank, m), pr(P::Blank, P::Blank, p));
        assert_eq!(o.killer_move, expected, "{m:?} + {p:?}");
    }
    // Positions: x += m_B + m_P, y += m_K + m_P.
    let start = State::start(Offset::ZERO, Offset::ZERO);
    let o = resolve(
        mm(M::Horizontal, M::Blank, M::Blank),
        pr(P::Blank, P::Vertical, P::Blank),
    );
    let after = o.apply(start);
    assert_eq!(after.brain, Offset::DIAGONAL);
    assert_eq!(after.killer, Offset::HORIZONTAL);
}

#[test]
fn forbid_movement_stops_both_moves_and_is_consumed() {
    let o = resolve(
        mm(M::Blank, M::Diagonal, M::Blank),
        pr(P::Blank, P::ForbidMovement, P::Blank),
    );
    assert_eq!(o.brain_move, Offset::ZERO);
    assert!(o.diagonal_used, "a blocked limited card is still consumed");
    assert_eq!(o.forbid_movement_used, 1);
    let state = State::start(Offset::VERTICAL, Offset::ZERO);
    let after = o.apply(state);
    assert_eq!(after.brain, Offset::VERTICAL);
    assert!(!after.limited.diagonal);
    assert_eq!(after.limited.forbid_movement, 2);
}

#[test]
fn forbid_intrigue_blocks_only_its_character() {
    let state = State::start(Offset::ZERO, Offset::ZERO);
    let action = mm(M::IntriguePlusOne, M::Blank, M::IntriguePlusTwo);
    let o = resolve(action, pr(P::Blank, P::Blank, P::ForbidIntrigue));
    let after = o.apply(state);
    assert_eq!(after.killer_intrigue, 0);
    assert_eq!(after.key_person_intrigue, 1);
    assert!(
        !after.limited.intrigue_plus_two,
        "blocked intrigue+2 is consumed"
    );
    let o = resolve(action, pr(P::ForbidIntrigue, P::Blank, P::Blank));
    let after = o.apply(state);
    assert_eq!(after.killer_intrigue, 2);
    assert_eq!(after.key_person_intrigue, 0);
    // Intrigue on the brain does nothing.
    let o = resolve(
        mm(M::Blank, M::IntriguePlusTwo, M::Blank),
        pr(P::Blank, P::Blank, P::Blank),
    );
    let after = o.apply(state);
    assert_eq!((after.killer_intrigue, after.key_person_intrigue), (0, 0));
}

#[test]
fn intrigue_caps() {
    let mut state = State::start(Offset::VERTICAL, Offset::HORIZONTAL);
    state.killer_intrigue = 3;
    state.key_person_intrigue = 1;
    let o = resolve(
        mm(M::IntriguePlusTwo, M::Blank, M::IntriguePlusOne),
        pr(P::Blank, P::Blank, P::Blank),
    );
    let after = o.apply(state);
    assert_eq!(after.killer_intrigue, KILLER_INTRIGUE_CAP);
    assert_eq!(after.key_person_intrigue, KEY_PERSON_INTRIGUE_CAP);
    let big = State {
        killer_intrigue: 9,
        key_person_intrigue: 7,
        ..state
    };
    assert_eq!(big.clamped().killer_intrigue, 4);
    assert_eq!(big.clamped().key_person_intrigue, 2);
}

#[test]
fn brain_targets_and_preference() {
    let together = State::start(Offset::ZERO, Offset::ZERO);
    let legal: Vec<_> = BrainTarget::legal(together).collect();
    assert_eq!(legal, BrainTarget::PREFERENCE.to_vec());
    let with_killer = State::start(Offset::DIAGONAL, Offset::DIAGONAL);
    assert_eq!(
        BrainTarget::legal(with_killer).collect::<Vec<_>>(),
        vec![BrainTarget::Killer, BrainTarget::Nobody]
    );
    let alone = State::start(Offset::DIAGONAL, Offset::VERTICAL);
    assert_eq!(
        BrainTarget::legal(alone).collect::<Vec<_>>(),
        vec![BrainTarget::Nobody]
    );
    assert_eq!(BrainTarget::Killer.apply(together).killer_intrigue, 1);
    assert_eq!(
        BrainTarget::KeyPerson.apply(together).key_person_intrigue,
        1
    );
}

#[test]
fn win_check() {
    let mut state = State::start(Offset::ZERO, Offset::HORIZONTAL);
    state.key_person_intrigue = 2;
    assert!(!state.is_win(), "killer elsewhere");
    state.killer = Offset::ZERO;
    assert!(state.is_win());
    let mut state = State::start(Offset::ZERO, Offset::HORIZONTAL);
    state.killer_intrigue = 4;
    assert!(state.is_win());
}

#[test]
fn state_index_round_trips_and_orders_like_the_key_columns() {
    let all: Vec<State> = State::all().collect();
    assert_eq!(all.len(), STATE_COUNT);
    for (i, s) in all.iter().enumerate() {
        assert_eq!(s.index(), i);
    }
    let key = |s: &State| {
        (
            s.brain.first(),
            s.brain.second(),
            s.killer.first(),
            s.killer.second(),
            s.killer_intrigue,
            s.key_person_intrigue,
            s.limited.diagonal,
            s.limited.intrigue_plus_two,
            s.limited.forbid_movement,
        )
    };
    assert!(all.windows(2).all(|w| key(&w[0]) < key(&w[1])));
    assert_eq!(all.iter().filter(|s| !s.is_win()).count(), 2816);
}

#[test]
fn axis_swap_is_a_symmetry_of_the_rules() {
    for limited_index in 0..16 {
        let limited = LimitedCards::from_index(limited_index).unwrap();
        let ms = mastermind_actions(limited);
        let ps = protagonist_actions(limited);
        for state in State::all().filter(|s| s.limited == limited).step_by(7) {
            for &a in ms.iter().step_by(5) {
                for &b in ps.iter().step_by(3) {
                    let direct = resolve(a, b).apply(state).swapped();
                    let mirrored = resolve(a.swapped(), b.swapped()).apply(state.swapped());
                    assert_eq!(direct, mirrored);
                }
            }
        }
        // The swapped action lists are the same sets.
        let mut swapped: Vec<_> = ms.iter().map(|a| a.swapped()).collect();
        swapped.sort();
        assert_eq!(swapped, ms);
    }
    for s in State::all() {
        assert_eq!(s.swapped().swapped(), s);
        assert_eq!(s.canonical(), s.swapped().canonical());
        assert_eq!(s.is_win(), s.swapped().is_win());
    }
}
