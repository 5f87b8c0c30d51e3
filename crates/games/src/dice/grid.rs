//! The build grid of the Liar's Dice tables: which table sizes, hand sizes,
//! reliabilities and player counts get a row. It is a build option with a
//! documented default ([`DiceGrid::default`]). The lookup crate writes it
//! into every table's metadata (`gametab.param.*`) and reads it back, to
//! know what the tables cover.

use super::types::{Face, Hand, Reliability, MAX_TOTAL_DICE};
use crate::error::{Error, Result};

/// What the tables cover.
///
/// The bid-probability table holds every `N` from `m + n_b` to
/// `max_total_dice`, every `m` in `1..=max_my_dice`, every `n_b` in
/// `1..=max_bidder_dice`, both variants, both face classes, every
/// reliability, every bid count `1..=N` and every `k` in `0..=m`. The
/// posterior table holds every `N` from `n_b + 1`. The decisions table
/// holds the standard game: `min_players..=max_players` players with
/// `dice_per_player` dice each, every hand, every standing bid.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceGrid {
    /// Largest total of dice on the table (default 40).
    pub max_total_dice: u32,
    /// My dice run from 1 to this (default 5).
    pub max_my_dice: u32,
    /// The bidder's dice run from 1 to this (default 5).
    pub max_bidder_dice: u32,
    /// The bidder reliabilities, strictly ascending (default
    /// 0, 0.25, 0.5, 1, 2, 4).
    pub reliabilities: Vec<Reliability>,
    /// Fewest players in the decisions table (default 2).
    pub min_players: u32,
    /// Most players in the decisions table (default 6).
    pub max_players: u32,
    /// Dice per player in the decisions table (default 5).
    pub dice_per_player: u32,
}

impl Default for DiceGrid {
    /// The grid of issue 4: `N <= 40`, `m, n_b` in 1..=5,
    /// reliabilities {0, 0.25, 0.5, 1, 2, 4}; decisions for 2 to 6 players
    /// with 5 dice each.
    fn default() -> DiceGrid {
        DiceGrid {
            max_total_dice: 40,
            max_my_dice: 5,
            max_bidder_dice: 5,
            reliabilities: [0.0, 0.25, 0.5, 1.0, 2.0, 4.0]
                .into_iter()
                .map(|rel| Reliability::new(rel).expect("finite and non-negative"))
                .collect(),
            min_players: 2,
            max_players: 6,
            dice_per_player: 5,
        }
    }
}

fn out_of_range(what: crate::Argument, detail: String) -> Error {
    Error::OutOfRange { what, detail }
}

impl DiceGrid {
    /// Check the grid: sizes within the engine's range, reliabilities
    /// strictly ascending, at least two players, hands of at most 9 dice
    /// (the hand code is a decimal `int32`).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the first setting out of range.
    pub fn validate(&self) -> Result<()> {
        if self.max_total_dice < 2 || self.max_total_dice > MAX_TOTAL_DICE {
            return Err(out_of_range(
                crate::Argument::GridTotalDice,
                format!("{} (2 to {MAX_TOTAL_DICE})", self.max_total_dice),
            ));
        }
        if self.max_my_dice == 0 || self.max_bidder_dice == 0 {
            return Err(out_of_range(
                crate::Argument::GridHandSizes,
                "0 (at least 1)".to_string(),
            ));
        }
        if self.reliabilities.is_empty()
            || self
                .reliabilities
                .windows(2)
                .any(|w| w[0].value() >= w[1].value())
        {
            return Err(out_of_range(
                crate::Argument::GridReliabilities,
                format!(
                    "{} (non-empty, strictly ascending)",
                    self.reliabilities_text()
                ),
            ));
        }
        if !(1..=9).contains(&self.dice_per_player) {
            return Err(out_of_range(
                crate::Argument::GridDicePerPlayer,
                format!("{} (1 to 9)", self.dice_per_player),
            ));
        }
        let most_dice = u64::from(self.max_players) * u64::from(self.dice_per_player);
        if self.min_players < 2
            || self.min_players > self.max_players
            || most_dice > u64::from(MAX_TOTAL_DICE)
        {
            return Err(out_of_range(
                crate::Argument::GridPlayers,
                format!(
                    "{}..={} with {} dice each (at least 2 players, at most {MAX_TOTAL_DICE} dice)",
                    self.min_players, self.max_players, self.dice_per_player
                ),
            ));
        }
        Ok(())
    }

    /// The index of `rel` among the grid's reliabilities, if it is one.
    pub fn reliability_index(&self, rel: Reliability) -> Option<usize> {
        self.reliabilities.iter().position(|&r| r == rel)
    }

    /// The (N, m, n_b) blocks of the bid-probability table, in key order.
    pub fn bid_blocks(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        (2..=self.max_total_dice).flat_map(move |total| {
            (1..=self.max_my_dice).flat_map(move |mine| {
                (1..=self.max_bidder_dice)
                    .filter(move |bidder| mine + bidder <= total)
                    .map(move |bidder| (total, mine, bidder))
            })
        })
    }

    /// The (N, n_b) blocks of the posterior table, in key order.
    pub fn posterior_blocks(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (2..=self.max_total_dice).flat_map(move |total| {
            (1..=self.max_bidder_dice)
                .filter(move |&bidder| bidder < total)
                .map(move |bidder| (total, bidder))
        })
    }

    /// The player counts of the decisions table.
    pub fn players(&self) -> std::ops::RangeInclusive<u32> {
        self.min_players..=self.max_players
    }

    /// Every hand of `dice_per_player` dice (a sorted multiset of faces), in
    /// ascending order of [`Hand::code`].
    pub fn hands(&self) -> Vec<Hand> {
        let mut hands = vec![Vec::new()];
        for _ in 0..self.dice_per_player {
            hands = hands
                .into_iter()
                .flat_map(|dice: Vec<Face>| {
                    let lowest = dice.last().copied().unwrap_or(Face::ONE);
                    Face::all()
                        .filter(move |&face| face >= lowest)
                        .map(move |face| {
                            let mut longer = dice.clone();
                            longer.push(face);
                            longer
                        })
                })
                .collect();
        }
        // An empty multiset (a grid of 0 dice per player) is no hand.
        hands
            .into_iter()
            .filter_map(|dice| Hand::new(dice).ok())
            .collect()
    }

    /// The reliabilities as comma-separated numbers (`0,0.25,0.5,1,2,4`).
    pub fn reliabilities_text(&self) -> String {
        let texts: Vec<String> = self
            .reliabilities
            .iter()
            .map(|r| r.value().to_string())
            .collect();
        texts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_grid_is_valid() {
        let grid = DiceGrid::default();
        grid.validate().unwrap();
    }

    #[test]
    fn hands_are_every_sorted_multiset_in_code_order() {
        let hands = DiceGrid::default().hands();
        // C(6 + 5 - 1, 5) multisets of five dice.
        assert_eq!(hands.len(), 252);
        let codes: Vec<u32> = hands.iter().map(|h| h.code().unwrap()).collect();
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(codes.first(), Some(&11111));
        assert_eq!(codes.last(), Some(&66666));
    }

    #[test]
    fn bad_grids_are_refused() {
        let mut grid = DiceGrid::default();
        grid.reliabilities.swap(0, 1);
        assert!(grid.validate().is_err());
        let grid = DiceGrid {
            max_total_dice: 51,
            ..DiceGrid::default()
        };
        assert!(grid.validate().is_err());
        let grid = DiceGrid {
            max_players: 11,
            ..DiceGrid::default()
        };
        assert!(grid.validate().is_err());
    }
}
