//! Few-candidate configurations: the late-game states in which every
//! category has at most three candidates for the envelope, described the way
//! the tables key them.
//!
//! A configuration lists, per category, each candidate's *possible holders*
//! among the opponents (possibly none: then it can only be in the envelope),
//! each opponent's number of *unknown cards* (hand slots not yet
//! identified) and the number of *other cards*: unplaced cards that are not
//! candidates (so not in the envelope) and may be held by any opponent with
//! unknown cards. The unknown cards add up to the non-envelope candidates
//! plus the other cards.
//!
//! The answer depends only on the opponents who still have unknown cards,
//! not on the number of players, so the canonical form drops the others,
//! relabels the rest (more unknown cards first), sorts the candidates
//! within each category and sorts the categories. [`FewCandidates::solve`]
//! counts exactly: for each candidate triple, the ways to give the other
//! candidates to possible holders and the other cards to the remaining
//! slots; the published heuristic's probability (uniform over the triples
//! with at least one deal) is given beside the exact one.

use std::fmt::{self, Write as _};

use crate::error::{Error, Result};

/// Most candidates per category in a configuration.
pub const MAX_CANDIDATES: usize = 3;
/// Most opponents (six players).
pub const MAX_OPPONENTS: usize = 5;

/// A set of opponents, bit `i` = opponent `i` (letters `A`, `B`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Opponents(pub u8);

impl Opponents {
    /// Letters of the opponents, or `-` for none.
    pub fn letters(self) -> String {
        let mut text = String::new();
        self.write_letters(&mut text);
        text
    }

    /// Append [`Opponents::letters`] to `text`.
    fn write_letters(self, text: &mut String) {
        if self.0 == 0 {
            text.push('-');
        }
        for i in (0..MAX_OPPONENTS as u8).filter(|i| self.0 >> i & 1 == 1) {
            text.push(char::from(b'A' + i));
        }
    }
}

/// A few-candidate configuration (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FewCandidates {
    /// Possible holders of each candidate, per category.
    pub holders: [Vec<Opponents>; 3],
    /// Unknown cards of each opponent (opponent `i` is letter `i`).
    pub unknown: Vec<u8>,
    /// Unplaced non-candidate cards.
    pub other_cards: u8,
}

/// The exact answer for one candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CandidateAnswer {
    /// Deals with this candidate in the envelope.
    pub envelope_deals: u64,
    /// Exact P(in envelope), `envelope_deals / deals`.
    pub p_envelope: f64,
    /// The heuristic's P(in envelope): the share of consistent triples
    /// (those with at least one deal) that contain the candidate.
    pub p_heuristic: f64,
}

/// The exact answer for a configuration, candidates in the order given.
#[derive(Debug, Clone, PartialEq)]
pub struct FewCandidatesAnswer {
    /// Consistent deals (placements of the unknown cards).
    pub deals: u64,
    /// Per category, per candidate.
    pub candidates: [Vec<CandidateAnswer>; 3],
}

/// Where each candidate of a configuration went in its canonical form:
/// `to[category][i] = (canonical category, canonical index)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateMap {
    /// The destination of every candidate.
    pub to: [Vec<(usize, usize)>; 3],
}

impl FewCandidates {
    /// A checked configuration.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a category with no or more than three
    /// candidates, more than five opponents, more than six unknown cards for
    /// one opponent, a holder who is not an opponent, or unknown cards that
    /// do not add up to the non-envelope candidates plus the other cards.
    pub fn new(holders: [Vec<Opponents>; 3], unknown: Vec<u8>, other_cards: u8) -> Result<Self> {
        let bad = |detail: String| Error::OutOfRange {
            what: crate::Argument::FewCandidateConfiguration,
            detail,
        };
        if unknown.len() > MAX_OPPONENTS || unknown.iter().any(|&u| u > 6) {
            return Err(bad(format!(
                "unknown cards {unknown:?}: at most {MAX_OPPONENTS} opponents with 0 to 6 each"
            )));
        }
        let everyone = (1u8 << unknown.len()) - 1;
        for (c, list) in holders.iter().enumerate() {
            if list.is_empty() || list.len() > MAX_CANDIDATES {
                return Err(bad(format!(
                    "category {c} has {} candidates, not 1 to {MAX_CANDIDATES}",
                    list.len()
                )));
            }
            if let Some(h) = list.iter().find(|h| h.0 & !everyone != 0) {
                return Err(bad(format!(
                    "holders {} name an opponent beyond the {} given",
                    h.letters(),
                    unknown.len()
                )));
            }
        }
        let candidates: usize = holders.iter().map(Vec::len).sum();
        let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
        if slots != candidates - 3 + usize::from(other_cards) {
            return Err(bad(format!(
                "{slots} unknown cards but {} non-envelope candidates and {other_cards} other cards",
                candidates - 3
            )));
        }
        Ok(FewCandidates {
            holders,
            unknown,
            other_cards,
        })
    }

