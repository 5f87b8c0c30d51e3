//! The exact equilibrium of the two-player Liar's Dice endgame
//! (`docs/liars-dice.md`): one sequence-form LP per game
//! solved by HiGHS ([`lp`]) or grown by the double oracle ([`oracle`]),
//! behaviour strategies recovered from both realisation plans, two
//! independent best-response certificates that every stored game passes at
//! <= 1e-9 (the every-history walk of [`certificate`] on the filled dense
//! strategies, and the walk of [`sparse`] over the stored entries alone,
//! which also certifies games too large for dense strategies), and the
//! value recovered as a fraction. [`job`] solves one game as a job of its
//! own, resumable from the restricted game a budget cut off.
//!
//! The rules and strategies are the games crate's
//! ([`gametab_games::dice::endgame`]); [`cache`] keeps solved games
//! between builds, and the tables are written by `gametab-build`
//! (`dice::endgame::rows`).

pub mod cache;
pub mod certificate;
pub mod error;
pub mod growing_lp;
pub mod job;
pub mod lp;
pub mod oracle;
pub mod restricted;
pub mod sparse;

use std::fmt;
use std::time::Duration;

use gametab_games::dice::endgame::{Endgame, Player, Strategy};

pub use certificate::Certificate;
pub use error::{Error, Result};
pub use lp::{LpOptions, LpSize};

/// The environment variable that turns HiGHS's own log on (standard
/// output) for every restricted LP of the double oracle: a diagnosis of
/// where a round's time goes (presolve, interior point iterations).
pub const HIGHS_LOG_VAR: &str = "GAMETAB_HIGHS_LOG";

/// The environment variable of further HiGHS options for the double
/// oracle's restricted LPs, `option=value` separated by spaces (for
/// example `ipx_dualize_strategy=1`), each parsed for the option's type
/// and refused by name when HiGHS has no such option or value: for
/// measurements. A job or build run with it says so in its fingerprint.
pub const HIGHS_OPTIONS_VAR: &str = "GAMETAB_HIGHS_OPTIONS";

/// The environment variable naming a directory to write every restricted
/// LP of the double oracle into, as HiGHS writes a model
/// (`lp-<n>.mps`, `n` counting the solves of one oracle run from 1), just
/// before it is solved: for reproducing a solve with HiGHS's own command
/// line tool, or with another solver, outside gametab.
pub const HIGHS_WRITE_MODEL_VAR: &str = "GAMETAB_HIGHS_WRITE_MODEL";

/// Most exploitability a stored game may have.
pub const MAX_EXPLOITABILITY: f64 = 1e-9;

/// Largest denominator tried when recovering the exact value.
pub const MAX_DENOMINATOR: u64 = 1_000_000;

/// How far from a value [`Fraction::near`] looks for a fraction (a
/// diagnostic: what is claimed comes from the bracket, [`exact_value`]).
pub const FRACTION_TOLERANCE: f64 = 1e-12;

/// How far outside the certified bracket a claimed fraction may lie: the
/// rounding of the two best responses' floating-point sums (at most
/// 3.4e-17 on the 33 default games). A bracket must be able to rule a
/// fraction out: 2v2 six-sided normal's -8357/495993 lies within 1e-12 of
/// its value but 2e-13 outside a bracket 6e-16 wide, so its value is no
/// fraction of denominator up to a million.
pub const BRACKET_ROUNDING: f64 = 1e-15;

/// How far outside its certified bracket a stored value may lie: the
/// rounding of an LP's value against its strategies' best responses (the
/// default games' values lie at most 3.4e-17 outside, the six-sided wild
/// ones' inside). A value further out is not the value of the stored
/// strategies' game; 2v2 six-sided wild's, before the solver stored the
/// middle of the bracket a pair of rounds gave it, lay 5.2e-11 below
/// ([`value_in_bracket`]).
pub const MAX_VALUE_OUTSIDE: f64 = 1e-12;

/// Whether `value` lies inside `cert`'s bracket, to [`MAX_VALUE_OUTSIDE`].
pub fn value_in_bracket(value: f64, cert: &Certificate) -> bool {
    value >= cert.lower - MAX_VALUE_OUTSIDE && value <= cert.upper + MAX_VALUE_OUTSIDE
}

