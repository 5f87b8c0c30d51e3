//! The sequence-form double oracle (Bošanský, Kiekintveld, Lisý and
//! Pěchouček, "An Exact Double-Oracle Algorithm for Zero-Sum Extensive-Form
//! Games with Imperfect Information", JAIR 51, 2014), on the Liar's Dice
//! endgame.
//!
//! A restricted game ([`super::restricted`]) holds the actions the best
//! responses have played so far. Each round solves its LP (HiGHS), extends
//! both players' restricted strategies by the default (the call) outside
//! the restricted tree, and computes each player's best response to the
//! other's extended strategy on the FULL game. A best response that beats
//! the restricted value by more than [`IMPROVEMENT`] brings its sequences
//! (those it plays with positive probability against the opponent's
//! strategy) into the restricted game; when neither does, the extended pair
//! is an equilibrium of the full game up to that tolerance: the value is
//! bracketed by the two best responses. The independent certificate of
//! [`super::certificate`] decides acceptance afterwards, as for the full LP.
//!
//! The best responses here are depth-first walks that only enter histories
//! the opponent reaches with positive probability: the opponent calls
//! wherever his extended strategy leaves the tree, so the walk visits the
//! restricted tree and one step beyond it, not the `2^bids` histories of
//! the game. (The certificate walks every history, independently.)

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::error::{Error, Result};

use gametab_games::dice::endgame::{Action, Endgame, History, Player, Strategy};

use super::restricted::{
    default_action, CallPayoffs, ExtendedPlay, HandSet, RestrictedGame, RestrictedLp,
};
use super::{LpOptions, LpSize};

mod completion;
mod response;

pub use completion::{COMPLETE_AT_MOST, SUPPORT_ABOVE};
pub use response::{best_response, Response};

use completion::{complete_players, CopySchedule};

/// A best response must beat the restricted game's value by more than this
/// to bring its sequences in: below it the difference is rounding in the
/// LP and in the walk's sums.
pub const IMPROVEMENT: f64 = 1e-12;

/// With the interior point method's rounds ([`LpOptions::crossover`]
/// false), a bracket on the value (over every round, and every earlier job
/// of the game) at most this wide ends them, as a round that brings no new
/// sequence does: the exact rounds (the dual simplex) take over. The
/// interior point rounds solve each restricted LP only to a tolerance of
/// 1e-7 ([`super::lp::IPM_ROUND_TOLERANCE`]), and their best responses
/// keep finding sequences that gain about as much against that rounding:
/// measured on 3v1 six-sided wild, whose bracket fell from 3.7e-6 to 1e-9
/// in one round and then sat at 4.2e-10 for fifteen more rounds of
/// 70-90 s, each adding 100-300 rows of sequences and none ending the
/// rounds. Exactness is untouched: the simplex's rounds still stop only
/// when a round's best responses gain at most [`IMPROVEMENT`].
pub const FINISH_WIDTH: f64 = 1e-8;

/// The default [`LpOptions::pair_width`]. In the rounds that finish a
/// large restricted LP (at least [`LpOptions::ipm_finish_rows`] rows),
/// the oracle also ends when the best strategy of each player over the
/// rounds of this run (player 1's by the lower bound his opponent's best
/// response leaves him, player 2's by the upper bound) bracket the value
/// at most this wide: each bound holds for its own strategy whatever
/// round it came from, so the pair is an equilibrium to this width. Half
/// the stored games' bar ([`MAX_EXPLOITABILITY`](super::MAX_EXPLOITABILITY)),
/// which the independent certificate checks afterwards: its walk and the
/// oracle's agree to far less than the other half.
pub const PAIR_WIDTH: f64 = super::MAX_EXPLOITABILITY / 2.0;

/// Most rounds before the oracle gives up (never reached on the games
/// solved; a guard against a loop that rounding could keep alive).
pub const MAX_ROUNDS: u32 = 10_000;

/// With [`LpOptions::prune`], the realisation weight (each hand's plan
/// weighing 1 at the opening) at or below which the restricted
/// equilibrium is taken not to play a sequence. The interior point
/// method without crossover ends at the centre of the optimal face, where
/// a sequence no equilibrium needs still carries a small weight; measured
/// on 3v1 five-sided wild (10 minutes, two at a time, `docs/development.md`),
/// 1e-3 left the narrowest bracket of 1e-7, 1e-5 and 1e-3. A sequence
/// dropped wrongly costs a round: the best responses bring it back, and it
/// is never dropped again.
pub const PRUNE_BELOW: f64 = 1e-3;