    /// Number of candidates.
    pub fn candidates(&self) -> usize {
        self.holders.iter().map(Vec::len).sum()
    }

    /// Number of opponents with unknown cards.
    pub fn active_opponents(&self) -> usize {
        self.unknown.iter().filter(|&&u| u > 0).count()
    }

    /// Total unknown cards of the opponents.
    pub fn unknown_total(&self) -> usize {
        self.unknown.iter().map(|&u| usize::from(u)).sum()
    }

    /// The canonical form and where every candidate went.
    pub fn canonical(&self) -> (FewCandidates, CandidateMap) {
        let active: Vec<usize> = (0..self.unknown.len())
            .filter(|&i| self.unknown[i] > 0)
            .collect();
        let mut best: Option<(Vec<u8>, FewCandidates, CandidateMap)> = None;
        let mut order = active.clone();
        permutations(&mut order, 0, &mut |order| {
            // order[new] = old; more unknown cards first.
            if order
                .windows(2)
                .any(|w| self.unknown[w[0]] < self.unknown[w[1]])
            {
                return;
            }
            let relabel = |h: Opponents| {
                let bits = order
                    .iter()
                    .enumerate()
                    .filter(|(_, &old)| h.0 >> old & 1 == 1)
                    .fold(0u8, |m, (new, _)| m | 1 << new);
                Opponents(bits)
            };
            // Sort candidates within categories, then the categories.
            let mut categories: Vec<(Vec<(Opponents, usize)>, usize)> = (0..3)
                .map(|c| {
                    let mut list: Vec<(Opponents, usize)> = self.holders[c]
                        .iter()
                        .enumerate()
                        .map(|(i, &h)| (relabel(h), i))
                        .collect();
                    list.sort();
                    (list, c)
                })
                .collect();
            categories.sort_by(|a, b| {
                let key = |x: &(Vec<(Opponents, usize)>, usize)| {
                    (x.0.len(), x.0.iter().map(|p| p.0).collect::<Vec<_>>())
                };
                key(a).cmp(&key(b))
            });
            let unknown: Vec<u8> = order.iter().map(|&old| self.unknown[old]).collect();
            let holders: [Vec<Opponents>; 3] =
                std::array::from_fn(|c| categories[c].0.iter().map(|p| p.0).collect());
            let mut map = CandidateMap {
                to: std::array::from_fn(|c| vec![(0, 0); self.holders[c].len()]),
            };
            for (new_c, (list, old_c)) in categories.iter().enumerate() {
                for (new_i, &(_, old_i)) in list.iter().enumerate() {
                    map.to[*old_c][old_i] = (new_c, new_i);
                }
            }
            let candidate = FewCandidates {
                holders,
                unknown,
                other_cards: self.other_cards,
            };
            let code = candidate.code();
            if best.as_ref().is_none_or(|(b, _, _)| code < *b) {
                best = Some((code, candidate, map));
            }
        });
        let (_, canonical, map) = best.unwrap_or_else(|| {
            (
                Vec::new(),
                self.clone(),
                CandidateMap {
                    to: std::array::from_fn(|_| Vec::new()),
                },
            )
        });
        (canonical, map)
    }

