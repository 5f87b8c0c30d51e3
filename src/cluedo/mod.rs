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
use gametab_lookup::cluedo::{
    in_table_family, FewCandidates, FewCandidatesSolver, Opponents, MAX_CANDIDATES,
};
use gametab_lookup::io::{Column, Strings, TableData};
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

/// The candidate lists of one number of active opponents, with their places
/// in the table's order of holder texts.
///
/// The holders text is the three categories' texts joined by `|`, which
/// sorts after every character of a category's text. So two texts compare
/// as their first categories' texts each followed by `|` (a category whose
/// text is a prefix of the other's comes *after* it), then the second ones
/// likewise, then the third ones as plain strings: ranks of these orders
/// replace the strings in the sort.
struct CandidateLists {
    lists: Vec<Vec<Opponents>>,
    /// Rank of each list's text followed by `|` (first and second category).
    inner_rank: Vec<u16>,
    /// Rank of each list's text alone (last category).
    last_rank: Vec<u16>,
}

impl CandidateLists {
    fn new(active: usize) -> CandidateLists {
        let lists = candidate_lists(active);
        // One category's part of `FewCandidates::holders_text`.
        let texts: Vec<String> = lists
            .iter()
            .map(|list| {
                let letters: Vec<String> = list.iter().map(|h| h.letters()).collect();
                letters.join(",")
            })
            .collect();
        let ranks = |key: &dyn Fn(usize) -> String| {
            let mut order: Vec<usize> = (0..lists.len()).collect();
            order.sort_by_cached_key(|&i| key(i));
            let mut rank = vec![0u16; lists.len()];
            for (r, &i) in order.iter().enumerate() {
                rank[i] = r as u16;
            }
            rank
        };
        CandidateLists {
            inner_rank: ranks(&|i| format!("{}|", texts[i])),
            last_rank: ranks(&|i| texts[i].clone()),
            lists,
        }
    }

    /// The canonical configurations with these unknown cards, sorted by
    /// holder text.
    fn canonical(&self, unknown: &[u8]) -> Vec<FewCandidates> {
        let lists = &self.lists;
        let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
        // One task per first category; its configurations reuse one scratch
        // configuration, so only canonical ones are allocated.
        let mut found: Vec<([u16; 3], FewCandidates)> = (0..lists.len())
            .into_par_iter()
            .flat_map_iter(|first| {
                let mut scratch = FewCandidates {
                    holders: Default::default(),
                    unknown: unknown.to_vec(),
                    other_cards: 0,
                };
                let mut found = Vec::new();
                for second in first..lists.len() {
                    for third in second..lists.len() {
                        let indices = [first, second, third];
                        let candidates: usize = indices.iter().map(|&i| lists[i].len()).sum();
                        let Some(other) = (slots + 3).checked_sub(candidates) else {
                            continue;
                        };
                        for (list, &i) in scratch.holders.iter_mut().zip(&indices) {
                            list.clone_from(&lists[i]);
                        }
                        scratch.other_cards = other as u8;
                        if !scratch.is_canonical() || !in_table_family(&scratch) {
                            continue;
                        }
                        let holders = scratch.holders.clone();
                        if let Ok(config) =
                            FewCandidates::new(holders, unknown.to_vec(), other as u8)
                        {
                            let key = [
                                self.inner_rank[first],
                                self.inner_rank[second],
                                self.last_rank[third],
                            ];
                            found.push((key, config));
                        }
                    }
                }
                found
            })
            .collect();
        // Keys are distinct, so the unstable parallel sort is deterministic.
        found.par_sort_unstable_by_key(|(key, _)| *key);
        found.into_iter().map(|(_, config)| config).collect()
    }
}

/// The canonical configurations of the tabulated family, sorted by their
/// table key (unknown-card text, then holder text).
pub fn family() -> Vec<FewCandidates> {
    let mut unknown: Vec<Vec<u8>> = (0..=MAX_ACTIVE_OPPONENTS)
        .flat_map(unknown_vectors)
        .filter(|u| {
            let slots: usize = u.iter().map(|&x| usize::from(x)).sum();
            u.len() < MAX_ACTIVE_OPPONENTS || slots <= MAX_UNKNOWN_WITH_THREE_ACTIVE
        })
        .collect();
    // Single digits joined by commas sort as the vectors of digits do.
    unknown.sort();
    let lists: Vec<CandidateLists> = (0..=MAX_ACTIVE_OPPONENTS)
        .map(CandidateLists::new)
        .collect();
    unknown
        .iter()
        .flat_map(|u| lists[u.len()].canonical(u))
        .collect()
}

/// The table rows of `family` (inconsistent configurations have no rows).
pub fn table(family: &[FewCandidates]) -> TableData {
    let answers: Vec<_> = family
        .par_iter()
        .map_init(FewCandidatesSolver::new, |solver, config| {
            let answer = solver.solve(config).ok()?;
            Some((config.unknown_text(), config.holders_text(), answer))
        })
        .collect();
    let rows: usize = answers
        .iter()
        .flatten()
        .map(|(_, _, a)| a.candidates.iter().map(Vec::len).sum::<usize>())
        .sum();
    let mut unknown = Strings::new();
    let mut holders = Strings::new();
    let mut category = Vec::with_capacity(rows);
    let mut candidate = Vec::with_capacity(rows);
    let mut active = Vec::with_capacity(rows);
    let mut other = Vec::with_capacity(rows);
    let mut deals = Vec::with_capacity(rows);
    let mut envelope_deals = Vec::with_capacity(rows);
    let mut p_envelope = Vec::with_capacity(rows);
    let mut p_heuristic = Vec::with_capacity(rows);
    for (config, answer) in family.iter().zip(&answers) {
        let Some((unknown_text, holders_text, answer)) = answer else {
            continue;
        };
        let config_rows = answer.candidates.iter().map(Vec::len).sum();
        unknown.push_repeated(unknown_text, config_rows);
        holders.push_repeated(holders_text, config_rows);
        for (c, list) in answer.candidates.iter().enumerate() {
            for (i, a) in list.iter().enumerate() {
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
            Column::Utf8(unknown),
            Column::Utf8(holders),
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
