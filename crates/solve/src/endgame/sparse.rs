//! The certificate of a stored sparse strategy pair: each player's best
//! response to the other's strategy as it is stored (the cache's entries
//! or the strategy table's rows), by a depth-first walk that enters only
//! the histories the opponent reaches with positive probability. Memory is
//! the stored entries plus one reach vector per level of the walk, never a
//! dense array over the `2^bids` histories, so it certifies the games too
//! large for [`super::certificate`]'s every-history walk (2v2 with six
//! sides has 2^20 to 2^24 histories times up to 126 hands).
//!
//! A stored strategy gives, at some (hand, history) of its player, the
//! probabilities of his actions there (they must sum to 1); at every other
//! (hand, history) he plays the default ([`super::restricted::default_action`]:
//! the call, or at the opening the lowest bid). The walk shares nothing
//! with the double oracle's data: it reads the entries, the rules
//! ([`Endgame`]) and the call payoffs ([`Endgame::last_bid_true`], through
//! the every-history certificate's table) alone.
//!
//! The best response of `me` at history `h` with hand `i`, unnormalised,
//! is `U_i(h) = sum_j chance(j) r(j, h) E[payoff | i, j, h]`, `r(j, h)`
//! the opponent's own reach: a maximum over `me`'s actions where `me`
//! moves (every (hand, history) of a player is its own information set)
//! and a sum over the opponent's actions where he moves, each entered only
//! when some hand of his takes it with positive reach. The default is the
//! call, so a history off the stored support ends the walk at once: it
//! visits the opponent's support and one step of `me`'s bids beyond it.

use std::collections::HashMap;

use super::error::{check, Result};

use gametab_games::dice::endgame::{Action, Endgame, History, Player};

use super::cache::CachedEntry;
use super::certificate::{BidTruth, Certificate};
use super::restricted::default_action;

/// Tolerance on the sum of an information set's probabilities (that of
/// [`gametab_games::dice::endgame::Strategy::check`] in the cache's
/// restore).
pub const SUM_TOLERANCE: f64 = 1e-9;

/// One player's stored strategy: per history, the (hand, action,
/// probability) entries given there; every other (hand, history) plays the
/// default.
#[derive(Debug, Clone)]
pub struct SparseStrategy {
    game: Endgame,
    player: Player,
    hands: usize,
    nodes: HashMap<u32, SparseNode>,
    entries: usize,
}

/// The stored behaviour at one history.
#[derive(Debug, Clone, Default)]
struct SparseNode {
    /// The hands with entries here (the others play the default).
    given: u128,
    /// (action, hand, probability), by action (call first, bids rising)
    /// then hand; probabilities of 0 left out.
    entries: Vec<(Action, u8, f64)>,
}

fn rank(action: Action) -> u16 {
    match action {
        Action::Call => 0,
        Action::Bid(b) => 1 + u16::from(b),
    }
}

impl SparseStrategy {
    /// The strategy of `player` in `game` from its entries `(hand, history
    /// bits, action, probability)` (action 0 the call, `b + 1` the bid `b`;
    /// the cache's [`CachedEntry`]), in any order.
    ///
    /// # Errors
    /// An entry outside the game, not at an information set of `player`,
    /// an illegal action, a probability outside [0, 1] or not finite, an
    /// entry given twice, or an information set whose given probabilities
    /// do not sum to 1 within [`SUM_TOLERANCE`].
    pub fn new(game: Endgame, player: Player, entries: &[CachedEntry]) -> Result<SparseStrategy> {
        let mut sorted: Vec<CachedEntry> = entries.to_vec();
        sorted.sort_by_key(|e| (e.0, e.1, e.2));
        SparseStrategy::from_grouped(game, player, sorted)
    }

