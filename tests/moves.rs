//! The value of every Murder Plan move (`MurderPlanTables::mastermind_moves`
//! and `protagonist_moves`) against the built tables: on every state of
//! d = 1..8 the optimal supports lose nothing beyond what the certificate
//! gap allows (2 gap / p for a move of probability p), no
//! move beats the game value by more than the gap, the order is best first,
//! and on a few states every value equals a payoff matrix built here from
//! the rules and V_{d-1} alone (not from the brain table the lookup uses).

use crate::common;

use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, BrainTarget, MastermindAction,
    ProtagonistAction, State,
};
use gametab_games::murder_plan::{DaysLeft, Offset};
use gametab_lookup::murder_plan::{MoveValue, MurderPlanTables, TIE};
use gametab_lookup::{Error, Tables};

/// Rounding of a sum of a few hundred products of numbers in [0, 1].
const ROUNDING: f64 = 1e-12;

/// Rounding of the certificate's sums and ours, before a division by a
/// support probability.
const ROUNDING_SCALE: f64 = 1e-15;

fn tables() -> MurderPlanTables {
    let tables = Tables::open(common::built_tables()).expect("the shared set loads");
    tables.murder_plan().expect("Murder Plan loads").clone()
}

fn days(d: u8) -> DaysLeft {
    DaysLeft::new(d)
}

/// Support losses within the gap, no loss below -gap, sorted best first
/// with ties in canonical order, every legal action once, and the stored
/// probabilities carried over.
fn check_moves<A: Copy + Ord + std::fmt::Debug>(
    moves: &[MoveValue<A>],
    legal: &[A],
    gap: f64,
    context: &str,
) {
    assert_eq!(
        moves.len(),
        legal.len(),
        "{context}: one move per legal action"
    );
    let mut seen: Vec<A> = moves.iter().map(|m| m.action).collect();
    seen.sort();
    let mut expected = legal.to_vec();
    expected.sort();
    assert_eq!(seen, expected, "{context}: the legal actions");
    let mut total = 0.0;
    for m in moves {
        assert!(
            m.loss >= -gap - ROUNDING,
            "{context}: {m:?} beats the value"
        );
        if m.probability > 0.0 {
            // sum_a p_a (V - value_a) <= gap and no term is below -gap, so
            // a support move of probability p loses at most 2 gap / p.
            let bound = 2.0 * (gap + ROUNDING_SCALE) / m.probability;
            assert!(
                m.loss <= bound.max(ROUNDING),
                "{context}: support move {m:?} loses more than {bound} (gap {gap})"
            );
        }
        total += m.probability;
    }
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{context}: probabilities sum to {total}"
    );
    let tied = |loss: f64| (loss / TIE).round() as i64;
    for pair in moves.windows(2) {
        assert!(
            tied(pair[0].loss) <= tied(pair[1].loss),
            "{context}: not best first"
        );
        if tied(pair[0].loss) == tied(pair[1].loss) {
            let rank = |a: A| legal.iter().position(|&l| l == a);
            assert!(
                rank(pair[0].action) < rank(pair[1].action),
                "{context}: tie order"
            );
        }
    }
}

#[test]
fn every_state_supports_lose_nothing_beyond_the_gap() {
    let mp = tables();
    let mut checked = 0;
    for d in 1..=8 {
        for state in State::all().filter(|s| !s.is_win()) {
            let context = format!("d={d} {state:?}");
            let gap = mp.gap(days(d), state).unwrap();
            let m = mp.mastermind_moves(days(d), state).unwrap();
            check_moves(&m, &mastermind_actions(state.limited), gap, &context);
            let p = mp.protagonist_moves(days(d), state).unwrap();
            check_moves(&p, &protagonist_actions(state.limited), gap, &context);
            // The best move of each side is worth the game value (up to the gap).
            let v = mp.value(days(d), state).unwrap();
            assert!((m[0].value - v).abs() <= gap + ROUNDING, "{context}");
            assert!((p[0].value - v).abs() <= gap + ROUNDING, "{context}");
            checked += 1;
        }
    }
    assert_eq!(checked, 8 * State::all().filter(|s| !s.is_win()).count());
}

/// Q(a, b) from the rules: the post-card state, the brain's best legal
/// choice, 1 for a win, else V_{d-1} from the value table.
fn payoff(
    mp: &MurderPlanTables,
    d: u8,
    s: State,
    a: MastermindAction,
    b: ProtagonistAction,
) -> f64 {
    let post = resolve(a, b).apply(s);
    BrainTarget::legal(post)
        .map(|t| {
            let next = t.apply(post);
            if next.is_win() {
                1.0
            } else {
                mp.value(days(d - 1), next).unwrap()
            }
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn move_values_equal_an_independent_payoff_matrix() {
    let mp = tables();
    let states: Vec<State> = State::all().filter(|s| !s.is_win()).step_by(37).collect();
    assert!(states.len() > 30);
    for d in [1, 2, 5, 8] {
        for &s in &states {
            let sigma = mp.mastermind_strategy(days(d), s).unwrap();
            let tau = mp.protagonists_strategy(days(d), s).unwrap();
            for m in mp.mastermind_moves(days(d), s).unwrap() {
                let expected: f64 = tau
                    .iter()
                    .map(|&(b, p)| p * payoff(&mp, d, s, m.action, b))
                    .sum();
                assert!(
                    (m.value - expected).abs() < ROUNDING,
                    "d={d} {s:?} {m:?} vs {expected}"
                );
            }
            for m in mp.protagonist_moves(days(d), s).unwrap() {
                let expected: f64 = sigma
                    .iter()
                    .map(|&(a, p)| p * payoff(&mp, d, s, a, m.action))
                    .sum();
                assert!(
                    (m.value - expected).abs() < ROUNDING,
                    "d={d} {s:?} {m:?} vs {expected}"
                );
            }
        }
    }
}

#[test]
fn the_start_state_has_a_strict_best_move_ordering_worth_reading() {
    // A start state of the published table (x = (0,1), y = (1,0)), 8 days:
    // the mastermind's best move is in the support and worth the value, the
    // worst is strictly worse, and the values are the published win rate.
    let mp = tables();
    let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
    let moves = mp.mastermind_moves(days(8), start).unwrap();
    let v = mp.value(days(8), start).unwrap();
    assert!(moves[0].probability > 0.0);
    assert!(
        moves.last().unwrap().loss > 0.01,
        "some move is a clear mistake"
    );
    assert_eq!(
        mp.win_rate(days(8), Some((start.brain, start.killer)))
            .unwrap(),
        v
    );
}

#[test]
fn won_states_and_day_zero_have_no_moves() {
    let mp = tables();
    let won = State::all().find(|s| s.is_win()).unwrap();
    assert!(matches!(
        mp.mastermind_moves(days(3), won),
        Err(Error::NotInTable { .. })
    ));
    let open = State::all().find(|s| !s.is_win()).unwrap();
    assert!(matches!(
        mp.protagonist_moves(days(0), open),
        Err(Error::OutOfRange {
            what: gametab_games::Argument::DaysLeft,
            ..
        })
    ));
}
