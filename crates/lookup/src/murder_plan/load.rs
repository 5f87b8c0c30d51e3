//! Loading the Murder Plan tables from their Parquet files: every table is
//! read in full, validated row by row (key ranges, key order,
//! probabilities) and indexed by the dense key
//! `days_left * STATE_COUNT + State::index()` into a [`MurderPlanTables`],
//! whose queries (in `tables.rs`) are then array accesses.
//!
//! Only this file of the Murder Plan lookup needs Parquet (the `parquet`
//! feature): the WebAssembly module builds the same [`MurderPlanTables`]
//! from the browser bundle instead (`bundle/`), and answers with the same
//! query code.

use bytes::Bytes;

use super::schema::{self, AVERAGE_START_INDEX, MAX_DAYS};
use super::tables::{Coverage, MurderPlanTables, Supports, KEYS, SUM_TOLERANCE};
use crate::error::{Error, Result};
use crate::io::{read_parquet, TableData};
use crate::schema::TableSchema;
use gametab_games::murder_plan::model::{
    BrainTarget, MastermindCard, Offset, Placement, ProtagonistCard, State, STATE_COUNT,
};

fn bad_row(table: &TableSchema, row: usize, detail: impl Into<String>) -> Error {
    Error::BadRow {
        table: table.name.to_string(),
        row,
        detail: detail.into(),
    }
}

