//! Murder Plan checks of `gametab verify`: everything in the five tables is
//! recomputed from the stored values and the rules alone, without the
//! solver.
//!
//! - Values: one row per (days_left, state) in key order; `mastermind_won`,
//!   `canonical` and `reachable` recomputed from the rules (reachability by
//!   a forward enumeration from the 16 starts); `V_0` and winning states.
//! - Strategies: every non-winning (days_left >= 1, state) has a support of
//!   legal actions, sorted, probabilities in (0, 1] summing to 1 within
//!   [`SUM_TOLERANCE`].
//! - Certificates: the payoff matrix of every such state is rebuilt from the
//!   stored values of days_left - 1 (the brain's best choice after each
//!   turn outcome), both stored strategies are certified on it
//!   ([`gametab_solve::matrix_game::certify`]): the gap must be at most
//!   [`GAP_TOLERANCE`], the stored value must lie in the certified interval
//!   (within [`VALUE_TOLERANCE`]) and the stored `gap` column must match.
//! - Brain choices and win rates: recomputed from the stored values and
//!   compared exactly (the build computes them with the same arithmetic).
//! - The browser bundle: decoded and compared with the tables, answer by
//!   answer, to the bit (`bundle.rs`).

use gametab_games::murder_plan::model::{BrainTarget, LimitedCards, State, STATE_COUNT};
use gametab_games::murder_plan::Offset;
use gametab_lookup::io::TableData;
use gametab_lookup::murder_plan::schema::{self, AVERAGE_START_INDEX, MAX_DAYS};
use gametab_lookup::murder_plan::MurderPlanTables;

mod bundle;
mod certificates;

use bundle::check_bundle;
use certificates::{check_certificates, check_strategy, CertificateFiles};

use super::files::LoadedFiles;
use super::report::{key_text, TableCheck};
use super::Sampling;
use crate::murder_plan::turns::TurnTables;
use gametab_solve::matrix_game::GAP_TOLERANCE;

/// A support's probabilities must sum to 1 within this.
pub const SUM_TOLERANCE: f64 = 1e-9;
/// The stored value may lie this far outside the certified interval, and
/// the stored gap may differ this much from the recomputed one (the mirror
/// image of a solved state sums its certificate in another order).
pub const VALUE_TOLERANCE: f64 = 1e-12;

pub(super) const DAYS: usize = MAX_DAYS as usize;

/// The Murder Plan part of a verification.
#[derive(Debug, Clone)]
pub struct MurderPlanChecks {
    /// One check per table file, in [`schema::ALL`] order.
    pub files: Vec<TableCheck>,
    /// Games whose stored strategy pair was certified on a rebuilt matrix.
    pub games_certified: usize,
    /// Largest certificate gap found.
    pub max_gap: f64,
    /// The tables as the lookup crate loads them, when it accepts them.
    pub loaded: Option<MurderPlanTables>,
}

