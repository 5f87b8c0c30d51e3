//! Loading the Murder Plan tables and answering queries from them.
//!
//! Every table is read in full, validated row by row (key ranges, key
//! order, probabilities) and indexed by the dense key
//! `days_left * STATE_COUNT + State::index()`, so a query is an array access.

use bytes::Bytes;

use super::schema::{self, AVERAGE_START_INDEX, MAX_DAYS};
use crate::error::{Error, Result};
use crate::io::{read_parquet, TableData};
use crate::schema::TableSchema;
use gametab_games::murder_plan::model::{
    BrainTarget, MastermindAction, MastermindCard, Offset, Placement, ProtagonistAction,
    ProtagonistCard, State, STATE_COUNT,
};
use gametab_games::murder_plan::DaysLeft;

/// Probabilities of one state's strategy support must sum to 1 within this.
const SUM_TOLERANCE: f64 = 1e-9;

/// One side's strategy table: the support of every (days_left, state),
/// in the stored row order.
#[derive(Debug, Clone)]
struct Supports<Card> {
    /// `start[key]..start[key + 1]` indexes `entries`.
    start: Vec<u32>,
    entries: Vec<(Placement<Card>, f64)>,
}

impl<Card> Supports<Card> {
    fn get(&self, key: usize) -> &[(Placement<Card>, f64)] {
        &self.entries[self.start[key] as usize..self.start[key + 1] as usize]
    }
}

/// The Murder Plan tables, loaded and indexed.
#[derive(Debug, Clone)]
pub struct MurderPlanTables {
    values: Vec<f64>,
    gaps: Vec<f64>,
    reachable: Vec<bool>,
    mastermind: Supports<MastermindCard>,
    protagonists: Supports<ProtagonistCard>,
    brain: Vec<(BrainTarget, f64)>,
    win_rates: Vec<f64>,
}

const KEYS: usize = (MAX_DAYS as usize + 1) * STATE_COUNT;

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
    Ok(Supports { start, entries })
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

fn check_days(days_left: u8, min: u8) -> Result<()> {
    if days_left < min || days_left > MAX_DAYS {
        return Err(Error::OutOfRange {
            what: "days_left",
            detail: format!("{days_left} (the tables hold {min}..={MAX_DAYS})"),
        });
    }
    Ok(())
}

/// Pick the action at cumulative probability `u` over a support in stored
/// order: the first action whose running sum exceeds `u` (the last one if
/// rounding leaves `u` at or beyond the total).
fn sample<A: Copy>(support: &[(A, f64)], u: f64) -> Result<A> {
    if !(0.0..1.0).contains(&u) {
        return Err(Error::OutOfRange {
            what: "u",
            detail: format!("{u} (must be in [0, 1))"),
        });
    }
    let mut running = 0.0;
    for &(action, p) in support {
        running += p;
        if u < running {
            return Ok(action);
        }
    }
    Ok(support.last().expect("supports are never empty").0)
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
            })
        })
    }

    /// `V_d(S)`: the probability that the mastermind wins with `days_left`
    /// turns left from `state` under optimal play (intrigue clamped to the
    /// caps as the game does).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for days_left above 8 or a forbid-movement count
    /// above 3.
    pub fn value(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<f64> {
        Ok(self.values[self.key(days_left, 0, state)?])
    }

    /// The certificate gap stored with the state's strategies.
    ///
    /// # Errors
    /// As [`MurderPlanTables::value`].
    pub fn gap(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<f64> {
        Ok(self.gaps[self.key(days_left, 0, state)?])
    }

    /// Whether (days_left, state) occurs in some game of horizon <= 8 from
    /// the 16 starts.
    ///
    /// # Errors
    /// As [`MurderPlanTables::value`].
    pub fn reachable(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<bool> {
        Ok(self.reachable[self.key(days_left, 0, state)?])
    }

    fn key(&self, days_left: impl Into<DaysLeft>, min_days: u8, state: State) -> Result<usize> {
        let days_left = days_left.into().get();
        check_days(days_left, min_days)?;
        if state.limited.forbid_movement > 3 {
            return Err(Error::OutOfRange {
                what: "forbid_movement_left",
                detail: format!("{} (0..=3)", state.limited.forbid_movement),
            });
        }
        Ok(usize::from(days_left) * STATE_COUNT + state.clamped().index())
    }

    fn support_key(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<usize> {
        let days_left = days_left.into();
        let key = self.key(days_left, 1, state)?;
        if state.clamped().is_win() {
            return Err(Error::NotInTable {
                table: "murder_plan strategies",
                key: format!("days_left {days_left}, {state:?}: the mastermind has already won"),
            });
        }
        Ok(key)
    }

    /// The mastermind's optimal mixed strategy sigma* (its support, in the
    /// stored order; probabilities sum to 1).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for days_left outside 1..=8,
    /// [`Error::NotInTable`] for a state in which the mastermind has won.
    pub fn mastermind_strategy(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
    ) -> Result<&[(MastermindAction, f64)]> {
        Ok(self.mastermind.get(self.support_key(days_left, state)?))
    }

    /// The protagonists' optimal mixed strategy tau*.
    ///
    /// # Errors
    /// As [`MurderPlanTables::mastermind_strategy`].
    pub fn protagonists_strategy(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
    ) -> Result<&[(ProtagonistAction, f64)]> {
        Ok(self.protagonists.get(self.support_key(days_left, state)?))
    }

    /// Sample the mastermind's action from a uniform number `u` in [0, 1):
    /// the first action of the stored support whose cumulative probability
    /// exceeds `u`.
    ///
    /// # Errors
    /// As [`MurderPlanTables::mastermind_strategy`], and
    /// [`Error::OutOfRange`] for `u` outside [0, 1).
    pub fn sample_mastermind(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
        u: f64,
    ) -> Result<MastermindAction> {
        sample(self.mastermind_strategy(days_left, state)?, u)
    }

    /// Sample the protagonists' action from `u` in [0, 1), like
    /// [`MurderPlanTables::sample_mastermind`].
    ///
    /// # Errors
    /// As [`MurderPlanTables::sample_mastermind`].
    pub fn sample_protagonists(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
        u: f64,
    ) -> Result<ProtagonistAction> {
        sample(self.protagonists_strategy(days_left, state)?, u)
    }

    /// The brain's choice in a post-card state of a turn played with
    /// `days_left` turns left (1..=8), and the value it yields.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for days_left outside 1..=8.
    pub fn brain_choice(
        &self,
        days_left: impl Into<DaysLeft>,
        post_cards: State,
    ) -> Result<(BrainTarget, f64)> {
        let key = self.key(days_left, 1, post_cards)?;
        Ok(self.brain[key - STATE_COUNT])
    }

    /// The optimal mastermind win rate for horizon D (1..=8: the days left
    /// at the start) from one start (`x`, `y`), or the average over the 16
    /// starts with `None`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a horizon outside 1..=8.
    pub fn win_rate(
        &self,
        horizon: impl Into<DaysLeft>,
        start: Option<(Offset, Offset)>,
    ) -> Result<f64> {
        let horizon = horizon.into().get();
        check_days(horizon, 1)?;
        let index = match start {
            Some((x, y)) => usize::from(x.code()) * 4 + usize::from(y.code()),
            None => AVERAGE_START_INDEX as usize,
        };
        Ok(self.win_rates[(usize::from(horizon) - 1) * (AVERAGE_START_INDEX as usize + 1) + index])
    }
}
