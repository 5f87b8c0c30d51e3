//! The copies of a restricted game with one player completed
//! ([`RestrictedGame::complete_undominated`]) and the other cut to the
//! union of the supports of his strategies at hand
//! ([`RestrictedGame::cut_to_support`]): his best strategy so far, the
//! last round's, and the one of a copy this round that completed him.
//! Each copy gives the other player's strategy against every strategy of
//! the completed one, a bound the double oracle's rounds ([`super`]) pair
//! with the other side's.
//!
//! The round after the first one of a run at a large restricted LP (at
//! least [`LpOptions::ipm_finish_rows`] rows), and the round after the
//! one that ends the interior point rounds there, solve the LPs of two
//! copies of the restricted game, each with one player completed
//! ([`RestrictedGame::complete_undominated`]: every action of his at
//! every node of his in the tree, but the bids beaten whatever the
//! opponent holds) and the other cut to the union of the supports of his
//! strategies at hand ([`RestrictedGame::cut_to_support`]: his best so
//! far, the last round's, and his strategy in the copy before, which
//! holds his replies to everything of the first completed player's), the
//! player with fewer hands first; a copy is skipped where the other
//! player's kept strategy already pairs, and the player with more hands
//! is completed only against a kept strategy. The other player's
//! strategy there is optimal against all of the completed player's, not
//! only against the sequences best responses brought, and exact where
//! its support holds an equilibrium's. Measured on 3v1 six-sided wild,
//! where every vertex of player 1's left player 2's best response 1e-2
//! to 4e-2 in each of 27 rounds: player 2 completed on the whole
//! restricted game (1,580,079 rows) took 1,612 s, and player 2's best
//! response gained 3.4e-14 against its strategy of player 1's; player 1
//! completed against player 2's support (145,412 rows) took 65 s, and
//! player 1's best response gained 1.7e-13 against its strategy of
//! player 2's (`docs/development.md`). A copy that narrowed the bracket
//! or brought sequences in is solved again once the round LPs since have
//! held as many nonzeros as its own ([`CopySchedule`]). Cut to the best strategy's support
//! alone, as they first were, the copies of 2v2 six-sided wild left the
//! kept strategies' supports where they were, and the lower bound stood
//! still from round 422 to 439; cut to the union, player 2's copy raised
//! it from 0.011211317 to 0.011215841 at once.

use super::super::error::Result;
use super::super::restricted::{CallPayoffs, HandSet, RestrictedGame, RestrictedLp};
use super::super::{LpOptions, LpSize};
use std::time::Instant;

use super::{best_response, improves, sorted_entries, Entries, Kept, KeptPlay};

use gametab_games::dice::endgame::{Action, Endgame, History, Player};

/// Realisation weight above which a sequence is in the support of a
/// strategy ([`RestrictedGame::cut_to_support`]) when the other player is
/// completed against it. The kept strategies of large games come from the
/// interior point method's rounds (tolerance 1e-7), whose centre gives
/// every included sequence some weight: on 3v1 six-sided wild, player 2's
/// kept strategy reached 29,269 of his included sequences above 1e-9,
/// 14,087 above 1e-6 and 13,846 above 1e-4, and player 1 completed
/// against the 1e-6 support made an LP of 145,412 x 665,669 solved in
/// 65 s whose strategy of player 2 was exact to 1.7e-13
/// (`docs/development.md`). A support cut too small costs only a wider
/// bound: the bound is the best response's, whatever the cut.
pub const SUPPORT_ABOVE: f64 = 1e-6;

/// Most sequences a copy with one player completed may hold
/// ([`RestrictedGame::complete_undominated`]): a larger one is not solved.
/// Measured on the six-sided wild games, with every bid completed
/// ([`RestrictedGame::complete`]): player 2 completed on all of 3v1's
/// restricted game was 1,658,563 sequences, solved in 1,551 s at a peak of
/// 3.1 GiB; player 1 completed against player 2's support there 2,067,388
/// sequences, 336 s; player 1 completed against player 2's support in 2v2
/// was 2,666,502 to 2,811,301 sequences, whose LP HiPO does not solve (it
/// stops after some 100 iterations at a relative gap near 2 and HiGHS
/// hands it to IPX, at 85 to 165 s an iteration). Without the dominated
/// bids that last copy is 1,168,183 sequences, and HiPO then IPX solve it
/// in 1,146 s (`docs/development.md`). A bound above them, a guard
/// against a run spent on one LP, not a tuned one.
pub const COMPLETE_AT_MOST: usize = 2_500_000;