    /// [`SparseStrategy::new`] from entries that come grouped by (hand,
    /// history), each group's actions rising (as the cache stores them and
    /// [`gametab_games::dice::endgame::Strategy::positive`] yields them),
    /// without a copy of them.
    ///
    /// # Errors
    /// As [`SparseStrategy::new`]; an information set whose entries are
    /// not together is an entry given twice.
    pub fn from_grouped(
        game: Endgame,
        player: Player,
        entries: impl IntoIterator<Item = CachedEntry>,
    ) -> Result<SparseStrategy> {
        let hands = game.hands(player).len();
        check!(
            BadEntries,
            hands <= 128,
            "{game}: more than 128 hands per player"
        );
        let mut nodes: HashMap<u32, SparseNode> = HashMap::new();
        let mut count = 0;
        // The information set being read: (hand, history), the sum so far
        // and the last action code.
        let mut open: Option<((u8, u32), f64, u8)> = None;
        let close = |open: Option<((u8, u32), f64, u8)>| -> Result<()> {
            if let Some(((hand, h), sum, _)) = open {
                check!(
                    BadEntries,
                    (sum - 1.0).abs() <= SUM_TOLERANCE,
                    "{game}: player {}'s probabilities at ({hand}, {h}) sum to {sum}",
                    player.number()
                );
            }
            Ok(())
        };
        for (hand, h, code, p) in entries {
            count += 1;
            let history = History(h);
            let action = match code {
                0 => Action::Call,
                b => Action::Bid(b - 1),
            };
            let same = open.is_some_and(|(key, _, _)| key == (hand, h));
            if same {
                let (_, _, last) = open.expect("open");
                check!(
                    BadEntries,
                    code > last,
                    "{game}: action {action:?} given twice or out of order at ({hand}, {h})"
                );
            } else {
                close(open)?;
                check!(
                    BadEntries,
                    usize::from(hand) < hands
                        && (h as usize) < game.history_count()
                        && game.to_move(history) == player,
                    "{game}: entry ({hand}, {h}) is not an information set of player {}",
                    player.number()
                );
                let node = nodes.entry(h).or_default();
                check!(
                    BadEntries,
                    node.given >> hand & 1 == 0,
                    "{game}: the information set ({hand}, {h}) given twice"
                );
                node.given |= 1u128 << hand;
                open = Some(((hand, h), 0.0, code));
            }
            check!(
                BadEntries,
                game.is_legal(history, action),
                "{game}: action {action:?} is not legal after history {h}"
            );
            check!(
                BadEntries,
                p.is_finite() && (0.0..=1.0).contains(&p),
                "{game}: probability {p} at ({hand}, {h})"
            );
            if let Some((_, sum, last)) = open.as_mut() {
                *sum += p;
                *last = code;
            }
            if p > 0.0 {
                nodes
                    .get_mut(&h)
                    .expect("opened above")
                    .entries
                    .push((action, hand, p));
            }
        }
        close(open)?;
        for node in nodes.values_mut() {
            node.entries
                .sort_by_key(|&(action, hand, _)| (rank(action), hand));
            node.entries.shrink_to_fit();
        }
        Ok(SparseStrategy {
            game,
            player,
            hands,
            nodes,
            entries: count,
        })
    }

    /// The game.
    pub fn game(&self) -> Endgame {
        self.game
    }

    /// Whose strategy it is.
    pub fn player(&self) -> Player {
        self.player
    }

    /// Entries stored.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Histories with stored entries.
    pub fn histories(&self) -> usize {
        self.nodes.len()
    }
}

/// What a sparse certificate found, beside the bounds: how much it walked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseCertificate {
    /// The two best responses.
    pub certificate: Certificate,
    /// Histories the two walks visited.
    pub visited: u64,
}

/// The walk of one best response against a stored strategy.
struct Walk<'a> {
    game: Endgame,
    me: Player,
    other: &'a SparseStrategy,
    truth: &'a BidTruth,
    mine: usize,
    theirs: usize,
    visited: u64,
}

