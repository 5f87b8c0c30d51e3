//! The rows of the three Liar's Dice tables, computed by the lookup crate's
//! engine over a [`DiceGrid`]. The engine's batch types ([`BidTails`],
//! [`BidderPosteriors`], [`PublishedRuleBlock`]) do the work the rows of a
//! block share once per block, and give the single-query answers bit for
//! bit.
//!
//! Each table's columns are allocated once at their final length and cut
//! into disjoint row ranges, one per parallel task (a table size, a
//! posterior block, a game), which the task fills in key order. The output
//! therefore does not depend on the thread count, and no row is copied
//! after it is computed.

use crate::error::{check, Context, Result};
use std::collections::BTreeMap;

use rayon::prelude::*;

use gametab_games::dice::decision::{PUBLISHED_RAISE_BONUS, PUBLISHED_RAISE_REACH};
use gametab_games::dice::{
    Action, Bid, BidTails, BidderPosteriors, DiceGrid, DiceInPlay, Face, FaceClass, Hand,
    PublishedRuleBlock, Reliability, Variant, PUBLISHED_RULE,
};
use gametab_lookup::dice::grid_params;
use gametab_lookup::dice::schema::{BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use gametab_lookup::io::{Column, Strings, TableData};

/// The face-class column's values, by [`class_code`].
fn class_names() -> [&'static str; 2] {
    [FaceClass::Ones.name(), FaceClass::Other.name()]
}

fn class_code(class: FaceClass) -> u32 {
    match class {
        FaceClass::Ones => 0,
        FaceClass::Other => 1,
    }
}

/// The action column's values, by [`action_code`].
fn action_names() -> [&'static str; 2] {
    let raise = Bid {
        count: 1,
        face: Face::ONE,
    };
    [Action::Open.name(), Action::Raise(raise).name()]
}

fn action_code(action: Action) -> u32 {
    match action {
        Action::Open => 0,
        Action::Raise(_) => 1,
    }
}

/// Defines a table's columns twice: `$owned`, one vector per column at the
/// table's full length, and `$rows`, mutable slices of the same columns over
/// a range of rows, which a parallel task fills. Each field names its
/// schema column and the conversion of its vector into a [`Column`]; the
/// writer places the columns by those names.
macro_rules! table_columns {
    ($owned:ident, $rows:ident {
        $($field:ident as $name:literal: $ty:ty => $column:expr),* $(,)?
    }) => {
        /// The columns of the table, in schema order.
        struct $owned {
            $($field: Vec<$ty>,)*
        }

        /// The columns of a range of the table's rows.
        struct $rows<'a> {
            $($field: &'a mut [$ty],)*
        }

        impl $owned {
            /// Every column at `rows` rows, zeroed (filled by the tasks).
            fn zeroed(rows: usize) -> $owned {
                $owned {
                    $($field: vec![<$ty>::default(); rows],)*
                }
            }

            /// Consecutive row ranges of the given `sizes`, from the first
            /// row on.
            fn split(&mut self, sizes: &[usize]) -> Vec<$rows<'_>> {
                let mut rest = $rows {
                    $($field: &mut self.$field[..],)*
                };
                let mut pieces = Vec::with_capacity(sizes.len());
                for &size in sizes {
                    $(let ($field, tail) = std::mem::take(&mut rest.$field).split_at_mut(size);
                    rest.$field = tail;)*
                    pieces.push($rows { $($field,)* });
                }
                pieces
            }

            /// The table's columns, by schema name.
            fn into_columns(self) -> Result<Vec<(&'static str, Column)>> {
                Ok(vec![$(($name, ($column)(self.$field)?),)*])
            }
        }
    };
}

fn int32s(values: Vec<i32>) -> Result<Column> {
    Ok(Column::Int32(values))
}

fn float64s(values: Vec<f64>) -> Result<Column> {
    Ok(Column::Float64(values))
}

fn bools(values: Vec<bool>) -> Result<Column> {
    Ok(Column::Bool(values))
}

fn face_classes(codes: Vec<u32>) -> Result<Column> {
    Strings::from_codes(&class_names(), codes)
        .map(Column::Utf8)
        .context("face class code out of range")
}

fn actions(codes: Vec<u32>) -> Result<Column> {
    Strings::from_codes(&action_names(), codes)
        .map(Column::Utf8)
        .context("action code out of range")
}

table_columns!(BidColumns, BidRows {
    total as "total_dice": i32 => int32s,
    mine as "my_dice": i32 => int32s,
    bidder as "bidder_dice": i32 => int32s,
    wild as "wild_ones": bool => bools,
    class as "face_class": u32 => face_classes,
    rel as "reliability": f64 => float64s,
    count as "bid_count": i32 => int32s,
    matching as "my_matching": i32 => int32s,
    raw as "raw_probability": f64 => float64s,
    corrected as "corrected_probability": f64 => float64s,
    ev_open as "ev_open": f64 => float64s,
    normal as "normal_approximation": f64 => float64s,
});

