//! The strategy table's columns ([`ENDGAME_STRATEGY`]), allocated at their
//! full length before any row is filled, and the disjoint stretches of
//! them ([`StrategySlices`]) that the (game, player) parts fill in
//! parallel (`super::rows::tables`).

use crate::error::{Error, Result};
use gametab_lookup::dice::schema::ENDGAME_STRATEGY;
use gametab_lookup::io::{Column, Strings, TableData};
use std::collections::BTreeMap;

/// The strategy table's columns, allocated at their full length.
pub(super) struct StrategyColumns {
    dice_one: Vec<i32>,
    dice_two: Vec<i32>,
    sides: Vec<i32>,
    /// Dictionary codes of the rules names.
    rules: Vec<u32>,
    player: Vec<i32>,
    history: Vec<i32>,
    hand: Vec<i32>,
    action: Vec<i32>,
    probability: Vec<f64>,
    reach: Vec<f64>,
    on_path: Vec<bool>,
}

/// A stretch of rows of every [`StrategyColumns`] column.
pub(super) struct StrategySlices<'a> {
    pub(super) dice_one: &'a mut [i32],
    pub(super) dice_two: &'a mut [i32],
    pub(super) sides: &'a mut [i32],
    /// Dictionary codes of the rules names.
    pub(super) rules: &'a mut [u32],
    pub(super) player: &'a mut [i32],
    pub(super) history: &'a mut [i32],
    pub(super) hand: &'a mut [i32],
    pub(super) action: &'a mut [i32],
    pub(super) probability: &'a mut [f64],
    pub(super) reach: &'a mut [f64],
    pub(super) on_path: &'a mut [bool],
}

impl StrategyColumns {
    /// `rows` rows of zeros.
    pub(super) fn zeroed(rows: usize) -> StrategyColumns {
        StrategyColumns {
            dice_one: vec![0; rows],
            dice_two: vec![0; rows],
            sides: vec![0; rows],
            rules: vec![0; rows],
            player: vec![0; rows],
            history: vec![0; rows],
            hand: vec![0; rows],
            action: vec![0; rows],
            probability: vec![0.0; rows],
            reach: vec![0.0; rows],
            on_path: vec![false; rows],
        }
    }

    /// Every row.
    pub(super) fn slices(&mut self) -> StrategySlices<'_> {
        StrategySlices {
            dice_one: &mut self.dice_one,
            dice_two: &mut self.dice_two,
            sides: &mut self.sides,
            rules: &mut self.rules,
            player: &mut self.player,
            history: &mut self.history,
            hand: &mut self.hand,
            action: &mut self.action,
            probability: &mut self.probability,
            reach: &mut self.reach,
            on_path: &mut self.on_path,
        }
    }

    /// The table, the rules coded into `names`.
    pub(super) fn into_table(self, names: &[&str]) -> Result<TableData> {
        let rules = Strings::from_codes(names, self.rules)
            .ok_or_else(|| Error::check(format!("a rules code outside {names:?}")))?;
        let named: Vec<(&str, Column)> = vec![
            ("dice_one", Column::Int32(self.dice_one)),
            ("dice_two", Column::Int32(self.dice_two)),
            ("sides", Column::Int32(self.sides)),
            ("rules", Column::Utf8(rules)),
            ("player", Column::Int32(self.player)),
            ("history", Column::Int32(self.history)),
            ("hand", Column::Int32(self.hand)),
            ("action", Column::Int32(self.action)),
            ("probability", Column::Float64(self.probability)),
            ("reach", Column::Float64(self.reach)),
            ("on_path", Column::Bool(self.on_path)),
        ];
        Ok(TableData::from_named(
            ENDGAME_STRATEGY,
            named,
            BTreeMap::new(),
        )?)
    }
}

impl<'a> StrategySlices<'a> {
    /// The first `rows` rows and the rest.
    pub(super) fn split_at(self, rows: usize) -> (StrategySlices<'a>, StrategySlices<'a>) {
        let (dice_one, dice_one_rest) = self.dice_one.split_at_mut(rows);
        let (dice_two, dice_two_rest) = self.dice_two.split_at_mut(rows);
        let (sides, sides_rest) = self.sides.split_at_mut(rows);
        let (rules, rules_rest) = self.rules.split_at_mut(rows);
        let (player, player_rest) = self.player.split_at_mut(rows);
        let (history, history_rest) = self.history.split_at_mut(rows);
        let (hand, hand_rest) = self.hand.split_at_mut(rows);
        let (action, action_rest) = self.action.split_at_mut(rows);
        let (probability, probability_rest) = self.probability.split_at_mut(rows);
        let (reach, reach_rest) = self.reach.split_at_mut(rows);
        let (on_path, on_path_rest) = self.on_path.split_at_mut(rows);
        (
            StrategySlices {
                dice_one,
                dice_two,
                sides,
                rules,
                player,
                history,
                hand,
                action,
                probability,
                reach,
                on_path,
            },
            StrategySlices {
                dice_one: dice_one_rest,
                dice_two: dice_two_rest,
                sides: sides_rest,
                rules: rules_rest,
                player: player_rest,
                history: history_rest,
                hand: hand_rest,
                action: action_rest,
                probability: probability_rest,
                reach: reach_rest,
                on_path: on_path_rest,
            },
        )
    }
}
