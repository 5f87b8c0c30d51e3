//! Comparing a decoded bundle with the complete tables it was written
//! from: every answer the bundle holds must be the tables' own, to the
//! bit. Run by `encode` (feature `write`) before a bundle is returned, and by
//! `gametab verify` on a built set.

use std::fmt;

use crate::murder_plan::tables::{brain_held, Coverage, MurderPlanTables, KEYS};
use gametab_games::murder_plan::model::{Placement, State, STATE_COUNT};

/// One answer of the bundle that differs from the tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// What differs: `reachable`, `value`, `gap`, `mastermind strategy`,
    /// `protagonists strategy`, `brain choice`, `win rate`, or `coverage`.
    pub what: &'static str,
    /// The key: `days_left D, <state>` (or the win rate's index).
    pub key: String,
    /// The tables' answer.
    pub expected: String,
    /// The bundle's.
    pub found: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {}: tables {}, bundle {}",
            self.what, self.key, self.expected, self.found
        )
    }
}

/// What [`compare`] found.
#[derive(Debug, Clone, Default)]
pub struct Comparison {
    /// Answers compared.
    pub compared: usize,
    /// Answers that differ.
    pub differing: usize,
    /// The first of them (up to the limit asked for).
    pub differences: Vec<Difference>,
}

/// Collects differences, keeping the first `limit`.
struct Differences {
    limit: usize,
    result: Comparison,
}

impl Differences {
    fn check<T: PartialEq + fmt::Debug>(
        &mut self,
        what: &'static str,
        key: impl FnOnce() -> String,
        expected: T,
        found: T,
    ) {
        self.result.compared += 1;
        if expected == found {
            return;
        }
        self.result.differing += 1;
        if self.result.differences.len() < self.limit {
            self.result.differences.push(Difference {
                what,
                key: key(),
                expected: format!("{expected:?}"),
                found: format!("{found:?}"),
            });
        }
    }
}

fn key_text(key: usize) -> String {
    let state = State::from_index(key % STATE_COUNT).expect("key below KEYS");
    format!("days_left {}, {state:?}", key / STATE_COUNT)
}

/// A support as comparable bits.
fn bits<Card: Copy>(support: &[(Placement<Card>, f64)]) -> Vec<(Placement<Card>, u64)> {
    support.iter().map(|&(a, p)| (a, p.to_bits())).collect()
}

/// Compare every answer `bundle` holds with `tables` (complete, from the
/// Parquet files): reachability of every key; value and gap of every held
/// key; both supports (actions, order, probability bits) of every
/// position; the brain's target and value of every held post-card state;
/// every win rate. Keeps the first `limit` differences.
pub fn compare(tables: &MurderPlanTables, bundle: &MurderPlanTables, limit: usize) -> Comparison {
    let mut out = Differences {
        limit,
        result: Comparison::default(),
    };
    let complete = (tables.coverage, bundle.coverage);
    out.check(
        "coverage",
        || "the tables".to_string(),
        (Coverage::Everything, Coverage::Reachable),
        complete,
    );
    if complete != (Coverage::Everything, Coverage::Reachable) {
        return out.result;
    }
    for key in 0..KEYS {
        let reachable = (tables.reachable[key], bundle.reachable[key]);
        out.check("reachable", || key_text(key), reachable.0, reachable.1);
        let state = State::from_index(key % STATE_COUNT).expect("key below KEYS");
        let days = key / STATE_COUNT;
        if days == 0 || state.is_win() || bundle.reachable[key] {
            let (a, b) = (tables.values[key], bundle.values[key]);
            out.check("value", || key_text(key), a.to_bits(), b.to_bits());
            let (a, b) = (tables.gaps[key], bundle.gaps[key]);
            out.check("gap", || key_text(key), a.to_bits(), b.to_bits());
        }
        let position = days >= 1 && !state.is_win() && bundle.reachable[key];
        // Outside the positions the bundle holds no support at all.
        out.check(
            "mastermind strategy",
            || key_text(key),
            if position {
                bits(tables.mastermind.get(key))
            } else {
                Vec::new()
            },
            bits(bundle.mastermind.get(key)),
        );
        out.check(
            "protagonists strategy",
            || key_text(key),
            if position {
                bits(tables.protagonists.get(key))
            } else {
                Vec::new()
            },
            bits(bundle.protagonists.get(key)),
        );
        if days >= 1 && brain_held(&bundle.reachable, key) {
            let (a, b) = (
                tables.brain[key - STATE_COUNT],
                bundle.brain[key - STATE_COUNT],
            );
            out.check(
                "brain choice",
                || key_text(key),
                (a.0, a.1.to_bits()),
                (b.0, b.1.to_bits()),
            );
        }
    }
    for (i, (a, b)) in tables.win_rates.iter().zip(&bundle.win_rates).enumerate() {
        out.check("win rate", || format!("row {i}"), a.to_bits(), b.to_bits());
    }
    out.check(
        "win rate",
        || "rows".to_string(),
        tables.win_rates.len(),
        bundle.win_rates.len(),
    );
    out.result
}
