//! The sequence-form LP of an endgame (Koller, Megiddo and von Stengel),
//! built sparse column by column and solved by HiGHS.
//!
//! For a maximiser `M` and his opponent `m`, with realisation plans `x`
//! (of `M`) and `y` (of `m`), payoff matrix `A` over sequence pairs and
//! realisation constraints `F x = f`, `E y = e`:
//!
//! ```text
//! maximise   sum over m's root information sets J of v_J
//! subject to F x = f,  x >= 0                      (one row per M infoset)
//!            v_I(s) - sum_{J below s} v_J - (A^T x)_s <= 0
//!                                                  (one row per m sequence s)
//! ```
//!
//! with `v` free, one per information set of `m`. The objective is the game
//! value to `M`, times the `s^(a+b)` rolls (the chance weights of `A` are
//! the integer roll counts of the two hands, so `A` is integral). The duals
//! of the `m`-sequence rows are `m`'s optimal realisation plan, so one LP
//! gives both players; [`super::solve`] falls back to the LP of the other
//! maximiser when the duals do not certify.
//!
//! Every (hand, history) of a player is one information set, and a player's
//! sequence is identified by his hand and the history right after his last
//! action (a bid), or by the history at which he called. Both realisation
//! plans are returned in [`Strategy`]'s dense layout.

use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use super::error::{Error, Expect, Result};
use highs::{ColProblem, HighsModelStatus, Model, Row, Sense, SolvedModel};

use gametab_games::dice::endgame::{Action, Endgame, Hands, History, Player, Strategy};

/// HiGHS's interior point solver for the double oracle's restricted LPs
/// ([`LpOptions::method`] `ipm`, [`super::growing_lp`]): HiPO, HiGHS's
/// newer interior point method, with a direct factorisation of its Newton
/// system. Measured on 2v2 six-sided wild's restricted LP (235,715 x
/// 228,122, one thread, `docs/development.md`): 86 s against 235 s for
/// IPX, HiGHS's older interior point solver (which `ipm` meant before
/// HiPO was built in), the same optimum to its tolerance. The full LP
/// ([`run_highs`]) keeps IPX.
pub const ORACLE_IPM_SOLVER: &str = "hipo";

/// HiPO's Newton system for the restricted LPs: the augmented system.
/// HiGHS's own choice on those LPs, the normal equations, stalled at a
/// primal infeasibility of 7e-8 and restarted with IPX (178 s in all);
/// the augmented system took 86 s.
pub const HIPO_SYSTEM: &str = "augmented";

/// Primal and dual feasibility tolerance of the double oracle's interior
/// point rounds without crossover ([`LpOptions::crossover`] false): HiPO
/// stagnates at about 1e-6 of relative residual on the six-sided wild
/// games' restricted LPs, which HiGHS's 1e-10 (every other solve's)
/// declares unknown. Those rounds only choose the best responses' targets
/// (the brackets come from the best responses, which hold for any
/// strategy); the finish by the simplex solves to 1e-10 again.
pub const IPM_ROUND_TOLERANCE: f64 = 1e-7;

/// What HiGHS is asked to do.
#[derive(Debug, Clone, Copy)]
pub struct LpOptions {
    /// Threads HiGHS may use.
    pub threads: u32,
    /// HiGHS's `solver` option: `simplex`, `ipm` or `choose`; `ipm` is
    /// IPX for the full LP and HiPO ([`ORACLE_IPM_SOLVER`]) for the double
    /// oracle's restricted LPs.
    pub method: &'static str,
    /// The double oracle re-solves its growing restricted LP from the last
    /// basis (else it solves each round's LP afresh).
    pub warm_start: bool,
    /// With `ipm`, HiGHS's crossover to a basic solution after the interior
    /// point (HiGHS's default). Without it each LP ends at the interior
    /// point's tolerance, and the double oracle finishes by the simplex
    /// ([`super::oracle`]).
    pub crossover: bool,
    /// Look-ahead steps of the double oracle ([`super::oracle`]): beside
    /// each player's best response to the opponent's restricted
    /// equilibrium, each step adds each player's best response to the
    /// opponent's equilibrium mixed with the opponent's best responses of
    /// the steps before (0: the plain double oracle).
    pub lookahead: u32,
    /// The double oracle prunes its restricted game once it holds at least
    /// this many sequences and has doubled since the last pruning: the
    /// sequences the restricted equilibrium plays with a realisation
    /// weight of at most [`PRUNE_BELOW`](super::oracle::PRUNE_BELOW) are
    /// dropped, each at most once (so that the double oracle still ends),
    /// and the restricted LP stays near the size of the support instead
    /// of holding every sequence any round brought ([`super::oracle`]).
    /// `None`: never ([`PRUNE_FROM`](super::oracle::PRUNE_FROM) is the
    /// build's choice where it prunes).
    pub prune: Option<usize>,
    /// Where the interior point rounds without crossover end, a restricted
    /// LP of at least this many rows is finished by the interior point
    /// method with crossover, each round's LP afresh (and the LPs of copies
    /// with one player completed, [`super::oracle`]), instead of the dual
    /// simplex from the last basis ([`super::oracle`], [`IPM_FINISH_ROWS`]
    /// by default).
    pub ipm_finish_rows: usize,
    /// In those rounds, the width within which the best strategies of
    /// both players over the run end the double oracle
    /// ([`PAIR_WIDTH`](super::oracle::PAIR_WIDTH) by default; a negative
    /// width never ends it).
    pub pair_width: f64,
}

