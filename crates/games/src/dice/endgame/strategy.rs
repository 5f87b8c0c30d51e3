//! A behaviour strategy of one endgame player, dense over (hand, history),
//! and the equilibrium posterior over the opponent's hand that the
//! opponent's strategy implies.
//!
//! Layout: for hand `i` and history `h`, the probability of calling at
//! `h` is `call[i * H + h]` and the probability of the bid `b` at `h` is
//! `bid[i * H + (h then b)]`, `H` being the number of histories. Every
//! history has exactly one parent, so a bid needs no index of its own, and
//! only the entries where the player is to move are ever set.

use super::{Action, Endgame, History, Player};
use crate::error::{Error, Result};

/// Most (hand, history) slots a [`Strategy`] read from a file may have
/// (two `f64` arrays of this length: 256 MiB). The largest game solved on
/// the build machine has under 1.4 M; readers refuse larger games before
/// allocating, so a damaged or forged file cannot exhaust memory.
pub const MAX_STRATEGY_SLOTS: usize = 1 << 24;

/// One player's behaviour strategy: a probability for every legal action at
/// every (hand, history) where the player is to move.
#[derive(Debug, Clone, PartialEq)]
pub struct Strategy {
    game: Endgame,
    player: Player,
    hands: usize,
    call: Vec<f64>,
    bid: Vec<f64>,
}

impl Strategy {
    /// The strategy of `player` with every probability 0 (to be filled).
    pub fn zero(game: Endgame, player: Player) -> Strategy {
        let hands = game.hands(player).len();
        let size = hands * game.history_count();
        Strategy {
            game,
            player,
            hands,
            call: vec![0.0; size],
            bid: vec![0.0; size],
        }
    }

    /// The (hand, history) slots of `player`'s strategy in `game`: hands
    /// times histories; compare with [`MAX_STRATEGY_SLOTS`] before
    /// [`Strategy::zero`] for a game read from a file.
    pub fn slots(game: Endgame, player: Player) -> usize {
        game.hands(player).len() * game.history_count()
    }

    /// The game.
    pub fn game(&self) -> Endgame {
        self.game
    }

    /// Whose strategy this is.
    pub fn player(&self) -> Player {
        self.player
    }

    fn slot(&self, hand: usize, history: History, action: Action) -> usize {
        let base = hand * self.game.history_count();
        match action {
            Action::Call => base + history.0 as usize,
            Action::Bid(b) => base + history.then(b).0 as usize,
        }
    }

    /// The probability of `action` at (`hand`, `history`). The caller makes
    /// sure the action is legal there and the player is to move.
    pub fn probability(&self, hand: usize, history: History, action: Action) -> f64 {
        let slot = self.slot(hand, history, action);
        match action {
            Action::Call => self.call[slot],
            Action::Bid(_) => self.bid[slot],
        }
    }

    /// Set the probability of `action` at (`hand`, `history`).
    pub fn set(&mut self, hand: usize, history: History, action: Action, probability: f64) {
        let slot = self.slot(hand, history, action);
        match action {
            Action::Call => self.call[slot] = probability,
            Action::Bid(_) => self.bid[slot] = probability,
        }
    }