/// How simple a fraction must be for its bracket to be claimed: at most
/// this much `q^2 * w`, `q` its denominator and `w` the width of the
/// certified bracket (widened by [`BRACKET_ROUNDING`] each side). A
/// bracket of width `w` holds on average about `3 q^2 w / pi^2` fractions
/// of denominator up to `q` (their density), so one lands in it by chance
/// less than once in 300 at this bar; and no other fraction of
/// denominator up to `q` can lie in it (two would be at least `1/q^2`
/// apart), so the claimed one is the simplest inside. The claims of every
/// default game pass it (the largest, 2v1 six-sided normal's
/// 212027/771552, at 1.3e-3), and 2v2 six-sided wild's bracket of
/// 7.8e-13 fails it: 8463/754556 lies inside, but at 0.44 a bracket that
/// wide holds such a fraction about once in seven by chance.
pub const MAX_CLAIM_SPREAD: f64 = 1e-2;

/// A fraction in lowest terms with a positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fraction {
    /// The numerator (carries the sign).
    pub numerator: i64,
    /// The denominator, at least 1.
    pub denominator: u64,
}

impl Fraction {
    /// Its value as a float.
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// The fraction with the smallest denominator up to `max_denominator`
    /// that lies within `tolerance` of `x`, by the continued fraction of `x`
    /// (its convergents are the best approximations); `None` if there is
    /// none.
    pub fn near(x: f64, max_denominator: u64, tolerance: f64) -> Option<Fraction> {
        if !x.is_finite() {
            return None;
        }
        // Convergents h/k of the continued fraction of |x|.
        let (sign, mut rest) = (if x < 0.0 { -1 } else { 1 }, x.abs());
        let (mut h_prev, mut h) = (1i128, rest.floor() as i128);
        let (mut k_prev, mut k) = (0i128, 1i128);
        loop {
            let candidate = h as f64 / k as f64;
            if (candidate - x.abs()).abs() <= tolerance {
                let gcd = gcd(h.unsigned_abs(), k.unsigned_abs()).max(1);
                return Some(Fraction {
                    numerator: sign * (h / gcd as i128) as i64,
                    denominator: (k / gcd as i128) as u64,
                });
            }
            let fraction = rest - rest.floor();
            if fraction <= 0.0 {
                return None;
            }
            rest = 1.0 / fraction;
            let a = rest.floor() as i128;
            (h_prev, h) = (h, a * h + h_prev);
            (k_prev, k) = (k, a * k + k_prev);
            if k > i128::from(max_denominator) || k <= 0 {
                return None;
            }
        }
    }

    /// The fraction of smallest denominator, up to `max_denominator`, in
    /// `[lower, upper]`, if any: for each denominator `q` in turn, the
    /// smallest numerator `p` with `p >= lower * q`, taken if
    /// `p <= upper * q` (the products are rounded once; inside the
    /// certificate's rounding margin, [`BRACKET_ROUNDING`], that is
    /// exact enough).
    pub fn simplest_in(lower: f64, upper: f64, max_denominator: u64) -> Option<Fraction> {
        if !(lower.is_finite() && upper.is_finite() && lower <= upper) {
            return None;
        }
        (1..=max_denominator).find_map(|q| {
            let p = (lower * q as f64).ceil();
            if p > upper * q as f64 || p.abs() >= i64::MAX as f64 {
                return None;
            }
            // Already in lowest terms but for a rounding at the ends.
            let gcd = gcd(p.abs() as u128, u128::from(q)).max(1);
            Some(Fraction {
                numerator: p as i64 / gcd as i64,
                denominator: q / gcd as u64,
            })
        })
    }