/// The least restricted game (included sequences) worth pruning
/// ([`LpOptions::prune`]): the build's choice.
pub const PRUNE_FROM: usize = 2_000;

/// The double oracle after a round: the restricted game it solved, and
/// the bounds on the full game's value that the round's best responses
/// give.
#[derive(Debug, Clone, Copy)]
pub struct OracleState {
    /// Player 1's payoff in the last restricted game.
    pub value: f64,
    /// Player 1's best-response value against player 2's extended
    /// strategy (an upper bound on the game value), and his payoff when
    /// player 2 best-responds (a lower bound), in the last round.
    pub bounds: [f64; 2],
    /// The tightest bounds of any round so far: the least upper and the
    /// greatest lower bound (each round's pair of best responses bounds
    /// the value, so both still hold).
    pub best_bounds: [f64; 2],
    /// Size of the last restricted LP.
    pub size: LpSize,
    /// Nodes of the last restricted tree.
    pub nodes: usize,
    /// Included (hand, history, action) triples of both players in the
    /// last restricted game.
    pub sequences: usize,
    /// Rounds (restricted LPs solved).
    pub rounds: u32,
    /// The method HiGHS solved the round's restricted LP by
    /// (`"ipm"` until the interior point rounds end, then `"simplex"`, or
    /// `"ipm with crossover"` for a restricted LP of at least
    /// [`LpOptions::ipm_finish_rows`] rows).
    pub method: &'static str,
    /// Time spent building the trees and LPs and in HiGHS.
    pub lp_time: Duration,
    /// Of `lp_time`, the time in HiGHS's solves.
    pub highs_time: Duration,
    /// Time spent in the best-response walks.
    pub response_time: Duration,
    /// Copies with one player completed solved so far in the run (each
    /// giving the other player's strategy against all of his,
    /// [`RestrictedGame::complete`]).
    pub completions: u32,
}

/// What the double oracle found: the equilibrium.
#[derive(Debug, Clone)]
pub struct OracleSolution {
    /// Both players' behaviour where the final restricted game gives one
    /// (the default plays elsewhere), sorted by (hand, history, action).
    pub entries: [Vec<(usize, History, Action, f64)>; 2],
    /// The final round: neither best response gains more than
    /// [`IMPROVEMENT`] over its restricted value, or the best pair of
    /// strategies of the run is within [`LpOptions::pair_width`] (then
    /// `bounds` are that pair's and `value` the restricted value of
    /// player 2's round).
    pub state: OracleState,
}

/// How a run of the double oracle ended.
#[derive(Debug, Clone)]
pub enum OracleOutcome {
    /// Neither best response improved: the equilibrium.
    Converged(OracleSolution),
    /// The deadline passed before the rounds settled: the state after the
    /// last round (its bounds hold, its strategies are no equilibrium).
    OutOfTime(OracleState),
}

impl OracleOutcome {
    /// The state after the last round, whichever way it ended.
    pub fn state(&self) -> &OracleState {
        match self {
            OracleOutcome::Converged(solution) => &solution.state,
            OracleOutcome::OutOfTime(state) => state,
        }
    }
}

/// The weight of each best response in the mixtures the look-ahead
/// best-responds to ([`LpOptions::lookahead`]): small, so that where the restricted
/// equilibrium plays, the look-ahead's best response is nearly the plain
/// one (whose sequences are in already), and where only the opponent's
/// best responses go, it is the reply the next round's equilibrium is
/// likely to need (there it does not depend on the weight).
pub const LOOKAHEAD_WEIGHT: f64 = 0.01;