    /// Whether the configuration is its own canonical form, i.e.
    /// `self.canonical().0 == *self`, decided without building any other
    /// form: the table builder asks this of every configuration it
    /// enumerates and the table loader of every configuration it reads.
    pub fn is_canonical(&self) -> bool {
        let Some(keys) = self.category_keys() else {
            // A shape `new` rejects: ask the definition itself.
            return self.canonical().0 == *self;
        };
        let unknown = &self.unknown;
        // The canonical form keeps only opponents with unknown cards, more
        // first, and sorts the candidates and then the categories.
        if unknown.contains(&0)
            || unknown.windows(2).any(|w| w[0] < w[1])
            || keys.windows(2).any(|w| w[0] > w[1])
            || keys
                .iter()
                .any(|k| k.1[..usize::from(k.0)].windows(2).any(|w| w[0] > w[1]))
        {
            return false;
        }
        // Every relabelling the canonical form tries keeps the unknown cards
        // in place, so it only permutes opponents with equal counts; none
        // may give a smaller code.
        let mut order = [0u8, 1, 2, 3, 4];
        let order = &mut order[..unknown.len()];
        while next_permutation(order) {
            if order
                .iter()
                .enumerate()
                .any(|(new, &old)| unknown[usize::from(old)] != unknown[new])
            {
                continue;
            }
            let relabel = |h: u8| {
                order
                    .iter()
                    .enumerate()
                    .fold(0u8, |m, (new, &old)| m | (h >> old & 1) << new)
            };
            let mut relabelled = keys.map(|(len, mut masks)| {
                let list = &mut masks[..usize::from(len)];
                for h in list.iter_mut() {
                    *h = relabel(*h);
                }
                list.sort_unstable();
                (len, masks)
            });
            relabelled.sort_unstable();
            if relabelled < keys {
                return false;
            }
        }
        true
    }

    /// Per category, the sort key of the canonical form: the number of
    /// candidates and their holder sets (padded with empty sets); `None`
    /// outside the shapes [`FewCandidates::new`] accepts.
    fn category_keys(&self) -> Option<[(u8, [u8; MAX_CANDIDATES]); 3]> {
        if self.unknown.len() > MAX_OPPONENTS {
            return None;
        }
        let everyone = (1u8 << self.unknown.len()) - 1;
        let mut keys = [(0u8, [0u8; MAX_CANDIDATES]); 3];
        for (key, list) in keys.iter_mut().zip(&self.holders) {
            if list.is_empty() || list.len() > MAX_CANDIDATES {
                return None;
            }
            key.0 = list.len() as u8;
            for (slot, h) in key.1.iter_mut().zip(list) {
                if h.0 & !everyone != 0 {
                    return None;
                }
                *slot = h.0;
            }
        }
        Some(keys)
    }

    /// A comparable encoding (canonical forms are its minima).
    fn code(&self) -> Vec<u8> {
        let mut code = self.unknown.clone();
        for list in &self.holders {
            code.push(list.len() as u8);
            code.extend(list.iter().map(|h| h.0));
        }
        code
    }

