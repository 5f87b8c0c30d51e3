//! A player completed without his dominated bids
//! ([`RestrictedGame::complete_undominated`]): the bids that end the game
//! in the opponent's call and that another such action of the same hand
//! beats against every hand of the opponent, compared as bit sets of the
//! opponent's hands ([`Outcome`]).

use std::collections::HashMap;

use gametab_games::dice::endgame::{Action, Player};

use super::{CallPayoffs, HandSet, RestrictedGame};

impl RestrictedGame {
    /// [`RestrictedGame::complete`] without the bids that only lose
    /// ground: a bid of `player` after which the opponent has nothing but
    /// the call included (the game ends there, in the call's outcome) is
    /// left out for a hand of his when another action of his at the same
    /// node that also ends the game there (the call itself, or another
    /// such bid) wins against every hand of the opponent that reaches the
    /// node where it wins and loses against none where it does not lose
    /// (the lower ranked one kept where they tie). Against every strategy
    /// of the opponent such a bid is worth no more than what dominates it,
    /// so the opponent's LP strategy is as good against every strategy of
    /// `player` as with [`RestrictedGame::complete`], from a smaller LP.
    /// Returns how many sequences were new.
    pub fn complete_undominated(&mut self, player: Player, payoffs: &CallPayoffs) -> usize {
        let me = player.index();
        let bids = self.game().bid_count() as u8;
        // The outcome of each bid of each hand of `player` when the
        // opponent calls it: the opponent's hands it wins and does not
        // lose against. The caller's are the bidder's turned round.
        let outcomes: Vec<Vec<Outcome>> = (0..bids)
            .map(|b| {
                (0..payoffs.hands(player))
                    .map(|i| Outcome::of_bid(payoffs, player, b, i))
                    .collect()
            })
            .collect();
        self.complete_with(player, |game, node| {
            let h = node.history;
            let theirs = node.reach[1 - me];
            let first = h.last().map_or(0, |l| l + 1);
            // The bids after which the opponent can only call.
            let ends: Vec<u8> = (first..bids)
                .filter(|&b| {
                    game.actions(h.then(b))
                        .iter()
                        .all(|&(a, _)| a == Action::Call)
                })
                .collect();
            let mut dominated: HashMap<u8, HandSet> = HashMap::new();
            for i in node.reach[me].iter() {
                // The outcomes of the actions that end the game, call
                // first, then by rising bid: the order of ties.
                let mut ending: Vec<(Option<u8>, Outcome)> = Vec::with_capacity(ends.len() + 1);
                if let Some(last) = h.last() {
                    ending.push((None, outcomes[usize::from(last)][i].called(theirs)));
                }
                ending.extend(
                    ends.iter()
                        .map(|&b| (Some(b), outcomes[usize::from(b)][i].within(theirs))),
                );
                for (k, &(bid, outcome)) in ending.iter().enumerate() {
                    let Some(b) = bid else { continue };
                    let beaten = ending.iter().enumerate().any(|(m, &(_, other))| {
                        m != k && other.at_least(outcome) && (m < k || other != outcome)
                    });
                    if beaten {
                        let set = dominated.entry(b).or_default();
                        *set = set.or(HandSet::one(i));
                    }
                }
            }
            dominated
        })
    }
}

/// The outcome of an action that ends the game in a call, for one hand of
/// the player taking it: the opponent's hands it wins against, and those
/// it does not lose against (a call's payoff is +-1, or 0 where the game
/// gives none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outcome {
    wins: HandSet,
    no_loss: HandSet,
}

impl Outcome {
    /// `player`'s bid `bid` with his hand `i`, called by the opponent.
    fn of_bid(payoffs: &CallPayoffs, player: Player, bid: u8, i: usize) -> Outcome {
        let mut outcome = Outcome {
            wins: HandSet::EMPTY,
            no_loss: HandSet::EMPTY,
        };
        for j in 0..payoffs.hands(player.opponent()) {
            let (one, two) = match player {
                Player::One => (i, j),
                Player::Two => (j, i),
            };
            // The bidder's payoff is the bid's truth, whoever he is.
            let pay = payoffs.bidder_payoff(bid, one, two);
            if pay > 0 {
                outcome.wins = outcome.wins.or(HandSet::one(j));
            }
            if pay >= 0 {
                outcome.no_loss = outcome.no_loss.or(HandSet::one(j));
            }
        }
        outcome
    }

    /// The outcome of calling the same bid made by the opponent, for the
    /// same hand, against the opponent's `hands`: a bid's truth depends on
    /// both hands alone, not on who made it, and the caller wins where
    /// the bidder loses.
    fn called(self, hands: HandSet) -> Outcome {
        Outcome {
            wins: hands.without(self.no_loss),
            no_loss: hands.without(self.wins),
        }
    }

    /// Against the hands of `hands` only.
    fn within(self, hands: HandSet) -> Outcome {
        Outcome {
            wins: self.wins.and(hands),
            no_loss: self.no_loss.and(hands),
        }
    }

    /// Whether this is at least as good as `other` against every hand.
    fn at_least(self, other: Outcome) -> bool {
        other.wins.without(self.wins).is_empty() && other.no_loss.without(self.no_loss).is_empty()
    }
}
