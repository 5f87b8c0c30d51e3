//! [`FewCandidatesSolver`]: the exact answers of many few-candidate
//! configurations, equal to [`FewCandidates::solve`] and much cheaper per
//! configuration (the table builder counts hundreds of thousands).
//!
//! `solve` runs one dynamic programme per candidate triple over the vector
//! of slots left. Here the work is shared between triples instead. Placing
//! a candidate on one of its possible holders multiplies a polynomial in the
//! opponents' *used* slots by `sum of x_p over its holders`, so the
//! placements of one category's other candidates, given its envelope card,
//! form a small polynomial of degree at most two; a triple's deals are the
//! coefficients of the product of its three category polynomials, each
//! monomial weighted by the ways to deal the other cards into the slots
//! left (a multinomial coefficient). The first two categories' products are
//! shared by the three choices in the last one, and nothing is allocated
//! once the scratch space has grown.
//!
//! Used slots are packed four bits per opponent; a monomial is kept only
//! while no opponent uses more slots than it has, which one addition and a
//! mask decide (each nibble holds at most 15, see [`Counts::fits`]).

use super::config::{FewCandidates, FewCandidatesAnswer, MAX_CANDIDATES, MAX_OPPONENTS};
use crate::error::Result;

/// Most unknown cards of one opponent.
const MAX_UNKNOWN: u8 = 6;
/// Most other cards [`FewCandidates::solve`] counts in `u64` (its
/// `other!` must fit); beyond, the solver defers to it so the two agree
/// everywhere.
const MAX_OTHER_CARDS: u8 = 20;
/// Bits per opponent in a packed slot vector.
const LANE: u32 = 4;
/// The top bit of every lane.
const LANE_TOPS: u32 = 0x8888_8888;

/// One monomial: used slots per opponent, packed ([`LANE`] bits each) and
/// as the dense index of the multinomial table, with its number of ways.
#[derive(Debug, Clone, Copy)]
struct Term {
    packed: u32,
    dense: u32,
    ways: u64,
}

/// Slot arithmetic of one configuration.
#[derive(Debug, Clone, Copy)]
struct Counts {
    /// Per lane `7 - unknown cards`: a lane of used slots plus its bias
    /// reaches 8 exactly when the opponent has too few slots.
    bias: u32,
    /// Dense-index stride of every opponent (radix: unknown cards + 1).
    strides: [u32; MAX_OPPONENTS],
}

impl Counts {
    /// Whether packed used slots fit every opponent's unknown cards. Lanes
    /// never exceed 15: used slots that fit (at most 6) plus at most two more,
    /// plus a bias of at most 7.
    fn fits(&self, packed: u32) -> bool {
        (packed + self.bias) & LANE_TOPS == 0
    }

    /// `term` with one more slot used by opponent `p`, if that fits.
    fn place(&self, term: Term, p: usize) -> Option<Term> {
        let packed = term.packed + (1 << (LANE * p as u32));
        self.fits(packed).then_some(Term {
            packed,
            dense: term.dense + self.strides[p],
            ways: term.ways,
        })
    }
}

/// Add `term` to `terms`, merging it into an equal monomial.
fn add(terms: &mut Vec<Term>, term: Term) {
    match terms.iter_mut().find(|t| t.packed == term.packed) {
        Some(t) => t.ways += term.ways,
        None => terms.push(term),
    }
}

/// Reusable scratch space for counting many configurations; answers equal
/// [`FewCandidates::solve`]'s.
///
/// ```
/// use gametab_games::cluedo::{FewCandidates, FewCandidatesSolver, Opponents};
/// # fn main() -> gametab_games::Result<()> {
/// let (a, b, ab) = (Opponents(1), Opponents(2), Opponents(3));
/// let config = FewCandidates::new(
///     [vec![Opponents(0)], vec![Opponents(0)], vec![a, b, ab]],
///     vec![3, 2],
///     3,
/// )?;
/// let mut solver = FewCandidatesSolver::new();
/// assert_eq!(solver.solve(&config)?, config.solve()?);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct FewCandidatesSolver {
    /// Binomial coefficients up to 30 (every slot of five opponents).
    binomials: Vec<[u64; 31]>,
    /// Per category and envelope candidate, the placements of the
    /// category's other candidates.
    categories: [[Vec<Term>; MAX_CANDIDATES]; 3],
    /// The product of one polynomial of each of the first two categories.
    pair: Vec<Term>,
    /// Scratch for building a category polynomial.
    scratch: Vec<Term>,
    /// Per dense slot vector, the ways to deal the other cards into the
    /// slots left (only vectors that leave exactly that many are read).
    multinomials: Vec<u64>,
}

impl Default for FewCandidatesSolver {
    fn default() -> Self {
        FewCandidatesSolver::new()
    }
}

impl FewCandidatesSolver {
    /// A solver with empty scratch space.
    pub fn new() -> FewCandidatesSolver {
        let mut binomials = vec![[0u64; 31]; 31];
        for n in 0..31 {
            binomials[n][0] = 1;
            for k in 1..=n {
                binomials[n][k] = binomials[n - 1][k - 1] + binomials[n - 1][k];
            }
        }
        FewCandidatesSolver {
            binomials,
            categories: Default::default(),
            pair: Vec::new(),
            scratch: Vec::new(),
            multinomials: Vec::new(),
        }
    }