    /// The table's text for the unknown cards, e.g. `3,2,1`.
    pub fn unknown_text(&self) -> String {
        let mut text = String::with_capacity(2 * self.unknown.len());
        for (i, u) in self.unknown.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            let _ = write!(text, "{u}");
        }
        text
    }

    /// The table's text for the holders: candidates separated by `,`,
    /// categories by `|`, each candidate's holders as letters or `-`.
    pub fn holders_text(&self) -> String {
        let mut text = String::with_capacity(24);
        for (c, list) in self.holders.iter().enumerate() {
            if c > 0 {
                text.push('|');
            }
            for (i, &h) in list.iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                h.write_letters(&mut text);
            }
        }
        text
    }

    /// Parse the table's texts back (the other cards are implied).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for malformed text or an inconsistent
    /// configuration.
    pub fn from_text(unknown: &str, holders: &str) -> Result<FewCandidates> {
        let bad = || Error::OutOfRange {
            what: crate::Argument::FewCandidateConfigurationText,
            detail: format!("{unknown:?} / {holders:?}"),
        };
        let unknown: Vec<u8> = if unknown.is_empty() {
            Vec::new()
        } else {
            unknown
                .split(',')
                .map(|u| u.parse().map_err(|_| bad()))
                .collect::<Result<_>>()?
        };
        let categories: Vec<&str> = holders.split('|').collect();
        if categories.len() != 3 {
            return Err(bad());
        }
        let parse_holder = |text: &str| -> Result<Opponents> {
            if text == "-" {
                return Ok(Opponents(0));
            }
            text.bytes().try_fold(Opponents(0), |acc, b| match b {
                b'A'..=b'E' => Ok(Opponents(acc.0 | 1 << (b - b'A'))),
                _ => Err(bad()),
            })
        };
        let mut lists: [Vec<Opponents>; 3] = Default::default();
        for (c, text) in categories.iter().enumerate() {
            lists[c] = text.split(',').map(parse_holder).collect::<Result<_>>()?;
        }
        let candidates: usize = lists.iter().map(Vec::len).sum();
        let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
        let other = (slots + 3).checked_sub(candidates).ok_or_else(bad)?;
        FewCandidates::new(lists, unknown, u8::try_from(other).map_err(|_| bad())?)
    }

    /// Count exactly.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] when no deal fits the configuration.
    pub fn solve(&self) -> Result<FewCandidatesAnswer> {
        self.answer_from_triples(&self.triple_deals())
    }

    /// The answer from the deals of every candidate triple (indices per
    /// category): totals, exact probabilities and the heuristic's.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] when no triple has a deal.
    pub(super) fn answer_from_triples(
        &self,
        triple_deals: &[([usize; 3], u64)],
    ) -> Result<FewCandidatesAnswer> {
        let deals: u64 = triple_deals.iter().map(|t| t.1).sum();
        if deals == 0 {
            return Err(Error::Inconsistent(format!(
                "no deal fits the configuration: holders {}, unknown cards {}, {} other cards",
                self.holders_text(),
                self.unknown_text(),
                self.other_cards
            )));
        }
        let consistent = triple_deals.iter().filter(|t| t.1 > 0).count() as f64;
        let candidates = std::array::from_fn(|c| {
            (0..self.holders[c].len())
                .map(|i| {
                    let with = triple_deals.iter().filter(|t| t.0[c] == i);
                    let envelope_deals: u64 = with.clone().map(|t| t.1).sum();
                    let triples = with.filter(|t| t.1 > 0).count() as f64;
                    CandidateAnswer {
                        envelope_deals,
                        p_envelope: envelope_deals as f64 / deals as f64,
                        p_heuristic: triples / consistent,
                    }
                })
                .collect()
        });
        Ok(FewCandidatesAnswer { deals, candidates })
    }

    /// Deals for every candidate triple (indices per category).
    fn triple_deals(&self) -> Vec<([usize; 3], u64)> {
        let mut out = Vec::new();
        for a in 0..self.holders[0].len() {
            for b in 0..self.holders[1].len() {
                for c in 0..self.holders[2].len() {
                    out.push(([a, b, c], self.deals_with_envelope([a, b, c])));
                }
            }
        }
        out
    }

    /// Deals with the candidates `triple` in the envelope: place the other
    /// candidates one by one over the vector of slots left, then fill the
    /// slots left with the other cards (a multinomial coefficient).
    fn deals_with_envelope(&self, triple: [usize; 3]) -> u64 {
        let radix: Vec<usize> = self.unknown.iter().map(|&u| usize::from(u) + 1).collect();
        let states: usize = radix.iter().product();
        let mut ways = vec![0u64; states];
        let start = self
            .unknown
            .iter()
            .zip(strides(&radix))
            .map(|(&u, s)| usize::from(u) * s)
            .sum::<usize>();
        ways[start] = 1;
        let stride = strides(&radix);
        for (c, list) in self.holders.iter().enumerate() {
            for (i, holders) in list.iter().enumerate() {
                if triple[c] == i {
                    continue;
                }
                let mut next = vec![0u64; states];
                for (state, &w) in ways.iter().enumerate().filter(|(_, &w)| w > 0) {
                    for (p, &st) in stride.iter().enumerate() {
                        let left = state / st % radix[p];
                        if holders.0 >> p & 1 == 1 && left > 0 {
                            next[state - st] += w;
                        }
                    }
                }
                ways = next;
            }
        }
        let mut total = 0;
        for (state, &w) in ways.iter().enumerate().filter(|(_, &w)| w > 0) {
            let left: Vec<usize> = stride
                .iter()
                .zip(&radix)
                .map(|(&st, &r)| state / st % r)
                .collect();
            if left.iter().sum::<usize>() == usize::from(self.other_cards) {
                let denominator: u64 = left.iter().map(|&l| factorial(l)).product();
                total += w * (factorial(usize::from(self.other_cards)) / denominator);
            }
        }
        total
    }
}

impl fmt::Display for FewCandidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "holders {} unknown cards {} other cards {}",
            self.holders_text(),
            self.unknown_text(),
            self.other_cards
        )
    }
}

fn strides(radix: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(radix.len());
    let mut s = 1;
    for r in radix {
        out.push(s);
        s *= r;
    }
    out
}

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// Step `items` to the next permutation in lexicographic order; `false`
/// (and `items` unchanged) after the last one.
fn next_permutation(items: &mut [u8]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .expect("items[i] itself is larger");
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

/// Calls `visit` with every permutation of `items[k..]` (after `items[..k]`).
fn permutations(items: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        visit(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, visit);
        items.swap(k, i);
    }
}
