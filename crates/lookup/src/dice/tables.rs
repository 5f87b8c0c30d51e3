//! Loading the three Liar's Dice tables and answering queries from them.
//!
//! Each table is read with [`crate::io::read_parquet`] against its
//! schema, its grid is read back from the metadata, and every row is
//! checked: key in range, values in range, rows in key order with every
//! block complete. The rows of one block (everything but the last one or
//! two key columns) are contiguous, so a dense array of block starts turns
//! a key into a row number with arithmetic: no search and no scan per
//! query.
//!
//! [`DiceTables`] adds the fallback: a point off the grid is computed by the
//! engine ([`Source::Computed`]); on the grid the stored row is returned
//! ([`Source::Table`]) and equals the computation bit for bit.

use bytes::Bytes;
use serde::Serialize;

use super::index::{
    check_probability, count, index_blocks, load, not_in, reliability_index, BlockShape, Slot,
    ABSENT,
};
use super::schema::{BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use crate::error::{Error, Result};
use gametab_games::dice::DiceGrid;
use gametab_games::dice::{bidder_posterior, BidQuestion, BidderPosterior, PosteriorQuestion};
use gametab_games::dice::{Action, BidRow, DecisionKey, DecisionRow};
use gametab_games::dice::{Bid, Face, FaceClass, Hand};

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A stored row.
    Table,
    /// Computed by the engine: the point is off the tables' grid.
    Computed,
}

/// An answer and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer<T> {
    /// The answer.
    pub value: T,
    /// Table or engine.
    pub source: Source,
}

/// The bid-probability table, indexed.
#[derive(Debug, Clone)]
pub struct BidTable {
    grid: DiceGrid,
    shape: BlockShape,
    starts: Vec<u32>,
    raw: Vec<f64>,
    corrected: Vec<f64>,
    ev_open: Vec<f64>,
    normal: Vec<f64>,
}

impl BidTable {
    /// Decode and index the table file's bytes.
    ///
    /// # Errors
    /// As [`crate::io::read_parquet`]; [`Error::ForeignTable`] for a missing grid;
    /// [`Error::BadRow`] for a row out of range or out of order.
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<BidTable> {
        let schema = &BID_PROBABILITIES;
        let (mut data, grid) = load(bytes, schema)?;
        let rows = data.rows();
        // The probability columns move into the table rather than being copied.
        let raw = data.take_f64s("raw_probability")?;
        let corrected = data.take_f64s("corrected_probability")?;
        let ev_open = data.take_f64s("ev_open")?;
        let normal = data.take_f64s("normal_approximation")?;
        let shape = BlockShape(vec![
            grid.max_total_dice as usize + 1,
            grid.max_my_dice as usize + 1,
            grid.max_bidder_dice as usize + 1,
            2,
            2,
            grid.reliabilities.len(),
        ]);
        let (total, mine, bidder) = (
            data.i32s("total_dice")?,
            data.i32s("my_dice")?,
            data.i32s("bidder_dice")?,
        );
        let (wild, class, rel) = (
            data.bools("wild_ones")?,
            data.strings("face_class")?,
            data.f64s("reliability")?,
        );
        let (bid_count, matching) = (data.i32s("bid_count")?, data.i32s("my_matching")?);
        let table = BidTable {
            raw,
            corrected,
            ev_open,
            normal,
            starts: Vec::new(),
            shape,
            grid,
        };
        let locate = |row: usize| -> std::result::Result<Slot, String> {
            let n = count(total[row], "total_dice", 2, table.grid.max_total_dice)?;
            let m = count(mine[row], "my_dice", 1, table.grid.max_my_dice)?;
            let b = count(
                bidder[row],
                "bidder_dice",
                1,
                table.grid.max_bidder_dice.min(n - m.min(n)),
            )?;
            let class = FaceClass::from_name(&class[row]).map_err(|e| e.to_string())?;
            let r = reliability_index(&table.grid, rel[row])?;
            let q = count(bid_count[row], "bid_count", 1, n)?;
            let k = count(matching[row], "my_matching", 0, m)?;
            check_probability("raw_probability", table.raw[row])?;
            check_probability("corrected_probability", table.corrected[row])?;
            check_probability("normal_approximation", table.normal[row])?;
            if table.ev_open[row] != gametab_games::dice::ev_open(table.corrected[row]) {
                return Err("ev_open is not 1 - 2 corrected_probability".to_string());
            }
            let coords =
                [n, m, b, u32::from(wild[row]), class as u32, r as u32].map(|c| c as usize);
            Ok(Slot {
                block: table.shape.index(&coords).ok_or("key off the grid")?,
                place: ((q - 1) * (m + 1) + k) as usize,
                len: (n * (m + 1)) as usize,
            })
        };
        let starts = index_blocks(schema, rows, table.shape.size(), locate)?;
        Ok(BidTable { starts, ..table })
    }

