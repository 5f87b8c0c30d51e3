//! Cluedo: the few-candidate table builder (the `gametab cluedo` notebook
//! command is `gametab_answers::cluedo`'s). The exact engine lives in `gametab_games::cluedo`,
//! the table schema in `gametab_lookup::cluedo`; this module enumerates the tabulated family of
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

pub mod simulate;

use crate::error::Result;
use std::collections::BTreeMap;
use std::time::Instant;

use gametab_games::cluedo::{FewCandidates, FewCandidatesSolver, Opponents, MAX_CANDIDATES};
use gametab_lookup::cluedo::in_table_family;
use gametab_lookup::cluedo::schema::{
    FEW_CANDIDATES, MAX_ACTIVE_OPPONENTS, MAX_UNKNOWN_WITH_THREE_ACTIVE,
};
use gametab_lookup::io::{Column, Strings, TableData};
use rayon::prelude::*;

use crate::game::{command_of, parse, GameBuild, GameCommand, Plot};
use crate::options::BuildOptions;
use crate::output::TableWriter;
use gametab_lookup::GameId;

/// Most unknown cards of one opponent (a three-player hand).
const MAX_UNKNOWN: u8 = 6;

/// Cluedo in the registry: the few-candidate table, checked by sampling
/// in `verify`, the exact-vs-heuristic charts and `gametab cluedo`.
pub const GAME: GameBuild = GameBuild {
    id: GameId::Cluedo,
    build: build_tables,
    verify: crate::verify::cluedo::check,
    plots: &[
        Plot {
            file: "cluedo_exact_vs_heuristic.svg",
            draw: crate::plots::cluedo_exact_vs_heuristic,
        },
        Plot {
            file: "cluedo_heuristic_error.svg",
            draw: crate::plots::cluedo_heuristic_error,
        },
    ],
    commands: &[GameCommand {
        name: "cluedo",
        command: || {
            command_of::<gametab_answers::cluedo::notebook::Args>(
                "cluedo",
                "Cluedo: the exact notebook of a game log, and which suggestion to make",
                "Examples:\n  gametab cluedo --log scripts/examples/cluedo-game.json\n  \
                 gametab cluedo --log scripts/examples/cluedo-game.json --advise --top 5\n\n\
                 The log's format: docs/cluedo.md.",
            )
        },
        run: |m, out| {
            Ok(gametab_answers::cluedo::notebook::run(&parse(m)?, &mut {
                out
            })?)
        },
    }],
};

