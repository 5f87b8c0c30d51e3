//! The Murder Plan rules for JavaScript: states by index, actions by
//! code, every function a thin call into `gametab_games::murder_plan`.

use wasm_bindgen::prelude::*;

use crate::refusal::Refusal;

use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, BrainTarget, LimitedCards, MastermindAction,
    Offset, ProtagonistAction, State, STATE_COUNT,
};
use gametab_games::murder_plan::{CardKind, MastermindCard, Placement, ProtagonistCard};

/// A side of the game.
#[wasm_bindgen]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The mastermind (maximises the value).
    Mastermind = 0,
    /// The protagonists (minimise it).
    Protagonists = 1,
}

/// The state of a dense index.
pub(crate) fn state(index: u16) -> Result<State, Refusal> {
    State::from_index(usize::from(index)).ok_or_else(|| {
        Refusal::argument(format!(
            "state index {index} is not a state (0..{STATE_COUNT})"
        ))
    })
}

/// The mastermind action of a code, legal with `limited` cards left.
pub(crate) fn mastermind_action(
    code: u8,
    limited: LimitedCards,
) -> Result<MastermindAction, Refusal> {
    legal_action(code, mastermind_actions(limited), "mastermind")
}

/// The protagonist action of a code, legal with `limited` cards left.
pub(crate) fn protagonist_action(
    code: u8,
    limited: LimitedCards,
) -> Result<ProtagonistAction, Refusal> {
    legal_action(code, protagonist_actions(limited), "protagonist")
}

fn legal_action<Card: CardKind>(
    code: u8,
    legal: Vec<Placement<Card>>,
    side: &str,
) -> Result<Placement<Card>, Refusal> {
    let action = Placement::<Card>::from_code(code).ok_or_else(|| {
        Refusal::argument(format!(
            "{side} action code {code} is not an action (0..{})",
            Placement::<Card>::CODES
        ))
    })?;
    if !legal.contains(&action) {
        return Err(Refusal::illegal(format!(
            "{side} action {} is illegal with these cards left (each card at most as often as it is in hand, limited cards not yet used)",
            action.labels().join(" / ")
        )));
    }
    Ok(action)
}

/// The dense index of the state with these fields: brain x (two 0/1
/// components), killer y, killer intrigue (0..=4), key-person intrigue
/// (0..=2), diagonal left, intrigue+2 left (0/1), forbid-movement left
/// (0..=3). Nine numbers rather than an array: scalars cross into the
/// module without an allocation, and every query of the wrapper starts
/// here.
#[wasm_bindgen(js_name = stateIndex)]
#[allow(clippy::too_many_arguments)] // The nine fields of a state.
pub fn state_index(
    brain_x: u8,
    brain_y: u8,
    killer_x: u8,
    killer_y: u8,
    killer_intrigue: u8,
    key_person_intrigue: u8,
    diagonal_left: u8,
    intrigue2_left: u8,
    forbid_movement_left: u8,
) -> Result<u16, Refusal> {
    let offset = |a, b, what| {
        Offset::new(a, b)
            .ok_or_else(|| Refusal::argument(format!("{what} ({a},{b}): components are 0 or 1")))
    };
    let flag = |v: u8, what| match v {
        0 | 1 => Ok(v == 1),
        _ => Err(Refusal::argument(format!("{what} is {v}: 0 or 1"))),
    };
    let within = |v: u8, max: u8, what| {
        if v <= max {
            Ok(v)
        } else {
            Err(Refusal::argument(format!(
                "{what} {v} is out of range (0..={max})"
            )))
        }
    };
    let state = State {
        brain: offset(brain_x, brain_y, "brain offset")?,
        killer: offset(killer_x, killer_y, "killer offset")?,
        killer_intrigue: within(killer_intrigue, 4, "killer intrigue")?,
        key_person_intrigue: within(key_person_intrigue, 2, "key-person intrigue")?,
        limited: LimitedCards {
            diagonal: flag(diagonal_left, "diagonal left")?,
            intrigue_plus_two: flag(intrigue2_left, "intrigue+2 left")?,
            forbid_movement: within(forbid_movement_left, 3, "forbid-movement left")?,
        },
    };
    Ok(state.index() as u16)
}

/// The nine fields of a state, in [`state_index`]'s order.
#[wasm_bindgen(js_name = stateFields)]
pub fn state_fields(index: u16) -> Result<Vec<u8>, Refusal> {
    let s = state(index)?;
    Ok(vec![
        s.brain.first(),
        s.brain.second(),
        s.killer.first(),
        s.killer.second(),
        s.killer_intrigue,
        s.key_person_intrigue,
        u8::from(s.limited.diagonal),
        u8::from(s.limited.intrigue_plus_two),
        s.limited.forbid_movement,
    ])
}