    /// The grid the table was built on.
    pub fn grid(&self) -> &DiceGrid {
        &self.grid
    }

    /// The stored row for `question`.
    ///
    /// # Errors
    /// [`Error::NotInTable`] for a point off the grid.
    pub fn get(&self, question: &BidQuestion) -> Result<BidRow> {
        let dice = question.dice;
        let row = self
            .grid
            .reliability_index(question.reliability)
            .and_then(|r| {
                let coords = [
                    dice.total() as usize,
                    dice.mine() as usize,
                    dice.bidder() as usize,
                    usize::from(question.variant.wild_ones()),
                    question.class as usize,
                    r,
                ];
                self.shape.index(&coords)
            })
            .map(|block| self.starts[block])
            .filter(|&start| start != ABSENT)
            .map(|start| {
                start as usize
                    + ((question.bid_count - 1) * (dice.mine() + 1) + question.my_matching) as usize
            })
            .ok_or_else(|| not_in(&BID_PROBABILITIES, question))?;
        Ok(BidRow {
            raw_probability: self.raw[row],
            corrected_probability: self.corrected[row],
            ev_open: self.ev_open[row],
            normal_approximation: self.normal[row],
        })
    }
}

/// The bidder-posterior table, indexed.
#[derive(Debug, Clone)]
pub struct PosteriorTable {
    grid: DiceGrid,
    shape: BlockShape,
    starts: Vec<u32>,
    posterior: Vec<f64>,
}

impl PosteriorTable {
    /// Decode and index the table file's bytes.
    ///
    /// # Errors
    /// As [`BidTable::from_bytes`].
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<PosteriorTable> {
        let schema = &BIDDER_POSTERIORS;
        let (mut data, grid) = load(bytes, schema)?;
        let rows = data.rows();
        let posterior = data.take_f64s("posterior_probability")?;
        let shape = BlockShape(vec![
            grid.max_total_dice as usize + 1,
            grid.max_bidder_dice as usize + 1,
            2,
            2,
            grid.reliabilities.len(),
        ]);
        let (total, bidder, wild) = (
            data.i32s("total_dice")?,
            data.i32s("bidder_dice")?,
            data.bools("wild_ones")?,
        );
        let (class, rel) = (data.strings("face_class")?, data.f64s("reliability")?);
        let (bid_count, matching) = (data.i32s("bid_count")?, data.i32s("bidder_matching")?);
        let table = PosteriorTable {
            posterior,
            starts: Vec::new(),
            shape,
            grid,
        };
        let locate = |row: usize| -> std::result::Result<Slot, String> {
            let n = count(total[row], "total_dice", 2, table.grid.max_total_dice)?;
            let b = count(
                bidder[row],
                "bidder_dice",
                1,
                table.grid.max_bidder_dice.min(n - 1),
            )?;
            let class = FaceClass::from_name(&class[row]).map_err(|e| e.to_string())?;
            let r = reliability_index(&table.grid, rel[row])?;
            let q = count(bid_count[row], "bid_count", 1, n)?;
            let y = count(matching[row], "bidder_matching", 0, b)?;
            check_probability("posterior_probability", table.posterior[row])?;
            let coords = [n, b, u32::from(wild[row]), class as u32, r as u32].map(|c| c as usize);
            Ok(Slot {
                block: table.shape.index(&coords).ok_or("key off the grid")?,
                place: ((q - 1) * (b + 1) + y) as usize,
                len: (n * (b + 1)) as usize,
            })
        };
        let starts = index_blocks(schema, rows, table.shape.size(), locate)?;
        Ok(PosteriorTable { starts, ..table })
    }

