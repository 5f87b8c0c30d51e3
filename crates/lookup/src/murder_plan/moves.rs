//! The value of every legal move of a Murder Plan state, computed at query
//! time from the stored tables.
//!
//! A move is one side's full action. Its value is the mastermind's win
//! probability when that action meets the opponent's stored optimal mixed
//! strategy: for a mastermind action `a`, `sum_b tau*(b) Q(a, b)`; for a
//! protagonist action `b`, `sum_a sigma*(a) Q(a, b)`, where `Q(a, b)` is the
//! value of the turn's post-card state with the brain's best choice, which
//! is exactly the stored brain table of the same `days_left`. Its loss is
//! what the side gives up against the game value `V_d(S)`: `V - value` for
//! the mastermind (who maximises), `value - V` for the protagonists. No
//! action has a loss below `-gap` (the stored certificate gap, ~1e-16 to
//! 1e-12), and an action of the optimal support played with probability `p`
//! loses at most `2 gap / p`: 0 up to rounding.
//!
//! Why computed, not stored: a state has at most 216 mastermind and 125
//! protagonist actions and the opponent's support has a handful, so one
//! query is a few hundred array reads (microseconds); storing every move of
//! every (days, state) would add millions of rows to the tables for nothing
//! a query needs.

use serde::Serialize;

use super::tables::MurderPlanTables;
use crate::error::Result;
use gametab_games::murder_plan::model::{
    mastermind_actions, protagonist_actions, resolve, MastermindAction, Placement,
    ProtagonistAction, State,
};
use gametab_games::murder_plan::DaysLeft;

/// One legal action with its value against the opponent's optimal strategy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveValue<Action> {
    /// The full action.
    pub action: Action,
    /// The mastermind's win probability when this action meets the
    /// opponent's stored optimal strategy.
    pub value: f64,
    /// What the mover loses by it against the game value (>= -gap; at most
    /// `2 gap / p` for an action of the optimal support played with
    /// probability `p`).
    pub loss: f64,
    /// The action's probability in the mover's own stored optimal strategy
    /// (0 outside the support).
    pub probability: f64,
}

/// The JSON shape of a move: its three cards by label, value, loss and
/// probability.
#[derive(Debug, Clone, Serialize)]
pub struct MoveJson {
    /// Card put on the key person.
    pub card_on_key_person: &'static str,
    /// Card put on the brain.
    pub card_on_brain: &'static str,
    /// Card put on the killer.
    pub card_on_killer: &'static str,
    /// See [`MoveValue::value`].
    pub value: f64,
    /// See [`MoveValue::loss`].
    pub loss: f64,
    /// See [`MoveValue::probability`].
    pub probability: f64,
}

impl<Card: Copy> MoveValue<Placement<Card>> {
    /// The move as JSON, cards named by `label`.
    pub fn to_json(&self, label: impl Fn(Card) -> &'static str) -> MoveJson {
        MoveJson {
            card_on_key_person: label(self.action.key_person),
            card_on_brain: label(self.action.brain),
            card_on_killer: label(self.action.killer),
            value: self.value,
            loss: self.loss,
            probability: self.probability,
        }
    }
}

/// Losses that round to the same multiple of this are ties: the values are
/// sums of products of floats, so equal moves differ in the last bits.
pub const TIE: f64 = 1e-12;

/// Sort best first (smallest loss, to [`TIE`]); ties keep the canonical
/// action order, so the order does not depend on rounding noise.
fn best_first<A>(mut moves: Vec<MoveValue<A>>) -> Vec<MoveValue<A>> {
    moves.sort_by_key(|m| (m.loss / TIE).round() as i64);
    moves
}

impl MurderPlanTables {
    /// `Q(a, b)`: the value of the turn `(a, b)` played from `state` with
    /// `days_left` turns left, the brain choosing best (the brain table).
    fn turn_value(
        &self,
        days_left: DaysLeft,
        state: State,
        mastermind: MastermindAction,
        protagonists: ProtagonistAction,
    ) -> Result<f64> {
        let post = resolve(mastermind, protagonists).apply(state);
        Ok(self.brain_choice(days_left, post)?.1)
    }

    /// Every legal mastermind action of `state` with its value against the
    /// protagonists' stored optimal strategy, best first (highest value).
    ///
    /// # Errors
    /// As [`MurderPlanTables::mastermind_strategy`]: days_left outside
    /// 1..=8, or a state the mastermind has already won.
    pub fn mastermind_moves(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
    ) -> Result<Vec<MoveValue<MastermindAction>>> {
        let days_left = days_left.into();
        let state = state.clamped();
        let tau = self.protagonists_strategy(days_left, state)?;
        let sigma = self.mastermind_strategy(days_left, state)?;
        let game_value = self.value(days_left, state)?;
        let moves = mastermind_actions(state.limited)
            .into_iter()
            .map(|a| {
                let mut value = 0.0;
                for &(b, p) in tau {
                    value += p * self.turn_value(days_left, state, a, b)?;
                }
                let probability = sigma.iter().find(|(s, _)| *s == a).map_or(0.0, |s| s.1);
                Ok(MoveValue {
                    action: a,
                    value,
                    loss: game_value - value,
                    probability,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(best_first(moves))
    }

    /// Every legal protagonist action of `state` with its value against the
    /// mastermind's stored optimal strategy, best first (lowest value).
    ///
    /// # Errors
    /// As [`MurderPlanTables::mastermind_moves`].
    pub fn protagonist_moves(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
    ) -> Result<Vec<MoveValue<ProtagonistAction>>> {
        let days_left = days_left.into();
        let state = state.clamped();
        let sigma = self.mastermind_strategy(days_left, state)?;
        let tau = self.protagonists_strategy(days_left, state)?;
        let game_value = self.value(days_left, state)?;
        let moves = protagonist_actions(state.limited)
            .into_iter()
            .map(|b| {
                let mut value = 0.0;
                for &(a, p) in sigma {
                    value += p * self.turn_value(days_left, state, a, b)?;
                }
                let probability = tau.iter().find(|(s, _)| *s == b).map_or(0.0, |s| s.1);
                Ok(MoveValue {
                    action: b,
                    value,
                    loss: value - game_value,
                    probability,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(best_first(moves))
    }
}