/// The look-ahead of [`LpOptions::lookahead`]: `steps` times, each
/// player's best response to the opponent's restricted equilibrium `play`
/// mixed ([`ExtendedPlay::mixed`], weight [`LOOKAHEAD_WEIGHT`] each) with
/// the opponent's best responses so far (the round's own, `first`, then
/// those of the steps before), its sequences included. In the manner of
/// pipelined best responses (McAleer et al., "Pipeline PSRO", NeurIPS
/// 2020: each pending best response trains against a mixture that holds
/// the lower ones), it brings in the replies to the round's new sequences
/// a round early: with the call as the extension, a best response only
/// goes one bid beyond the restricted tree, and the plain double oracle
/// needs a round per bid to grow a line of raises. Exactness is
/// untouched: any included sequences span a restricted game, and the
/// oracle still stops only when the round's plain best responses gain
/// nothing. Returns the sequences it added.
fn look_ahead(
    game: Endgame,
    payoffs: &CallPayoffs,
    play: &[ExtendedPlay; 2],
    first: [&Response; 2],
    steps: u32,
    restricted: &mut RestrictedGame,
) -> usize {
    let mut pures: [Vec<Vec<(History, Action, HandSet)>>; 2] =
        first.map(|r| vec![r.sequences.clone()]);
    let mut added = 0;
    for _ in 0..steps {
        let mixes: [ExtendedPlay; 2] = [0, 1].map(|p| {
            let parts: Vec<&[(History, Action, HandSet)]> =
                pures[p].iter().map(Vec::as_slice).collect();
            play[p].mixed(game, &parts, LOOKAHEAD_WEIGHT)
        });
        let one = best_response(game, payoffs, Player::One, &mixes[1]);
        let two = best_response(game, payoffs, Player::Two, &mixes[0]);
        for response in [&one, &two] {
            for &(h, a, hands) in &response.sequences {
                added += restricted.include(h, a, hands);
            }
        }
        pures[0].push(one.sequences);
        pures[1].push(two.sequences);
    }
    added
}

/// The strategy of `player` that plays the default
/// ([`default_action`]) at every information set: the base the
/// restricted behaviour is laid on.
pub fn default_strategy(game: Endgame, player: Player) -> Strategy {
    let mut strategy = Strategy::zero(game, player);
    for i in 0..game.hands(player).len() {
        for h in (0..game.history_count() as u32).map(History) {
            if game.to_move(h) == player {
                strategy.set(i, h, default_action(h), 1.0);
            }
        }
    }
    strategy
}

/// Solve `game` by the double oracle, starting from the defaults alone,
/// until neither best response improves or, when a `deadline` is given,
/// until the first round that ends after it (a round is never cut short:
/// its best responses give the bounds).
///
/// # Errors
/// HiGHS fails on a restricted LP, or the rounds exceed [`MAX_ROUNDS`].
pub fn solve_double_oracle(
    game: Endgame,
    options: LpOptions,
    deadline: Option<Instant>,
) -> Result<OracleOutcome> {
    Ok(solve_double_oracle_from(game, options, deadline, None)?.0)
}

/// [`solve_double_oracle`] from the restricted game `start` (one a
/// budget cut off before, [`RestrictedGame::included`]) or from nothing,
/// returning the restricted game it ended with beside the outcome.
///
/// With the interior point method without crossover
/// ([`LpOptions::crossover`] false) each restricted LP is solved only to
/// HiGHS's tolerance, so its best responses gain a little without
/// bringing a new sequence; the first round that brings none switches to
/// the dual simplex for the rounds left, so that the last LP is exact. The
/// simplex starts from the basis a crossover finds from that round's
/// interior point solution (the restricted LP unchanged): measured on 2v2
/// six-sided wild at 218,630 rows, a crossover of 12,717 iterations where
/// a cold start took 263,654 simplex iterations (`docs/development.md`);
/// where the crossover ends short of an optimal basis, the simplex starts
/// cold, as it did before. A restricted LP of at least
/// [`LpOptions::ipm_finish_rows`] rows is finished instead by the interior
/// point method with crossover, each round's LP solved afresh to a basic
/// optimal solution: the simplex's repair of its basis after each round's
/// new sequences is what costs there ([`super::lp::IPM_FINISH_ROWS`]).
/// Those rounds also solve the LPs of copies of the restricted game, each
/// with one player completed and the other cut to the supports of his
/// strategies at hand: the other's strategy there is optimal against all
/// of the completed player's (the private `completion` module says which
/// copies and when, with the measurements). The rounds end as
/// every round does, or when the best strategies of the two players over
/// the run (and the jobs before, `kept`) bracket the value within
/// [`LpOptions::pair_width`] ([`PAIR_WIDTH`]), the value then the middle
/// of their bracket.
///
/// # Errors
/// HiGHS fails on a restricted LP, or the rounds exceed [`MAX_ROUNDS`].
pub fn solve_double_oracle_from(
    game: Endgame,
    options: LpOptions,
    deadline: Option<Instant>,
    start: Option<RestrictedGame>,
) -> Result<(OracleOutcome, RestrictedGame)> {
    solve_double_oracle_watched(
        game,
        options,
        deadline,
        start,
        [f64::INFINITY, f64::NEG_INFINITY],
        [None, None],
        &mut |_, _, _| {},
    )
}

