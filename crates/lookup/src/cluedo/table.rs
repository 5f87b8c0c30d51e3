//! Reading the few-candidate table back and answering configurations from
//! it: rows are grouped by configuration and indexed by a packed canonical
//! key (a hash map, never a scan); a configuration outside the table is
//! counted exactly on the spot, so every query gets the exact answer.

use std::collections::HashMap;

use bytes::Bytes;

use super::schema::{FEW_CANDIDATES, MAX_ACTIVE_OPPONENTS, MAX_UNKNOWN_WITH_THREE_ACTIVE};
use crate::error::{Error, Result};
use crate::io::read_parquet;
use gametab_games::cluedo::{CandidateAnswer, FewCandidates, FewCandidatesAnswer, MAX_CANDIDATES};

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A row group of the table.
    Table,
    /// Counted on the spot (the configuration is outside the table).
    Engine,
}

/// Whether the tables cover `canonical` (a canonical configuration): at most
/// two opponents with unknown cards, or three with at most four unknown
/// cards between them.
pub fn in_table_family(canonical: &FewCandidates) -> bool {
    let active = canonical.active_opponents();
    active < MAX_ACTIVE_OPPONENTS
        || (active == MAX_ACTIVE_OPPONENTS
            && canonical.unknown_total() <= MAX_UNKNOWN_WITH_THREE_ACTIVE)
}

/// A dense key of a canonical configuration: 3 bits per unknown count, then
/// per category 2 bits of length and 5 bits per holder set.
pub(crate) fn packed_key(canonical: &FewCandidates) -> u128 {
    let mut key = canonical.unknown.len() as u128;
    for &u in &canonical.unknown {
        key = key << 3 | u128::from(u);
    }
    for list in &canonical.holders {
        key = key << 2 | list.len() as u128;
        for i in 0..MAX_CANDIDATES {
            key = key << 5 | list.get(i).map_or(0, |h| u128::from(h.0));
        }
    }
    key
}

/// The loaded table.
#[derive(Debug, Clone)]
pub struct FewCandidatesTable {
    /// The answers in the order of the file.
    answers: Vec<FewCandidatesAnswer>,
    /// Position in `answers` by packed canonical key.
    index: HashMap<u128, u32>,
}

impl FewCandidatesTable {
    /// Number of configurations in the table.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Number of rows: one per candidate of every configuration.
    pub fn rows(&self) -> usize {
        self.answers
            .iter()
            .map(|a| a.candidates.iter().map(Vec::len).sum::<usize>())
            .sum()
    }

    /// Every stored answer (candidates in canonical order), in the order of
    /// the file: configurations sorted by their key.
    pub fn answers(&self) -> impl ExactSizeIterator<Item = &FewCandidatesAnswer> {
        self.answers.iter()
    }

    /// Whether the table holds no configuration.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// Decode the table from in-memory Parquet bytes.
    ///
    /// # Errors
    /// The errors of [`read_parquet`], and [`Error::BadRow`] for rows that
    /// are not canonical, repeat a candidate, or hold an impossible value.
    pub fn from_bytes(bytes: Bytes) -> Result<FewCandidatesTable> {
        let data = read_parquet(bytes, &FEW_CANDIDATES)?;
        let unknown = data.strings("unknown_cards")?;
        let holders = data.strings("holders")?;
        let category = data.i32s("category")?;
        let candidate = data.i32s("candidate")?;
        let deals = data.i64s("deals")?;
        let envelope_deals = data.i64s("envelope_deals")?;
        let p_envelope = data.f64s("p_envelope")?;
        let p_heuristic = data.f64s("p_heuristic")?;
        let bad = |row: usize, detail: String| Error::BadRow {
            table: FEW_CANDIDATES.name.to_string(),
            row,
            detail,
        };
        let mut answers = Vec::new();
        let mut index = HashMap::new();
        let mut row = 0;
        while row < data.rows() {
            let config = FewCandidates::from_text(&unknown[row], &holders[row])
                .map_err(|e| bad(row, e.to_string()))?;
            if !config.is_canonical() {
                return Err(bad(row, format!("configuration {config} is not canonical")));
            }
            let total = u64::try_from(deals[row]).map_err(|_| bad(row, "negative deals".into()))?;
            let mut answer = FewCandidatesAnswer {
                deals: total,
                candidates: std::array::from_fn(|c| {
                    vec![
                        CandidateAnswer {
                            envelope_deals: 0,
                            p_envelope: f64::NAN,
                            p_heuristic: f64::NAN,
                        };
                        config.holders[c].len()
                    ]
                }),
            };
            let first = row;
            // Equal codes are equal texts: a string column keeps each value once.
            while row < data.rows()
                && unknown.codes()[row] == unknown.codes()[first]
                && holders.codes()[row] == holders.codes()[first]
            {
                let c = usize::try_from(category[row]).ok().filter(|&c| c < 3);
                let i = usize::try_from(candidate[row]).ok();
                let slot = c.zip(i).and_then(|(c, i)| answer.candidates[c].get_mut(i));
                let Some(slot) = slot else {
                    return Err(bad(
                        row,
                        format!("no candidate {}/{}", category[row], candidate[row]),
                    ));
                };
                let envelope = u64::try_from(envelope_deals[row])
                    .ok()
                    .filter(|&e| e <= total);
                let in_unit = |p: f64| (0.0..=1.0).contains(&p);
                match envelope {
                    Some(envelope)
                        if deals[row] == deals[first]
                            && in_unit(p_envelope[row])
                            && in_unit(p_heuristic[row])
                            && slot.p_envelope.is_nan() =>
                    {
                        *slot = CandidateAnswer {
                            envelope_deals: envelope,
                            p_envelope: p_envelope[row],
                            p_heuristic: p_heuristic[row],
                        };
                    }
                    _ => return Err(bad(row, "impossible or repeated candidate row".into())),
                }
                row += 1;
            }
            if answer
                .candidates
                .iter()
                .flatten()
                .any(|a| a.p_envelope.is_nan())
            {
                return Err(bad(
                    first,
                    format!("configuration {config} lacks a candidate row"),
                ));
            }
            let position = u32::try_from(answers.len())
                .map_err(|_| bad(first, "more than 2^32 configurations".into()))?;
            if index.insert(packed_key(&config), position).is_some() {
                return Err(bad(first, format!("configuration {config} appears twice")));
            }
            answers.push(answer);
        }
        Ok(FewCandidatesTable { answers, index })
    }

    /// Number of configurations in the table.
    pub fn configurations(&self) -> usize {
        self.answers.len()
    }

    /// The exact answer for `config` (any labelling), candidates in the order
    /// given, from the table when it holds the configuration and counted on
    /// the spot otherwise.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] when no deal fits the configuration.
    pub fn answer(&self, config: &FewCandidates) -> Result<(FewCandidatesAnswer, Source)> {
        let (canonical, map) = config.canonical();
        let Some(&position) = self.index.get(&packed_key(&canonical)) else {
            return Ok((config.solve()?, Source::Engine));
        };
        let stored = &self.answers[position as usize];
        let candidates = std::array::from_fn(|c| {
            map.to[c]
                .iter()
                .map(|&(cc, ci)| stored.candidates[cc][ci])
                .collect()
        });
        Ok((
            FewCandidatesAnswer {
                deals: stored.deals,
                candidates,
            },
            Source::Table,
        ))
    }
}
