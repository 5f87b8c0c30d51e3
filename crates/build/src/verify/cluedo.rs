//! Cluedo checks of `gametab verify`: the few-candidate table is loaded by
//! its lookup-crate loader (canonical configurations, complete candidate
//! rows), then a deterministic sample of rows (or every row) is recounted
//! exactly with the lookup crate's engine (`FewCandidates::solve`) and
//! compared: counts exactly, probabilities within [`FLOAT_TOLERANCE`].

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use gametab_games::cluedo::{FewCandidates, FewCandidatesAnswer};
use gametab_lookup::cluedo::schema::FEW_CANDIDATES;
use gametab_lookup::cluedo::FewCandidatesTable;
use gametab_lookup::io::TableData;

use super::files::LoadedFiles;
use super::report::{key_text, TableCheck};
use super::sample::sample_rows;
use super::Sampling;

/// Largest accepted difference between a stored probability and the
/// engine's (both are one division of the same exact counts).
pub const FLOAT_TOLERANCE: f64 = 1e-12;

/// Exact answers already counted, by configuration text.
type Answers = HashMap<(String, String), (FewCandidates, FewCandidatesAnswer)>;

fn check_row(
    data: &TableData,
    row: usize,
    answers: &mut Answers,
    check: &mut TableCheck,
) -> Result<(), String> {
    let unknown = &data.strings("unknown_cards").map_err(|e| e.to_string())?[row];
    let holders = &data.strings("holders").map_err(|e| e.to_string())?[row];
    let text = (unknown.to_string(), holders.to_string());
    let (config, answer) = match answers.entry(text) {
        Entry::Occupied(known) => known.into_mut(),
        Entry::Vacant(slot) => {
            let config = FewCandidates::from_text(unknown, holders).map_err(|e| e.to_string())?;
            if config.canonical().0 != config {
                return Err(format!("configuration {config} is not canonical"));
            }
            let answer = config.solve().map_err(|e| e.to_string())?;
            slot.insert((config, answer))
        }
    };
    let (category, candidate) = (
        data.i32s("category").map_err(|e| e.to_string())?[row],
        data.i32s("candidate").map_err(|e| e.to_string())?[row],
    );
    let expected = usize::try_from(category)
        .ok()
        .and_then(|c| answer.candidates.get(c))
        .zip(usize::try_from(candidate).ok())
        .and_then(|(list, i)| list.get(i))
        .ok_or_else(|| format!("no candidate {category}/{candidate} in {config}"))?;
    let key = || key_text(data, row);
    let active = i32::try_from(config.active_opponents()).unwrap_or(i32::MAX);
    let found_active = data.i32s("active_opponents").map_err(|e| e.to_string())?[row];
    check.exact(row, key, "active_opponents", active, found_active);
    let found_other = data.i32s("other_cards").map_err(|e| e.to_string())?[row];
    check.exact(
        row,
        key,
        "other_cards",
        i32::from(config.other_cards),
        found_other,
    );
    let deals = i64::try_from(answer.deals).unwrap_or(i64::MAX);
    check.exact(
        row,
        key,
        "deals",
        deals,
        data.i64s("deals").map_err(|e| e.to_string())?[row],
    );
    let envelope = i64::try_from(expected.envelope_deals).unwrap_or(i64::MAX);
    let found_envelope = data.i64s("envelope_deals").map_err(|e| e.to_string())?[row];
    check.exact(row, key, "envelope_deals", envelope, found_envelope);
    for (column, value) in [
        ("p_envelope", expected.p_envelope),
        ("p_heuristic", expected.p_heuristic),
    ] {
        let found = data.f64s(column).map_err(|e| e.to_string())?[row];
        check.float(row, key, column, value, found, FLOAT_TOLERANCE);
    }
    Ok(())
}

/// Check the few-candidate table.
pub fn check(loaded: &LoadedFiles, sampling: &Sampling) -> Vec<TableCheck> {
    let schema = &FEW_CANDIDATES;
    let mut check = TableCheck::new(schema.file);
    let (Some(data), Some(bytes)) = (loaded.table(schema), loaded.bytes.get(schema.file)) else {
        return vec![check];
    };
    check.rows_total = data.rows();
    if let Err(e) = FewCandidatesTable::from_bytes(bytes.clone()) {
        check.file_mismatch("file", "a table the lookup loader accepts", e);
    }
    let mut answers = Answers::new();
    for row in sample_rows(
        schema.name,
        data.rows(),
        sampling.rows(data.rows()),
        sampling.seed,
    ) {
        match check_row(data, row, &mut answers, &mut check) {
            Ok(()) => check.rows_checked += 1,
            Err(e) => check.mismatch(Some(row), key_text(data, row), "key", "a valid key", e),
        }
    }
    check.notes.push(format!(
        "{} configurations recounted by the lookup engine; counts exact, probabilities within \
         {FLOAT_TOLERANCE:e}",
        answers.len()
    ));
    vec![check]
}