/// [`solve_double_oracle_from`], calling `on_round` at the end of every
/// round with where the oracle stands (its bracket so far, the restricted
/// LP's size) and the restricted game the next round starts from (the
/// round's best responses included): a progress report of a long job, and
/// a point to resume from should the job be killed. `known`: bounds on the
/// value from earlier jobs of the game, `[upper, lower]` (or infinite),
/// the start of [`OracleState::best_bounds`]; `kept`: each player's best
/// strategy from them ([`KeptPlay`], its bound checked by the caller), or
/// none, the start of the best strategies that
/// [`LpOptions::pair_width`] pairs, which `on_round` gets too (from the
/// rounds at a restricted LP of at least [`LpOptions::ipm_finish_rows`]
/// rows on).
///
/// # Errors
/// HiGHS fails on a restricted LP, or the rounds exceed [`MAX_ROUNDS`].
pub fn solve_double_oracle_watched(
    game: Endgame,
    mut options: LpOptions,
    deadline: Option<Instant>,
    start: Option<RestrictedGame>,
    known: [f64; 2],
    kept: Kept,
    on_round: &mut dyn FnMut(&OracleState, &RestrictedGame, &Kept),
) -> Result<(OracleOutcome, RestrictedGame)> {
    let payoffs = CallPayoffs::new(game);
    let mut restricted = match start {
        Some(start) => start,
        None => RestrictedGame::new(game)?,
    };
    let (mut lp_time, mut highs_time, mut response_time) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut best_bounds = known;
    let mut rounds = 0;
    let mut lp = RestrictedLp::new(options)?;
    let mut dropped = HashMap::new();
    let mut pruned_at = 0;
    // The players a round completes, each on a copy of the restricted
    // game (every action at every node of his in the tree, the opponent
    // cut to the supports of his strategies at hand).
    let mut copies = CopySchedule::new(&payoffs);
    // The last round's restricted equilibrium at a large restricted LP
    // (both players' behaviour), whose supports the copies' cuts keep.
    let mut last: Option<[Entries; 2]> = None;
    // The best strategy of each player over this run's rounds at a large
    // restricted LP and the jobs before: player 1's by his lower bound,
    // player 2's by the upper bound.
    let mut best = kept;
    loop {
        rounds += 1;
        if rounds > MAX_ROUNDS {
            return Err(Error::NotConverged {
                game,
                reason: format!("did not settle in {MAX_ROUNDS} rounds"),
            });
        }
        let players = copies.take();
        if !players.is_empty() {
            let start = Instant::now();
            copies.solved(complete_players(
                game,
                &payoffs,
                &mut restricted,
                (&players, last.as_ref()),
                (&mut best, &mut best_bounds),
                options,
                rounds,
            )?);
            lp_time += start.elapsed();
        }
        let start = Instant::now();
        let tree = restricted.tree();
        if !options.warm_start {
            lp.reset()?;
        }
        let solution = lp.solve(&restricted, &tree, &payoffs)?;
        let lp_round = start.elapsed();
        lp_time += lp_round;
        highs_time += solution.highs_time;
        let start = Instant::now();
        let one = best_response(game, &payoffs, Player::One, &solution.play[1]);
        let two = best_response(game, &payoffs, Player::Two, &solution.play[0]);
        let response_round = start.elapsed();
        response_time += response_round;
        let gains = [one.value - solution.value, two.value + solution.value];
        if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
            eprintln!(
                "{game} round {rounds} ({}): value {:.15} gains {:.3e} {:.3e}, tree {} nodes, LP {} x {} ({} nonzeros), sequences {}, visited {} + {}, LP {:.3} s ({:.3} s in HiGHS, {} simplex and {} interior point iterations), responses {:.3} s",
                options.method,
                solution.value,
                gains[0],
                gains[1],
                solution.nodes,
                solution.size.rows,
                solution.size.columns,
                solution.size.nonzeros,
                restricted.sequences(),
                one.visited,
                two.visited,
                lp_round.as_secs_f64(),
                solution.highs_time.as_secs_f64(),
                solution.iterations,
                solution.ipm_iterations,
                response_round.as_secs_f64()
            );
        }
        let bounds = [one.value, -two.value];
        best_bounds = [best_bounds[0].min(bounds[0]), best_bounds[1].max(bounds[1])];
        last = (solution.size.rows >= options.ipm_finish_rows as u64)
            .then(|| solution.play.each_ref().map(sorted_entries));
        if let Some(entries) = &last {
            for (player, bound) in [(0, bounds[1]), (1, bounds[0])] {
                if improves(&best, player, bound) {
                    best[player] = Some(KeptPlay {
                        bound,
                        value: solution.value,
                        entries: entries[player].clone(),
                    });
                }
            }
        }
        let state = OracleState {
            value: solution.value,
            bounds,
            best_bounds,
            size: solution.size,
            nodes: solution.nodes,
            sequences: restricted.sequences(),
            rounds,
            method: if options.method == "ipm" && options.crossover {
                "ipm with crossover"
            } else {
                options.method
            },
            lp_time,
            highs_time,
            response_time,
            completions: copies.completions,
        };
        let improving = gains.iter().any(|&g| g > IMPROVEMENT);
        if options
            .prune
            .is_some_and(|from| restricted.sequences() >= from.max(2 * pruned_at))
            && improving
        {
            let before = restricted.sequences();
            let removed = restricted.prune(&solution.weights, PRUNE_BELOW, &mut dropped);
            pruned_at = restricted.sequences();
            lp.reset()?;
            if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                eprintln!("{game} round {rounds}: pruned {removed} of {before} sequences");
            }
        }
        let mut added = 0;
        for (gain, response) in gains.iter().zip([&one, &two]) {
            if *gain > IMPROVEMENT {
                for &(h, a, hands) in &response.sequences {
                    added += restricted.include(h, a, hands);
                }
            }
        }
        if added > 0 && options.lookahead > 0 {
            let start = Instant::now();
            let more = look_ahead(
                game,
                &payoffs,
                &solution.play,
                [&one, &two],
                options.lookahead,
                &mut restricted,
            );
            response_time += start.elapsed();
            if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                eprintln!(
                    "{game} round {rounds}: {added} sequences from the best responses, {more} from {} look-ahead steps ({:.3} s)",
                    options.lookahead,
                    start.elapsed().as_secs_f64()
                );
            }
        }
        on_round(&state, &restricted, &best);
        let finishing = !options.crossover && options.method == "ipm";
        if added == 0 && !finishing {
            // No best response gains on an exact restricted equilibrium.
            let entries = solution.play.each_ref().map(sorted_entries);
            let outcome = OracleOutcome::Converged(OracleSolution { entries, state });
            return Ok((outcome, restricted));
        }
        let large = solution.size.rows >= options.ipm_finish_rows as u64;
        if let (true, [Some(x), Some(y)]) = (large, &best) {
            let width = y.bound - x.bound;
            if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                eprintln!(
                    "{game} round {rounds}: the best pair of the run within {width:.3e} ({:.15}, {:.15})",
                    x.bound, y.bound
                );
            }
            // Checked before the switch to the exact finish, so that a
            // pair already within the width ends the run in the round it
            // forms (2v2 six-sided wild ran one more round of 503 s when
            // it came after). The value is the middle of the pair's
            // bracket: each strategy's own round had another restricted
            // value, which may lie outside it (by 5.2e-11 there).
            if width <= options.pair_width {
                let solution = OracleSolution {
                    entries: [x.entries.clone(), y.entries.clone()],
                    state: OracleState {
                        value: x.bound + width / 2.0,
                        bounds: [y.bound, x.bound],
                        ..state
                    },
                };
                return Ok((OracleOutcome::Converged(solution), restricted));
            }
        }
        let narrow = best_bounds[0] - best_bounds[1] <= FINISH_WIDTH;
        if (added == 0 || narrow) && finishing {
            // The interior point's rounds are over: finish exactly. A
            // restricted LP too large for the simplex to repair its basis
            // after each round's new sequences is solved afresh each round
            // by the interior point method with crossover, the first such
            // round also solving a copy with the player with fewer hands
            // completed (for the other's exact strategy); a smaller one by
            // the simplex from the crossover's basis (on the LP as it was
            // solved; this round's new sequences, if any, are added to it
            // in the next round).
            let by_ipm = solution.size.rows >= options.ipm_finish_rows as u64;
            options = LpOptions {
                method: if by_ipm { "ipm" } else { "simplex" },
                crossover: true,
                prune: None,
                ..options
            };
            if by_ipm {
                lp.finish_by_interior_point(options)?;
                let [first, second] = copies.both();
                if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                    eprintln!(
                        "{game} round {rounds}: the rounds left by the interior point method with crossover, the next one completing {first:?} then {second:?} on copies (LP of {} rows, at least {})",
                        solution.size.rows, options.ipm_finish_rows
                    );
                }
                continue;
            }
            let start = Instant::now();
            let basis = lp.continue_by_simplex(options)?;
            lp_time += start.elapsed();
            highs_time += start.elapsed();
            if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                eprintln!(
                    "{game} round {rounds} ({}): crossover {} in {:.3} s, the simplex goes on {}",
                    if added == 0 {
                        "no new sequence"
                    } else {
                        "bracket narrower than FINISH_WIDTH"
                    },
                    if basis {
                        "found a basis"
                    } else {
                        "found no basis"
                    },
                    start.elapsed().as_secs_f64(),
                    if basis { "from it" } else { "cold" }
                );
            }
            continue;
        }
        // A copy that paid is solved again once the round LPs since have
        // held as many nonzeros as its own ([`CopySchedule`]).
        let again = copies.after_round(solution.size.nonzeros, large);
        if !again.is_empty() && std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
            eprintln!(
                "{game} round {rounds}: the copies completing {again:?} paid, and the round LPs since were as large: again next round"
            );
        }
        if large && !copies.scheduled() && !options.crossover {
            // The first round of a run at a large restricted LP: a job
            // resumed there has usually stalled in the interior point
            // rounds (2v2 six-sided wild: a bracket 2e-4 wide for twenty
            // rounds), and the copies give each player's strategy against
            // all of the other's, where the rounds' centres give bounds
            // as wide as the bracket.
            let [first, second] = copies.both();
            if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                eprintln!(
                    "{game} round {rounds}: the first round of the run at a large restricted LP, the next one completing {first:?} then {second:?} on copies"
                );
            }
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok((OracleOutcome::OutOfTime(state), restricted));
        }
    }
}

