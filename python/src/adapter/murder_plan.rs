//! Murder Plan: the table queries through `gametab_answers::murder_plan`
//! (the very documents `gametab lookup` prints) and the rules through
//! `gametab_games::murder_plan`.

use super::error::{param, Result};
use serde_json::{json, Value};

use gametab_answers::murder_plan::documents::{Cards, Side, StateFields};
use gametab_answers::murder_plan::query::{document as answer, Query};
use gametab_answers::murder_plan::state::{parse_offset, StateArgs};
use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, BrainTarget, LimitedCards, Offset,
    FORBID_MOVEMENT_CARDS,
};
use gametab_games::murder_plan::{DaysLeft, MastermindCard, Placement, ProtagonistCard};
use gametab_lookup::murder_plan::MurderPlanTables;

/// A state as the Python API takes it.
#[derive(Debug, Clone)]
pub struct StateInput {
    /// Brain offset.
    pub brain: Offset,
    /// Killer offset.
    pub killer: Offset,
    /// Killer intrigue (clamped to the cap).
    pub killer_intrigue: u8,
    /// Key-person intrigue (clamped to the cap).
    pub key_person_intrigue: u8,
    /// The diagonal card is still in hand.
    pub diagonal_left: bool,
    /// The intrigue+2 card is still in hand.
    pub intrigue2_left: bool,
    /// Forbid-movement uses left (0..=3).
    pub forbid_movement_left: u8,
}

impl StateInput {
    /// The state as the answers crate takes it, the forbid-movement count
    /// checked first (so its refusal names the parameter).
    fn args(&self) -> Result<StateArgs> {
        self.limited()?;
        Ok(StateArgs {
            brain: self.brain,
            killer: self.killer,
            killer_intrigue: self.killer_intrigue,
            key_person_intrigue: self.key_person_intrigue,
            no_diagonal: !self.diagonal_left,
            no_intrigue2: !self.intrigue2_left,
            forbid_movement_left: self.forbid_movement_left,
        })
    }

    fn limited(&self) -> Result<LimitedCards> {
        if self.forbid_movement_left > FORBID_MOVEMENT_CARDS {
            return param(
                "forbid_movement_left",
                format!(
                    "forbid_movement_left {} is out of range (0..={FORBID_MOVEMENT_CARDS})",
                    self.forbid_movement_left
                ),
            );
        }
        Ok(LimitedCards {
            diagonal: self.diagonal_left,
            intrigue_plus_two: self.intrigue2_left,
            forbid_movement: self.forbid_movement_left,
        })
    }
}

/// An offset from `a,b` text, refused naming `parameter`.
///
/// # Errors
/// Text that is not two components 0 or 1.
pub fn offset(parameter: &'static str, text: &str) -> Result<Offset> {
    parse_offset(text).or_else(|message| param(parameter, format!("{parameter}: {message}")))
}

/// A side from its name.
///
/// # Errors
/// Neither `mastermind` nor `protagonists`.
pub fn side(text: &str) -> Result<Side> {
    match text {
        "mastermind" => Ok(Side::Mastermind),
        "protagonists" => Ok(Side::Protagonists),
        other => param(
            "side",
            format!("side: {other:?} is neither 'mastermind' nor 'protagonists'"),
        ),
    }
}

fn document(mp: &MurderPlanTables, query: &Query) -> Result<Value> {
    Ok(serde_json::to_value(answer(mp, query)?)?)
}

/// `lookup value`.
///
/// # Errors
/// As `gametab lookup value`.
pub fn value(mp: &MurderPlanTables, days: u8, state: &StateInput) -> Result<Value> {
    document(
        mp,
        &Query::Value {
            days: DaysLeft::new(days),
            state: state.args()?,
        },
    )
}

/// `lookup state`.
///
/// # Errors
/// As `gametab lookup state`.
pub fn state(mp: &MurderPlanTables, days: u8, state: &StateInput) -> Result<Value> {
    document(
        mp,
        &Query::State {
            days: DaysLeft::new(days),
            state: state.args()?,
        },
    )
}

/// `lookup strategy`.
///
/// # Errors
/// As `gametab lookup strategy`.
pub fn strategy(mp: &MurderPlanTables, side: Side, days: u8, state: &StateInput) -> Result<Value> {
    document(
        mp,
        &Query::Strategy {
            side,
            days: DaysLeft::new(days),
            state: state.args()?,
        },
    )
}

/// `lookup moves`.
///
/// # Errors
/// As `gametab lookup moves`.
pub fn moves(mp: &MurderPlanTables, side: Side, days: u8, state: &StateInput) -> Result<Value> {
    document(
        mp,
        &Query::Moves {
            side,
            days: DaysLeft::new(days),
            state: state.args()?,
        },
    )
}

/// `lookup sample`.
///
/// # Errors
/// As `gametab lookup sample`.
pub fn sample(
    mp: &MurderPlanTables,
    side: Side,
    days: u8,
    u: f64,
    state: &StateInput,
) -> Result<Value> {
    document(
        mp,
        &Query::Sample {
            side,
            days: DaysLeft::new(days),
            u,
            state: state.args()?,
        },
    )
}