/// What [`complete_for_the_other`] made of a copy.
enum Completion {
    /// The opponent's strategy, the LP's size, the completed player's
    /// support there, and his strategy there.
    Solved(KeptPlay, LpSize, Vec<(History, Action, HandSet)>, Entries),
    /// The copy would hold this many sequences, more than
    /// [`COMPLETE_AT_MOST`]: not solved.
    TooLarge(usize),
}

/// The strategy of `player`'s opponent from the LP of a copy of
/// `restricted` with `player` completed
/// ([`RestrictedGame::complete_undominated`]),
/// after cutting the opponent to the union of the supports of `supports`
/// (strategies of his, [`SUPPORT_ABOVE`]) when there are any: optimal against every
/// strategy of `player`, so the bound his best response leaves is the
/// LP's value, and exact where the opponent's sequences left hold an
/// equilibrium's. With the strategy, the LP's size and the sequences the
/// completed player plays there (realisation weight above
/// [`SUPPORT_ABOVE`]) and his strategy; nothing solved when the copy is larger than
/// [`COMPLETE_AT_MOST`].
///
/// # Errors
/// HiGHS fails on the LP.
fn complete_for_the_other(
    game: Endgame,
    payoffs: &CallPayoffs,
    restricted: &RestrictedGame,
    player: Player,
    supports: &[&[(usize, History, Action, f64)]],
    options: LpOptions,
) -> Result<Completion> {
    let mut copy = restricted.clone();
    if !supports.is_empty() {
        copy.cut_to_support(player.opponent(), supports, SUPPORT_ABOVE);
    }
    copy.complete_undominated(player, payoffs);
    let tree = copy.tree();
    if copy.sequences() > COMPLETE_AT_MOST {
        return Ok(Completion::TooLarge(copy.sequences()));
    }
    let mut lp = RestrictedLp::new(options)?;
    let solution = lp.solve(&copy, &tree, payoffs)?;
    let other = player.opponent().index();
    let response = best_response(game, payoffs, player, &solution.play[other]);
    let kept = KeptPlay {
        bound: match player {
            Player::One => response.value,
            Player::Two => -response.value,
        },
        value: solution.value,
        entries: sorted_entries(&solution.play[other]),
    };
    let mut his: Vec<(History, Action, HandSet)> = Vec::new();
    for &(h, a, i, w) in &solution.weights {
        if w > SUPPORT_ABOVE && game.to_move(h) == player {
            match his.last_mut() {
                Some((lh, la, hands)) if *lh == h && *la == a => {
                    *hands = hands.or(HandSet::one(usize::from(i)));
                }
                _ => his.push((h, a, HandSet::one(usize::from(i)))),
            }
        }
    }
    let play = sorted_entries(&solution.play[player.index()]);
    Ok(Completion::Solved(kept, solution.size, his, play))
}