/// The default [`LpOptions::ipm_finish_rows`]. The dual simplex from the
/// last basis repairs that basis after each round's new sequences (new
/// columns leave it dual infeasible, new rows primal infeasible): cheap on
/// the games it finished, up to 1v3 six-sided wild at 130,612 rows, but on
/// 3v1 six-sided wild at 376,171 rows its first round was still in the
/// dual simplex's phase 1 after 73 minutes, and unfinished again after 31
/// minutes in a second job, where the interior point method with
/// crossover solved each round's LP in 250 to 458 s
/// (`docs/development.md`). A size between the two, not tuned further: no
/// smaller game reaches it, so none of their solutions changes.
pub const IPM_FINISH_ROWS: usize = 200_000;

impl Default for LpOptions {
    /// One thread (the build solves games in parallel), dual simplex with
    /// presolve (measured fastest on these LPs; see the module of
    /// [`super`]).
    fn default() -> LpOptions {
        LpOptions {
            threads: 1,
            method: "simplex",
            warm_start: true,
            crossover: true,
            lookahead: 0,
            prune: None,
            ipm_finish_rows: IPM_FINISH_ROWS,
            pair_width: super::oracle::PAIR_WIDTH,
        }
    }
}

/// The LP's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LpSize {
    /// Constraints.
    pub rows: u64,
    /// Variables.
    pub columns: u64,
    /// Nonzero coefficients.
    pub nonzeros: u64,
}

/// A solved LP: both realisation plans, the objective and the sizes.
#[derive(Debug, Clone)]
pub struct SolvedLp {
    /// The maximiser's realisation plan (from the primal).
    pub maximiser: Strategy,
    /// The opponent's realisation plan (from the duals).
    pub minimiser: Strategy,
    /// The value of the game to the maximiser, as a probability-weighted
    /// payoff (the objective divided by the rolls).
    pub value: f64,
    /// Size of the LP.
    pub size: LpSize,
    /// Time to build the LP.
    pub built_in: Duration,
    /// Time HiGHS took.
    pub solved_in: Duration,
}