table_columns!(PosteriorColumns, PosteriorRows {
    total as "total_dice": i32 => int32s,
    bidder as "bidder_dice": i32 => int32s,
    wild as "wild_ones": bool => bools,
    class as "face_class": u32 => face_classes,
    rel as "reliability": f64 => float64s,
    count as "bid_count": i32 => int32s,
    matching as "bidder_matching": i32 => int32s,
    probability as "posterior_probability": f64 => float64s,
});

table_columns!(DecisionColumns, DecisionRows {
    players as "players": i32 => int32s,
    wild as "wild_ones": bool => bools,
    rel as "reliability": f64 => float64s,
    hand as "hand": i32 => int32s,
    count as "bid_count": i32 => int32s,
    face as "bid_face": i32 => int32s,
    action as "action": u32 => actions,
    raise_count as "raise_count": i32 => int32s,
    raise_face as "raise_face": i32 => int32s,
    value as "expected_value": f64 => float64s,
});

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

/// The `(m, n_b)` pairs of the bid-probability table with `total` dice on
/// the table, in key order.
fn hand_sizes(grid: &DiceGrid, total: u32) -> Vec<(u32, u32)> {
    (1..=grid.max_my_dice)
        .flat_map(|mine| {
            (1..=grid.max_bidder_dice)
                .filter(move |bidder| mine + bidder <= total)
                .map(move |bidder| (mine, bidder))
        })
        .collect()
}

/// Rows of the bid-probability table with `total` dice on the table.
fn bid_rows_of_total(grid: &DiceGrid, total: u32, points: usize) -> usize {
    hand_sizes(grid, total)
        .iter()
        .map(|&(mine, _)| points * (total * (mine + 1)) as usize)
        .sum()
}

/// Fill every row of the bid-probability table with `total` dice on the
/// table, in key order. The bidder's posteriors do not depend on my dice
/// and the tails not on the reliability, so each is computed once here.
fn fill_bid_rows(grid: &DiceGrid, total: u32, out: BidRows<'_>) -> Result<()> {
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
                .collect::<gametab_games::Result<Vec<_>>>()
        })
        .collect::<gametab_games::Result<Vec<_>>>()?;
    let mut at = 0;
    for (mine, bidder) in hand_sizes(grid, total) {
        let dice = DiceInPlay::new(total, mine, bidder)?;
        // Bids on ones, and on other faces without wilds, match on one face.
        let one_face = BidTails::new(dice, Variant::Plain.matching_faces(FaceClass::Other));
        let two_faces = BidTails::new(dice, Variant::WildOnes.matching_faces(FaceClass::Other));
        let posteriors = &posteriors[(bidder - 1) as usize];
        for (&(variant, class, rel), posteriors) in points.iter().zip(posteriors) {
            let tails = if variant.matching_faces(class).count() == 1 {
                &one_face
            } else {
                &two_faces
            };
            let rows = at..at + (total * (mine + 1)) as usize;
            out.total[rows.clone()].fill(int(total)?);
            out.mine[rows.clone()].fill(int(mine)?);
            out.bidder[rows.clone()].fill(int(bidder)?);
            out.wild[rows.clone()].fill(variant.wild_ones());
            out.class[rows.clone()].fill(class_code(class));
            out.rel[rows.clone()].fill(rel.value());
            for q in 1..=total {
                for k in 0..=mine {
                    let row = tails.row(posteriors, q, k)?;
                    out.count[at] = int(q)?;
                    out.matching[at] = int(k)?;
                    out.raw[at] = row.raw_probability;
                    out.corrected[at] = row.corrected_probability;
                    out.ev_open[at] = row.ev_open;
                    out.normal[at] = row.normal_approximation;
                    at += 1;
                }
            }
        }
    }
    check!(
        Check,
        at == out.total.len(),
        "bid rows of {total} dice miscounted"
    );
    Ok(())
}

/// The bid-probability table over `grid`.
///
/// # Errors
/// Only if the grid holds a point the engine refuses (an invalid grid).
pub fn bid_probabilities(grid: &DiceGrid) -> Result<TableData> {
    let totals: Vec<u32> = (2..=grid.max_total_dice).collect();
    let points = rule_points(grid).len();
    let sizes: Vec<usize> = totals
        .iter()
        .map(|&total| bid_rows_of_total(grid, total, points))
        .collect();
    let mut columns = BidColumns::zeroed(sizes.iter().sum());
    columns
        .split(&sizes)
        .into_par_iter()
        .zip(totals)
        .try_for_each(|(out, total)| fill_bid_rows(grid, total, out))?;
    let mut params = grid_params(grid);
    params.insert("normal_approximation".into(), "continuity-corrected".into());
    Ok(TableData::from_named(
        BID_PROBABILITIES,
        columns.into_columns()?,
        params,
    )?)
}