impl Walk<'_> {
    /// `out[i] += sum_j reach[j] * payoff(i, j)` of a call after `history`.
    fn add_call(&self, history: History, reach: &[f64], out: &mut [f64]) {
        for (j, &r) in reach.iter().enumerate() {
            if r == 0.0 {
                continue;
            }
            for (i, slot) in out.iter_mut().enumerate() {
                let index = if self.me == Player::One {
                    [i, j]
                } else {
                    [j, i]
                };
                *slot += r * self.truth.payoff(self.game, self.me, history, index);
            }
        }
    }

    /// `me`'s unnormalised value per hand at `history`, the opponent's
    /// chance-weighted reach per hand being `reach` (not all 0).
    fn value(&mut self, history: History, reach: &[f64]) -> Vec<f64> {
        self.visited += 1;
        let mut out = vec![0.0; self.mine];
        let first = history.last().map_or(0, |l| l + 1);
        let bids = first..self.game.bid_count() as u8;
        if self.game.to_move(history) == self.me {
            if history.is_empty() {
                out.iter_mut().for_each(|v| *v = f64::NEG_INFINITY);
            } else {
                self.add_call(history, reach, &mut out);
            }
            for bid in bids {
                let child = self.value(history.then(bid), reach);
                for (o, c) in out.iter_mut().zip(child) {
                    if c > *o {
                        *o = c;
                    }
                }
            }
            return out;
        }
        let node = self.other.nodes.get(&history.0);
        let given = node.map_or(0, |n| n.given);
        let entries: &[(Action, u8, f64)] = node.map_or(&[], |n| &n.entries);
        // Hands without entries here play the default.
        let bare = reach
            .iter()
            .enumerate()
            .any(|(j, &r)| r != 0.0 && given >> j & 1 == 0);
        let default = default_action(history);
        let mut actions: Vec<Action> = Vec::new();
        for &(action, _, _) in entries {
            if actions.last() != Some(&action) {
                actions.push(action);
            }
        }
        if bare && !actions.contains(&default) {
            let at = actions.partition_point(|&a| rank(a) < rank(default));
            actions.insert(at, default);
        }
        let mut child = vec![0.0; self.theirs];
        let mut k = 0;
        for action in actions {
            child.iter_mut().for_each(|c| *c = 0.0);
            if action == default && bare {
                for (j, &r) in reach.iter().enumerate() {
                    if given >> j & 1 == 0 {
                        child[j] = r;
                    }
                }
            }
            while k < entries.len() && entries[k].0 == action {
                let (_, j, p) = entries[k];
                child[usize::from(j)] = reach[usize::from(j)] * p;
                k += 1;
            }
            self.take(history, action, &child, &mut out);
        }
        out
    }

    /// Add to `out` the opponent's `action` at `history` with the reach
    /// `child` (skipped when it is all 0).
    fn take(&mut self, history: History, action: Action, child: &[f64], out: &mut [f64]) {
        if child.iter().all(|&r| r == 0.0) {
            return;
        }
        match action {
            Action::Call => self.add_call(history, child, out),
            Action::Bid(b) => {
                let values = self.value(history.then(b), child);
                for (o, v) in out.iter_mut().zip(values) {
                    *o += v;
                }
            }
        }
    }
}

/// The best-response value of the opponent of `strategy`'s player against
/// it (payoff to the responder), and the histories visited.
pub fn best_response(strategy: &SparseStrategy) -> (f64, u64) {
    let game = strategy.game;
    let truth = BidTruth::new(game, &[game.hands(Player::One), game.hands(Player::Two)]);
    best_response_with(strategy, &truth)
}

fn best_response_with(strategy: &SparseStrategy, truth: &BidTruth) -> (f64, u64) {
    let game = strategy.game;
    let me = strategy.player.opponent();
    let (mine, theirs) = (game.hands(me), game.hands(strategy.player));
    let mut walk = Walk {
        game,
        me,
        other: strategy,
        truth,
        mine: mine.len(),
        theirs: strategy.hands,
        visited: 0,
    };
    let reach: Vec<f64> = (0..theirs.len()).map(|j| theirs.probability(j)).collect();
    let values = walk.value(History::EMPTY, &reach);
    let total = values
        .iter()
        .enumerate()
        .map(|(i, v)| mine.probability(i) * v)
        .sum();
    (total, walk.visited)
}

/// Certify the stored pair `entries` (player 1's first) of `game`: both
/// strategies checked ([`SparseStrategy::new`]) and both best responses
/// walked.
///
/// # Errors
/// As [`SparseStrategy::new`].
pub fn certify(game: Endgame, entries: &[Vec<CachedEntry>; 2]) -> Result<SparseCertificate> {
    let one = SparseStrategy::new(game, Player::One, &entries[0])?;
    let two = SparseStrategy::new(game, Player::Two, &entries[1])?;
    Ok(certify_pair(&one, &two))
}

/// Certify a pair of stored strategies (player 1's first).
pub fn certify_pair(one: &SparseStrategy, two: &SparseStrategy) -> SparseCertificate {
    let game = one.game;
    let truth = BidTruth::new(game, &[game.hands(Player::One), game.hands(Player::Two)]);
    let (upper, a) = best_response_with(two, &truth);
    let (lower, b) = best_response_with(one, &truth);
    SparseCertificate {
        certificate: Certificate {
            upper,
            lower: -lower,
        },
        visited: a + b,
    }
}