    /// The exact answer for `config`, equal to [`FewCandidates::solve`].
    ///
    /// # Errors
    /// [`crate::Error::Inconsistent`] when no deal fits the configuration.
    pub fn solve(&mut self, config: &FewCandidates) -> Result<FewCandidatesAnswer> {
        let Some(counts) = self.prepare(config) else {
            // A shape `FewCandidates::new` rejects, or too many deals for
            // `u64` arithmetic: the one-triple-at-a-time count decides.
            return config.solve();
        };
        let lens = config.holders.each_ref().map(Vec::len);
        let mut triple_deals = [([0; 3], 0u64); MAX_CANDIDATES * MAX_CANDIDATES * MAX_CANDIDATES];
        let mut triples = 0;
        for a in 0..lens[0] {
            for b in 0..lens[1] {
                self.pair.clear();
                for x in &self.categories[0][a] {
                    for y in &self.categories[1][b] {
                        let packed = x.packed + y.packed;
                        if counts.fits(packed) {
                            let term = Term {
                                packed,
                                dense: x.dense + y.dense,
                                ways: x.ways * y.ways,
                            };
                            add(&mut self.pair, term);
                        }
                    }
                }
                for c in 0..lens[2] {
                    let mut deals = 0;
                    for x in &self.pair {
                        for y in &self.categories[2][c] {
                            if counts.fits(x.packed + y.packed) {
                                let dense = (x.dense + y.dense) as usize;
                                deals += x.ways * y.ways * self.multinomials[dense];
                            }
                        }
                    }
                    triple_deals[triples] = ([a, b, c], deals);
                    triples += 1;
                }
            }
        }
        config.answer_from_triples(&triple_deals[..triples])
    }

    /// Fill the category polynomials and the multinomial table for
    /// `config`; `None` when the fast count does not apply.
    fn prepare(&mut self, config: &FewCandidates) -> Option<Counts> {
        let unknown = &config.unknown;
        let opponents = unknown.len();
        if opponents > MAX_OPPONENTS
            || unknown.iter().any(|&u| u > MAX_UNKNOWN)
            || config.other_cards > MAX_OTHER_CARDS
        {
            return None;
        }
        let everyone = (1u8 << opponents) - 1;
        let candidates: usize = config.holders.iter().map(Vec::len).sum();
        let slots: usize = unknown.iter().map(|&u| usize::from(u)).sum();
        let shaped = config.holders.iter().all(|list| {
            (1..=MAX_CANDIDATES).contains(&list.len()) && list.iter().all(|h| h.0 & !everyone == 0)
        });
        if !shaped || slots + 3 != candidates + usize::from(config.other_cards) {
            return None;
        }
        // Every product below counts a part of one triple's deals, so
        // none exceeds (triples) x (ways to fill all slots).
        let triples = config.holders.iter().map(Vec::len).product::<usize>() as u128;
        let mut fill_all = 1u128;
        let mut left = slots;
        for &u in unknown {
            fill_all *= u128::from(self.binomials[left][usize::from(u)]);
            left -= usize::from(u);
        }
        if fill_all.checked_mul(triples)? > u128::from(u64::MAX) {
            return None;
        }
        let mut counts = Counts {
            bias: 0,
            strides: [0; MAX_OPPONENTS],
        };
        let mut stride = 1u32;
        for p in 0..MAX_OPPONENTS {
            let u = unknown.get(p).copied().unwrap_or(0);
            counts.bias |= u32::from(7 - u) << (LANE * p as u32);
            counts.strides[p] = stride;
            stride *= u32::from(u) + 1;
        }
        self.fill_multinomials(unknown, config.other_cards, stride as usize);
        for (c, list) in config.holders.iter().enumerate() {
            for envelope in 0..list.len() {
                let mut terms = std::mem::take(&mut self.categories[c][envelope]);
                terms.clear();
                terms.push(Term {
                    packed: 0,
                    dense: 0,
                    ways: 1,
                });
                for (i, holders) in list.iter().enumerate() {
                    if i == envelope {
                        continue;
                    }
                    self.scratch.clear();
                    for &term in &terms {
                        for p in (0..opponents).filter(|&p| holders.0 >> p & 1 == 1) {
                            if let Some(placed) = counts.place(term, p) {
                                add(&mut self.scratch, placed);
                            }
                        }
                    }
                    std::mem::swap(&mut terms, &mut self.scratch);
                }
                self.categories[c][envelope] = terms;
            }
        }
        Some(counts)
    }

    /// For every dense vector of used slots leaving exactly `other` slots,
    /// the ways to deal the `other` cards into them: `other! / prod left!`.
    fn fill_multinomials(&mut self, unknown: &[u8], other: u8, states: usize) {
        self.multinomials.clear();
        self.multinomials.resize(states, 0);
        let mut used = [0u8; MAX_OPPONENTS];
        for state in 0..states {
            let left: usize = unknown
                .iter()
                .zip(&used)
                .map(|(&u, &n)| usize::from(u - n))
                .sum();
            if left == usize::from(other) {
                let mut ways = 1u64;
                let mut rest = usize::from(other);
                for (&u, &n) in unknown.iter().zip(&used) {
                    let here = usize::from(u - n);
                    ways *= self.binomials[rest][here];
                    rest -= here;
                }
                self.multinomials[state] = ways;
            }
            // Next mixed-radix vector, first opponent fastest.
            for (n, &u) in used.iter_mut().zip(unknown) {
                if *n < u {
                    *n += 1;
                    break;
                }
                *n = 0;
            }
        }
    }
}
