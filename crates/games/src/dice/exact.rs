//! Exact binomial arithmetic over dice outcomes.
//!
//! A hidden die shows each of its six faces with the same chance, and
//! `c` of them (1 or 2, see [`MatchingFaces`]) count for the bid. Among the
//! `6^n` equally likely outcomes of `n` hidden dice, exactly
//! `C(n, x) · c^x · (6 - c)^(n - x)` show `x` matching dice. These counts are
//! `u128` integers (exact for `n <= 49`), so every binomial probability here
//! is an exact fraction [`OutcomeFraction`] that is rounded once, on
//! conversion to `f64`.
//!
//! The normal approximation beside it exists only as a named comparison
//! column, never as an answer.

use serde::Serialize;

use super::types::{MatchingFaces, FACES, MAX_TOTAL_DICE};

/// The binomial coefficient `C(n, k)`, exact.
///
/// The running product `C(n, i) · (n - i) / (i + 1)` is an integer at every
/// step and stays below `C(n, n/2) · n`, far inside `u128` for the dice
/// counts the engine accepts.
pub fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1))
}

/// A probability as an exact fraction of equally likely dice outcomes:
/// `favourable / outcomes`, where `outcomes = 6^n`.
///
/// Serialised with both counts as decimal strings: `6^n` passes 2^64 at
/// n = 25 and 2^53 (what a JSON reader's double holds exactly) at n = 21.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct OutcomeFraction {
    /// Outcomes in which the event happens.
    #[serde(serialize_with = "decimal")]
    pub favourable: u128,
    /// All equally likely outcomes.
    #[serde(serialize_with = "decimal")]
    pub outcomes: u128,
}

/// A count as its decimal string.
fn decimal<S: serde::Serializer>(count: &u128, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(count)
}

impl OutcomeFraction {
    /// The probability as the nearest `f64` to each integer, divided once.
    pub fn to_f64(self) -> f64 {
        self.favourable as f64 / self.outcomes as f64
    }
}

/// The exact outcome counts of the number of matching dice among `n` hidden
/// dice: `counts[x]` outcomes out of `6^n` show exactly `x` matching dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchCounts {
    /// `counts[x]` for `x = 0..=n`.
    counts: Vec<u128>,
    /// `at_least[x]` = outcomes with `x` or more matching dice, `x = 0..=n+1`.
    at_least: Vec<u128>,
    outcomes: u128,
}

impl MatchCounts {
    /// The counts for `dice` hidden dice of which each matches on
    /// `matching` of its faces.
    ///
    /// # Panics
    /// Never for `dice < MAX_TOTAL_DICE`; the engine's validated types keep
    /// the hidden dice below that bound (a debug assertion checks it).
    pub fn new(dice: u32, matching: MatchingFaces) -> MatchCounts {
        debug_assert!(dice < MAX_TOTAL_DICE, "6^{dice} outcomes overflow u128");
        let hit = u128::from(matching.count());
        let miss = u128::from(FACES - matching.count());
        // counts[x] = C(n, x) · hit^x · miss^(n - x), built in one pass:
        // C(n, x + 1) = C(n, x) · (n - x) / (x + 1) is exact at every step.
        let miss_powers: Vec<u128> = (0..=dice)
            .scan(1u128, |power, _| {
                let current = *power;
                *power *= miss;
                Some(current)
            })
            .collect();
        let mut counts = Vec::with_capacity(dice as usize + 1);
        let (mut choose, mut hit_power) = (1u128, 1u128);
        for x in 0..=dice {
            counts.push(choose * hit_power * miss_powers[(dice - x) as usize]);
            choose = choose * u128::from(dice - x) / u128::from(x + 1);
            hit_power *= hit;
        }
        let mut at_least = vec![0u128; counts.len() + 1];
        for x in (0..counts.len()).rev() {
            at_least[x] = at_least[x + 1] + counts[x];
        }
        let outcomes = u128::from(FACES).pow(dice);
        debug_assert_eq!(at_least[0], outcomes);
        MatchCounts {
            counts,
            at_least,
            outcomes,
        }
    }

