//! The rows of the three Liar's Dice tables, computed by the lookup crate's
//! engine over a [`DiceGrid`]. The engine's batch types ([`BidTails`],
//! [`BidderPosteriors`], [`PublishedRuleBlock`]) do the work the rows of a
//! block share once per block, and give the single-query answers bit for
//! bit. Blocks of rows are computed in parallel and concatenated in key
//! order, so the output does not depend on the thread count.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use rayon::prelude::*;

use gametab_lookup::dice::decision::{PUBLISHED_RAISE_BONUS, PUBLISHED_RAISE_REACH};
use gametab_lookup::dice::schema::{BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use gametab_lookup::dice::{
    Action, Bid, BidTails, BidderPosteriors, DiceGrid, DiceInPlay, Face, FaceClass, Hand,
    PublishedRuleBlock, Reliability, Variant, PUBLISHED_RULE,
};
use gametab_lookup::io::{Column, Strings, TableData};

/// Column-wise rows of one table: a typed vector per schema column.
#[derive(Debug)]
struct Columns(Vec<Column>);

impl Columns {
    fn append(&mut self, more: Columns) {
        for (column, extra) in self.0.iter_mut().zip(more.0) {
            match (column, extra) {
                (Column::Bool(a), Column::Bool(b)) => a.extend(b),
                (Column::Int32(a), Column::Int32(b)) => a.extend(b),
                (Column::Int64(a), Column::Int64(b)) => a.extend(b),
                (Column::Float64(a), Column::Float64(b)) => a.extend(b),
                (Column::Utf8(a), Column::Utf8(b)) => a.append(&b),
                _ => unreachable!("blocks of one table share its column types"),
            }
        }
    }
}

/// The blocks' columns one after another, each column allocated once.
fn concat(blocks: impl IntoIterator<Item = Columns>) -> Vec<Column> {
    let blocks: Vec<Columns> = blocks.into_iter().collect();
    let rows: usize = blocks
        .iter()
        .map(|block| block.0.first().map_or(0, Column::len))
        .sum();
    let mut blocks = blocks.into_iter();
    let Some(mut all) = blocks.next() else {
        return Vec::new();
    };
    for column in &mut all.0 {
        let more = rows - column.len();
        match column {
            Column::Bool(v) => v.reserve(more),
            Column::Int32(v) => v.reserve(more),
            Column::Int64(v) => v.reserve(more),
            Column::Float64(v) => v.reserve(more),
            Column::Utf8(v) => v.reserve(more),
        }
    }
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

/// One block of the bid-probability table, `(N, m, n_b)` under one rule
/// point, filled from shared tails and posteriors.
fn bid_block(
    dice: DiceInPlay,
    (variant, class, rel): (Variant, FaceClass, Reliability),
    tails: &BidTails,
    posteriors: &BidderPosteriors,
) -> Result<Columns> {
    let rows = (dice.total() * (dice.mine() + 1)) as usize;
    let (mut count, mut matching) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
    let (mut raw, mut corrected, mut ev_open, mut normal) = (
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
    );
    for q in 1..=dice.total() {
        for k in 0..=dice.mine() {
            let row = tails.row(posteriors, q, k)?;
            count.push(int(q)?);
            matching.push(int(k)?);
            raw.push(row.raw_probability);
            corrected.push(row.corrected_probability);
            ev_open.push(row.ev_open);
            normal.push(row.normal_approximation);
        }
    }
    Ok(Columns(vec![
        Column::Int32(vec![int(dice.total())?; rows]),
        Column::Int32(vec![int(dice.mine())?; rows]),
        Column::Int32(vec![int(dice.bidder())?; rows]),
        Column::Bool(vec![variant.wild_ones(); rows]),
        Column::Utf8(Strings::repeat(class.name(), rows)),
        Column::Float64(vec![rel.value(); rows]),
        Column::Int32(count),
        Column::Int32(matching),
        Column::Float64(raw),
        Column::Float64(corrected),
        Column::Float64(ev_open),
        Column::Float64(normal),
    ]))
}

/// Every block of the bid-probability table with `total` dice on the table,
/// in key order. The bidder's posteriors do not depend on my dice and the
/// tails not on the reliability, so each is computed once here.
fn bid_blocks_of_total(grid: &DiceGrid, total: u32) -> Result<Vec<Columns>> {
    let points = rule_points(grid);
    let bidders: Vec<u32> = (1..=grid.max_bidder_dice)
        .filter(|&bidder| bidder < total)
        .collect();
    let posteriors = bidders
        .iter()
        .map(|&bidder| {
            points
                .iter()
                .map(|&(variant, class, rel)| {
                    BidderPosteriors::new(total, bidder, variant, class, rel)
                })
                .collect::<gametab_lookup::Result<Vec<_>>>()
        })
        .collect::<gametab_lookup::Result<Vec<_>>>()?;
    let mut blocks = Vec::new();
    for mine in 1..=grid.max_my_dice {
        for (&bidder, posteriors) in bidders.iter().zip(&posteriors) {
            if mine + bidder > total {
                continue;
            }
            let dice = DiceInPlay::new(total, mine, bidder)?;
            // Bids on ones, and on other faces without wilds, match on one face.
            let one_face = BidTails::new(dice, Variant::Plain.matching_faces(FaceClass::Other));
            let two_faces = BidTails::new(dice, Variant::WildOnes.matching_faces(FaceClass::Other));
            for (&point, posteriors) in points.iter().zip(posteriors) {
                let (variant, class, _) = point;
                let tails = if variant.matching_faces(class).count() == 1 {
                    &one_face
                } else {
                    &two_faces
                };
                blocks.push(bid_block(dice, point, tails, posteriors)?);
            }
        }
    }
    Ok(blocks)
}

/// The bid-probability table over `grid`.
///
/// # Errors
/// Only if the grid holds a point the engine refuses (an invalid grid).
pub fn bid_probabilities(grid: &DiceGrid) -> Result<TableData> {
    let totals: Vec<u32> = (2..=grid.max_total_dice).collect();
    let per_total = totals
        .into_par_iter()
        .map(|total| bid_blocks_of_total(grid, total))
        .collect::<Result<Vec<_>>>()?;
    let mut params = grid.to_params();
    params.insert("normal_approximation".into(), "continuity-corrected".into());
    Ok(TableData {
        schema: BID_PROBABILITIES,
        columns: concat(per_total.into_iter().flatten()),
        params,
    })
}

fn posterior_block(
    total: u32,
    bidder: u32,
    (variant, class, rel): (Variant, FaceClass, Reliability),
) -> Result<Columns> {
    let posteriors = BidderPosteriors::new(total, bidder, variant, class, rel)?;
    let rows = (total * (bidder + 1)) as usize;
    let (mut count, mut matching, mut probability) = (
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
    );
    for (q, posterior) in posteriors.iter() {
        for (y, &p) in posterior.probabilities.iter().enumerate() {
            count.push(int(q)?);
            matching.push(i32::try_from(y)?);
            probability.push(p);
        }
    }
    Ok(Columns(vec![
        Column::Int32(vec![int(total)?; rows]),
        Column::Int32(vec![int(bidder)?; rows]),
        Column::Bool(vec![variant.wild_ones(); rows]),
        Column::Utf8(Strings::repeat(class.name(), rows)),
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
        .map(|(total, bidder, point)| posterior_block(total, bidder, point))
        .collect::<Result<Vec<_>>>()?;
    Ok(TableData {
        schema: BIDDER_POSTERIORS,
        columns: concat(columns),
        params: grid.to_params(),
    })
}

/// The key columns the decisions table shares across hands: the standard
/// game of `players` players, its variant and the bidder's reliability.
#[derive(Debug, Clone, Copy)]
struct Game {
    players: u32,
    variant: Variant,
    reliability: Reliability,
}

/// The rows of every hand in `game` facing every standing bid, in key
/// order, from one [`PublishedRuleBlock`] shared by the hands.
fn decision_blocks(game: Game, hands: &[Hand], dice_per_player: u32) -> Result<Vec<Columns>> {
    let total = game.players * dice_per_player;
    let rule = PublishedRuleBlock::new(
        DiceInPlay::new(total, dice_per_player, dice_per_player)?,
        game.variant,
        game.reliability,
    )?;
    hands
        .iter()
        .map(|hand| decision_block(game, hand, &rule, total))
        .collect()
}

fn decision_block(
    game: Game,
    hand: &Hand,
    rule: &PublishedRuleBlock,
    total: u32,
) -> Result<Columns> {
    let rows = total as usize * Face::all().count();
    // Bid count, bid face, raise count, raise face.
    let mut cols: [Vec<i32>; 4] = std::array::from_fn(|_| Vec::with_capacity(rows));
    let (mut action, mut value) = (Strings::new(), Vec::with_capacity(rows));
    for q in 1..=total {
        for face in Face::all() {
            let row = rule.advise(hand, Bid::new(q, face)?)?;
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
            action.push(row.action.name());
            value.push(row.expected_value);
        }
    }
    let code = hand.code().context("hand code")?;
    let [bid_count, bid_face, raise_count, raise_face] = cols;
    Ok(Columns(vec![
        Column::Int32(vec![int(game.players)?; rows]),
        Column::Bool(vec![game.variant.wild_ones(); rows]),
        Column::Float64(vec![game.reliability.value(); rows]),
        Column::Int32(vec![int(code)?; rows]),
        Column::Int32(bid_count),
        Column::Int32(bid_face),
        Column::Utf8(action),
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
    let mut games = Vec::new();
    for players in grid.players() {
        for variant in [Variant::Plain, Variant::WildOnes] {
            for &reliability in &grid.reliabilities {
                games.push(Game {
                    players,
                    variant,
                    reliability,
                });
            }
        }
    }
    let columns = games
        .into_par_iter()
        .map(|game| decision_blocks(game, &hands, grid.dice_per_player))
        .collect::<Result<Vec<_>>>()?;
    let mut params: BTreeMap<String, String> = grid.to_params();
    params.insert("decision_rule".into(), PUBLISHED_RULE.into());
    params.insert("raise_reach".into(), PUBLISHED_RAISE_REACH.to_string());
    params.insert("raise_bonus".into(), PUBLISHED_RAISE_BONUS.to_string());
    Ok(TableData {
        schema: DECISIONS,
        columns: concat(columns.into_iter().flatten()),
        params,
    })
}
