//! Murder Plan strategy checks: every stored support is grouped and checked
//! (legal actions, key order, probabilities summing to 1), then certified
//! as a pair on the payoff matrix rebuilt from the previous day's stored
//! values, and the stored value and gap are compared with the certificate.

use std::collections::HashMap;

use gametab_games::murder_plan::model::{BrainTarget, LimitedCards, State, STATE_COUNT};
use gametab_lookup::io::TableData;
use gametab_lookup::murder_plan::schema::MAX_DAYS;
use rayon::prelude::*;

use super::{state_text, StateColumns, DAYS, SUM_TOLERANCE, VALUE_TOLERANCE};
use crate::murder_plan::turns::{TurnTable, TurnTables};
use crate::verify::report::{key_text, TableCheck};
use gametab_solve::matrix_game::{certify, Certificate, PayoffMatrix, StrategyPair, GAP_TOLERANCE};

/// One side's stored supports, grouped by dense key `d * STATE_COUNT +
/// state`: the first row of the support and the full strategy vector over
/// the inventory's actions.
pub(super) type Supports = Vec<Option<(usize, Vec<f64>)>>;

/// Check a strategy table's rows and group them into supports.
pub(super) fn check_strategy(
    data: &TableData,
    turns: &TurnTables,
    mastermind: bool,
    check: &mut TableCheck,
) -> Option<Supports> {
    let columns = match StateColumns::new(data) {
        Ok(columns) => columns,
        Err(e) => {
            check.file_mismatch("file", "the state columns", e);
            return None;
        }
    };
    let labels = [
        data.strings("card_on_key_person").ok()?,
        data.strings("card_on_brain").ok()?,
        data.strings("card_on_killer").ok()?,
    ];
    let probability = data.f64s("probability").ok()?;
    // Per inventory: labels of every legal action -> its matrix index.
    let action_index: Vec<HashMap<[&str; 3], usize>> = (0..16)
        .map(|i| {
            let limited = LimitedCards::from_index(i).expect("16 inventories");
            let table = turns.get(limited);
            if mastermind {
                index_labels(
                    table
                        .mastermind
                        .iter()
                        .map(|a| a.cards().map(|c| c.label())),
                )
            } else {
                index_labels(
                    table
                        .protagonists
                        .iter()
                        .map(|a| a.cards().map(|c| c.label())),
                )
            }
        })
        .collect();
    let mut supports: Supports = vec![None; (DAYS + 1) * STATE_COUNT];
    let mut previous: Option<(usize, [&str; 3])> = None;
    for row in 0..data.rows() {
        let key = || key_text(data, row);
        let (d, state) = match columns.get(row) {
            Ok(found) => found,
            Err(e) => {
                check.mismatch(Some(row), key(), "key", "a state in range", e);
                continue;
            }
        };
        if d == 0 || state.is_win() {
            check.mismatch(
                Some(row),
                key(),
                "key",
                "a non-winning state, days_left >= 1",
                "a row",
            );
            continue;
        }
        let dense = usize::from(d) * STATE_COUNT + state.index();
        let cards = [&labels[0][row], &labels[1][row], &labels[2][row]];
        if previous.is_some_and(|p| p >= (dense, cards)) {
            check.mismatch(Some(row), key(), "key", "rows in key order", "out of order");
        }
        previous = Some((dense, cards));
        let Some(&action) = action_index[state.limited.index()].get(&cards) else {
            check.mismatch(
                Some(row),
                key(),
                "card_on_key_person",
                "a legal action",
                cards.join(" "),
            );
            continue;
        };
        let p = probability[row];
        if !(p > 0.0 && p <= 1.0) {
            check.mismatch(Some(row), key(), "probability", "in (0, 1]", p);
        }
        let table = turns.get(state.limited);
        let size = if mastermind {
            table.rows()
        } else {
            table.cols()
        };
        let (_, strategy) = supports[dense].get_or_insert_with(|| (row, vec![0.0; size]));
        strategy[action] += p;
        check.rows_checked += 1;
    }
    check.rows_total = data.rows();
    for d in 1..=MAX_DAYS {
        for state in State::all().filter(|s| !s.is_win()) {
            let dense = usize::from(d) * STATE_COUNT + state.index();
            match &supports[dense] {
                None => check.mismatch(
                    None,
                    state_text(d, state),
                    "probability",
                    "a support for every non-winning state",
                    "no rows",
                ),
                Some((row, strategy)) => {
                    let sum: f64 = strategy.iter().sum();
                    if (sum - 1.0).abs() > SUM_TOLERANCE {
                        check.mismatch(
                            Some(*row),
                            key_text(data, *row),
                            "probability",
                            "a support summing to 1",
                            format!("sum {sum}"),
                        );
                    }
                }
            }
        }
    }
    Some(supports)
}

fn index_labels<'a>(actions: impl Iterator<Item = [&'a str; 3]>) -> HashMap<[&'a str; 3], usize> {
    actions.enumerate().map(|(i, labels)| (labels, i)).collect()
}