    /// Parse `p/q` or an integer.
    pub fn parse(text: &str) -> Option<Fraction> {
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        let numerator = n.trim().parse().ok()?;
        let denominator: u64 = d.trim().parse().ok()?;
        (denominator > 0).then_some(Fraction {
            numerator,
            denominator,
        })
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl fmt::Display for Fraction {
    /// `p/q`, or `p` when `q` is 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator == 1 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

/// How a game is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// One sequence-form LP of the whole game ([`lp`]).
    FullLp,
    /// The sequence-form double oracle ([`oracle`]): restricted LPs grown by
    /// best responses.
    DoubleOracle,
}

impl Method {
    /// `full_lp` or `double_oracle`, as in the values table.
    pub fn name(self) -> &'static str {
        match self {
            Method::FullLp => "full_lp",
            Method::DoubleOracle => "double_oracle",
        }
    }

    /// The method named `name` ([`Method::name`]).
    pub fn from_name(name: &str) -> Option<Method> {
        [Method::FullLp, Method::DoubleOracle]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// A solved, certified endgame.
#[derive(Debug, Clone)]
pub struct SolvedEndgame {
    /// The game.
    pub game: Endgame,
    /// Both behaviour strategies, player 1's first.
    pub strategies: [Strategy; 2],
    /// Both strategies as the solver gave them, before the best-response
    /// fill ([`cache::strategies_from_entries`] rebuilds `strategies` from
    /// them): sorted by (hand, history, action).
    pub entries: [Vec<cache::CachedEntry>; 2],
    /// Player 1's expected payoff under the LP's optimum.
    pub value: f64,
    /// The value as a fraction, when the sparse certificate's bracket
    /// claims one ([`exact_value`]).
    pub exact: Option<Fraction>,
    /// The best-response certificate of the stored strategies
    /// ([`certificate`]: every history, on the filled dense strategies).
    pub certificate: Certificate,
    /// The sparse certificate of `entries` ([`sparse`]): both best
    /// responses walked over the stored support alone, independently of
    /// the dense walk (the two agree to rounding).
    pub sparse: Certificate,
    /// How it was solved.
    pub method: Method,
    /// Size of the LP solved: the full LP's, or the final restricted LP's.
    pub size: LpSize,
    /// Size of the full game's sequence-form LP ([`lp::full_size`]).
    pub full_size: LpSize,
    /// LPs solved (1 or 2 for the full LP; the rounds of the double
    /// oracle).
    pub lps: u32,
    /// Time spent building LPs.
    pub built_in: Duration,
    /// Time spent in HiGHS (for the double oracle: in its LPs and best
    /// responses).
    pub solved_in: Duration,
}

/// The method the build uses for `game`, by measured cost (instruction
/// counts and times of `cargo bench --bench endgame_methods`, in the module
/// doc of `gametab-build`'s `dice::endgame::build`): the full LP for the
/// wild games with at most [`FULL_LP_MAX_WILD_BIDS`] bids, whose equilibria mix over much of the
/// game so that the double oracle needs dozens of rounds for a small LP,
/// the double oracle for every other game (from 1v1 with five sides on,
/// 10 to 70 times fewer instructions than the full LP under normal rules).
pub fn method_for(game: Endgame) -> Method {
    if game.wild() && game.bid_count() <= FULL_LP_MAX_WILD_BIDS {
        Method::FullLp
    } else {
        Method::DoubleOracle
    }
}

/// Wild games with at most this many bids are solved by the full LP.
pub const FULL_LP_MAX_WILD_BIDS: u32 = 10;

/// Solve `game` by [`method_for`] ([`solve_with`]).
///
/// # Errors
/// As [`solve_with`].
pub fn solve(game: Endgame, options: LpOptions) -> Result<SolvedEndgame> {
    solve_with(game, options, method_for(game))
}

/// Solve `game` by `method`: both behaviour strategies, unreached
/// information sets filled with a best response, certified.
///
/// # Errors
/// HiGHS fails, or the certificate is above [`MAX_EXPLOITABILITY`].
pub fn solve_with(game: Endgame, options: LpOptions, method: Method) -> Result<SolvedEndgame> {
    match method {
        Method::FullLp => solve_full(game, options),
        Method::DoubleOracle => match oracle::solve_double_oracle(game, options, None)? {
            oracle::OracleOutcome::Converged(found) => certify_oracle(game, found),
            oracle::OracleOutcome::OutOfTime(state) => Err(Error::NotConverged {
                game,
                reason: format!("stopped after {} rounds without a deadline", state.rounds),
            }),
        },
    }
}

/// The double oracle's equilibrium of `game` as a solved game: both
/// behaviour strategies (unreached information sets filled with a best
/// response), certified on the full game.
///
/// # Errors
/// A strategy outside the dense layout
/// ([`MAX_STRATEGY_SLOTS`](gametab_games::dice::endgame::MAX_STRATEGY_SLOTS)), or the
/// certificate above [`MAX_EXPLOITABILITY`].
pub fn certify_oracle(game: Endgame, found: oracle::OracleSolution) -> Result<SolvedEndgame> {
    let entries = found.entries.map(|list| {
        list.into_iter()
            .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
            .collect()
    });
    let (strategies, cert) = cache::strategies_from_entries(game, &entries)?;
    if !cert.is_certified() {
        return Err(Error::Uncertified {
            game,
            what: "the double oracle's equilibrium does not certify",
            exploitability: cert.exploitability(),
        });
    }
    let sparse = sparse_certificate(game, &entries)?;
    let state = found.state;
    Ok(SolvedEndgame {
        game,
        strategies,
        entries,
        value: state.value,
        exact: exact_value(&cert),
        certificate: cert,
        sparse,
        method: Method::DoubleOracle,
        size: state.size,
        full_size: lp::full_size(game),
        lps: state.rounds,
        built_in: state.lp_time,
        solved_in: state.response_time,
    })
}

/// The positive entries of a behaviour strategy, in (hand, history,
/// action) order.
fn entries_of(strategy: &Strategy) -> Vec<cache::CachedEntry> {
    strategy
        .positive()
        .map(|(i, h, a, p)| cache::entry_of(i, h, a, p))
        .collect()
}

/// Solve `game`: the LP with player 1 maximising, player 2's strategy from
/// its duals (from player 2's own LP if those do not certify), both turned
/// into behaviour strategies, unreached information sets filled with a best
/// response, certified.
fn solve_full(game: Endgame, options: LpOptions) -> Result<SolvedEndgame> {
    let first = lp::solve_lp(game, Player::One, options)?;
    let mut entries = [
        entries_of(&certificate::behaviour(&first.maximiser)),
        entries_of(&certificate::behaviour(&first.minimiser)),
    ];
    let (mut built_in, mut solved_in, mut lps) = (first.built_in, first.solved_in, 1);
    let (mut strategies, mut cert) = cache::strategies_from_entries(game, &entries)?;
    if cert.exploitability() > MAX_EXPLOITABILITY * 1e-2 {
        let second = lp::solve_lp(game, Player::Two, options)?;
        built_in += second.built_in;
        solved_in += second.solved_in;
        lps += 1;
        entries[1] = entries_of(&certificate::behaviour(&second.maximiser));
        (strategies, cert) = cache::strategies_from_entries(game, &entries)?;
    }
    if !cert.is_certified() {
        return Err(Error::Uncertified {
            game,
            what: "the equilibrium does not certify",
            exploitability: cert.exploitability(),
        });
    }
    let exact = exact_value(&cert);
    let sparse = sparse_certificate(game, &entries)?;
    Ok(SolvedEndgame {
        game,
        strategies,
        entries,
        value: first.value,
        exact,
        certificate: cert,
        sparse,
        method: Method::FullLp,
        size: first.size,
        full_size: first.size,
        lps,
        built_in,
        solved_in,
    })
}

/// The sparse certificate of the stored `entries` ([`sparse::certify`]),
/// required to certify.
///
/// # Errors
/// A malformed entry, or an exploitability above [`MAX_EXPLOITABILITY`].
pub fn sparse_certificate(
    game: Endgame,
    entries: &[Vec<cache::CachedEntry>; 2],
) -> Result<Certificate> {
    let cert = sparse::certify(game, entries)?.certificate;
    if !cert.is_certified() {
        return Err(Error::Uncertified {
            game,
            what: "the stored strategies do not certify on their support",
            exploitability: cert.exploitability(),
        });
    }
    Ok(cert)
}

/// The value the certificate proves, as a fraction, if it claims one: the
/// simplest fraction inside its bracket (widened by [`BRACKET_ROUNDING`]
/// each side), of denominator `q` up to [`MAX_DENOMINATOR`] and simple
/// enough for the bracket's width `w`: `q^2 w` at most
/// [`MAX_CLAIM_SPREAD`].
pub fn exact_value(cert: &Certificate) -> Option<Fraction> {
    let (lower, upper) = (cert.lower - BRACKET_ROUNDING, cert.upper + BRACKET_ROUNDING);
    let width = upper - lower;
    if !(width >= 0.0 && width.is_finite()) {
        return None;
    }
    // The largest denominator the spread allows (`width` is at least
    // twice the rounding, so this is finite).
    let most = (MAX_CLAIM_SPREAD / width).sqrt().floor();
    Fraction::simplest_in(lower, upper, MAX_DENOMINATOR.min(most as u64))
}

#[cfg(test)]
mod tests;
