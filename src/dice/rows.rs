//! The rows of the three Liar's Dice tables, computed by the lookup crate's
//! engine over a [`DiceGrid`]. Blocks of rows are computed in parallel and
//! concatenated in key order, so the output does not depend on the thread
//! count.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use rayon::prelude::*;

use gametab_lookup::dice::decision::{PUBLISHED_RAISE_BONUS, PUBLISHED_RAISE_REACH};
use gametab_lookup::dice::schema::{BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use gametab_lookup::dice::{
    bid_odds, bidder_posterior, Action, Bid, BidQuestion, DecisionKey, DecisionRow, DiceGrid,
    DiceInPlay, Face, FaceClass, PosteriorQuestion, Reliability, Variant, PUBLISHED_RULE,
};
use gametab_lookup::io::{Column, TableData};

/// Column-wise rows of one table: a typed vector per schema column.
#[derive(Debug, Default)]
struct Columns(Vec<Column>);

impl Columns {
    fn append(&mut self, more: Columns) {
        if self.0.is_empty() {
            *self = more;
            return;
        }
        for (column, extra) in self.0.iter_mut().zip(more.0) {
            match (column, extra) {
                (Column::Bool(a), Column::Bool(b)) => a.extend(b),
                (Column::Int32(a), Column::Int32(b)) => a.extend(b),
                (Column::Int64(a), Column::Int64(b)) => a.extend(b),
                (Column::Float64(a), Column::Float64(b)) => a.extend(b),
                (Column::Utf8(a), Column::Utf8(b)) => a.extend(b.iter()),
                _ => unreachable!("blocks of one table share its column types"),
            }
        }
    }
}

fn concat(blocks: Vec<Columns>) -> Vec<Column> {
    let mut all = Columns::default();
    for block in blocks {
        all.append(block);
    }
    all.0
}

fn int(value: u32) -> Result<i32> {
    i32::try_from(value).context("key does not fit an int32 column")
}

/// The variants, face classes and reliabilities of the grid, in key order.
fn rule_points(grid: &DiceGrid) -> Vec<(Variant, FaceClass, Reliability)> {
    let mut points = Vec::new();
    for variant in [Variant::Plain, Variant::WildOnes] {
        for class in FaceClass::ALL {
            for &rel in &grid.reliabilities {
                points.push((variant, class, rel));
            }
        }
    }
    points
}

fn bid_block(
    dice: DiceInPlay,
    variant: Variant,
    class: FaceClass,
    rel: Reliability,
) -> Result<Columns> {
    let (mut count, mut matching) = (Vec::new(), Vec::new());
    let (mut raw, mut corrected, mut ev_open, mut normal) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for q in 1..=dice.total() {
        for k in 0..=dice.mine() {
            let odds = bid_odds(&BidQuestion::new(dice, variant, class, q, k, rel)?);
            count.push(int(q)?);
            matching.push(int(k)?);
            raw.push(odds.raw_probability);
            corrected.push(odds.corrected_probability);
            ev_open.push(odds.ev_open);
            normal.push(odds.normal_approximation);
        }
    }
    let rows = count.len();
    Ok(Columns(vec![
        Column::Int32(vec![int(dice.total())?; rows]),
        Column::Int32(vec![int(dice.mine())?; rows]),
        Column::Int32(vec![int(dice.bidder())?; rows]),
        Column::Bool(vec![variant.wild_ones(); rows]),
        Column::Utf8(std::iter::repeat_n(class.name(), rows).collect()),
        Column::Float64(vec![rel.value(); rows]),
        Column::Int32(count),
        Column::Int32(matching),
        Column::Float64(raw),
        Column::Float64(corrected),
        Column::Float64(ev_open),
        Column::Float64(normal),
    ]))
}

/// The bid-probability table over `grid`.
///
/// # Errors
/// Only if the grid holds a point the engine refuses (an invalid grid).
pub fn bid_probabilities(grid: &DiceGrid) -> Result<TableData> {
    let points = rule_points(grid);
    let blocks: Vec<_> = grid
        .bid_blocks()
        .flat_map(|(total, mine, bidder)| {
            points
                .iter()
                .map(move |&point| (total, mine, bidder, point))
        })
        .collect();
    let columns = blocks
        .into_par_iter()
        .map(|(total, mine, bidder, (variant, class, rel))| {
            bid_block(DiceInPlay::new(total, mine, bidder)?, variant, class, rel)
        })
        .collect::<Result<Vec<_>>>()?;
    let mut params = grid.to_params();
    params.insert("normal_approximation".into(), "continuity-corrected".into());
    Ok(TableData {
        schema: BID_PROBABILITIES,
        columns: concat(columns),
        params,
    })
}

fn posterior_block(
    total: u32,
    bidder: u32,
    variant: Variant,
    class: FaceClass,
    rel: Reliability,
) -> Result<Columns> {
    let (mut count, mut matching, mut probability) = (Vec::new(), Vec::new(), Vec::new());
    for q in 1..=total {
        let posterior = bidder_posterior(&PosteriorQuestion::new(
            total, bidder, variant, class, q, rel,
        )?);
        for (y, p) in posterior.probabilities.into_iter().enumerate() {
            count.push(int(q)?);
            matching.push(i32::try_from(y)?);
            probability.push(p);
        }
    }
    let rows = count.len();
    Ok(Columns(vec![
        Column::Int32(vec![int(total)?; rows]),
        Column::Int32(vec![int(bidder)?; rows]),
        Column::Bool(vec![variant.wild_ones(); rows]),
        Column::Utf8(std::iter::repeat_n(class.name(), rows).collect()),
        Column::Float64(vec![rel.value(); rows]),
        Column::Int32(count),
        Column::Int32(matching),
        Column::Float64(probability),
    ]))
}

/// The bidder-posterior table over `grid`.
///
/// # Errors
/// As [`bid_probabilities`].
pub fn bidder_posteriors(grid: &DiceGrid) -> Result<TableData> {
    let points = rule_points(grid);
    let blocks: Vec<_> = grid
        .posterior_blocks()
        .flat_map(|(total, bidder)| points.iter().map(move |&point| (total, bidder, point)))
        .collect();
    let columns = blocks
        .into_par_iter()
        .map(|(total, bidder, (variant, class, rel))| {
            posterior_block(total, bidder, variant, class, rel)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(TableData {
        schema: BIDDER_POSTERIORS,
        columns: concat(columns),
        params: grid.to_params(),
    })
}

fn decision_block(key: &DecisionKey, total: u32) -> Result<Columns> {
    let mut cols: [Vec<i32>; 4] = Default::default(); // bid count, bid face, raise count, raise face
    let (mut action, mut value) = (Vec::new(), Vec::new());
    for q in 1..=total {
        for face in Face::all() {
            let standing = Bid::new(q, face)?;
            let row = DecisionRow::compute(&DecisionKey {
                standing,
                ..key.clone()
            })?;
            let (raise_count, raise_face) = match row.action {
                Action::Open => (0, 0),
                Action::Raise(bid) => (int(bid.count)?, i32::from(bid.face.pips())),
            };
            for (column, entry) in
                cols.iter_mut()
                    .zip([int(q)?, i32::from(face.pips()), raise_count, raise_face])
            {
                column.push(entry);
            }
            action.push(row.action.name().to_string());
            value.push(row.expected_value);
        }
    }
    let rows = action.len();
    let code = key.hand.code().context("hand code")?;
    let [bid_count, bid_face, raise_count, raise_face] = cols;
    Ok(Columns(vec![
        Column::Int32(vec![int(key.players)?; rows]),
        Column::Bool(vec![key.variant.wild_ones(); rows]),
        Column::Float64(vec![key.reliability.value(); rows]),
        Column::Int32(vec![int(code)?; rows]),
        Column::Int32(bid_count),
        Column::Int32(bid_face),
        Column::Utf8(action.into()),
        Column::Int32(raise_count),
        Column::Int32(raise_face),
        Column::Float64(value),
    ]))
}

/// The decisions table of the published rule over `grid`'s standard games.
///
/// # Errors
/// As [`bid_probabilities`].
pub fn decisions(grid: &DiceGrid) -> Result<TableData> {
    let hands = grid.hands();
    let mut keys = Vec::new();
    for players in grid.players() {
        for variant in [Variant::Plain, Variant::WildOnes] {
            for &reliability in &grid.reliabilities {
                for hand in &hands {
                    keys.push(DecisionKey {
                        players,
                        variant,
                        reliability,
                        hand: hand.clone(),
                        standing: Bid::new(1, Face::ONE)?,
                    });
                }
            }
        }
    }
    let columns = keys
        .par_iter()
        .map(|key| decision_block(key, key.players * grid.dice_per_player))
        .collect::<Result<Vec<_>>>()?;
    let mut params: BTreeMap<String, String> = grid.to_params();
    params.insert("decision_rule".into(), PUBLISHED_RULE.into());
    params.insert("raise_reach".into(), PUBLISHED_RAISE_REACH.to_string());
    params.insert("raise_bonus".into(), PUBLISHED_RAISE_BONUS.to_string());
    Ok(TableData {
        schema: DECISIONS,
        columns: concat(columns),
        params,
    })
}