    /// The stored posterior for `question`.
    ///
    /// # Errors
    /// [`Error::NotInTable`] for a point off the grid.
    pub fn get(&self, question: &PosteriorQuestion) -> Result<BidderPosterior> {
        let width = question.bidder_dice as usize + 1;
        let first = self
            .grid
            .reliability_index(question.reliability)
            .and_then(|r| {
                let coords = [
                    question.total_dice as usize,
                    question.bidder_dice as usize,
                    usize::from(question.variant.wild_ones()),
                    question.class as usize,
                    r,
                ];
                self.shape.index(&coords)
            })
            .map(|block| self.starts[block])
            .filter(|&start| start != ABSENT)
            .map(|start| start as usize + (question.bid_count as usize - 1) * width)
            .ok_or_else(|| not_in(&BIDDER_POSTERIORS, question))?;
        Ok(BidderPosterior {
            probabilities: self.posterior[first..first + width].to_vec(),
        })
    }
}

/// The decisions table, indexed.
#[derive(Debug, Clone)]
pub struct DecisionTable {
    grid: DiceGrid,
    hand_codes: Vec<u32>,
    shape: BlockShape,
    starts: Vec<u32>,
    actions: Vec<Action>,
    values: Vec<f64>,
}

fn stored_action(
    name: &str,
    raise_count: i32,
    raise_face: i32,
    standing: Bid,
    total: u32,
) -> std::result::Result<Action, String> {
    match name {
        "open" if raise_count == 0 && raise_face == 0 => Ok(Action::Open),
        "raise" => {
            let count = count(raise_count, "raise_count", 1, total)?;
            let face = u32::try_from(raise_face)
                .ok()
                .and_then(|f| Face::new(f).ok())
                .ok_or_else(|| format!("raise_face {raise_face} is not a face"))?;
            let bid = Bid { count, face };
            if bid.raises(standing) {
                Ok(Action::Raise(bid))
            } else {
                Err(format!("raise to {bid} does not raise {standing}"))
            }
        }
        _ => Err(format!(
            "action {name:?} with raise {raise_count}x{raise_face}"
        )),
    }
}

impl DecisionTable {
    /// Decode and index the table file's bytes.
    ///
    /// # Errors
    /// As [`BidTable::from_bytes`].
    pub fn from_bytes(bytes: impl Into<Bytes>) -> Result<DecisionTable> {
        let schema = &DECISIONS;
        let (mut data, grid) = load(bytes, schema)?;
        let rows = data.rows();
        let values = data.take_f64s("expected_value")?;
        let hand_codes: Vec<u32> = grid.hands().iter().filter_map(Hand::code).collect();
        let shape = BlockShape(vec![
            grid.max_players as usize + 1,
            2,
            grid.reliabilities.len(),
            hand_codes.len(),
        ]);
        let (players, wild, rel) = (
            data.i32s("players")?,
            data.bools("wild_ones")?,
            data.f64s("reliability")?,
        );
        let (hand, bid_count, bid_face) = (
            data.i32s("hand")?,
            data.i32s("bid_count")?,
            data.i32s("bid_face")?,
        );
        let (action, raise_count, raise_face) = (
            data.strings("action")?,
            data.i32s("raise_count")?,
            data.i32s("raise_face")?,
        );
        let mut actions = Vec::with_capacity(rows);
        let mut locate = |row: usize| -> std::result::Result<Slot, String> {
            let p = count(players[row], "players", grid.min_players, grid.max_players)?;
            let n = p * grid.dice_per_player;
            let r = reliability_index(&grid, rel[row])?;
            let h = u32::try_from(hand[row])
                .ok()
                .and_then(|code| hand_codes.binary_search(&code).ok())
                .ok_or_else(|| format!("hand {} is not a sorted hand of the grid", hand[row]))?;
            let q = count(bid_count[row], "bid_count", 1, n)?;
            let f = count(bid_face[row], "bid_face", 1, 6)?;
            let standing = Bid {
                count: q,
                face: Face::new(f).map_err(|e| e.to_string())?,
            };
            actions.push(stored_action(
                &action[row],
                raise_count[row],
                raise_face[row],
                standing,
                n,
            )?);
            if !(-1.0..=1.0).contains(&values[row]) {
                return Err(format!("expected_value {} outside [-1, 1]", values[row]));
            }
            let coords = [p as usize, usize::from(wild[row]), r, h];
            Ok(Slot {
                block: shape.index(&coords).ok_or("key off the grid")?,
                place: ((q - 1) * 6 + f - 1) as usize,
                len: (n * 6) as usize,
            })
        };
        let starts = index_blocks(schema, rows, shape.size(), &mut locate)?;
        Ok(DecisionTable {
            values,
            grid,
            hand_codes,
            shape,
            starts,
            actions,
        })
    }