/// Build the few-candidate table.
///
/// # Errors
/// Fails when the table cannot be encoded or written.
pub fn build_tables(options: &BuildOptions, writer: &mut TableWriter) -> Result<Vec<String>> {
    let bar = options.progress.phase("cluedo", 0, "");
    bar.set_message("counting the few-candidate table");
    let start = Instant::now();
    let family = family();
    let enumerated = start.elapsed();
    let data = table(&family)?;
    let counted = start.elapsed() - enumerated;
    let written = writer.write(&data)?;
    crate::progress::Progress::done(&bar, format!("{} rows counted", written.rows));
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

/// Configurations counted by one task of [`table`].
const CONFIGURATIONS_PER_TASK: usize = 1024;
/// Rows per configuration, about (4.5 on average over the family), to size
/// a task's columns.
const ROWS_PER_CONFIGURATION: usize = 5;

/// The rows of a run of configurations, column by column.
#[derive(Debug)]
struct Rows {
    /// Per configuration with rows: its unknown and holder texts and its
    /// number of rows.
    keys: Vec<(String, String, usize)>,
    category: Vec<i32>,
    candidate: Vec<i32>,
    active: Vec<i32>,
    other: Vec<i32>,
    deals: Vec<i64>,
    envelope_deals: Vec<i64>,
    p_envelope: Vec<f64>,
    p_heuristic: Vec<f64>,
}

impl Rows {
    /// No rows yet, room for `rows` in every column.
    fn with_capacity(rows: usize) -> Rows {
        Rows {
            keys: Vec::new(),
            category: Vec::with_capacity(rows),
            candidate: Vec::with_capacity(rows),
            active: Vec::with_capacity(rows),
            other: Vec::with_capacity(rows),
            deals: Vec::with_capacity(rows),
            envelope_deals: Vec::with_capacity(rows),
            p_envelope: Vec::with_capacity(rows),
            p_heuristic: Vec::with_capacity(rows),
        }
    }

    /// Count `configs` (inconsistent ones have no rows).
    fn count(solver: &mut FewCandidatesSolver, configs: &[FewCandidates]) -> Rows {
        let mut rows = Rows::with_capacity(configs.len() * ROWS_PER_CONFIGURATION);
        for config in configs {
            let Ok(answer) = solver.solve(config) else {
                continue;
            };
            let first = rows.category.len();
            for (c, list) in answer.candidates.iter().enumerate() {
                for (i, a) in list.iter().enumerate() {
                    rows.category.push(c as i32);
                    rows.candidate.push(i as i32);
                    rows.envelope_deals.push(a.envelope_deals as i64);
                    rows.p_envelope.push(a.p_envelope);
                    rows.p_heuristic.push(a.p_heuristic);
                }
            }
            let added = rows.category.len() - first;
            rows.active
                .extend(std::iter::repeat_n(config.active_opponents() as i32, added));
            rows.other
                .extend(std::iter::repeat_n(i32::from(config.other_cards), added));
            rows.deals
                .extend(std::iter::repeat_n(answer.deals as i64, added));
            rows.keys
                .push((config.unknown_text(), config.holders_text(), added));
        }
        rows
    }

    /// Append the numeric columns of `more` after these rows (not its keys).
    fn append_numbers(&mut self, more: &Rows) {
        self.category.extend_from_slice(&more.category);
        self.candidate.extend_from_slice(&more.candidate);
        self.active.extend_from_slice(&more.active);
        self.other.extend_from_slice(&more.other);
        self.deals.extend_from_slice(&more.deals);
        self.envelope_deals.extend_from_slice(&more.envelope_deals);
        self.p_envelope.extend_from_slice(&more.p_envelope);
        self.p_heuristic.extend_from_slice(&more.p_heuristic);
    }
}

/// One text column of the rows of `tasks`: `text` picks it from a key.
fn text_column(tasks: &[Rows], text: impl Fn(&(String, String, usize)) -> &str) -> Strings {
    let mut column = Strings::new();
    for key in tasks.iter().flat_map(|task| &task.keys) {
        column.push_repeated(text(key), key.2);
    }
    column
}

/// The table rows of `family` (inconsistent configurations have no rows).
///
/// # Errors
/// Only if the columns stopped matching the schema (a bug, named).
pub fn table(family: &[FewCandidates]) -> gametab_lookup::Result<TableData> {
    // Counting and row building in parallel tasks; then the two text columns
    // are interned and the numeric ones concatenated side by side.
    let tasks: Vec<Rows> = family
        .par_chunks(CONFIGURATIONS_PER_TASK)
        .map_init(FewCandidatesSolver::new, Rows::count)
        .collect();
    let ((unknown, holders), rows) = rayon::join(
        || {
            rayon::join(
                || text_column(&tasks, |key| &key.0),
                || text_column(&tasks, |key| &key.1),
            )
        },
        || {
            let mut rows = Rows::with_capacity(tasks.iter().map(|t| t.category.len()).sum());
            for task in &tasks {
                rows.append_numbers(task);
            }
            rows
        },
    );
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
    let columns = [
        ("unknown_cards", Column::Utf8(unknown)),
        ("holders", Column::Utf8(holders)),
        ("category", Column::Int32(rows.category)),
        ("candidate", Column::Int32(rows.candidate)),
        ("active_opponents", Column::Int32(rows.active)),
        ("other_cards", Column::Int32(rows.other)),
        ("deals", Column::Int64(rows.deals)),
        ("envelope_deals", Column::Int64(rows.envelope_deals)),
        ("p_envelope", Column::Float64(rows.p_envelope)),
        ("p_heuristic", Column::Float64(rows.p_heuristic)),
    ];
    TableData::from_named(FEW_CANDIDATES, columns, params)
}
