//! A player's strategy in the double oracle: his behaviour on the
//! restricted tree's nodes where he moves, read from the restricted LP's
//! plan (or duals), extended by the default (the call) everywhere else
//! ([`ExtendedPlay`]); and the mixtures of it with pure best responses
//! that the look-ahead best-responds to ([`ExtendedPlay::mixed`]).

use std::collections::HashMap;

use gametab_games::dice::endgame::{Action, Endgame, History, Player};

use super::{default_action, rank, HandSet};

/// A player's behaviour strategy given on the nodes of the restricted tree
/// where he moves, extended by the call everywhere else (and wherever a
/// hand of his has no behaviour in the tree: his own plan does not reach
/// it, so what he does there changes no payoff).
#[derive(Debug, Clone)]
pub struct ExtendedPlay {
    player: Player,
    hands: usize,
    /// Per history: the actions with positive probability for some hand,
    /// and their probabilities `[action][hand]`.
    nodes: HashMap<u32, NodePlay>,
}

/// The behaviour of one player at one history, for the hands that have one.
#[derive(Debug, Clone)]
pub struct NodePlay {
    /// Actions in `rank` order: those of positive probability for some
    /// hand.
    pub actions: Vec<Action>,
    /// `probabilities[k * hands + i]`: the probability of `actions[k]` with
    /// hand `i` (0 for a hand not in `given`).
    pub probabilities: Vec<f64>,
    /// The hands whose behaviour is given; the others play
    /// [`default_action`].
    pub given: HandSet,
}

impl NodePlay {
    /// The probability of `actions[k]` with hand `i` at `history` (this
    /// node's history).
    pub fn probability(&self, history: History, k: usize, hands: usize, i: usize) -> f64 {
        if self.given.contains(i) {
            self.probabilities[k * hands + i]
        } else if self.actions[k] == default_action(history) {
            1.0
        } else {
            0.0
        }
    }
}

impl ExtendedPlay {
    /// No behaviour anywhere: the call (or the lowest opening bid)
    /// everywhere.
    pub fn default_everywhere(game: Endgame, player: Player) -> ExtendedPlay {
        ExtendedPlay {
            player,
            hands: game.hands(player).len(),
            nodes: HashMap::new(),
        }
    }

    /// Whose play this is.
    pub fn player(&self) -> Player {
        self.player
    }

    /// The behaviour at `history`, if the tree gives one (else every hand
    /// plays [`default_action`]).
    pub fn at(&self, history: History) -> Option<&NodePlay> {
        self.nodes.get(&history.0)
    }

    /// Hands of the player.
    pub fn hands(&self) -> usize {
        self.hands
    }