/// The 16 start states (no intrigue, every limited card), in index order.
#[wasm_bindgen(js_name = startStates)]
pub fn start_states() -> Vec<u16> {
    State::starts().map(|s| s.index() as u16).collect()
}

/// Whether the mastermind has won in the state (killer intrigue 4, or the
/// killer with the key person at key-person intrigue 2).
#[wasm_bindgen(js_name = isWon)]
pub fn is_won(index: u16) -> Result<bool, Refusal> {
    Ok(state(index)?.is_win())
}

/// The labels of a side's card kinds, in their code order.
#[wasm_bindgen(js_name = cardLabels)]
pub fn card_labels(side: Side) -> Vec<String> {
    match side {
        Side::Mastermind => labels::<MastermindCard>(),
        Side::Protagonists => labels::<ProtagonistCard>(),
    }
}

fn labels<Card: CardKind>() -> Vec<String> {
    Card::KINDS.iter().map(|c| c.label().to_string()).collect()
}

/// The codes of a side's legal full actions in the state, in the
/// canonical order (the one the tables and the solver use).
#[wasm_bindgen(js_name = legalActions)]
pub fn legal_actions(side: Side, index: u16) -> Result<Vec<u8>, Refusal> {
    let limited = state(index)?.limited;
    Ok(match side {
        Side::Mastermind => codes(mastermind_actions(limited)),
        Side::Protagonists => codes(protagonist_actions(limited)),
    })
}

fn codes<Card: CardKind>(actions: Vec<Placement<Card>>) -> Vec<u8> {
    actions.into_iter().map(Placement::code).collect()
}

/// Whether a side may play the action (its code) in the state: `Ok`, or
/// the reason it may not.
#[wasm_bindgen(js_name = checkAction)]
pub fn check_action(side: Side, index: u16, code: u8) -> Result<(), Refusal> {
    let limited = state(index)?.limited;
    match side {
        Side::Mastermind => mastermind_action(code, limited).map(drop),
        Side::Protagonists => protagonist_action(code, limited).map(drop),
    }
}

/// The three card labels (key person, brain, killer) of an action code.
#[wasm_bindgen(js_name = actionCards)]
pub fn action_cards(side: Side, code: u8) -> Result<Vec<String>, Refusal> {
    let labels = match side {
        Side::Mastermind => Placement::<MastermindCard>::from_code(code).map(|a| a.labels()),
        Side::Protagonists => Placement::<ProtagonistCard>::from_code(code).map(|a| a.labels()),
    };
    labels
        .map(|l| l.map(str::to_string).to_vec())
        .ok_or_else(|| {
            Refusal::argument(format!("action code {code} is not an action of that side"))
        })
}

/// Play one turn from the state: the mastermind's action and the
/// protagonists' (codes, each legal there) resolved by the rules, before
/// the brain's ability. Returns the post-card state's index, then the net
/// move of the key person, the brain and the killer (offset codes: 0 none,
/// 1 vertical, 2 horizontal, 3 diagonal), the intrigue added to the killer
/// and to the key person, whether the diagonal and the intrigue+2 cards
/// were used (0/1) and how many forbid-movement cards.
#[wasm_bindgen]
pub fn turn(index: u16, mastermind: u8, protagonists: u8) -> Result<Vec<u16>, Refusal> {
    let state = state(index)?;
    if state.is_win() {
        return Err(Refusal::illegal(
            "the mastermind has already won: no turn is played",
        ));
    }
    let a = mastermind_action(mastermind, state.limited)?;
    let b = protagonist_action(protagonists, state.limited)?;
    let outcome = resolve(a, b);
    let post = outcome.apply(state);
    Ok(vec![
        post.index() as u16,
        u16::from(outcome.key_person_move.code()),
        u16::from(outcome.brain_move.code()),
        u16::from(outcome.killer_move.code()),
        u16::from(outcome.killer_intrigue),
        u16::from(outcome.key_person_intrigue),
        u16::from(outcome.diagonal_used),
        u16::from(outcome.intrigue_plus_two_used),
        u16::from(outcome.forbid_movement_used),
    ])
}

/// The brain target of a code: 0 killer, 1 key person, 2 nobody (the
/// tie-break order).
pub(crate) fn target(code: u8) -> Result<BrainTarget, Refusal> {
    BrainTarget::PREFERENCE
        .get(usize::from(code))
        .copied()
        .ok_or_else(|| {
            Refusal::argument(format!(
                "brain target code {code} is not a target (0 killer, 1 key person, 2 nobody)"
            ))
        })
}

/// The code of a brain target.
pub(crate) fn target_code(target: BrainTarget) -> u8 {
    BrainTarget::PREFERENCE
        .iter()
        .position(|&t| t == target)
        .expect("every target is in the preference order") as u8
}