/// Solve the copies with each of `players` completed in turn, the other
/// cut to the union of the supports of his strategies at hand
/// ([`complete_for_the_other`]): his best so far (in `best`), the last
/// round's restricted equilibrium's (`last`, when given) and, where a
/// copy before in this call completed him, his strategy there (what he
/// plays against all of the first one's sequences, where the last round's
/// support misses the replies that copy brought in). A player is skipped
/// where the other's kept strategy already pairs with `best_bounds`
/// (`[upper, lower]`), where the other has no strategy at hand, where he
/// has more hands and the other no kept strategy, or where the copy is
/// too large ([`COMPLETE_AT_MOST`]); each copy's strategy narrows the
/// bounds and is kept where it is the better, and what the completed
/// player plays there comes into `restricted`. Returns each solved copy's
/// player, whether it narrowed the bounds or brought a sequence in, and
/// its LP's nonzeros (its cost, [`CopySchedule`]); `round` is for the
/// trace.
///
/// # Errors
/// HiGHS fails on a copy's LP.
pub(super) fn complete_players(
    game: Endgame,
    payoffs: &CallPayoffs,
    restricted: &mut RestrictedGame,
    (players, last): (&[Player], Option<&[Entries; 2]>),
    (best, best_bounds): (&mut Kept, &mut [f64; 2]),
    options: LpOptions,
    round: u32,
) -> Result<Vec<(Player, bool, u64)>> {
    let mut solved = Vec::new();
    // Each player's strategy in a copy of this call that completed him.
    let mut in_copy: [Option<Entries>; 2] = [None, None];
    for &player in players {
        let other = player.opponent();
        // The other player's kept strategy already pairs with the best
        // bound on this player's side: nothing to gain.
        let pairs = best[other.index()].as_ref().is_some_and(|k| match other {
            Player::One => k.bound >= best_bounds[0] - options.pair_width,
            Player::Two => k.bound <= best_bounds[1] + options.pair_width,
        });
        let start = Instant::now();
        let (cuts, done) = {
            let kept = best[other.index()].as_ref();
            let supports: Vec<&[(usize, History, Action, f64)]> = [
                kept.map(|k| k.entries.as_slice()),
                last.map(|l| l[other.index()].as_slice()),
                in_copy[other.index()].as_deref(),
            ]
            .into_iter()
            .flatten()
            .collect();
            // The player with more hands complete on the whole restricted
            // game would be far larger (3v1 six-sided wild: 7.2 million
            // sequences): only against a kept strategy's support.
            let larger = payoffs.hands(player) > payoffs.hands(other);
            if pairs || supports.is_empty() || (larger && kept.is_none()) {
                continue;
            }
            let done =
                complete_for_the_other(game, payoffs, restricted, player, &supports, options)?;
            (supports.len(), done)
        };
        let (kept, size, his, play) = match done {
            Completion::Solved(kept, size, his, play) => (kept, size, his, play),
            Completion::TooLarge(sequences) => {
                if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
                    eprintln!(
                        "{game} round {round}: {player:?} completed on a copy would be {sequences} sequences, more than {COMPLETE_AT_MOST}: not solved"
                    );
                }
                continue;
            }
        };
        in_copy[player.index()] = Some(play);
        // What the completed player plays there is his best answer to
        // the other's whole support: it comes in as a best response's
        // sequences do.
        let brought: usize = his
            .iter()
            .map(|&(h, a, hands)| restricted.include(h, a, hands))
            .sum();
        if std::env::var_os("GAMETAB_ORACLE_TRACE").is_some() {
            eprintln!(
                "{game} round {round}: {player:?} completed on a copy, the other cut to the supports of {} of his strategies, LP {} x {} ({} nonzeros), the other's strategy leaves bound {:.15}, {brought} sequences of his brought in ({:.1} s)",
                cuts,
                size.rows,
                size.columns,
                size.nonzeros,
                kept.bound,
                start.elapsed().as_secs_f64()
            );
        }
        let narrowed = match other {
            Player::One => kept.bound > best_bounds[1],
            Player::Two => kept.bound < best_bounds[0],
        };
        match other {
            Player::One => best_bounds[1] = best_bounds[1].max(kept.bound),
            Player::Two => best_bounds[0] = best_bounds[0].min(kept.bound),
        }
        if improves(best, other.index(), kept.bound) {
            best[other.index()] = Some(kept);
        }
        solved.push((player, narrowed || brought > 0, size.nonzeros));
    }
    Ok(solved)
}

/// When the double oracle's rounds solve copies ([`complete_players`]):
/// both players, the one with fewer hands first (his copy is the
/// smaller), in the round after the first round of a run at a large
/// restricted LP and after the round that ends the interior point rounds
/// there; and a player again whose copy paid (narrowed the bracket or
/// brought a sequence in) once the round LPs since have held as many
/// nonzeros as that copy's LP. So a copy smaller than a round's LP (2v2
/// six-sided wild's player 2 against player 1's supports, 115,734 rows,
/// where a round's LP had 397,036) runs every round, a larger one
/// (player 1's there, 6.1 million nonzeros against a round's 2.1
/// million) some rounds later, after the rounds' new sequences have put
/// more of the other player's replies into its cut. The cost is counted
/// in nonzeros, not seconds, so that a run takes the same rounds and
/// stores the same strategies whatever the machine, its load or the
/// thread count (until 6 December it was the copy's time against the
/// rounds', which made a run's rounds depend on the clock).
#[derive(Debug)]
pub(super) struct CopySchedule {
    /// Both players in the order their copies are solved.
    order: [Player; 2],
    /// The players the next round completes.
    next: Vec<Player>,
    /// Whether both players have been scheduled once in this run.
    scheduled: bool,
    /// Per player, a copy that paid: its LP's nonzeros, and the round
    /// LPs' since.
    due: [Option<(u64, u64)>; 2],
    /// Copies solved in this run.
    pub completions: u32,
}