/// The payoff matrix of `state` from the previous day's stored values:
/// after each turn outcome the brain makes its best legal choice.
fn rebuilt_matrix(table: &TurnTable, state: State, previous: &[f64]) -> PayoffMatrix {
    let outcome_values: Vec<f64> = table
        .outcomes
        .iter()
        .map(|outcome| {
            let post = outcome.apply(state);
            BrainTarget::legal(post)
                .map(|target| {
                    let next = target.apply(post);
                    if next.is_win() {
                        1.0
                    } else {
                        previous[next.index()]
                    }
                })
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    let payoffs = table
        .outcome_of
        .iter()
        .map(|&o| outcome_values[usize::from(o)])
        .collect();
    PayoffMatrix::new(table.rows(), table.cols(), payoffs)
}

/// The three files a certificate can implicate.
pub(super) struct CertificateFiles<'a> {
    pub(super) values: (&'a TableData, &'a mut TableCheck),
    pub(super) sigma: (&'a TableData, &'a mut TableCheck),
    pub(super) tau: (&'a TableData, &'a mut TableCheck),
}

/// Certify every stored pair on its rebuilt matrix; returns (games, max gap).
pub(super) fn check_certificates(
    turns: &TurnTables,
    values: &[Vec<f64>],
    sigma: &Supports,
    tau: &Supports,
    files: CertificateFiles<'_>,
) -> (usize, f64) {
    let CertificateFiles {
        values: (values_data, values_check),
        sigma: (sigma_data, sigma_check),
        tau: (tau_data, tau_check),
    } = files;
    let gap_column = values_data.f64s("gap").unwrap_or(&[]);
    let (mut games, mut max_gap) = (0, 0.0f64);
    for d in 1..=MAX_DAYS {
        let states: Vec<State> = State::all().filter(|s| !s.is_win()).collect();
        let certificates: Vec<Option<Certificate>> = states
            .par_iter()
            .map(|&state| {
                let dense = usize::from(d) * STATE_COUNT + state.index();
                let (Some((_, row)), Some((_, col))) = (&sigma[dense], &tau[dense]) else {
                    return None;
                };
                let table = turns.get(state.limited);
                let matrix = rebuilt_matrix(table, state, &values[usize::from(d) - 1]);
                let pair = StrategyPair {
                    row: row.clone(),
                    col: col.clone(),
                };
                Some(certify(&matrix, &pair))
            })
            .collect();
        for (&state, certificate) in states.iter().zip(certificates) {
            let Some(certificate) = certificate else {
                continue;
            };
            games += 1;
            let dense = usize::from(d) * STATE_COUNT + state.index();
            let (sigma_row, tau_row) = (sigma[dense].as_ref(), tau[dense].as_ref());
            let (Some(&(sigma_row, _)), Some(&(tau_row, _))) = (sigma_row, tau_row) else {
                continue;
            };
            let gap = certificate.gap();
            max_gap = max_gap.max(gap);
            sigma_check.max_error = sigma_check.max_error.max(gap);
            tau_check.max_error = tau_check.max_error.max(gap);
            let v = values[usize::from(d)][state.index()];
            let interval = format!("in [{}, {}]", certificate.lower, certificate.upper);
            let value_ok = certificate.lower - VALUE_TOLERANCE <= v
                && v <= certificate.upper + VALUE_TOLERANCE;
            let value_key = || key_text(values_data, dense);
            if !value_ok {
                values_check.mismatch(Some(dense), value_key(), "value", interval, v);
            }
            if gap > GAP_TOLERANCE || gap.is_nan() {
                // Blame the side that concedes more than the stored value
                // (when the value itself is sound), else both.
                let sigma_short = value_ok && v - certificate.lower > GAP_TOLERANCE;
                let tau_short = value_ok && certificate.upper - v > GAP_TOLERANCE;
                let expected = format!("certificate gap <= {GAP_TOLERANCE:e}");
                if sigma_short || !tau_short {
                    let found = format!(
                        "gap {gap:e}: guarantees {} against value {v}",
                        certificate.lower
                    );
                    let key = key_text(sigma_data, sigma_row);
                    sigma_check.mismatch(Some(sigma_row), key, "probability", &expected, found);
                }
                if tau_short || !sigma_short {
                    let found = format!(
                        "gap {gap:e}: concedes {} against value {v}",
                        certificate.upper
                    );
                    let key = key_text(tau_data, tau_row);
                    tau_check.mismatch(Some(tau_row), key, "probability", &expected, found);
                }
            } else {
                // A sound certificate: the stored value is its midpoint and
                // the stored gap its gap (a broken one is reported above).
                if value_ok {
                    let midpoint = certificate.value();
                    values_check.float(dense, value_key, "value", midpoint, v, VALUE_TOLERANCE);
                }
                if let Some(&stored_gap) = gap_column.get(dense) {
                    values_check.float(dense, value_key, "gap", gap, stored_gap, VALUE_TOLERANCE);
                }
            }
        }
    }
    (games, max_gap)
}
