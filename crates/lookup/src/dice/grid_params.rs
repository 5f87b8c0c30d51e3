//! The Liar's Dice build grid as table metadata: [`grid_params`] writes a
//! [`DiceGrid`] as `gametab.param.*` entries, [`grid_from_params`] reads it
//! back and checks it, so a loader knows what the tables cover.

use std::collections::BTreeMap;

use gametab_games::dice::{DiceGrid, Reliability};

use crate::error::{Error, Result};

/// The grid as table parameters (`gametab.param.*` without the prefix).
pub fn grid_params(grid: &DiceGrid) -> BTreeMap<String, String> {
    [
        ("max_total_dice", grid.max_total_dice.to_string()),
        ("my_dice", format!("1..={}", grid.max_my_dice)),
        ("bidder_dice", format!("1..={}", grid.max_bidder_dice)),
        ("reliabilities", grid.reliabilities_text()),
        (
            "players",
            format!("{}..={}", grid.min_players, grid.max_players),
        ),
        ("dice_per_player", grid.dice_per_player.to_string()),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_string(), value))
    .collect()
}

/// The grid recorded in a table's parameters.
///
/// # Errors
/// [`Error::ForeignTable`] naming `table` when a parameter is missing or
/// unreadable, or the grid it describes is invalid.
pub fn grid_from_params(table: &str, params: &BTreeMap<String, String>) -> Result<DiceGrid> {
    let bad = |detail: String| Error::ForeignTable {
        table: table.to_string(),
        detail,
    };
    let get = |key: &str| {
        params
            .get(key)
            .ok_or_else(|| bad(format!("no grid parameter {key}")))
    };
    let number = |key: &str, text: &str| {
        text.trim()
            .parse::<u32>()
            .map_err(|_| bad(format!("grid parameter {key} = {text:?} is not a count")))
    };
    let range = |key: &str| -> Result<(u32, u32)> {
        let text = get(key)?;
        let (low, high) = text
            .split_once("..=")
            .ok_or_else(|| bad(format!("grid parameter {key} = {text:?} is not LOW..=HIGH")))?;
        Ok((number(key, low)?, number(key, high)?))
    };
    let (my_low, max_my_dice) = range("my_dice")?;
    let (bidder_low, max_bidder_dice) = range("bidder_dice")?;
    if my_low != 1 || bidder_low != 1 {
        return Err(bad("hand sizes must start at 1".to_string()));
    }
    let (min_players, max_players) = range("players")?;
    let reliabilities = get("reliabilities")?
        .split(',')
        .map(|text| {
            let rel: f64 = text
                .trim()
                .parse()
                .map_err(|_| bad(format!("reliability {text:?} is not a number")))?;
            Reliability::new(rel).map_err(|e| bad(e.to_string()))
        })
        .collect::<Result<Vec<_>>>()?;
    let grid = DiceGrid {
        max_total_dice: number("max_total_dice", get("max_total_dice")?)?,
        max_my_dice,
        max_bidder_dice,
        reliabilities,
        min_players,
        max_players,
        dice_per_player: number("dice_per_player", get("dice_per_player")?)?,
    };
    grid.validate().map_err(|e| bad(e.to_string()))?;
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_grid_round_trips_through_params() {
        let grid = DiceGrid::default();
        assert_eq!(grid_from_params("t", &grid_params(&grid)).unwrap(), grid);
        assert_eq!(grid_params(&grid)["reliabilities"], "0,0.25,0.5,1,2,4");
    }

    #[test]
    fn a_missing_or_bad_parameter_names_the_table() {
        let mut params = grid_params(&DiceGrid::default());
        params.remove("players");
        assert!(matches!(
            grid_from_params("t", &params),
            Err(Error::ForeignTable { .. })
        ));
        let mut params = grid_params(&DiceGrid::default());
        params.insert("max_total_dice".into(), "400".into());
        assert!(matches!(
            grid_from_params("t", &params),
            Err(Error::ForeignTable { .. })
        ));
    }
}