/// `lookup brain`.
///
/// # Errors
/// As `gametab lookup brain`.
pub fn brain(mp: &MurderPlanTables, days: u8, state: &StateInput) -> Result<Value> {
    document(
        mp,
        &Query::Brain {
            days: DaysLeft::new(days),
            state: state.args()?,
        },
    )
}

/// `lookup win-rate`.
///
/// # Errors
/// As `gametab lookup win-rate`.
pub fn win_rate(
    mp: &MurderPlanTables,
    horizon: u8,
    start: Option<(Offset, Offset)>,
) -> Result<Value> {
    document(
        mp,
        &Query::WinRate {
            horizon: DaysLeft::new(horizon),
            brain: start.map(|s| s.0),
            killer: start.map(|s| s.1),
        },
    )
}

/// `lookup win-rates`.
///
/// # Errors
/// As `gametab lookup win-rates`.
pub fn win_rates(mp: &MurderPlanTables) -> Result<Value> {
    document(mp, &Query::WinRates)
}

/// Every legal action of `side` with these limited cards, as the cards
/// on the key person, the brain and the killer.
///
/// # Errors
/// A forbid-movement count above 3.
pub fn legal_actions(side: Side, state: &StateInput) -> Result<Value> {
    let limited = state.limited()?;
    let actions: Vec<Cards> = match side {
        Side::Mastermind => mastermind_actions(limited)
            .into_iter()
            .map(|a| Cards::of(a, MastermindCard::label))
            .collect(),
        Side::Protagonists => protagonist_actions(limited)
            .into_iter()
            .map(|a| Cards::of(a, ProtagonistCard::label))
            .collect(),
    };
    Ok(json!({ "side": side.name(), "actions": actions }))
}

fn placement<C: Copy + PartialEq>(
    parameter: &'static str,
    cards: &[String],
    from_label: impl Fn(&str) -> Option<C>,
    all: &[C],
    label: impl Fn(C) -> &'static str,
) -> Result<Placement<C>> {
    let [key_person, brain, killer] = cards else {
        return param(
            parameter,
            format!(
                "{parameter}: give three cards (on the key person, the brain, the killer), not {}",
                cards.len()
            ),
        );
    };
    let card = |name: &str| {
        from_label(name).map_or_else(
            || {
                let known: Vec<&str> = all.iter().map(|&c| label(c)).collect();
                param(
                    parameter,
                    format!(
                        "{parameter}: {name:?} is no card (one of {})",
                        known.join(", ")
                    ),
                )
            },
            Ok,
        )
    };
    Ok(Placement {
        key_person: card(key_person)?,
        brain: card(brain)?,
        killer: card(killer)?,
    })
}

/// One turn from `state`: both sides' cards resolved by the rules, then
/// the brain's ability (`brain_target`, or the legal targets listed when
/// none is given).
///
/// # Errors
/// A won state, unknown or illegal cards, an illegal brain target.
pub fn turn(
    state: &StateInput,
    mastermind: &[String],
    protagonists: &[String],
    brain_target: Option<&str>,
) -> Result<Value> {
    let limited = state.limited()?;
    let before = state.args()?.state()?;
    if before.is_win() {
        return param("state", "the mastermind has already won: no turn is played");
    }
    let a = placement(
        "mastermind",
        mastermind,
        MastermindCard::from_label,
        &MastermindCard::ALL,
        MastermindCard::label,
    )?;
    let b = placement(
        "protagonists",
        protagonists,
        ProtagonistCard::from_label,
        &ProtagonistCard::ALL,
        ProtagonistCard::label,
    )?;
    if !mastermind_actions(limited).contains(&a) {
        return param(
            "mastermind",
            "mastermind: illegal with these cards left (each card at most as often as it is \
             in hand, limited cards not yet used)",
        );
    }
    if !protagonist_actions(limited).contains(&b) {
        return param(
            "protagonists",
            "protagonists: illegal with these cards left (each card at most as often as it is \
             in hand, limited cards not yet used)",
        );
    }
    let post = resolve(a, b).apply(before);
    let targets: Vec<&str> = BrainTarget::legal(post).map(BrainTarget::label).collect();
    let after = match brain_target {
        None => None,
        Some(name) => {
            let target = BrainTarget::from_label(name)
                .filter(|t| t.is_legal(post))
                .map_or_else(
                    || {
                        param(
                            "brain_target",
                            format!(
                                "brain_target: {name:?} is not legal here (legal: {})",
                                targets.join(", ")
                            ),
                        )
                    },
                    Ok,
                )?;
            Some(target.apply(post))
        }
    };
    Ok(json!({
        "mastermind": Cards::of(a, MastermindCard::label),
        "protagonists": Cards::of(b, ProtagonistCard::label),
        "after_cards": StateFields::of(post),
        "brain_targets": targets,
        "brain_target": brain_target,
        "after_brain": after.map(StateFields::of),
        "mastermind_won": after.unwrap_or(post).is_win(),
    }))
}