impl CopySchedule {
    /// No copy scheduled yet; the order by the players' hands.
    pub fn new(payoffs: &CallPayoffs) -> CopySchedule {
        let order = if payoffs.hands(Player::One) < payoffs.hands(Player::Two) {
            [Player::One, Player::Two]
        } else {
            [Player::Two, Player::One]
        };
        CopySchedule {
            order,
            next: Vec::new(),
            scheduled: false,
            due: [None, None],
            completions: 0,
        }
    }

    /// The players this round completes (none in most rounds).
    pub fn take(&mut self) -> Vec<Player> {
        std::mem::take(&mut self.next)
    }

    /// What the copies of `take` did: each player's, whether it paid, its
    /// LP's nonzeros ([`complete_players`]). A copy that did not pay is
    /// not due.
    pub fn solved(&mut self, copies: Vec<(Player, bool, u64)>) {
        self.completions += copies.len() as u32;
        for (player, paid, cost) in copies {
            self.due[player.index()] = paid.then_some((cost, 0));
        }
    }

    /// Both players next round, in order; returns them.
    pub fn both(&mut self) -> [Player; 2] {
        self.next = self.order.to_vec();
        self.scheduled = true;
        self.order
    }

    /// Whether [`CopySchedule::both`] has been called in this run.
    pub fn scheduled(&self) -> bool {
        self.scheduled
    }

    /// After a round whose LP had `nonzeros`: each copy that paid counts
    /// them, and those whose count has reached their own LP's are
    /// scheduled next round where the restricted LP is `large` (elsewhere
    /// they are dropped). Returns the players scheduled.
    pub fn after_round(&mut self, nonzeros: u64, large: bool) -> Vec<Player> {
        let mut again = Vec::new();
        for player in self.order {
            if let Some((cost, since)) = &mut self.due[player.index()] {
                *since += nonzeros;
                if since >= cost {
                    again.push(player);
                    self.due[player.index()] = None;
                }
            }
        }
        if large && !again.is_empty() {
            self.next.clone_from(&again);
            again
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both players once, the one with fewer hands first; a copy that
    /// paid is due again once the round LPs' nonzeros since reach its
    /// own, one that did not pay never, and one due at a small LP is
    /// dropped.
    #[test]
    fn a_copy_that_paid_is_due_once_the_round_lps_since_were_as_large() {
        // Player 1 has 10 hands (three three-sided dice), player 2 three.
        let payoffs = CallPayoffs::new(Endgame::new(3, 1, 3, false).unwrap());
        let mut copies = CopySchedule::new(&payoffs);
        assert!(copies.take().is_empty() && !copies.scheduled());
        assert_eq!(copies.both(), [Player::Two, Player::One]);
        assert!(copies.scheduled());
        assert_eq!(copies.take(), [Player::Two, Player::One]);
        assert!(copies.take().is_empty());
        copies.solved(vec![(Player::Two, true, 100), (Player::One, true, 1000)]);
        assert_eq!(copies.completions, 2);
        assert_eq!(copies.after_round(400, true), [Player::Two]);
        assert_eq!(copies.take(), [Player::Two]);
        copies.solved(vec![(Player::Two, false, 100)]);
        assert_eq!(copies.completions, 3);
        // Player 1's copy: 800 of its 1,000, then 1,200.
        assert!(copies.after_round(400, true).is_empty());
        assert_eq!(copies.after_round(400, true), [Player::One]);
        assert_eq!(copies.take(), [Player::One]);
        // Player 2's copy did not pay: never again.
        assert!(copies.after_round(1 << 40, true).is_empty());
        copies.solved(vec![(Player::One, true, 10)]);
        assert!(copies.after_round(400, false).is_empty());
        assert!(copies.after_round(400, true).is_empty());
        assert!(copies.take().is_empty());
    }
}
