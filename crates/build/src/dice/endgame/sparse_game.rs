//! A game too large for a dense strategy, as the endgame tables hold it:
//! its certified summary and both players' stored entries of positive
//! probability ([`SparseGame`]), every other (hand, history) playing the
//! default action; and the walks over those entries alone (what each
//! player's play reaches, bid by bid) that its strategy and posterior rows
//! are computed from ([`super::rows`]).

use std::collections::HashMap;

use gametab_games::dice::endgame::{Action, Endgame, Hands, History, Player};
use gametab_lookup::dice::default_action;
use gametab_solve::endgame::cache::{CachedEntry, SparseSolved};

/// A game too large for the dense strategies ([`super::rows::fits`]), tabulated from
/// its stored support: its certified summary and both players' entries of
/// positive probability, by (history, hand, action). Every other (hand,
/// history) of a player plays [`default_action`].
#[derive(Debug, Clone)]
pub struct SparseGame {
    /// The game's value, certificate (the sparse one) and LP record.
    pub solved: SparseSolved,
    /// Each player's entries of positive probability, by (history, hand,
    /// action).
    entries: [Vec<CachedEntry>; 2],
    /// Each player's entries of one (history, hand): where they lie in
    /// `entries`.
    sets: [HashMap<(u32, u8), (usize, usize)>; 2],
    /// Each player's hands.
    pub(super) hands: [Hands; 2],
}

impl SparseGame {
    /// The game `solved` with the entries `entries` (player 1's first; the
    /// cache's `(hand, history, action, probability)`, action 0 the call
    /// and `b + 1` the bid `b`, in any order; entries of probability 0 are
    /// left out, as the tables hold only actions of positive probability).
    /// The entries are those [`SparseSolved`] was certified with
    /// (`CachedGame::restore_sparse`).
    pub fn new(solved: SparseSolved, entries: [Vec<CachedEntry>; 2]) -> SparseGame {
        let game = solved.game;
        let entries = entries.map(|mut list| {
            list.retain(|e| e.3 > 0.0);
            list.sort_by_key(|&(hand, h, action, _)| (h, hand, action));
            list
        });
        let sets = entries.each_ref().map(|list| {
            let mut sets = HashMap::new();
            let mut start = 0;
            for k in 0..list.len() {
                if k + 1 == list.len() || (list[k].1, list[k].0) != (list[k + 1].1, list[k + 1].0) {
                    sets.insert((list[k].1, list[k].0), (start, k + 1));
                    start = k + 1;
                }
            }
            sets
        });
        SparseGame {
            solved,
            entries,
            sets,
            hands: Player::BOTH.map(|p| game.hands(p)),
        }
    }

    /// The game.
    pub fn game(&self) -> Endgame {
        self.solved.game
    }

    /// `player`'s entries of positive probability, by (history, hand,
    /// action).
    pub fn entries(&self, player: Player) -> &[CachedEntry] {
        &self.entries[player.index()]
    }

    /// `player`'s probability of `action` at (`hand`, `history`): the
    /// entry's, or [`default_action`]'s 1 where he has no entries.
    pub(super) fn probability(
        &self,
        player: Player,
        hand: usize,
        history: History,
        action: Action,
    ) -> f64 {
        let code = match action {
            Action::Call => 0,
            Action::Bid(b) => b + 1,
        };
        match self.sets[player.index()].get(&(history.0, hand as u8)) {
            Some(&(start, end)) => self.entries[player.index()][start..end]
                .iter()
                .find(|e| e.2 == code)
                .map_or(0.0, |e| e.3),
            None if action == default_action(history) => 1.0,
            None => 0.0,
        }
    }

    /// `player`'s own reach of `history` with `hand`: the product of his
    /// probabilities of his bids, in the order he made them (the factors
    /// of [`Strategy::reach`], so the same value to the bit).
    ///
    /// [`Strategy::reach`]: gametab_games::dice::endgame::Strategy::reach
    pub(super) fn own_reach(&self, player: Player, hand: usize, history: History) -> f64 {
        let game = self.game();
        let mut reach = 1.0;
        let mut prefix = History::EMPTY;
        for bid in history.bids() {
            if game.to_move(prefix) == player {
                reach *= self.probability(player, hand, prefix, Action::Bid(bid));
            }
            prefix = prefix.then(bid);
        }
        reach
    }

    /// `sum over hands of chance * own reach` of `history` for `player`,
    /// summed in hand order (as the dense strategies' weighted reaches
    /// are, in [`super::rows::reaches_of`]).
    pub(super) fn weighted(&self, player: Player, history: History) -> f64 {
        let hands = &self.hands[player.index()];
        let mut total = 0.0;
        for i in 0..hands.len() {
            total += hands.probability(i) * self.own_reach(player, i, history);
        }
        total
    }

    /// The histories equilibrium play reaches (both players' weighted
    /// reach positive), rising, found depth first from the opening: a
    /// history is reached only if its parent is, and each step multiplies
    /// the mover's reaches by his probability of the bid, the products
    /// [`SparseGame::own_reach`] forms.
    pub(super) fn reached(&self) -> Vec<u32> {
        let game = self.game();
        let mut out = Vec::new();
        let start = self.hands.each_ref().map(|h| vec![1.0; h.len()]);
        let mut stack = vec![(History::EMPTY, start)];
        while let Some((history, reach)) = stack.pop() {
            out.push(history.0);
            let mover = game.to_move(history);
            let first = history.last().map_or(0, |l| l + 1);
            for bid in first..game.bid_count() as u8 {
                let mut child = reach.clone();
                for (i, r) in child[mover.index()].iter_mut().enumerate() {
                    if *r != 0.0 {
                        *r *= self.probability(mover, i, history, Action::Bid(bid));
                    }
                }
                let weighted = Player::BOTH.map(|p| {
                    let hands = &self.hands[p.index()];
                    let mut total = 0.0;
                    for (i, r) in child[p.index()].iter().enumerate() {
                        total += hands.probability(i) * r;
                    }
                    total
                });
                if weighted[0] * weighted[1] > 0.0 {
                    stack.push((history.then(bid), child));
                }
            }
        }
        out.sort_unstable();
        out
    }
}