/// The decoded state-key columns of a state-keyed table.
pub(super) struct StateColumns<'a> {
    ints: [&'a [i32]; 8],
    bools: [&'a [bool]; 2],
}

impl<'a> StateColumns<'a> {
    pub(super) fn new(data: &'a TableData) -> Result<StateColumns<'a>, String> {
        let int = |name| data.i32s(name).map_err(|e| e.to_string());
        let flag = |name| data.bools(name).map_err(|e| e.to_string());
        Ok(StateColumns {
            ints: [
                int("days_left")?,
                int("brain_x")?,
                int("brain_y")?,
                int("killer_x")?,
                int("killer_y")?,
                int("killer_intrigue")?,
                int("key_person_intrigue")?,
                int("forbid_movement_left")?,
            ],
            bools: [flag("diagonal_left")?, flag("intrigue2_left")?],
        })
    }

    /// `(days_left, state)` of a row, or what is out of range.
    pub(super) fn get(&self, row: usize) -> Result<(u8, State), String> {
        let [d, bx, by, kx, ky, c, h, fm] = self.ints.map(|column| column[row]);
        let small = |v: i32, max: u8, what: &str| {
            u8::try_from(v)
                .ok()
                .filter(|&v| v <= max)
                .ok_or_else(|| format!("{what} = {v} outside 0..={max}"))
        };
        let offset = |a, b, what: &str| {
            Offset::new(small(a, 1, what)?, small(b, 1, what)?)
                .ok_or_else(|| format!("{what} ({a}, {b}) is not an offset"))
        };
        let state = State {
            brain: offset(bx, by, "brain")?,
            killer: offset(kx, ky, "killer")?,
            killer_intrigue: small(c, 4, "killer_intrigue")?,
            key_person_intrigue: small(h, 2, "key_person_intrigue")?,
            limited: LimitedCards {
                diagonal: self.bools[0][row],
                intrigue_plus_two: self.bools[1][row],
                forbid_movement: small(fm, 3, "forbid_movement_left")?,
            },
        };
        Ok((small(d, MAX_DAYS, "days_left")?, state))
    }
}

/// The key columns of (days_left, state) as `name=value` pairs, as
/// [`key_text`] writes them for a row.
pub(super) fn state_text(days_left: u8, state: State) -> String {
    let limited = state.limited;
    format!(
        "days_left={days_left} brain_x={} brain_y={} killer_x={} killer_y={} killer_intrigue={} \
         key_person_intrigue={} diagonal_left={} intrigue2_left={} forbid_movement_left={}",
        state.brain.first(),
        state.brain.second(),
        state.killer.first(),
        state.killer.second(),
        state.killer_intrigue,
        state.key_person_intrigue,
        limited.diagonal,
        limited.intrigue_plus_two,
        limited.forbid_movement
    )
}

/// `reachable[d][state]` by a forward enumeration of the layers from the
/// 16 starts: (d, S) is reachable when S is reached (winning or not) after
/// t <= 8 - d turns.
fn reachability(turns: &TurnTables) -> Vec<Vec<bool>> {
    let mut layer = vec![false; STATE_COUNT];
    for start in State::starts() {
        layer[start.index()] = true;
    }
    // seen_by[t]: reached within t turns.
    let mut seen = layer.clone();
    let mut seen_by = vec![seen.clone()];
    for _ in 0..DAYS {
        let mut next = vec![false; STATE_COUNT];
        for state in State::all().filter(|s| layer[s.index()]) {
            for outcome in &turns.get(state.limited).outcomes {
                let post = outcome.apply(state);
                for target in BrainTarget::legal(post) {
                    let after = target.apply(post);
                    if after.is_win() {
                        seen[after.index()] = true;
                    } else {
                        next[after.index()] = true;
                    }
                }
            }
        }
        for (s, &n) in seen.iter_mut().zip(&next) {
            *s |= n;
        }
        seen_by.push(seen.clone());
        layer = next;
    }
    (0..=DAYS).map(|d| seen_by[DAYS - d].clone()).collect()
}

/// Check the values table; return `values[d][state]` when its rows are
/// complete and in key order (the other checks need them).
fn check_values(
    data: &TableData,
    turns: &TurnTables,
    check: &mut TableCheck,
) -> Option<Vec<Vec<f64>>> {
    let expected_rows = (DAYS + 1) * STATE_COUNT;
    if data.rows() != expected_rows {
        check.file_mismatch("rows", expected_rows, data.rows());
        return None;
    }
    let columns = match StateColumns::new(data) {
        Ok(columns) => columns,
        Err(e) => {
            check.file_mismatch("file", "the state columns", e);
            return None;
        }
    };
    let (value, gap) = (data.f64s("value").ok()?, data.f64s("gap").ok()?);
    let reachable = data.bools("reachable").ok()?;
    let (canonical, won) = (
        data.bools("canonical").ok()?,
        data.bools("mastermind_won").ok()?,
    );
    let expected_reachable = reachability(turns);
    let mut values = vec![vec![0.0; STATE_COUNT]; DAYS + 1];
    let mut in_order = true;
    for row in 0..data.rows() {
        let key = || key_text(data, row);
        let (d, state) = match columns.get(row) {
            Ok(found) => found,
            Err(e) => {
                check.mismatch(Some(row), key(), "key", "a state in range", e);
                in_order = false;
                continue;
            }
        };
        if usize::from(d) * STATE_COUNT + state.index() != row {
            check.mismatch(Some(row), key(), "key", "rows in key order", "out of order");
            in_order = false;
            continue;
        }
        values[usize::from(d)][state.index()] = value[row];
        check.exact(row, key, "mastermind_won", state.is_win(), won[row]);
        check.exact(row, key, "canonical", state.is_canonical(), canonical[row]);
        let reach = expected_reachable[usize::from(d)][state.index()];
        check.exact(row, key, "reachable", reach, reachable[row]);
        if d == 0 || state.is_win() {
            let v = if state.is_win() { 1.0 } else { 0.0 };
            check.float(row, key, "value", v, value[row], 0.0);
            check.float(row, key, "gap", 0.0, gap[row], 0.0);
        } else if !(0.0..=1.0).contains(&value[row]) {
            check.mismatch(Some(row), key(), "value", "in [0, 1]", value[row]);
        }
        check.rows_checked += 1;
    }
    in_order.then_some(values)
}

/// The brain's best legal choice in `post` given the previous day's values
/// (ties broken killer, key person, nobody).
fn brain_choice(post: State, previous: &[f64]) -> (BrainTarget, f64) {
    let mut best: Option<(BrainTarget, f64)> = None;
    for target in BrainTarget::legal(post) {
        let next = target.apply(post);
        let value = if next.is_win() {
            1.0
        } else {
            previous[next.index()]
        };
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((target, value));
        }
    }
    best.unwrap_or((BrainTarget::Nobody, previous[post.index()]))
}

fn check_brain(data: &TableData, values: &[Vec<f64>], check: &mut TableCheck) {
    let expected_rows = DAYS * STATE_COUNT;
    if data.rows() != expected_rows {
        check.file_mismatch("rows", expected_rows, data.rows());
        return;
    }
    let (Ok(columns), Ok(target), Ok(value)) = (
        StateColumns::new(data),
        data.strings("target"),
        data.f64s("value"),
    ) else {
        check.file_mismatch("file", "the brain-choice columns", "missing");
        return;
    };
    for row in 0..data.rows() {
        let key = || key_text(data, row);
        let expected_key = ((row / STATE_COUNT + 1) as u8, row % STATE_COUNT);
        match columns.get(row) {
            Ok((d, state)) if (d, state.index()) == expected_key => {
                let (t, v) = brain_choice(state, &values[usize::from(d) - 1]);
                check.exact(row, key, "target", t.label(), &target[row]);
                check.float(row, key, "value", v, value[row], 0.0);
                check.rows_checked += 1;
            }
            Ok(_) => check.mismatch(Some(row), key(), "key", "rows in key order", "out of order"),
            Err(e) => check.mismatch(Some(row), key(), "key", "a state in range", e),
        }
    }
}

fn check_win_rates(data: &TableData, values: &[Vec<f64>], check: &mut TableCheck) {
    let per_horizon = AVERAGE_START_INDEX as usize + 1;
    if data.rows() != DAYS * per_horizon {
        check.file_mismatch("rows", DAYS * per_horizon, data.rows());
        return;
    }
    let (Ok(horizon), Ok(start_index), Ok(start), Ok(value)) = (
        data.i32s("horizon"),
        data.i32s("start_index"),
        data.strings("start"),
        data.f64s("value"),
    ) else {
        check.file_mismatch("file", "the win-rate columns", "missing");
        return;
    };
    let mut row = 0;
    for h in 1..=MAX_DAYS {
        let mut expected: Vec<(i32, String, f64)> = State::starts()
            .enumerate()
            .map(|(i, s)| {
                let label = format!("x={} y={}", s.brain, s.killer);
                (i as i32, label, values[usize::from(h)][s.index()])
            })
            .collect();
        // Summed in start order from zero, as the build does.
        let total = expected.iter().fold(0.0, |total, e| total + e.2);
        expected.push((AVERAGE_START_INDEX, "average".to_string(), total / 16.0));
        for (index, label, v) in expected {
            let key = || key_text(data, row);
            check.exact(row, key, "horizon", i32::from(h), horizon[row]);
            check.exact(row, key, "start_index", index, start_index[row]);
            check.exact(row, key, "start", label.as_str(), &start[row]);
            check.float(row, key, "value", v, value[row], 0.0);
            check.rows_checked += 1;
            row += 1;
        }
    }
}

/// Load the five tables with the lookup crate's loader (ranges, key order,
/// supports summing to 1) and report its refusal against the file it names.
fn check_loader(
    tables: &[Option<&TableData>; 5],
    files: &mut [TableCheck],
) -> Option<MurderPlanTables> {
    let [Some(a), Some(b), Some(c), Some(d), Some(e)] = *tables else {
        return None;
    };
    let owned = [a, b, c, d, e].map(Clone::clone);
    match MurderPlanTables::from_tables(owned) {
        Ok(loaded) => Some(loaded),
        Err(error) => {
            let blamed = match &error {
                gametab_lookup::Error::BadRow { table, .. } => {
                    schema::ALL.iter().position(|s| s.name == table)
                }
                _ => None,
            };
            files[blamed.unwrap_or(0)].file_mismatch(
                "file",
                "a table the lookup loader accepts",
                error,
            );
            None
        }
    }
}

/// The Murder Plan check of `gametab verify` as the registry runs it: the
/// five tables of `loaded` and the browser bundle, one [`TableCheck`] per
/// file.
pub fn check_files(loaded: &LoadedFiles, _sampling: &Sampling) -> Vec<TableCheck> {
    let checks = check(schema::ALL.map(|s| loaded.table(&s)));
    let mut files = checks.files;
    files.push(check_bundle(loaded, checks.loaded.as_ref()));
    files
}

/// Check the five Murder Plan tables (in [`schema::ALL`] order; `None` for
/// a table that could not be decoded, whose file check already says why).
pub fn check(tables: [Option<&TableData>; 5]) -> MurderPlanChecks {
    let mut files: Vec<TableCheck> = schema::ALL
        .iter()
        .map(|s| TableCheck::new(s.file))
        .collect();
    for (check, data) in files.iter_mut().zip(&tables) {
        check.rows_total = data.map_or(0, TableData::rows);
    }
    let loaded = check_loader(&tables, &mut files);
    let turns = TurnTables::new();
    let [values_data, sigma_data, tau_data, brain_data, rates_data] = tables;
    let [values_check, sigma_check, tau_check, brain_check, rates_check] = &mut files[..] else {
        unreachable!("five Murder Plan tables");
    };
    let values = values_data.and_then(|data| check_values(data, &turns, values_check));
    let Some(values) = values else {
        values_check
            .notes
            .push("values unusable: no table derived from them was checked".to_string());
        return MurderPlanChecks {
            files,
            games_certified: 0,
            max_gap: 0.0,
            loaded,
        };
    };
    let sigma = sigma_data.and_then(|d| check_strategy(d, &turns, true, sigma_check));
    let tau = tau_data.and_then(|d| check_strategy(d, &turns, false, tau_check));
    let (mut games, mut max_gap) = (0, 0.0);
    if let (Some(values_data), Some(sigma_data), Some(tau_data), Some(sigma), Some(tau)) =
        (values_data, sigma_data, tau_data, &sigma, &tau)
    {
        (games, max_gap) = check_certificates(
            &turns,
            &values,
            sigma,
            tau,
            CertificateFiles {
                values: (values_data, &mut *values_check),
                sigma: (sigma_data, &mut *sigma_check),
                tau: (tau_data, &mut *tau_check),
            },
        );
    }
    let note = format!(
        "{games} games certified on matrices rebuilt from days_left - 1, largest gap {max_gap:.3e} \
         (tolerance {GAP_TOLERANCE:e}); value in the certified interval within {VALUE_TOLERANCE:e}"
    );
    for check in [&mut *values_check, &mut *sigma_check, &mut *tau_check] {
        check.notes.push(note.clone());
    }
    if let Some(data) = brain_data {
        check_brain(data, &values, brain_check);
        brain_check
            .notes
            .push("recomputed from the stored values, compared exactly".to_string());
    }
    if let Some(data) = rates_data {
        check_win_rates(data, &values, rates_check);
        rates_check
            .notes
            .push("recomputed from the stored values, compared exactly".to_string());
    }
    MurderPlanChecks {
        files,
        games_certified: games,
        max_gap,
        loaded,
    }
}