/// The label of a brain target code (`killer`, `key_person`, `nobody`).
#[wasm_bindgen(js_name = brainTargetLabel)]
pub fn brain_target_label(code: u8) -> Result<String, Refusal> {
    Ok(target(code)?.label().to_string())
}

/// The codes of the brain's legal targets in a post-card state, in the
/// tie-break order (killer if the brain is with the killer, key person if
/// with the key person, nobody always).
#[wasm_bindgen(js_name = brainTargets)]
pub fn brain_targets(post: u16) -> Result<Vec<u8>, Refusal> {
    Ok(BrainTarget::legal(state(post)?).map(target_code).collect())
}

/// The state after the brain's ability on a legal target.
#[wasm_bindgen(js_name = applyBrain)]
pub fn apply_brain(post: u16, code: u8) -> Result<u16, Refusal> {
    let post = state(post)?;
    let target = target(code)?;
    if !target.is_legal(post) {
        return Err(Refusal::illegal(format!(
            "the brain cannot target the {} here: it is not in the brain's area",
            target.label().replace('_', " ")
        )));
    }
    Ok(target.apply(post).index() as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip_through_their_fields() {
        for index in 0..STATE_COUNT as u16 {
            let f = state_fields(index).unwrap();
            let back = state_index(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
            assert_eq!(back, Ok(index));
        }
        let error = state_index(0, 0, 0, 0, 5, 0, 1, 1, 3)
            .unwrap_err()
            .message();
        assert!(error.contains("killer intrigue 5"), "{error}");
        let error = state_index(0, 2, 0, 0, 0, 0, 1, 1, 3)
            .unwrap_err()
            .message();
        assert!(error.contains("brain offset"), "{error}");
        let error = state_index(0, 0, 0, 0, 0, 0, 2, 1, 3)
            .unwrap_err()
            .message();
        assert!(error.contains("diagonal left is 2"), "{error}");
        assert!(state_fields(3840)
            .unwrap_err()
            .message()
            .contains("not a state"));
        assert_eq!(start_states().len(), 16);
    }

    #[test]
    fn a_turn_follows_the_rules_and_refuses_illegal_cards() {
        // x = (0,1), y = (1,0); the mastermind moves the killer diagonally,
        // the protagonists forbid the killer's movement: nothing moves, the
        // diagonal and one forbid-movement card are spent.
        let start = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
        let code = |side, cards: [&str; 3]| {
            let labels = card_labels(side);
            let at = |l: &str| labels.iter().position(|x| x == l).unwrap() as u8;
            let n = labels.len() as u8;
            (at(cards[0]) * n + at(cards[1])) * n + at(cards[2])
        };
        let a = code(Side::Mastermind, ["blank", "blank", "diagonal"]);
        let b = code(Side::Protagonists, ["blank", "blank", "forbid-movement"]);
        let result = turn(start.index() as u16, a, b).unwrap();
        let post = state(result[0]).unwrap();
        assert_eq!((post.brain, post.killer), (start.brain, start.killer));
        assert_eq!(result[1..], [0, 0, 0, 0, 0, 1, 0, 1]);
        assert!(!post.limited.diagonal && post.limited.forbid_movement == 2);
        assert_eq!(
            action_cards(Side::Mastermind, a).unwrap(),
            ["blank", "blank", "diagonal"]
        );
        // The diagonal is gone: playing it again is refused.
        let error = turn(result[0], a, b).unwrap_err().message();
        assert!(error.contains("illegal with these cards left"), "{error}");
        assert!(turn(start.index() as u16, 250, b)
            .unwrap_err()
            .message()
            .contains("not an action"));
        assert_eq!(
            legal_actions(Side::Mastermind, start.index() as u16)
                .unwrap()
                .len(),
            136
        );
        assert_eq!(
            legal_actions(Side::Protagonists, start.index() as u16)
                .unwrap()
                .len(),
            112
        );
    }

    #[test]
    fn the_brain_targets_only_characters_in_its_area() {
        // Everyone together: all three targets; +1 on the killer.
        let together = State::start(Offset::ZERO, Offset::ZERO);
        let index = together.index() as u16;
        assert_eq!(brain_targets(index).unwrap(), [0, 1, 2]);
        let after = state(apply_brain(index, 0).unwrap()).unwrap();
        assert_eq!(after.killer_intrigue, 1);
        let apart = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
        assert_eq!(brain_targets(apart.index() as u16).unwrap(), [2]);
        let error = apply_brain(apart.index() as u16, 1).unwrap_err().message();
        assert!(error.contains("key person"), "{error}");
        assert_eq!(brain_target_label(1).unwrap(), "key_person");
        assert!(brain_target_label(3).is_err());
        let won = State {
            killer_intrigue: 4,
            ..together
        };
        assert_eq!(is_won(won.index() as u16), Ok(true));
        assert!(turn(won.index() as u16, 0, 0)
            .unwrap_err()
            .message()
            .contains("already won"));
    }
}
