//! Row indexing for the Liar's Dice table readers: the checks every row
//! passes on load (key and values in range, rows in key order, blocks
//! complete) and the dense array of block starts that turns a key into a
//! row number.

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::io::{read_parquet, TableData};
use crate::schema::TableSchema;
use gametab_games::dice::DiceGrid;
use gametab_games::dice::Reliability;

/// Where a row sits: its block, its place in the block, the block's length.
pub(super) struct Slot {
    pub(super) block: usize,
    pub(super) place: usize,
    pub(super) len: usize,
}

pub(super) const ABSENT: u32 = u32::MAX;

/// Mixed-radix index of a block key; `None` when a coordinate is off the grid.
#[derive(Debug, Clone)]
pub(super) struct BlockShape(pub(super) Vec<usize>);

impl BlockShape {
    pub(super) fn size(&self) -> usize {
        self.0.iter().product()
    }

    pub(super) fn index(&self, coords: &[usize]) -> Option<usize> {
        coords
            .iter()
            .zip(&self.0)
            .try_fold(0, |index, (&c, &dim)| (c < dim).then_some(index * dim + c))
    }
}

pub(super) fn bad_row(schema: &TableSchema, row: usize, detail: impl Into<String>) -> Error {
    Error::BadRow {
        table: schema.name.to_string(),
        row,
        detail: detail.into(),
    }
}

/// Check that the rows are in key order with complete blocks, and return
/// the first row of every block (`ABSENT` for blocks not in the table).
pub(super) fn index_blocks(
    schema: &TableSchema,
    rows: usize,
    blocks: usize,
    mut locate: impl FnMut(usize) -> std::result::Result<Slot, String>,
) -> Result<Vec<u32>> {
    if u32::try_from(rows).map_or(true, |r| r == ABSENT) {
        return Err(bad_row(schema, rows, "too many rows"));
    }
    let mut starts = vec![ABSENT; blocks];
    let mut open: Option<(usize, usize, usize)> = None; // block, next place, length
    for row in 0..rows {
        let slot = locate(row).map_err(|detail| bad_row(schema, row, detail))?;
        if slot.place == 0 {
            if let Some((_, next, len)) = open {
                return Err(bad_row(
                    schema,
                    row,
                    format!("previous block ends after {next} of {len} rows"),
                ));
            }
            if starts[slot.block] != ABSENT {
                return Err(bad_row(schema, row, "key block appears twice"));
            }
            starts[slot.block] = row as u32;
        } else if open != Some((slot.block, slot.place, slot.len)) {
            return Err(bad_row(schema, row, "row out of key order or duplicated"));
        }
        open = (slot.place + 1 < slot.len).then_some((slot.block, slot.place + 1, slot.len));
    }
    if let Some((_, next, len)) = open {
        return Err(bad_row(
            schema,
            rows,
            format!("last block ends after {next} of {len} rows"),
        ));
    }
    Ok(starts)
}

pub(super) fn check_probability(name: &str, value: f64) -> std::result::Result<(), String> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(format!("{name} {value} is not a probability"))
    }
}

pub(super) fn count(
    value: i32,
    name: &str,
    low: u32,
    high: u32,
) -> std::result::Result<u32, String> {
    u32::try_from(value)
        .ok()
        .filter(|v| (low..=high).contains(v))
        .ok_or_else(|| format!("{name} {value} outside {low}..={high}"))
}

pub(super) fn reliability_index(grid: &DiceGrid, rel: f64) -> std::result::Result<usize, String> {
    Reliability::new(rel)
        .ok()
        .and_then(|r| grid.reliability_index(r))
        .ok_or_else(|| format!("reliability {rel} is not on the grid"))
}

pub(super) fn load(bytes: impl Into<Bytes>, schema: &TableSchema) -> Result<(TableData, DiceGrid)> {
    let data = read_parquet(bytes.into(), schema)?;
    let grid = super::grid_from_params(schema.name, &data.params)?;
    Ok((data, grid))
}

pub(super) fn not_in(schema: &TableSchema, key: impl std::fmt::Debug) -> Error {
    Error::NotInTable {
        table: schema.name,
        key: format!("{key:?}"),
    }
}
