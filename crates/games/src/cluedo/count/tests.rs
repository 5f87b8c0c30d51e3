//! Tests of the counting core: small problems counted by hand, and the
//! merged completions against the unmerged ones on logs of simulated races.

use super::*;

fn layer(capacity: u8) -> Layer {
    Layer {
        capacity,
        ..Layer::default()
    }
}

#[test]
fn plain_cards_count_as_multinomials() {
    // 6 interchangeable cards into hands of 3, 2, 1: 6!/(3!2!1!) = 60.
    let problem = Problem {
        layers: vec![layer(3), layer(2), layer(1)],
        complex: vec![],
        classes: vec![PlainClass {
            size: 6,
            allowed: 0b111,
        }],
    };
    let solution = problem.solve();
    assert_eq!(solution.total, 60);
    assert_eq!(problem.count(), 60);
    // Each layer receives its capacity in every placement.
    assert_eq!(solution.class_in[0][0], 60 * 3);
    assert_eq!(solution.class_in[2][0], 60);
}

#[test]
fn at_least_one_and_weights_match_hand_enumeration() {
    // Cards a, b complex; two layers of 1 and 2 cards, plus one plain
    // card allowed anywhere. Layer 1 must get a or b.
    let problem = Problem {
        layers: vec![
            layer(1),
            Layer {
                capacity: 2,
                at_least_one: vec![0b11],
                weights: vec![LayerWeight {
                    already: 0,
                    named: 0b11,
                    scale: 2,
                }],
            },
        ],
        complex: vec![0b11, 0b11],
        classes: vec![PlainClass {
            size: 1,
            allowed: 0b11,
        }],
    };
    // Placements (layer0 card): a -> layer1 {b, x}: weight 2/1 = 2;
    // b -> {a, x}: 2; x -> {a, b}: 2/2 = 1. Total 5.
    let solution = problem.solve();
    assert_eq!(solution.total, 5);
    assert_eq!(solution.complex_in[0], vec![2, 2]);
    assert_eq!(solution.complex_in[1], vec![3, 3]);
    assert_eq!(solution.class_in[0], vec![1]);
    assert_eq!(solution.class_in[1], vec![4]);
}

#[test]
fn impossible_problems_count_zero() {
    let problem = Problem {
        layers: vec![layer(2)],
        complex: vec![],
        classes: vec![PlainClass {
            size: 2,
            allowed: 0,
        }],
    };
    assert_eq!(problem.solve().total, 0);
    assert_eq!(problem.count(), 0);
}

/// Logs of simulated races for 3 to 6 players, as the advised seat saw
/// them before one of its suggestions (every player's suggestions: many
/// "holds at least one" facts, so many complex cards and classes).
const RACE_LOGS: &str = include_str!("../../../tests/data/cluedo-race-logs.json");

#[test]
fn merged_completions_equal_the_unmerged_ones_on_race_logs() {
    // Every counting problem of one room's 36 suggestions (each answer's
    // hand configurations) and of the envelope now, under both models:
    // the advice counted with the merged completions is the advice counted
    // with the unmerged ones, to the last outcome weight.
    use crate::cluedo::advice::advise_counting;
    use crate::cluedo::{Category, GameLog, Model, Objective, Seat};
    let logs: Vec<GameLog> = serde_json::from_str(RACE_LOGS).unwrap();
    assert_eq!(logs.len(), 4);
    for log in &logs {
        let knowledge = log.knowledge().unwrap();
        let me = Seat(log.viewer);
        let room = knowledge
            .rules()
            .deck()
            .category_cards(Category::Room)
            .cards()
            .nth(usize::from(log.viewer) + 1);
        for model in Model::ALL {
            let count = |cache| {
                advise_counting(&knowledge, model, me, room, Objective::DEFAULT, cache).unwrap()
            };
            let merged = count(AtomCache::default());
            assert_eq!(merged.ranking.len(), 36);
            assert_eq!(merged, count(AtomCache::unmerged()), "{model:?}");
        }
    }
}

#[test]
fn merged_groups_forced_cards_and_dead_states_count_as_unmerged() {
    // Two opponents (layers 3 and 4). Plain classes: suspects (slot 0 or
    // either opponent), weapons (slot 1 or opponent 4 only: opponent 3
    // passed on them), rooms (slot 2 or either opponent), a card only
    // opponent 3 may hold and one that nothing may take after the slots
    // (a dead state unless it goes to slot 2). Complex cards: one suspect
    // and one room, opponent 3 holding at least one of them and weighing
    // a shown card over both.
    let problem = Problem {
        layers: vec![
            layer(1),
            layer(1),
            layer(1),
            Layer {
                capacity: 3,
                at_least_one: vec![0b11],
                weights: vec![LayerWeight {
                    already: 1,
                    named: 0b11,
                    scale: 6,
                }],
            },
            layer(3),
        ],
        complex: vec![0b11001, 0b11100],
        classes: vec![
            PlainClass {
                size: 2,
                allowed: 0b11001,
            },
            PlainClass {
                size: 2,
                allowed: 0b10010,
            },
            PlainClass {
                size: 1,
                allowed: 0b11100,
            },
            PlainClass {
                size: 1,
                allowed: 0b01000,
            },
            PlainClass {
                size: 1,
                allowed: 0b00100,
            },
        ],
    };
    let merged = problem.envelope_atoms();
    assert!(!merged.is_empty());
    assert_eq!(merged, problem.envelope_atoms_unmerged());
    let total: u128 = merged.iter().map(|a| a.1).sum();
    assert_eq!(total, problem.count());
    // The dead card: every atom puts it (class 4) in slot 2.
    assert!(merged
        .iter()
        .all(|(picks, _)| picks[2] == EnvelopePick::Class(4)));
}
