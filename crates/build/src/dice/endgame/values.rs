//! The endgame values table: one row per game, its value, certificate and
//! LP record, from each game's [`ValueRecord`] ([`values_of`];
//! `rows::values` gives the records of solved games).

use std::collections::BTreeMap;

use gametab_games::dice::endgame::Endgame;
use gametab_lookup::dice::schema::ENDGAME_VALUES;
use gametab_lookup::io::{Column, Strings, TableData};
use gametab_solve::endgame::{Certificate, Fraction, LpSize, Method};

use super::rows::{key_order, GameKeys};
use crate::error::Result;

/// What the values table holds of one game.
#[derive(Debug, Clone, Copy)]
pub struct ValueRecord {
    /// The game.
    pub game: Endgame,
    /// The solver's value.
    pub value: f64,
    /// The value as a fraction, when one was recovered.
    pub exact: Option<Fraction>,
    /// The certificate (for a game stored by its support, the sparse one).
    pub certificate: Certificate,
    /// How it was solved.
    pub method: Method,
    /// LPs solved.
    pub lps: u32,
    /// The last LP's size.
    pub size: LpSize,
    /// The full LP's size.
    pub full_size: LpSize,
}

/// The values table of the games `records`, in key order ([`key_order`];
/// games of the same key keep their order in `records`).
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn values_of(records: impl IntoIterator<Item = ValueRecord>) -> Result<TableData> {
    let mut records: Vec<ValueRecord> = records.into_iter().collect();
    records.sort_by_key(|r| key_order(r.game));
    let mut keys = GameKeys::new();
    let (mut value, mut exact, mut gap, mut upper, mut lower) = (
        Vec::new(),
        Strings::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    let (mut method, mut solves) = (Strings::new(), Vec::new());
    let mut sizes: [Vec<i64>; 6] = Default::default();
    for r in records {
        let (s, f) = (r.size, r.full_size);
        keys.push(r.game, 1);
        value.push(r.value);
        exact.push(&r.exact.map(|f| f.to_string()).unwrap_or_default());
        gap.push(r.certificate.exploitability());
        upper.push(r.certificate.upper);
        lower.push(r.certificate.lower);
        method.push(r.method.name());
        solves.push(i32::try_from(r.lps).unwrap_or(i32::MAX));
        for (column, n) in sizes
            .iter_mut()
            .zip([s.rows, s.columns, s.nonzeros, f.rows, f.columns, f.nonzeros])
        {
            column.push(i64::try_from(n).unwrap_or(i64::MAX));
        }
    }
    let [rows, columns, nonzeros, full_rows, full_columns, full_nonzeros] = sizes;
    let mut named: Vec<(&str, Column)> = keys.columns().into();
    named.extend([
        ("value", Column::Float64(value)),
        ("value_exact", Column::Utf8(exact)),
        ("exploitability", Column::Float64(gap)),
        ("best_response_one", Column::Float64(upper)),
        ("best_response_two", Column::Float64(lower)),
        ("method", Column::Utf8(method)),
        ("lp_solves", Column::Int32(solves)),
        ("lp_rows", Column::Int64(rows)),
        ("lp_columns", Column::Int64(columns)),
        ("lp_nonzeros", Column::Int64(nonzeros)),
        ("full_lp_rows", Column::Int64(full_rows)),
        ("full_lp_columns", Column::Int64(full_columns)),
        ("full_lp_nonzeros", Column::Int64(full_nonzeros)),
    ]);
    Ok(TableData::from_named(
        ENDGAME_VALUES,
        named,
        BTreeMap::new(),
    )?)
}
