//! Cluedo: the few-candidate table builder and the `gametab cluedo`
//! notebook command. The exact engine and the table schema live in
//! `gametab_lookup::cluedo`; this module enumerates the tabulated family of
//! canonical configurations, counts each exactly (in parallel) and writes
//! `cluedo_few_candidates.parquet` sorted by its key.
//!
//! The family: every configuration in which each category has at most three
//! candidates and at most two opponents still hold unknown cards (up to six
//! each; this is every configuration of the three-player game), plus those
//! with three such opponents holding at most four unknown cards in total.
//! Four or five opponents with unknown cards would multiply the family by
//! the 16 or 32 possible holder sets of every candidate (billions of rows),
//! so those configurations are answered by the engine at query time.

pub mod cli;
pub mod simulate;

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Result;
use gametab_lookup::cluedo::schema::{
    FEW_CANDIDATES, MAX_ACTIVE_OPPONENTS, MAX_UNKNOWN_WITH_THREE_ACTIVE,
};
use gametab_lookup::cluedo::{in_table_family, FewCandidates, Opponents, MAX_CANDIDATES};
use gametab_lookup::io::{Column, TableData};
use rayon::prelude::*;

use crate::output::TableWriter;
use crate::pipeline::BuildOptions;

/// Most unknown cards of one opponent (a three-player hand).
const MAX_UNKNOWN: u8 = 6;

/// Build the few-candidate table.
///
/// # Errors
/// Fails when the table cannot be encoded or written.
pub fn build_tables(_options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let start = Instant::now();
    let family = family();
    let enumerated = start.elapsed();
    let data = table(&family);
    let counted = start.elapsed() - enumerated;
    let written = writer.write(&data)?;
    Ok(vec![
        format!(
            "{} canonical configurations enumerated in {:.2} s",
            family.len(),
            enumerated.as_secs_f64()
        ),
        format!(
            "{}: {} rows, {} bytes, counted in {:.2} s",
            written.file,
            written.rows,
            written.bytes,
            counted.as_secs_f64()
        ),
    ])
}

/// Unknown-card vectors (sorted, most first) of `active` opponents.
fn unknown_vectors(active: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for _ in 0..active {
        out = out
            .into_iter()
            .flat_map(|v: Vec<u8>| {
                let top = v.last().copied().unwrap_or(MAX_UNKNOWN);
                (1..=top).map(move |u| {
                    let mut w = v.clone();
                    w.push(u);
                    w
                })
            })
            .collect();
    }
    out
}

/// Every sorted list of 1 to 3 holder sets over `active` opponents, in the
/// canonical order of categories (length, then holder sets).
fn candidate_lists(active: usize) -> Vec<Vec<Opponents>> {
    let masks = 1u8 << active;
    let mut lists: Vec<Vec<Opponents>> = Vec::new();
    for len in 1..=MAX_CANDIDATES {
        let mut current = vec![0u8; len];
        loop {
            lists.push(current.iter().map(|&m| Opponents(m)).collect());
            // Next non-decreasing sequence.
            let Some(i) = (0..len).rev().find(|&i| current[i] + 1 < masks) else {
                break;
            };
            let value = current[i] + 1;
            for slot in &mut current[i..] {
                *slot = value;
            }
        }
    }
    lists
}

/// The canonical configurations of the tabulated family, sorted by their
/// table key.
pub fn family() -> Vec<FewCandidates> {
    let mut family = Vec::new();
    for active in 0..=MAX_ACTIVE_OPPONENTS {
        let lists = candidate_lists(active);
        let n = lists.len();
        let triples: Vec<[usize; 3]> = (0..n)
            .flat_map(|i| (i..n).flat_map(move |j| (j..n).map(move |k| [i, j, k])))
            .collect();
        for unknown in unknown_vectors(active) {
            let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
            if active == MAX_ACTIVE_OPPONENTS && slots > MAX_UNKNOWN_WITH_THREE_ACTIVE {
                continue;
            }
            let canonical = triples.par_iter().filter_map(|indices| {
                let holders = indices.map(|i| lists[i].clone());
                let candidates: usize = holders.iter().map(Vec::len).sum();
                let other = (slots + 3).checked_sub(candidates)?;
                let config = FewCandidates::new(holders, unknown.clone(), other as u8).ok()?;
                (config.canonical().0 == config && in_table_family(&config)).then_some(config)
            });
            family.par_extend(canonical);
        }
    }
    family.sort_by_cached_key(|c| (c.unknown_text(), c.holders_text()));
    family
}

/// The table rows of `family` (inconsistent configurations have no rows).
pub fn table(family: &[FewCandidates]) -> TableData {
    let answers: Vec<_> = family.par_iter().map(|c| c.solve().ok()).collect();
    let mut unknown = Vec::new();
    let mut holders = Vec::new();
    let mut category = Vec::new();
    let mut candidate = Vec::new();
    let mut active = Vec::new();
    let mut other = Vec::new();
    let mut deals = Vec::new();
    let mut envelope_deals = Vec::new();
    let mut p_envelope = Vec::new();
    let mut p_heuristic = Vec::new();
    for (config, answer) in family.iter().zip(&answers) {
        let Some(answer) = answer else { continue };
        let (unknown_text, holders_text) = (config.unknown_text(), config.holders_text());
        for (c, list) in answer.candidates.iter().enumerate() {
            for (i, a) in list.iter().enumerate() {
                unknown.push(unknown_text.clone());
                holders.push(holders_text.clone());
                category.push(c as i32);
                candidate.push(i as i32);
                active.push(config.active_opponents() as i32);
                other.push(i32::from(config.other_cards));
                deals.push(answer.deals as i64);
                envelope_deals.push(a.envelope_deals as i64);
                p_envelope.push(a.p_envelope);
                p_heuristic.push(a.p_heuristic);
            }
        }
    }
    let params: BTreeMap<String, String> = [
        ("max_candidates_per_category", MAX_CANDIDATES.to_string()),
        ("max_active_opponents", MAX_ACTIVE_OPPONENTS.to_string()),
        (
            "max_unknown_with_three_active",
            MAX_UNKNOWN_WITH_THREE_ACTIVE.to_string(),
        ),
        ("max_unknown_per_opponent", MAX_UNKNOWN.to_string()),
        (
            "heuristic",
            "uniform over candidate triples with at least one deal".to_string(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    TableData {
        schema: FEW_CANDIDATES,
        columns: vec![
            Column::Utf8(unknown.into()),
            Column::Utf8(holders.into()),
            Column::Int32(category),
            Column::Int32(candidate),
            Column::Int32(active),
            Column::Int32(other),
            Column::Int64(deals),
            Column::Int64(envelope_deals),
            Column::Float64(p_envelope),
            Column::Float64(p_heuristic),
        ],
        params,
    }
}