    /// Every (hand, history, action, probability) the tree gives with a
    /// positive probability, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = (usize, History, Action, f64)> + '_ {
        self.nodes.iter().flat_map(move |(&h, node)| {
            node.actions.iter().enumerate().flat_map(move |(k, &a)| {
                node.given.iter().filter_map(move |i| {
                    let p = node.probabilities[k * self.hands + i];
                    (p > 0.0).then_some((i, History(h), a, p))
                })
            })
        })
    }

    /// This play mixed with pure strategies of the same player: in
    /// realisation-plan terms `x + weight * (r_1 + ... + r_k)`, normalised,
    /// where `x` is this play's plan and `r_t` the plan of `pures[t]`, the
    /// (history, action, hands) a best response plays
    /// ([`crate::endgame::oracle::Response`]) and the default ([`default_action`]) wherever it gives nothing. Given
    /// as behaviour (Kuhn): at each history where this play or a pure one
    /// acts, each hand's action weights are the mixture's realisation
    /// weights of the history's sequences. The double oracle's look-ahead
    /// best-responds to it
    /// ([`LpOptions::lookahead`](crate::endgame::LpOptions::lookahead)).
    pub fn mixed(
        &self,
        game: Endgame,
        pures: &[&[(History, Action, HandSet)]],
        weight: f64,
    ) -> ExtendedPlay {
        let hands = self.hands;
        // Each pure strategy's action per (history, hand), at the histories
        // where it gives one.
        let pure_maps: Vec<HashMap<u32, Vec<Option<Action>>>> = pures
            .iter()
            .map(|sequences| {
                let mut map: HashMap<u32, Vec<Option<Action>>> = HashMap::new();
                for &(h, a, set) in *sequences {
                    let slot = map.entry(h.0).or_insert_with(|| vec![None; hands]);
                    for i in set.iter() {
                        slot[i] = Some(a);
                    }
                }
                map
            })
            .collect();
        // The histories where some part gives behaviour, sorted so that the
        // result does not depend on the maps' order.
        let mut histories: Vec<u32> = self.nodes.keys().copied().collect();
        for map in &pure_maps {
            histories.extend(map.keys().copied());
        }
        histories.sort_unstable();
        histories.dedup();
        // Realisation weights of every part (this play first) per history,
        // memoised along the chains of prefixes.
        let parts = 1 + pure_maps.len();
        let mut reach: HashMap<u32, Vec<f64>> = HashMap::new();
        reach.insert(History::EMPTY.0, vec![1.0; parts * hands]);
        let action_of = |part: usize, h: History, i: usize| -> Action {
            pure_maps[part - 1]
                .get(&h.0)
                .and_then(|slot| slot[i])
                .unwrap_or_else(|| default_action(h))
        };
        let probability = |part: usize, h: History, i: usize, action: Action| -> f64 {
            if part == 0 {
                match self.at(h) {
                    Some(node) => node.actions.iter().position(|&a| a == action).map_or_else(
                        || {
                            if !node.given.contains(i) && action == default_action(h) {
                                1.0
                            } else {
                                0.0
                            }
                        },
                        |k| node.probability(h, k, hands, i),
                    ),
                    None => f64::from(u8::from(action == default_action(h))),
                }
            } else {
                f64::from(u8::from(action_of(part, h, i) == action))
            }
        };
        let mut out = ExtendedPlay {
            player: self.player,
            hands,
            nodes: HashMap::new(),
        };
        for &h in &histories {
            let history = History(h);
            // The chain of prefixes not yet memoised, then their weights
            // downwards.
            let mut chain = Vec::new();
            let mut at = history;
            while !reach.contains_key(&at.0) {
                chain.push(at);
                at = at.parent();
            }
            for &child in chain.iter().rev() {
                let parent = child.parent();
                let mut weights = reach[&parent.0].clone();
                if game.to_move(parent) == self.player {
                    let bid = Action::Bid(child.last().unwrap_or(0));
                    for part in 0..parts {
                        for i in 0..hands {
                            let w = &mut weights[part * hands + i];
                            if *w != 0.0 {
                                *w *= probability(part, parent, i, bid);
                            }
                        }
                    }
                }
                reach.insert(child.0, weights);
            }
            let weights = &reach[&h];
            for i in 0..hands {
                let mut by_action: Vec<(Action, f64)> = Vec::new();
                for part in 0..parts {
                    let w = weights[part * hands + i] * if part == 0 { 1.0 } else { weight };
                    if w == 0.0 {
                        continue;
                    }
                    let mut add = |a: Action, p: f64| {
                        if p > 0.0 {
                            match by_action.iter_mut().find(|e| e.0 == a) {
                                Some(e) => e.1 += w * p,
                                None => by_action.push((a, w * p)),
                            }
                        }
                    };
                    if part == 0 {
                        match self.at(history) {
                            Some(node) => {
                                for (k, &a) in node.actions.iter().enumerate() {
                                    add(a, node.probability(history, k, hands, i));
                                }
                                if !node.given.contains(i)
                                    && !node.actions.contains(&default_action(history))
                                {
                                    add(default_action(history), 1.0);
                                }
                            }
                            None => add(default_action(history), 1.0),
                        }
                    } else {
                        add(action_of(part, history, i), 1.0);
                    }
                }
                by_action.sort_by_key(|e| rank(e.0));
                out.set_from_weights(history, i, &by_action);
            }
        }
        out
    }

    /// Set the behaviour of `hand` at `history` from the weights of its
    /// included actions (a realisation plan's, or a dual's): normalised,
    /// probabilities below `1e-10` taken as 0 (solver noise, as in
    /// [`crate::endgame::certificate::behaviour`]), nothing when the
    /// weights sum to 0 (the plan does not reach it).
    pub(super) fn set_from_weights(
        &mut self,
        history: History,
        hand: usize,
        weights: &[(Action, f64)],
    ) {
        let sum: f64 = weights.iter().map(|w| w.1.max(0.0)).sum();
        if sum <= 0.0 {
            return;
        }
        let probs: Vec<(Action, f64)> = weights
            .iter()
            .map(|&(a, w)| {
                let p = w.max(0.0) / sum;
                (a, if p < 1e-10 { 0.0 } else { p })
            })
            .filter(|p| p.1 > 0.0)
            .collect();
        let kept: f64 = probs.iter().map(|p| p.1).sum();
        let hands = self.hands;
        let node = self.nodes.entry(history.0).or_insert_with(|| NodePlay {
            actions: Vec::new(),
            probabilities: Vec::new(),
            given: HandSet::EMPTY,
        });
        for &(action, _) in &probs {
            if !node.actions.contains(&action) {
                let at = node.actions.partition_point(|&a| rank(a) < rank(action));
                node.actions.insert(at, action);
                node.probabilities
                    .splice(at * hands..at * hands, std::iter::repeat_n(0.0, hands));
            }
        }
        for (action, p) in probs {
            let k = node
                .actions
                .iter()
                .position(|&a| a == action)
                .expect("inserted above");
            node.probabilities[k * hands + hand] = p / kept;
        }
        node.given = node.given.or(HandSet::one(hand));
    }
}