/// A strategy's behaviour: (hand, history, action, probability), sorted by
/// (hand, history, action) ([`KeptPlay::entries`]).
pub type Entries = Vec<(usize, History, Action, f64)>;

/// Each player's best strategy so far, player 1's first ([`KeptPlay`]).
pub type Kept = [Option<KeptPlay>; 2];

/// A player's best strategy over the rounds of a run (and of the jobs
/// before it, [`solve_double_oracle_watched`]'s `kept`): what
/// [`LpOptions::pair_width`] pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptPlay {
    /// The bound his opponent's best response leaves: player 1's lower
    /// bound, player 2's upper bound on the value.
    pub bound: f64,
    /// The restricted value of the round it came from.
    pub value: f64,
    /// Its behaviour, sorted by (hand, history, action).
    pub entries: Entries,
}

/// Whether a strategy of `player` (0 or 1) leaving `bound` is better than
/// the one `best` keeps (or none is kept): player 1's by a greater lower
/// bound, player 2's by a smaller upper bound.
fn improves(best: &Kept, player: usize, bound: f64) -> bool {
    best[player].as_ref().is_none_or(|k| {
        if player == 0 {
            bound > k.bound
        } else {
            bound < k.bound
        }
    })
}

/// A play's behaviour, sorted by (hand, history, action).
fn sorted_entries(play: &ExtendedPlay) -> Entries {
    let mut entries: Vec<_> = play.entries().collect();
    entries.sort_by_key(|&(i, h, a, _)| (i, h, a));
    entries
}