/// Dense `u32` index over (hand, history); `NONE` where nothing is indexed.
struct Index {
    histories: usize,
    slots: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Index {
    fn new(hands: usize, histories: usize) -> Index {
        Index {
            histories,
            slots: vec![NONE; hands * histories],
        }
    }

    fn get(&self, hand: usize, history: History) -> Option<u32> {
        let slot = self.slots[hand * self.histories + history.0 as usize];
        (slot != NONE).then_some(slot)
    }

    fn set(&mut self, hand: usize, history: History, value: u32) {
        self.slots[hand * self.histories + history.0 as usize] = value;
    }
}

/// Player `me`'s payoff of a call after `history` with the hands `mine`
/// and `theirs`, times the two hands' roll counts.
fn weighted_payoff(
    game: Endgame,
    me: Player,
    history: History,
    hands: [(&Hands, usize); 2],
) -> f64 {
    let [(my_hands, mine), (their_hands, theirs)] = hands;
    let (one, two) = match me {
        Player::One => (my_hands.hand(mine), their_hands.hand(theirs)),
        Player::Two => (their_hands.hand(theirs), my_hands.hand(mine)),
    };
    let payoff = game
        .call_payoff(history, [one, two])
        .expect("a call follows a bid");
    let sign = if me == Player::One { 1.0 } else { -1.0 };
    sign * f64::from(payoff)
        * f64::from(my_hands.weight(mine))
        * f64::from(their_hands.weight(theirs))
}

/// Solve `problem` (an LP of `game`, maximised) with HiGHS as `options`
/// say, with primal and dual feasibility tolerances of 1e-10.
///
/// # Errors
/// HiGHS refuses the model, or ends with any status but optimal.
pub fn run_highs(problem: ColProblem, game: Endgame, options: LpOptions) -> Result<SolvedModel> {
    let mut model = Model::try_new(problem)
        .map_err(|status| Error::Highs(format!("HiGHS refused the LP of {game}: {status:?}")))?;
    model.make_quiet();
    model.set_sense(Sense::Maximise);
    model.set_threads(NonZeroU32::new(options.threads.max(1)).unwrap_or(NonZeroU32::MIN));
    // `ipm` is IPX here, as it was before HiPO was built in: HiGHS would
    // choose HiPO now.
    let solver = if options.method == "ipm" {
        "ipx"
    } else {
        options.method
    };
    model.set_option("solver", solver);
    model.set_option("primal_feasibility_tolerance", 1e-10);
    model.set_option("dual_feasibility_tolerance", 1e-10);
    if !options.crossover {
        model.set_option("run_crossover", "off");
    }
    let solved = model
        .try_solve()
        .map_err(|status| Error::Highs(format!("HiGHS failed on the LP of {game}: {status:?}")))?;
    if solved.status() != HighsModelStatus::Optimal {
        return Err(Error::Highs(format!(
            "the LP of {game} ended {:?}, not optimal",
            solved.status()
        )));
    }
    Ok(solved)
}

/// Build and solve the LP of `game` with `maximiser` as the maximiser.
///
/// # Errors
/// HiGHS refuses the model, or ends with any status but optimal.
pub fn solve_lp(game: Endgame, maximiser: Player, options: LpOptions) -> Result<SolvedLp> {
    let start = Instant::now();
    let minimiser = maximiser.opponent();
    let hands_max = game.hands(maximiser);
    let hands_min = game.hands(minimiser);
    let histories = game.history_count();
    let all = || (0..histories as u32).map(History);
    // A player's bid sequences end at histories whose parent he moved at;
    // his call sequences and his information sets are the histories where he
    // moves.
    let moved_last = move |h: History, p: Player| !h.is_empty() && game.to_move(h.parent()) == p;
    let moves_at = move |h: History, p: Player| game.to_move(h) == p;

    let mut problem = ColProblem::default();
    let mut size = LpSize::default();
    // Rows of the maximiser's information sets.
    let mut infoset_rows = Index::new(hands_max.len(), histories);
    let mut rows: Vec<Row> = Vec::new();
    for i in 0..hands_max.len() {
        for h in all().filter(|&h| moves_at(h, maximiser)) {
            let rhs = if h.len() < 2 { 1.0 } else { 0.0 };
            infoset_rows.set(i, h, rows.len() as u32);
            rows.push(problem.add_row(rhs..=rhs));
        }
    }
    // Rows of the minimiser's sequences: bids, then calls.
    let mut bid_rows = Index::new(hands_min.len(), histories);
    let mut call_rows = Index::new(hands_min.len(), histories);
    for j in 0..hands_min.len() {
        for h in all() {
            if moved_last(h, minimiser) {
                bid_rows.set(j, h, rows.len() as u32);
                rows.push(problem.add_row(..=0.0));
            }
            if moves_at(h, minimiser) && !h.is_empty() {
                call_rows.set(j, h, rows.len() as u32);
                rows.push(problem.add_row(..=0.0));
            }
        }
    }
    size.rows = rows.len() as u64;
    let row = |index: u32| rows[index as usize];

    // Columns of the maximiser's sequences: x(i, bid ending at g), x(i, call at h).
    let mut bid_columns = Index::new(hands_max.len(), histories);
    let mut call_columns = Index::new(hands_max.len(), histories);
    let mut column = 0u32;
    let mut entries: Vec<(Row, f64)> = Vec::new();
    for i in 0..hands_max.len() {
        for h in all() {
            if moved_last(h, maximiser) {
                entries.clear();
                entries.push((
                    row(infoset_rows
                        .get(i, h.parent())
                        .expect_internal("parent infoset")?),
                    1.0,
                ));
                for action in game.actions(h) {
                    match action {
                        Action::Bid(b) => {
                            let below = infoset_rows
                                .get(i, h.then(b))
                                .expect_internal("child infoset")?;
                            entries.push((row(below), -1.0));
                        }
                        Action::Call => {
                            for j in 0..hands_min.len() {
                                let payoff = weighted_payoff(
                                    game,
                                    maximiser,
                                    h,
                                    [(&hands_max, i), (&hands_min, j)],
                                );
                                let call = call_rows.get(j, h).expect_internal("call row")?;
                                entries.push((row(call), -payoff));
                            }
                        }
                    }
                }
                size.nonzeros += entries.len() as u64;
                problem.add_column(0.0, 0.0.., entries.iter().copied());
                bid_columns.set(i, h, column);
                column += 1;
            }
            if moves_at(h, maximiser) && !h.is_empty() {
                entries.clear();
                entries.push((row(infoset_rows.get(i, h).expect_internal("infoset")?), 1.0));
                for j in 0..hands_min.len() {
                    let payoff =
                        weighted_payoff(game, maximiser, h, [(&hands_max, i), (&hands_min, j)]);
                    let bid = bid_rows.get(j, h).expect_internal("bid row")?;
                    entries.push((row(bid), -payoff));
                }
                size.nonzeros += entries.len() as u64;
                problem.add_column(0.0, 0.0.., entries.iter().copied());
                call_columns.set(i, h, column);
                column += 1;
            }
        }
    }
    // Columns of the minimiser's information sets: v(j, h), free.
    for j in 0..hands_min.len() {
        for h in all().filter(|&h| moves_at(h, minimiser)) {
            entries.clear();
            for action in game.actions(h) {
                let own = match action {
                    Action::Call => call_rows.get(j, h),
                    Action::Bid(b) => bid_rows.get(j, h.then(b)),
                };
                entries.push((row(own.expect_internal("own sequence row")?), 1.0));
            }
            let root = h.len() < 2;
            if !root {
                let parent = bid_rows
                    .get(j, h.parent())
                    .expect_internal("parent sequence row")?;
                entries.push((row(parent), -1.0));
            }
            size.nonzeros += entries.len() as u64;
            let cost = if root { 1.0 } else { 0.0 };
            problem.add_column::<f64, _, _, _>(cost, .., entries.iter().copied());
            column += 1;
        }
    }
    size.columns = u64::from(column);
    let built_in = start.elapsed();

    let solving = Instant::now();
    let solved = run_highs(problem, game, options)?;
    let solved_in = solving.elapsed();
    let rolls = f64::from(hands_max.total_weight()) * f64::from(hands_min.total_weight());
    let value = solved.objective_value() / rolls;
    let solution = solved.get_solution();
    let primal = solution.columns();
    let duals = solution.dual_rows();

    let mut max_plan = Strategy::zero(game, maximiser);
    for i in 0..hands_max.len() {
        for h in all().filter(|&h| moves_at(h, maximiser)) {
            for action in game.actions(h) {
                let column = match action {
                    Action::Call => call_columns.get(i, h),
                    Action::Bid(b) => bid_columns.get(i, h.then(b)),
                };
                let weight = primal[column.expect_internal("sequence column")? as usize];
                max_plan.set(i, h, action, weight);
            }
        }
    }
    let mut min_plan = Strategy::zero(game, minimiser);
    for j in 0..hands_min.len() {
        for h in all().filter(|&h| moves_at(h, minimiser)) {
            for action in game.actions(h) {
                let own = match action {
                    Action::Call => call_rows.get(j, h),
                    Action::Bid(b) => bid_rows.get(j, h.then(b)),
                };
                let weight = duals[own.expect_internal("sequence row")? as usize].abs();
                min_plan.set(j, h, action, weight);
            }
        }
    }
    Ok(SolvedLp {
        maximiser: max_plan,
        minimiser: min_plan,
        value,
        size,
        built_in,
        solved_in,
    })
}

/// The size [`solve_lp`] gives the LP of `game` with player 1 maximising,
/// counted without building it (one pass over the histories): the full
/// game's size beside a restricted LP's.
pub fn full_size(game: Endgame) -> LpSize {
    let (one, two) = (Player::One, Player::Two);
    let n1 = game.hands(one).len() as u64;
    let n2 = game.hands(two).len() as u64;
    let bids = game.bid_count() as u64;
    let mut size = LpSize::default();
    for h in (0..game.history_count() as u32).map(History) {
        let mover = game.to_move(h);
        let later = bids - h.last().map_or(0, |l| u64::from(l) + 1);
        let actions = later + u64::from(!h.is_empty());
        let moved_last = (!h.is_empty()).then(|| game.to_move(h.parent()));
        if mover == one {
            // Player 1's information set; his call, with a payoff against
            // every hand of player 2.
            size.rows += n1;
            if !h.is_empty() {
                size.columns += n1;
                size.nonzeros += n1 * (1 + n2);
            }
        } else {
            // Player 2's information-set value and his call's row.
            size.columns += n2;
            size.nonzeros += n2 * (actions + u64::from(h.len() >= 2));
            size.rows += n2;
        }
        match moved_last {
            Some(p) if p == one => {
                // Player 1's bid sequence ending here: its infoset, the
                // infosets after player 2's raises, player 2's calls.
                size.columns += n1;
                size.nonzeros += n1 * (1 + later + n2);
            }
            Some(_) => size.rows += n2,
            None => {}
        }
    }
    size
}