    /// The number of hidden dice.
    pub fn dice(&self) -> u32 {
        (self.counts.len() - 1) as u32
    }

    /// All outcomes, `6^n`.
    pub fn outcomes(&self) -> u128 {
        self.outcomes
    }

    /// Outcomes showing exactly `x` matching dice (0 beyond `n`).
    pub fn exactly(&self, x: u32) -> u128 {
        self.counts.get(x as usize).copied().unwrap_or(0)
    }

    /// `P(X >= needed)`, exact, over all `6^n` outcomes: certain when
    /// `needed <= 0` (already covered), impossible when `needed > n`.
    pub fn at_least(&self, needed: i64) -> OutcomeFraction {
        let index = usize::try_from(needed.max(0)).unwrap_or(usize::MAX);
        OutcomeFraction {
            favourable: self.at_least.get(index).copied().unwrap_or(0),
            outcomes: self.outcomes,
        }
    }
}

/// `P(X >= needed)` of [`MatchCounts`] for every `needed`, each rounded to
/// `f64` once: a lookup that equals `counts.at_least(needed).to_f64()` bit
/// for bit, for the table builders that ask the same counts many times.
#[derive(Debug, Clone, PartialEq)]
pub struct TailProbabilities {
    /// `at_least[x]` for `x = 0..=n+1` (the last one is 0).
    at_least: Vec<f64>,
}

impl TailProbabilities {
    /// The tails of `counts`, rounded as [`OutcomeFraction::to_f64`] does.
    pub fn new(counts: &MatchCounts) -> TailProbabilities {
        let at_least = (0..=i64::from(counts.dice()) + 1)
            .map(|needed| counts.at_least(needed).to_f64())
            .collect();
        TailProbabilities { at_least }
    }

    /// The tails of `dice` hidden dice matching on `matching` faces each.
    pub fn of(dice: u32, matching: MatchingFaces) -> TailProbabilities {
        TailProbabilities::new(&MatchCounts::new(dice, matching))
    }

    /// `P(X >= needed)`: 1 when `needed <= 0`, 0 when `needed > n`.
    pub fn at_least(&self, needed: i64) -> f64 {
        let index = usize::try_from(needed.max(0)).unwrap_or(usize::MAX);
        self.at_least.get(index).copied().unwrap_or(0.0)
    }
}

/// The continuity-corrected normal approximation of `P(X >= needed)` for
/// `X ~ Binomial(dice, p)`: `1 - Φ((needed - 0.5 - n p) / sqrt(n p (1 - p)))`,
/// with the same edges as the exact value (1 when `needed <= 0`, 0 when
/// `needed > n`). For comparison only.
pub fn normal_approximation(dice: u32, matching: MatchingFaces, needed: i64) -> f64 {
    if needed <= 0 {
        return 1.0;
    }
    if needed > i64::from(dice) {
        return 0.0;
    }
    let p = matching.probability();
    let n = f64::from(dice);
    let mean = n * p;
    let sd = (n * p * (1.0 - p)).sqrt();
    let z = (needed as f64 - 0.5 - mean) / sd;
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1e-15 relative accuracy:
/// a positive-term series for `|x| < 3` and Lentz's continued fraction
/// beyond, where `1 - erf` would lose the digits.
pub fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        1.0 - erf_series(x)
    } else {
        erfc_continued_fraction(x)
    }
}

/// `erf(x) = 2/sqrt(pi) · exp(-x²) · Σ 2^k x^(2k+1) / (1·3·…·(2k+1))`; all
/// terms positive, so no cancellation.
fn erf_series(x: f64) -> f64 {
    let mut term = x;
    let mut sum = x;
    let mut k = 0.0;
    while term > sum * 1e-17 {
        k += 1.0;
        term *= 2.0 * x * x / (2.0 * k + 1.0);
        sum += term;
    }
    std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp() * sum
}