    /// The stored decision for `key`.
    ///
    /// # Errors
    /// [`Error::NotInTable`] for a point off the grid.
    pub fn get(&self, key: &DecisionKey) -> Result<DecisionRow> {
        let row = key
            .hand
            .code()
            .filter(|_| {
                key.hand.len() == self.grid.dice_per_player && key.players >= self.grid.min_players
            })
            .and_then(|code| self.hand_codes.binary_search(&code).ok())
            .zip(self.grid.reliability_index(key.reliability))
            .and_then(|(h, r)| {
                let coords = [
                    key.players as usize,
                    usize::from(key.variant.wild_ones()),
                    r,
                    h,
                ];
                self.shape.index(&coords)
            })
            .map(|block| self.starts[block])
            .filter(|&start| {
                start != ABSENT && key.standing.count <= key.players * self.grid.dice_per_player
            })
            .map(|start| {
                start as usize
                    + ((key.standing.count - 1) * 6 + u32::from(key.standing.face.pips()) - 1)
                        as usize
            })
            .ok_or_else(|| not_in(&DECISIONS, key))?;
        Ok(DecisionRow {
            action: self.actions[row],
            expected_value: self.values[row],
        })
    }
}

/// All three Liar's Dice tables, with the engine behind them for points off
/// the grid.
#[derive(Debug, Clone)]
pub struct DiceTables {
    bids: BidTable,
    posteriors: PosteriorTable,
    decisions: DecisionTable,
}

impl DiceTables {
    /// Load the three tables from their files' bytes.
    ///
    /// # Errors
    /// As [`BidTable::from_bytes`] for each table, and
    /// [`Error::Inconsistent`] when the tables were built on different grids.
    pub fn from_bytes(
        bids: impl Into<Bytes>,
        posteriors: impl Into<Bytes>,
        decisions: impl Into<Bytes>,
    ) -> Result<DiceTables> {
        let tables = DiceTables {
            bids: BidTable::from_bytes(bids)?,
            posteriors: PosteriorTable::from_bytes(posteriors)?,
            decisions: DecisionTable::from_bytes(decisions)?,
        };
        if tables.posteriors.grid != tables.bids.grid || tables.decisions.grid != tables.bids.grid {
            return Err(Error::Inconsistent(
                "the Liar's Dice tables were built on different grids".to_string(),
            ));
        }
        Ok(tables)
    }

    /// The grid the tables cover.
    pub fn grid(&self) -> &DiceGrid {
        &self.bids.grid
    }

    /// The bid-probability table alone.
    pub fn bid_table(&self) -> &BidTable {
        &self.bids
    }

    /// The posterior table alone.
    pub fn posterior_table(&self) -> &PosteriorTable {
        &self.posteriors
    }

    /// The decisions table alone.
    pub fn decision_table(&self) -> &DecisionTable {
        &self.decisions
    }

    /// The bid probabilities: the stored row, or the engine off the grid.
    ///
    /// # Errors
    /// Only a table inconsistency; a validated question always has an answer.
    pub fn bid(&self, question: &BidQuestion) -> Result<Answer<BidRow>> {
        fallback(self.bids.get(question), || Ok(BidRow::compute(question)))
    }

    /// The bidder's posterior: the stored rows, or the engine off the grid.
    ///
    /// # Errors
    /// As [`DiceTables::bid`].
    pub fn posterior(&self, question: &PosteriorQuestion) -> Result<Answer<BidderPosterior>> {
        fallback(self.posteriors.get(question), || {
            Ok(bidder_posterior(question))
        })
    }

    /// The published rule's decision: the stored row, or the engine off the
    /// grid.
    ///
    /// # Errors
    /// As [`DecisionKey::situation`] for a key that is no legal situation.
    pub fn decision(&self, key: &DecisionKey) -> Result<Answer<DecisionRow>> {
        fallback(self.decisions.get(key), || Ok(DecisionRow::compute(key)?))
    }
}

fn fallback<T>(stored: Result<T>, compute: impl FnOnce() -> Result<T>) -> Result<Answer<T>> {
    match stored {
        Ok(value) => Ok(Answer {
            value,
            source: Source::Table,
        }),
        Err(Error::NotInTable { .. }) => Ok(Answer {
            value: compute()?,
            source: Source::Computed,
        }),
        Err(error) => Err(error),
    }
}
