//! The best responses of the double oracle: depth-first walks of the full
//! game that only enter histories the opponent's extended strategy
//! ([`ExtendedPlay`]) reaches with positive probability, so that a walk
//! visits the restricted tree and one step beyond it, not the `2^bids`
//! histories of the game; and the sequences a best response plays there,
//! which the next round's restricted game includes.

use std::collections::HashMap;

use gametab_games::dice::endgame::{Action, Endgame, History, Player};

use super::super::restricted::{default_action, CallPayoffs, ExtendedPlay, HandSet};

/// A best response of one player to the other's extended strategy.
#[derive(Debug, Clone)]
pub struct Response {
    /// The responder's expected payoff.
    pub value: f64,
    /// The (history, action, hands) of the responder that the best response
    /// plays and the opponent's strategy reaches with positive probability.
    pub sequences: Vec<(History, Action, HandSet)>,
    /// Histories the walk visited.
    pub visited: usize,
}

/// The walk of one best response.
struct Walk<'a> {
    game: Endgame,
    me: Player,
    payoffs: &'a CallPayoffs,
    other: &'a ExtendedPlay,
    mine: usize,
    theirs: usize,
    /// At every history where the responder moves and the walk went: his
    /// best action per hand.
    choices: HashMap<u32, Vec<Action>>,
    visited: usize,
}