/// `erfc(x) = exp(-x²)/sqrt(pi) · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`,
/// evaluated by the modified Lentz method.
fn erfc_continued_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..500 {
        let a = f64::from(k) / 2.0;
        d = x + a * d;
        d = if d.abs() < TINY { 1.0 / TINY } else { 1.0 / d };
        c = x + a / c;
        if c.abs() < TINY {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::types::{FaceClass, Variant};

    fn plain() -> MatchingFaces {
        Variant::Plain.matching_faces(FaceClass::Other)
    }

    fn wild() -> MatchingFaces {
        Variant::WildOnes.matching_faces(FaceClass::Other)
    }

    #[test]
    fn binomial_coefficients_are_exact() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(49, 24), 63_205_303_218_876);
        assert_eq!(binomial(3, 4), 0);
        // Pascal's rule over the whole range the engine uses.
        for n in 1..60 {
            for k in 1..n {
                assert_eq!(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k));
            }
        }
    }

    #[test]
    fn counts_add_up_to_all_outcomes() {
        for dice in 0..MAX_TOTAL_DICE {
            for matching in [plain(), wild()] {
                let counts = MatchCounts::new(dice, matching);
                let sum: u128 = (0..=dice).map(|x| counts.exactly(x)).sum();
                assert_eq!(sum, 6u128.pow(dice));
                assert_eq!(counts.at_least(-3).favourable, 6u128.pow(dice));
                assert_eq!(counts.at_least(0).to_f64(), 1.0);
                assert_eq!(counts.at_least(i64::from(dice) + 1).favourable, 0);
            }
        }
    }

    #[test]
    fn one_pass_counts_match_the_closed_form() {
        for dice in 0..MAX_TOTAL_DICE {
            for matching in [plain(), wild()] {
                let counts = MatchCounts::new(dice, matching);
                let hit = u128::from(matching.count());
                for x in 0..=dice {
                    let closed = binomial(dice, x) * hit.pow(x) * (6 - hit).pow(dice - x);
                    assert_eq!(counts.exactly(x), closed, "n = {dice}, x = {x}");
                }
            }
        }
    }

    #[test]
    fn tail_table_equals_each_fraction_rounded_bit_for_bit() {
        for dice in 0..MAX_TOTAL_DICE {
            for matching in [plain(), wild()] {
                let counts = MatchCounts::new(dice, matching);
                let tails = TailProbabilities::new(&counts);
                for needed in -3..=i64::from(dice) + 3 {
                    let single = counts.at_least(needed).to_f64();
                    assert_eq!(tails.at_least(needed).to_bits(), single.to_bits());
                }
            }
        }
    }

    #[test]
    fn published_tails_of_fifteen_dice() {
        let counts = MatchCounts::new(15, plain());
        let six = counts.at_least(6).to_f64();
        let seven = counts.at_least(7).to_f64();
        assert_eq!(format!("{six:.4}"), "0.0274");
        assert_eq!(format!("{seven:.4}"), "0.0066");
        assert_eq!(
            format!("{:.4}", normal_approximation(15, plain(), 6)),
            "0.0188"
        );
        assert_eq!(
            format!("{:.4}", normal_approximation(15, plain(), 7)),
            "0.0028"
        );
    }

    #[test]
    fn small_tail_is_the_hand_counted_fraction() {
        // Two dice, at least one five: 36 - 25 = 11 outcomes of 36.
        let counts = MatchCounts::new(2, plain());
        assert_eq!(
            counts.at_least(1),
            OutcomeFraction {
                favourable: 11,
                outcomes: 36
            }
        );
        // With wild ones a die misses on 4 faces: 36 - 16 = 20.
        assert_eq!(MatchCounts::new(2, wild()).at_least(1).favourable, 20);
    }

    #[test]
    fn erfc_known_values() {
        let known = [
            (0.0, 1.0),
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_13),
            (2.0, 0.004_677_734_981_047_266),
            (2.999, 2.223_016_859_983_405_8e-5),
            (3.0, 2.209_049_699_858_544e-5),
            (5.0, 1.537_459_794_428_035e-12),
            (-1.0, 1.842_700_792_949_715),
        ];
        for (x, want) in known {
            let got = erfc(x);
            assert!(
                ((got - want) / want).abs() < 1e-12,
                "erfc({x}) = {got}, want {want}"
            );
        }
    }
}