/// Fill the rows of the posterior block of `bidder` dice of `total` under
/// one rule point.
fn fill_posterior_rows(
    total: u32,
    bidder: u32,
    (variant, class, rel): (Variant, FaceClass, Reliability),
    out: PosteriorRows<'_>,
) -> Result<()> {
    let posteriors = BidderPosteriors::new(total, bidder, variant, class, rel)?;
    out.total.fill(int(total)?);
    out.bidder.fill(int(bidder)?);
    out.wild.fill(variant.wild_ones());
    out.class.fill(class_code(class));
    out.rel.fill(rel.value());
    let mut at = 0;
    for (q, posterior) in posteriors.iter() {
        for (y, &p) in posterior.probabilities.iter().enumerate() {
            out.count[at] = int(q)?;
            out.matching[at] = i32::try_from(y)?;
            out.probability[at] = p;
            at += 1;
        }
    }
    check!(
        Check,
        at == out.total.len(),
        "posterior rows of {bidder} of {total} dice miscounted"
    );
    Ok(())
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
    let sizes: Vec<usize> = blocks
        .iter()
        .map(|&(total, bidder, _)| (total * (bidder + 1)) as usize)
        .collect();
    let mut columns = PosteriorColumns::zeroed(sizes.iter().sum());
    columns
        .split(&sizes)
        .into_par_iter()
        .zip(blocks)
        .try_for_each(|(out, (total, bidder, point))| {
            fill_posterior_rows(total, bidder, point, out)
        })?;
    Ok(TableData::from_named(
        BIDDER_POSTERIORS,
        columns.into_columns()?,
        grid_params(grid),
    )?)
}

/// The key columns the decisions table shares across hands: the standard
/// game of `players` players, its variant and the bidder's reliability.
#[derive(Debug, Clone, Copy)]
struct Game {
    players: u32,
    variant: Variant,
    reliability: Reliability,
}

/// Fill the rows of every hand in `game` facing every standing bid, in key
/// order, from one [`PublishedRuleBlock`] shared by the hands.
fn fill_decision_rows(
    game: Game,
    hands: &[Hand],
    dice_per_player: u32,
    out: DecisionRows<'_>,
) -> Result<()> {
    let total = game.players * dice_per_player;
    let rule = PublishedRuleBlock::new(
        DiceInPlay::new(total, dice_per_player, dice_per_player)?,
        game.variant,
        game.reliability,
    )?;
    out.players.fill(int(game.players)?);
    out.wild.fill(game.variant.wild_ones());
    out.rel.fill(game.reliability.value());
    let mut at = 0;
    for hand in hands {
        let code = int(hand.code().context("hand code")?)?;
        let rule = rule.hand(hand)?;
        for q in 1..=total {
            for face in Face::all() {
                let row = rule.advise(Bid::new(q, face)?)?;
                let (raise_count, raise_face) = match row.action {
                    Action::Open => (0, 0),
                    Action::Raise(bid) => (int(bid.count)?, i32::from(bid.face.pips())),
                };
                out.hand[at] = code;
                out.count[at] = int(q)?;
                out.face[at] = i32::from(face.pips());
                out.action[at] = action_code(row.action);
                out.raise_count[at] = raise_count;
                out.raise_face[at] = raise_face;
                out.value[at] = row.expected_value;
                at += 1;
            }
        }
    }
    check!(
        Check,
        at == out.players.len(),
        "decision rows of {} players miscounted",
        game.players
    );
    Ok(())
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
    let faces = Face::all().count();
    let sizes: Vec<usize> = games
        .iter()
        .map(|game| hands.len() * (game.players * grid.dice_per_player) as usize * faces)
        .collect();
    let mut columns = DecisionColumns::zeroed(sizes.iter().sum());
    columns
        .split(&sizes)
        .into_par_iter()
        .zip(games)
        .try_for_each(|(out, game)| fill_decision_rows(game, &hands, grid.dice_per_player, out))?;
    let mut params: BTreeMap<String, String> = grid_params(grid);
    params.insert("decision_rule".into(), PUBLISHED_RULE.into());
    params.insert("raise_reach".into(), PUBLISHED_RAISE_REACH.to_string());
    params.insert("raise_bonus".into(), PUBLISHED_RAISE_BONUS.to_string());
    Ok(TableData::from_named(
        DECISIONS,
        columns.into_columns()?,
        params,
    )?)
}