    /// Every (hand, history, action, probability) with a positive
    /// probability, by hand, then history bits, then action (call first).
    pub fn positive(&self) -> impl Iterator<Item = (usize, History, Action, f64)> + '_ {
        let game = self.game;
        (0..self.hands).flat_map(move |hand| {
            (0..game.history_count() as u32)
                .map(History)
                .filter(move |&h| game.to_move(h) == self.player)
                .flat_map(move |h| {
                    game.actions(h)
                        .map(move |a| (hand, h, a, self.probability(hand, h, a)))
                        .filter(|entry| entry.3 > 0.0)
                })
        })
    }

    /// The product of this player's own probabilities of his bids in
    /// `history` when holding `hand` (his realisation weight of the
    /// history; the opponent's bids count 1).
    pub fn reach(&self, hand: usize, history: History) -> f64 {
        let base = hand * self.game.history_count();
        let mut reach = 1.0;
        let mut prefix = History::EMPTY;
        for bid in history.bids() {
            let next = prefix.then(bid);
            if self.game.to_move(prefix) == self.player {
                reach *= self.bid[base + next.0 as usize];
            }
            prefix = next;
        }
        reach
    }

    /// [`Strategy::reach`] of every history with `hand`, indexed by the
    /// history's bit set, in one pass: each history's reach is its parent's
    /// times the player's probability of the last bid when that bid was his.
    /// These are the products [`Strategy::reach`] forms, factor by factor in
    /// the same order, so every value is the same to the bit; the pass costs
    /// one multiplication a history instead of one a bid.
    pub fn reaches(&self, hand: usize) -> Vec<f64> {
        let histories = self.game.history_count();
        let base = hand * histories;
        let mut reach = Vec::with_capacity(histories);
        reach.push(1.0);
        for h in 1..histories {
            let parent = History(h as u32).parent();
            let before: f64 = reach[parent.0 as usize];
            reach.push(if self.game.to_move(parent) == self.player {
                before * self.bid[base + h]
            } else {
                before
            });
        }
        reach
    }

    /// Check that the probabilities at every (hand, history) where the
    /// player moves are finite, in [0, 1], and sum to 1 within `tolerance`.
    ///
    /// # Errors
    /// [`Error::Inconsistent`] naming the first hand and history that fail.
    pub fn check(&self, tolerance: f64) -> Result<()> {
        for hand in 0..self.hands {
            for h in 0..self.game.history_count() as u32 {
                let history = History(h);
                if self.game.to_move(history) != self.player {
                    continue;
                }
                let mut sum = 0.0;
                for action in self.game.actions(history) {
                    let p = self.probability(hand, history, action);
                    if !(0.0..=1.0).contains(&p) {
                        return Err(self.inconsistent(hand, history, format!("probability {p}")));
                    }
                    sum += p;
                }
                if (sum - 1.0).abs() > tolerance {
                    return Err(self.inconsistent(
                        hand,
                        history,
                        format!("probabilities sum to {sum}"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn inconsistent(&self, hand: usize, history: History, what: String) -> Error {
        Error::Inconsistent(format!(
            "{} strategy of player {}, hand {}, history '{}': {what}",
            self.game,
            self.player.number(),
            self.game.hands(self.player).hand(hand),
            self.game.history_text(history)
        ))
    }
}

/// The distribution of a player's hand given the public history, when he
/// plays his equilibrium strategy: `P(w | h)` proportional to
/// `chance(w) * reach(w, h)`. The viewer's own hand does not enter: the dice
/// are rolled independently and the viewer's own reach is a constant factor.
#[derive(Debug, Clone, PartialEq)]
pub struct Posterior {
    /// The probability of each of the player's hands, in hand order.
    pub probabilities: Vec<f64>,
    /// The probability that the player reaches the history at all,
    /// `sum_w chance(w) * reach(w, h)`, the normaliser.
    pub reach: f64,
}

impl Posterior {
    /// The posterior over the hand of `strategy`'s player after `history`;
    /// `None` when no hand of his reaches the history (off the equilibrium
    /// path: there is no posterior to give).
    pub fn of(strategy: &Strategy, history: History) -> Option<Posterior> {
        let hands = strategy.game.hands(strategy.player);
        let reaches: Vec<f64> = (0..hands.len())
            .map(|i| strategy.reach(i, history))
            .collect();
        Posterior::from_reaches(&hands, &reaches)
    }

    /// The posterior from the player's own reach of the history with each
    /// of his `hands` (in hand order; each the product of his
    /// probabilities of his bids, in the order he made them, as
    /// [`Strategy::reach`] gives it); `None` when every reach is 0.
    pub fn from_reaches(hands: &super::Hands, reaches: &[f64]) -> Option<Posterior> {
        let weighted: Vec<f64> = (0..hands.len())
            .map(|i| hands.probability(i) * reaches[i])
            .collect();
        let reach: f64 = weighted.iter().sum();
        (reach > 0.0).then(|| Posterior {
            probabilities: weighted.iter().map(|w| w / reach).collect(),
            reach,
        })
    }
}