impl Walk<'_> {
    /// The responder's payoff of calling after `history` with hand `i`,
    /// against the opponent's hand `j`.
    fn pay(&self, history: History, i: usize, j: usize) -> f64 {
        match self.me {
            Player::One => f64::from(self.payoffs.payoff(self.game, history, i, j)),
            Player::Two => -f64::from(self.payoffs.payoff(self.game, history, j, i)),
        }
    }

    /// `out[i] += sum_j reach[j] * pay(history, i, j) * scale[j]`.
    fn add_call(&self, history: History, reach: &[f64], out: &mut [f64]) {
        for (i, slot) in out.iter_mut().enumerate() {
            let mut sum = 0.0;
            for (j, &r) in reach.iter().enumerate() {
                if r != 0.0 {
                    sum += r * self.pay(history, i, j);
                }
            }
            *slot += sum;
        }
    }

    /// The responder's value at `history` per hand, unnormalised: the sum
    /// over the opponent's hands of `reach[j]` (his chance weight times his
    /// own reach) times the payoff under the best response.
    fn value(&mut self, history: History, reach: &[f64]) -> Vec<f64> {
        self.visited += 1;
        let mut out = vec![0.0; self.mine];
        if self.game.to_move(history) == self.me {
            let mut best: Vec<(f64, Action)> = vec![(f64::NEG_INFINITY, Action::Call); self.mine];
            if !history.is_empty() {
                self.add_call(history, reach, &mut out);
                for (b, &v) in best.iter_mut().zip(&out) {
                    *b = (v, Action::Call);
                }
            }
            let first = history.last().map_or(0, |l| l + 1);
            for bid in first..self.game.bid_count() as u8 {
                let child = self.value(history.then(bid), reach);
                for (b, &v) in best.iter_mut().zip(&child) {
                    if v > b.0 {
                        *b = (v, Action::Bid(bid));
                    }
                }
            }
            self.choices
                .insert(history.0, best.iter().map(|b| b.1).collect());
            for (o, b) in out.iter_mut().zip(&best) {
                *o = b.0;
            }
            return out;
        }
        let hands = self.theirs;
        let mut child_reach = vec![0.0; hands];
        match self.other.at(history) {
            None => {
                // The opponent's default everywhere off the tree.
                match default_action(history) {
                    Action::Call => self.add_call(history, reach, &mut out),
                    Action::Bid(b) => out = self.value(history.then(b), reach),
                }
            }
            Some(node) => {
                // Hands without behaviour here play the default; they have
                // no reach in practice, but count them exactly anyway.
                let bare: Vec<usize> = (0..hands)
                    .filter(|&j| !node.given.contains(j) && reach[j] != 0.0)
                    .collect();
                for (k, &action) in node.actions.iter().enumerate() {
                    let mut any = false;
                    for (j, slot) in child_reach.iter_mut().enumerate() {
                        *slot = reach[j] * node.probability(history, k, hands, j);
                        any |= *slot != 0.0;
                    }
                    if !any {
                        continue;
                    }
                    match action {
                        Action::Call => self.add_call(history, &child_reach, &mut out),
                        Action::Bid(b) => {
                            let child = self.value(history.then(b), &child_reach);
                            for (o, c) in out.iter_mut().zip(child) {
                                *o += c;
                            }
                        }
                    }
                }
                if !bare.is_empty() && !node.actions.contains(&default_action(history)) {
                    child_reach.iter_mut().for_each(|r| *r = 0.0);
                    for &j in &bare {
                        child_reach[j] = reach[j];
                    }
                    match default_action(history) {
                        Action::Call => self.add_call(history, &child_reach, &mut out),
                        Action::Bid(b) => {
                            let child = self.value(history.then(b), &child_reach);
                            for (o, c) in out.iter_mut().zip(child) {
                                *o += c;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The sequences the best response plays against the opponent's hands
    /// `theirs` (those that reach `history`), for the responder's `mine`.
    fn collect(
        &self,
        history: History,
        theirs: HandSet,
        mine: HandSet,
        out: &mut Vec<(History, Action, HandSet)>,
    ) {
        if self.game.to_move(history) == self.me {
            let Some(choices) = self.choices.get(&history.0) else {
                return;
            };
            // Group the hands by their action, in action order.
            let mut groups: Vec<(Action, HandSet)> = Vec::new();
            for i in mine.iter() {
                let action = choices[i];
                match groups.iter_mut().find(|g| g.0 == action) {
                    Some(g) => g.1 = g.1.or(HandSet::one(i)),
                    None => groups.push((action, HandSet::one(i))),
                }
            }
            groups.sort_by_key(|g| match g.0 {
                Action::Call => 0,
                Action::Bid(b) => 1 + u16::from(b),
            });
            for (action, hands) in groups {
                out.push((history, action, hands));
                if let Action::Bid(b) = action {
                    self.collect(history.then(b), theirs, hands, out);
                }
            }
            return;
        }
        let hands = self.theirs;
        match self.other.at(history) {
            None => {
                if let Action::Bid(b) = default_action(history) {
                    self.collect(history.then(b), theirs, mine, out);
                }
            }
            Some(node) => {
                for (k, &action) in node.actions.iter().enumerate() {
                    let Action::Bid(b) = action else { continue };
                    let mut next = HandSet::EMPTY;
                    for j in theirs.iter() {
                        if node.probability(history, k, hands, j) > 0.0 {
                            next = next.or(HandSet::one(j));
                        }
                    }
                    if !next.is_empty() {
                        self.collect(history.then(b), next, mine, out);
                    }
                }
            }
        }
    }
}

/// The best response of `me` to `other` (the opponent's extended strategy)
/// on the full game: its value (to `me`) and the sequences it plays.
pub fn best_response(
    game: Endgame,
    payoffs: &CallPayoffs,
    me: Player,
    other: &ExtendedPlay,
) -> Response {
    let them = me.opponent();
    let mut walk = Walk {
        game,
        me,
        payoffs,
        other,
        mine: payoffs.hands(me),
        theirs: payoffs.hands(them),
        choices: HashMap::new(),
        visited: 0,
    };
    let reach: Vec<f64> = (0..walk.theirs)
        .map(|j| f64::from(payoffs.weight(them, j)))
        .collect();
    let values = walk.value(History::EMPTY, &reach);
    let rolls =
        f64::from(game.hands(me).total_weight()) * f64::from(game.hands(them).total_weight());
    let value = values
        .iter()
        .enumerate()
        .map(|(i, v)| f64::from(payoffs.weight(me, i)) * v)
        .sum::<f64>()
        / rolls;
    let mut sequences = Vec::new();
    walk.collect(
        History::EMPTY,
        HandSet::all(walk.theirs),
        HandSet::all(walk.mine),
        &mut sequences,
    );
    Response {
        value,
        sequences,
        visited: walk.visited,
    }
}