/// The state key columns of a state-keyed table, decoded row by row.
struct StateKeyColumns<'a> {
    data: &'a TableData,
    ints: [&'a [i32]; 8],
    bools: [&'a [bool]; 2],
}

impl<'a> StateKeyColumns<'a> {
    fn new(data: &'a TableData) -> Result<StateKeyColumns<'a>> {
        let i = |name| data.i32s(name);
        Ok(StateKeyColumns {
            data,
            ints: [
                i("days_left")?,
                i("brain_x")?,
                i("brain_y")?,
                i("killer_x")?,
                i("killer_y")?,
                i("killer_intrigue")?,
                i("key_person_intrigue")?,
                i("forbid_movement_left")?,
            ],
            bools: [data.bools("diagonal_left")?, data.bools("intrigue2_left")?],
        })
    }

    /// The dense key of row `row`, checking every field's range.
    fn key(&self, row: usize) -> Result<usize> {
        let [d, bx, by, kx, ky, c, h, fm] = self.ints.map(|column| column[row]);
        // Fast path: every field in range (unsigned compares reject negatives).
        let in_range = |v: i32, max: i32| (v as u32) <= max as u32;
        if in_range(d, i32::from(MAX_DAYS))
            && in_range(bx, 1)
            && in_range(by, 1)
            && in_range(kx, 1)
            && in_range(ky, 1)
            && in_range(c, 4)
            && in_range(h, 2)
            && in_range(fm, 3)
        {
            let limited = (usize::from(self.bools[0][row]) * 2 + usize::from(self.bools[1][row]))
                * 4
                + fm as usize;
            let positions = (bx * 2 + by) as usize * 4 + (kx * 2 + ky) as usize;
            let intrigue = c as usize * 3 + h as usize;
            return Ok(d as usize * STATE_COUNT + (positions * 15 + intrigue) * 16 + limited);
        }
        let schema = &self.data.schema;
        let small = |v: i32, max: i32, what: &str| {
            if (0..=max).contains(&v) {
                Ok(v as u8)
            } else {
                Err(bad_row(
                    schema,
                    row,
                    format!("{what} = {v} outside 0..={max}"),
                ))
            }
        };
        let days_left = small(d, i32::from(MAX_DAYS), "days_left")?;
        let brain = Offset::new(small(bx, 1, "brain_x")?, small(by, 1, "brain_y")?);
        let killer = Offset::new(small(kx, 1, "killer_x")?, small(ky, 1, "killer_y")?);
        let state = State {
            brain: brain.expect("checked components"),
            killer: killer.expect("checked components"),
            killer_intrigue: small(c, 4, "killer_intrigue")?,
            key_person_intrigue: small(h, 2, "key_person_intrigue")?,
            limited: gametab_games::murder_plan::LimitedCards {
                diagonal: self.bools[0][row],
                intrigue_plus_two: self.bools[1][row],
                forbid_movement: small(fm, 3, "forbid_movement_left")?,
            },
        };
        Ok(usize::from(days_left) * STATE_COUNT + state.index())
    }
}

fn load_values(data: &TableData) -> Result<(Vec<f64>, Vec<f64>, Vec<bool>)> {
    let keys = StateKeyColumns::new(data)?;
    let (value, gap, reachable) = (
        data.f64s("value")?,
        data.f64s("gap")?,
        data.bools("reachable")?,
    );
    if data.rows() != KEYS {
        return Err(bad_row(
            &data.schema,
            data.rows(),
            format!("{} rows, expected {KEYS}", data.rows()),
        ));
    }
    for (row, &v) in value.iter().enumerate() {
        if keys.key(row)? != row {
            return Err(bad_row(&data.schema, row, "rows out of key order"));
        }
        if !(0.0..=1.0).contains(&v) {
            return Err(bad_row(
                &data.schema,
                row,
                format!("value {v} outside [0, 1]"),
            ));
        }
    }
    Ok((value.to_vec(), gap.to_vec(), reachable.to_vec()))
}

fn load_supports<Card: Copy>(
    data: &TableData,
    parse: impl Fn(&str) -> Option<Card>,
) -> Result<Supports<Card>> {
    let schema = &data.schema;
    let keys = StateKeyColumns::new(data)?;
    // Parse each distinct label once; rows then map codes to cards.
    let labels = ["card_on_key_person", "card_on_brain", "card_on_killer"].map(|name| {
        data.strings(name).map(|column| {
            let cards: Vec<Option<Card>> = column.dictionary().iter().map(|l| parse(l)).collect();
            (column, cards)
        })
    });
    let [a, b, c] = labels;
    let labels = [a?, b?, c?];
    let probability = data.f64s("probability")?;
    let mut start = vec![0u32; KEYS + 1];
    let mut entries = Vec::with_capacity(data.rows());
    let mut previous: Option<usize> = None;
    let mut sum = 0.0;
    let close = |key: usize, sum: f64, row: usize| {
        if (sum - 1.0).abs() > SUM_TOLERANCE {
            Err(bad_row(
                schema,
                row,
                format!("probabilities of key {key} sum to {sum}"),
            ))
        } else {
            Ok(())
        }
    };
    for row in 0..data.rows() {
        let key = keys.key(row)?;
        let card = |i: usize| {
            let (column, cards) = &labels[i];
            cards[column.codes()[row] as usize]
                .ok_or_else(|| bad_row(schema, row, format!("unknown card {:?}", &column[row])))
        };
        let action = Placement {
            key_person: card(0)?,
            brain: card(1)?,
            killer: card(2)?,
        };
        let p = probability[row];
        if !(p > 0.0 && p <= 1.0) {
            return Err(bad_row(
                schema,
                row,
                format!("probability {p} outside (0, 1]"),
            ));
        }
        match previous {
            Some(k) if k > key => return Err(bad_row(schema, row, "rows out of key order")),
            Some(k) if k == key => sum += p,
            _ => {
                if let Some(k) = previous {
                    close(k, sum, row)?;
                }
                // Every key up to this one starts here (empty supports before).
                let from = previous.map_or(0, |k| k + 1);
                for s in &mut start[from..=key] {
                    *s = entries.len() as u32;
                }
                previous = Some(key);
                sum = p;
            }
        }
        entries.push((action, p));
    }
    if let Some(k) = previous {
        close(k, sum, data.rows())?;
    }
    let from = previous.map_or(0, |k| k + 1);
    for s in &mut start[from..] {
        *s = entries.len() as u32;
    }
    Ok(Supports::from_parts(start, entries))
}

fn load_brain(data: &TableData) -> Result<Vec<(BrainTarget, f64)>> {
    let keys = StateKeyColumns::new(data)?;
    let (target, value) = (data.strings("target")?, data.f64s("value")?);
    let expected = usize::from(MAX_DAYS) * STATE_COUNT;
    if data.rows() != expected {
        return Err(bad_row(
            &data.schema,
            data.rows(),
            format!("{} rows, expected {expected}", data.rows()),
        ));
    }
    (0..data.rows())
        .map(|row| {
            if keys.key(row)? != row + STATE_COUNT {
                return Err(bad_row(&data.schema, row, "rows out of key order"));
            }
            let t = BrainTarget::from_label(&target[row]).ok_or_else(|| {
                bad_row(
                    &data.schema,
                    row,
                    format!("unknown target {:?}", &target[row]),
                )
            })?;
            Ok((t, value[row]))
        })
        .collect()
}

fn load_win_rates(data: &TableData) -> Result<Vec<f64>> {
    let (horizon, start, value) = (
        data.i32s("horizon")?,
        data.i32s("start_index")?,
        data.f64s("value")?,
    );
    let per = (AVERAGE_START_INDEX + 1) as usize;
    if data.rows() != usize::from(MAX_DAYS) * per {
        return Err(bad_row(
            &data.schema,
            data.rows(),
            "wrong number of win-rate rows",
        ));
    }
    for row in 0..data.rows() {
        if horizon[row] as usize != row / per + 1 || start[row] as usize != row % per {
            return Err(bad_row(&data.schema, row, "rows out of key order"));
        }
    }
    Ok(value.to_vec())
}

impl MurderPlanTables {
    /// Build from the five decoded tables (in [`schema::ALL`] order).
    ///
    /// # Errors
    /// [`Error::BadRow`] when a row is out of range, out of order, or a
    /// support does not sum to 1.
    pub fn from_tables(tables: [TableData; 5]) -> Result<MurderPlanTables> {
        let [values, sigma, tau, brain, rates] = tables;
        let (values, gaps, reachable) = load_values(&values)?;
        Ok(MurderPlanTables {
            values,
            gaps,
            reachable,
            mastermind: load_supports(&sigma, MastermindCard::from_label)?,
            protagonists: load_supports(&tau, ProtagonistCard::from_label)?,
            brain: load_brain(&brain)?,
            win_rates: load_win_rates(&rates)?,
            coverage: Coverage::Everything,
        })
    }

    /// Decode the five tables from their file bytes, in [`schema::ALL`]
    /// order. The mastermind's strategy table (the largest with the
    /// protagonists') is decoded and indexed on a second thread meanwhile.
    ///
    /// # Errors
    /// Any decoding error of [`read_parquet`], then those of
    /// [`MurderPlanTables::from_tables`]; the first error in
    /// [`schema::ALL`] order is returned.
    pub fn from_bytes(files: [Bytes; 5]) -> Result<MurderPlanTables> {
        let [values, sigma, tau, brain, rates] = files;
        let [s_values, s_sigma, s_tau, s_brain, s_rates] = schema::ALL;
        std::thread::scope(|scope| {
            let mastermind = scope.spawn(move || {
                load_supports(&read_parquet(sigma, &s_sigma)?, MastermindCard::from_label)
            });
            let values = read_parquet(values, &s_values).and_then(|d| load_values(&d));
            let protagonists = read_parquet(tau, &s_tau)
                .and_then(|d| load_supports(&d, ProtagonistCard::from_label));
            let brain = read_parquet(brain, &s_brain).and_then(|d| load_brain(&d));
            let win_rates = read_parquet(rates, &s_rates).and_then(|d| load_win_rates(&d));
            let mastermind = mastermind.join().unwrap_or_else(|_| {
                Err(Error::CorruptTable {
                    table: s_sigma.name.to_string(),
                    detail: "the decoding thread panicked".to_string(),
                })
            });
            let (values, gaps, reachable) = values?;
            Ok(MurderPlanTables {
                values,
                gaps,
                reachable,
                mastermind: mastermind?,
                protagonists: protagonists?,
                brain: brain?,
                win_rates: win_rates?,
                coverage: Coverage::Everything,
            })
        })
    }
}
