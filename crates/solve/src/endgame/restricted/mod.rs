//! The restricted game of the sequence-form double oracle ([`super::oracle`]):
//! the actions each player may take so far, per (history, hand), and the
//! sequence-form LP of the game they span.
//!
//! A restricted game is given by the included actions of both players: at
//! a history `h`, the mover holding hand `i` may take the actions included
//! for `(h, i)` and no others. The restricted tree is every history both
//! players reach by included actions alone (for some pair of hands); it is
//! closed so that every restricted-game sequence can be completed: wherever
//! a hand reaches a node of the tree and has no included action there, its
//! default (the call, the first action in [`Endgame::actions`] order; at the
//! opening, which has no call, the lowest bid) is included
//! ([`RestrictedGame::tree`]). Each player's strategies in the restricted
//! game are then exactly the full game's realisation plans that use
//! included sequences only, a face of the full polytope, and the
//! restricted LP is the full LP of [`super::lp`] cut down to them: the same
//! rows and columns, kept where the restricted tree has them.
//!
//! Outside the tree a player's strategy is extended by the same default,
//! the call ([`ExtendedPlay`]). Any fixed extension keeps the double
//! oracle exact: a best response against the extended strategy that uses
//! only included sequences gains nothing over the restricted value, so a
//! best response that gains must bring a sequence that is not included
//! yet, and the included sets only grow.
//!
//! Hands of a player are a bit set ([`HandSet`], at most 128 hands: four
//! six-sided dice have 126). Maps keyed by history are only looked up,
//! never iterated, so the LP's rows and columns come in the depth-first
//! order of the tree and the build is deterministic.

use std::collections::HashMap;
use std::time::Duration;

use super::error::{Error, Result};

use gametab_games::dice::endgame::{Action, Endgame, Hands, History, Player};

use super::lp::LpSize;

mod play;
mod program;
mod undominated;

pub use play::{ExtendedPlay, NodePlay};
pub use program::RestrictedLp;

/// A set of hands of one player, by hand index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct HandSet(u128);

impl HandSet {
    /// No hand.
    pub const EMPTY: HandSet = HandSet(0);

    /// Every hand of a player with `hands` hands.
    pub fn all(hands: usize) -> HandSet {
        if hands >= 128 {
            HandSet(u128::MAX)
        } else {
            HandSet((1u128 << hands) - 1)
        }
    }

    /// The set holding hand `i` alone.
    pub fn one(i: usize) -> HandSet {
        HandSet(1u128 << i)
    }

    /// Whether hand `i` is in the set.
    pub fn contains(self, i: usize) -> bool {
        self.0 >> i & 1 == 1
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The hands in both sets.
    pub fn and(self, other: HandSet) -> HandSet {
        HandSet(self.0 & other.0)
    }

    /// The hands in either set.
    pub fn or(self, other: HandSet) -> HandSet {
        HandSet(self.0 | other.0)
    }

    /// The hands of this set not in `other`.
    pub fn without(self, other: HandSet) -> HandSet {
        HandSet(self.0 & !other.0)
    }

    /// The hand indices, rising.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i
            })
        })
    }

    /// Number of hands in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

/// Most hands a player may have for the restricted game's [`HandSet`].
pub const MAX_HANDS: usize = 128;

/// The action order of the tables and of every tie: call first, then the
/// bids upwards (that of [`Endgame::actions`]).
fn rank(action: Action) -> u16 {
    match action {
        Action::Call => 0,
        Action::Bid(b) => 1 + u16::from(b),
    }
}

/// The default action at `history`, played wherever a strategy has nothing
/// else: the call, or at the opening (where no call is legal) the lowest
/// bid.
pub fn default_action(history: History) -> Action {
    if history.is_empty() {
        Action::Bid(0)
    } else {
        Action::Call
    }
}

/// One node of the restricted tree: a history with the hands of each
/// player that reach it by included actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeNode {
    /// The history.
    pub history: History,
    /// The hands of player 1 and of player 2 that reach it.
    pub reach: [HandSet; 2],
}

/// The included actions of both players: at every history, the mover's
/// actions (in `rank` order: calls first, then bids upward), each with
/// the hands it is included for.
#[derive(Debug, Clone)]
pub struct RestrictedGame {
    game: Endgame,
    hands: [usize; 2],
    included: HashMap<u32, Vec<(Action, HandSet)>>,
    sequences: usize,
}

impl RestrictedGame {
    /// The restricted game with nothing included yet (the first
    /// [`RestrictedGame::tree`] includes the defaults of the opening).
    ///
    /// # Errors
    /// A player with more than [`MAX_HANDS`] hands.
    pub fn new(game: Endgame) -> Result<RestrictedGame> {
        let hands = Player::BOTH.map(|p| game.hands(p).len());
        if hands.iter().any(|&n| n > MAX_HANDS) {
            return Err(Error::BadEntries(format!(
                "{game}: more than {MAX_HANDS} hands per player"
            )));
        }
        Ok(RestrictedGame {
            game,
            hands,
            included: HashMap::new(),
            sequences: 0,
        })
    }

    /// The game.
    pub fn game(&self) -> Endgame {
        self.game
    }

    /// Included (hand, history, action) triples so far.
    pub fn sequences(&self) -> usize {
        self.sequences
    }

    /// Include `action` at `history` for the mover's `hands`; returns how
    /// many of them did not have it yet.
    pub fn include(&mut self, history: History, action: Action, hands: HandSet) -> usize {
        let actions = self.included.entry(history.0).or_default();
        let at = actions.partition_point(|&(a, _)| rank(a) < rank(action));
        let added = match actions.get_mut(at) {
            Some((a, set)) if *a == action => {
                let new = hands.without(*set);
                *set = set.or(hands);
                new.len()
            }
            _ => {
                actions.insert(at, (action, hands));
                hands.len()
            }
        };
        self.sequences += added;
        added
    }

    /// Include every legal action of `player` at every node of the tree
    /// where he moves, for the hands of his that reach it: his best
    /// response to the opponent's extended strategy then never leaves the
    /// restricted game (the opponent's defaults close it one step
    /// beyond), so the restricted LP's strategy of the opponent is
    /// optimal against every strategy of `player`, not only the included
    /// ones. Returns how many sequences were new.
    pub fn complete(&mut self, player: Player) -> usize {
        self.complete_with(player, |_, _| HashMap::new())
    }

    /// Complete `player` as [`RestrictedGame::complete`] does, less the
    /// hands that `left_out` gives for each bid at a node of his (bid ->
    /// hands, none for a bid it does not name).
    fn complete_with(
        &mut self,
        player: Player,
        mut left_out: impl FnMut(&RestrictedGame, &TreeNode) -> HashMap<u8, HandSet>,
    ) -> usize {
        // His new actions reach the opponent's included actions with more
        // of his hands, and those reach his nodes further on: to a fixed
        // point.
        let mut added = 0;
        loop {
            let mut more = 0;
            for node in self.tree() {
                let h = node.history;
                if self.game.to_move(h) != player {
                    continue;
                }
                let hands = node.reach[player.index()];
                if !h.is_empty() {
                    more += self.include(h, Action::Call, hands);
                }
                let out = left_out(self, &node);
                let first = h.last().map_or(0, |l| l + 1);
                for bid in first..self.game.bid_count() as u8 {
                    let out = out.get(&bid).copied().unwrap_or_default();
                    more += self.include(h, Action::Bid(bid), hands.without(out));
                }
            }
            if more == 0 {
                return added;
            }
            added += more;
        }
    }

    /// Drop the included sequences of `player` that none of `plays`
    /// (behaviour strategies of his, each as (hand, history, action,
    /// probability), the default wherever one gives nothing at a node)
    /// reaches with a realisation weight above `above`: what is left is
    /// the union of their supports within the restricted game. Completing
    /// the opponent on the result ([`RestrictedGame::complete`]) then costs
    /// a tree no wider than that union, and the LP's strategy of `player`
    /// is optimal against every strategy of the opponent among those using
    /// it: an exact strategy of his when it holds an equilibrium's.
    /// Without a play every sequence of his goes. Returns the sequences
    /// dropped.
    pub fn cut_to_support(
        &mut self,
        player: Player,
        plays: &[&[(usize, History, Action, f64)]],
        above: f64,
    ) -> usize {
        // Per play: the probabilities of the actions at each (hand, history).
        type Behaviour = HashMap<(usize, u32), Vec<(Action, f64)>>;
        let behaviours: Vec<Behaviour> = plays
            .iter()
            .map(|play| {
                let mut behaviour = Behaviour::new();
                for &(i, h, a, p) in *play {
                    behaviour.entry((i, h.0)).or_default().push((a, p));
                }
                behaviour
            })
            .collect();
        let probability = |behaviour: &Behaviour, i: usize, h: History, a: Action| match behaviour
            .get(&(i, h.0))
        {
            Some(node) => node.iter().find(|e| e.0 == a).map_or(0.0, |e| e.1),
            None => f64::from(u8::from(a == default_action(h))),
        };
        // His realisation weight of (h, a) with hand i under one play: the
        // product of his own actions' probabilities along h, then a's.
        let weight = |behaviour, i: usize, h: History, a: Action| {
            let mut w = 1.0;
            let mut prefix = History::EMPTY;
            for bid in h.bids() {
                if self.game.to_move(prefix) == player {
                    w *= probability(behaviour, i, prefix, Action::Bid(bid));
                }
                prefix = prefix.then(bid);
            }
            w * probability(behaviour, i, h, a)
        };
        let kept =
            |i: usize, h: History, a: Action| behaviours.iter().any(|b| weight(b, i, h, a) > above);
        let mut removed = 0;
        for (&h, actions) in self.included.iter_mut() {
            let history = History(h);
            if self.game.to_move(history) != player {
                continue;
            }
            for (action, set) in actions.iter_mut() {
                let drop = set
                    .iter()
                    .filter(|&i| !kept(i, history, *action))
                    .fold(HandSet::EMPTY, |d, i| d.or(HandSet::one(i)));
                removed += drop.len();
                *set = set.without(drop);
            }
            actions.retain(|(_, set)| !set.is_empty());
        }
        self.included.retain(|_, actions| !actions.is_empty());
        self.sequences -= removed;
        removed
    }

    /// Every included (history bits, action code, hands bits), by history
    /// then action (code 0 the call, `b + 1` the bid `b`): what a job file
    /// keeps of a game the budget cut off ([`RestrictedGame::from_included`]
    /// reads it back).
    pub fn included(&self) -> Vec<(u32, u8, u128)> {
        let mut list: Vec<(u32, u8, u128)> = self
            .included
            .iter()
            .flat_map(|(&h, actions)| {
                actions.iter().map(move |&(action, hands)| {
                    let code = match action {
                        Action::Call => 0,
                        Action::Bid(b) => b + 1,
                    };
                    (h, code, hands.0)
                })
            })
            .collect();
        list.sort_unstable();
        list
    }

    /// The restricted game of `game` holding `list` ([`RestrictedGame::included`]).
    ///
    /// # Errors
    /// A history outside the game, an illegal action, or a hand the mover
    /// does not have.
    pub fn from_included(game: Endgame, list: &[(u32, u8, u128)]) -> Result<RestrictedGame> {
        let mut restricted = RestrictedGame::new(game)?;
        for &(h, code, hands) in list {
            let history = History(h);
            let action = match code {
                0 => Action::Call,
                b => Action::Bid(b - 1),
            };
            let mover = game.to_move(history).index();
            if (h as usize) >= game.history_count()
                || !game.is_legal(history, action)
                || HandSet(hands).without(HandSet::all(restricted.hands[mover])) != HandSet::EMPTY
            {
                return Err(Error::BadEntries(format!(
                    "{game}: included sequence ({h}, {code}, {hands:#x}) is not in the game"
                )));
            }
            restricted.include(history, action, HandSet(hands));
        }
        Ok(restricted)
    }

    /// Drop the included sequences that `weights` (the restricted
    /// equilibrium's realisation weight of each (history, action, hand)
    /// of the tree, [`RestrictedSolution::weights`]) plays at most
    /// `below`, except those `dropped` before, which it then holds too:
    /// each sequence is dropped at most once, so that the double oracle
    /// still ends. Returns the sequences dropped. Any set of included
    /// sequences is a restricted game (the tree closes it by the
    /// defaults), so the result is one.
    pub fn prune(
        &mut self,
        weights: &[(History, Action, u8, f64)],
        below: f64,
        dropped: &mut HashMap<(u32, Action), HandSet>,
    ) -> usize {
        let mut played: HashMap<(u32, Action), HandSet> = HashMap::new();
        for &(h, a, i, w) in weights {
            if w > below {
                let set = played.entry((h.0, a)).or_default();
                *set = set.or(HandSet::one(usize::from(i)));
            }
        }
        let mut removed = 0;
        for (&h, actions) in self.included.iter_mut() {
            for (action, set) in actions.iter_mut() {
                let key = (h, *action);
                let before = dropped.get(&key).copied().unwrap_or_default();
                let keep = played.get(&key).copied().unwrap_or_default().or(before);
                let drop = set.without(keep);
                if !drop.is_empty() {
                    removed += drop.len();
                    *set = set.without(drop);
                    dropped.insert(key, before.or(drop));
                }
            }
            actions.retain(|(_, set)| !set.is_empty());
        }
        self.included.retain(|_, actions| !actions.is_empty());
        self.sequences -= removed;
        removed
    }

    /// The mover's included actions at `history`.
    pub fn actions(&self, history: History) -> &[(Action, HandSet)] {
        self.included.get(&history.0).map_or(&[], Vec::as_slice)
    }

    /// The restricted tree, depth first (a node before its children,
    /// children by rising bid), after closing it: every hand that reaches a
    /// node and has no included action there gets the default included
    /// ([`default_action`]).
    pub fn tree(&mut self) -> Vec<TreeNode> {
        let mut nodes = Vec::new();
        let root = TreeNode {
            history: History::EMPTY,
            reach: self.hands.map(HandSet::all),
        };
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            let mover = self.game.to_move(node.history).index();
            let covered = self
                .actions(node.history)
                .iter()
                .fold(HandSet::EMPTY, |set, &(_, hands)| set.or(hands));
            let bare = node.reach[mover].without(covered);
            if !bare.is_empty() {
                self.include(node.history, default_action(node.history), bare);
            }
            nodes.push(node);
            // Children pushed highest bid first, so they pop rising.
            for &(action, hands) in self.actions(node.history).iter().rev() {
                let Action::Bid(b) = action else { continue };
                let mut reach = node.reach;
                reach[mover] = reach[mover].and(hands);
                if !reach[mover].is_empty() {
                    stack.push(TreeNode {
                        history: node.history.then(b),
                        reach,
                    });
                }
            }
        }
        nodes
    }
}

/// The integer payoff weights of calls: for the call after bid `b`, player
/// 1's payoff times both hands' roll counts, for every pair of hands.
#[derive(Debug, Clone)]
pub struct CallPayoffs {
    hands: [usize; 2],
    /// `[b][i * hands[1] + j]`: +-1 when the caller is player 2 (player 1
    /// bid last), in player 1's terms.
    when_two_calls: Vec<Vec<i8>>,
    weights: [Vec<u32>; 2],
}

impl CallPayoffs {
    /// The table of `game`.
    pub fn new(game: Endgame) -> CallPayoffs {
        let all = [game.hands(Player::One), game.hands(Player::Two)];
        let hands = [all[0].len(), all[1].len()];
        let when_two_calls = (0..game.bid_count() as u8)
            .map(|b| {
                let history = History::EMPTY.then(b);
                let mut row = Vec::with_capacity(hands[0] * hands[1]);
                for i in 0..hands[0] {
                    for j in 0..hands[1] {
                        // After one bid player 2 is the caller.
                        let pay = game
                            .call_payoff(history, [all[0].hand(i), all[1].hand(j)])
                            .unwrap_or(0);
                        row.push(pay);
                    }
                }
                row
            })
            .collect();
        let weights = all.map(|h: Hands| (0..h.len()).map(|i| h.weight(i)).collect());
        CallPayoffs {
            hands,
            when_two_calls,
            weights,
        }
    }

    /// Player 1's payoff (+-1) when the player to move calls after
    /// `history` (not empty) with hands `i` of player 1 and `j` of player 2.
    pub fn payoff(&self, game: Endgame, history: History, i: usize, j: usize) -> i8 {
        let last = history.last().unwrap_or(0) as usize;
        let pay = self.when_two_calls[last][i * self.hands[1] + j];
        // The truth of the bid decides; the caller's side flips the sign.
        match game.to_move(history) {
            Player::Two => pay,
            Player::One => -pay,
        }
    }

    /// The bidder's payoff (+-1) when bid `bid` is called with hands `i`
    /// of player 1 and `j` of player 2: the bid's truth, whoever made it.
    fn bidder_payoff(&self, bid: u8, i: usize, j: usize) -> i8 {
        self.when_two_calls[usize::from(bid)][i * self.hands[1] + j]
    }

    /// The roll count of hand `i` of `player`.
    pub fn weight(&self, player: Player, i: usize) -> u32 {
        self.weights[player.index()][i]
    }

    /// Hands of `player`.
    pub fn hands(&self, player: Player) -> usize {
        self.hands[player.index()]
    }
}

/// The solved restricted LP: both players' behaviour at the restricted
/// tree's information sets their plans reach.
#[derive(Debug, Clone)]
pub struct RestrictedSolution {
    /// Player 1's expected payoff in the restricted game.
    pub value: f64,
    /// Both players' behaviour in the tree.
    pub play: [ExtendedPlay; 2],
    /// Size of the restricted LP.
    pub size: LpSize,
    /// Nodes of the restricted tree.
    pub nodes: usize,
    /// Simplex iterations of the solve.
    pub iterations: u64,
    /// Interior point iterations of the solve.
    pub ipm_iterations: u64,
    /// Time in HiGHS's solve (the rest of the round's LP time is building
    /// the tree and the LP's new rows and columns, and reading the plans).
    pub highs_time: Duration,
    /// The realisation weight of every sequence of the tree, (history,
    /// action, hand of the mover, weight), each hand's plan weighing 1 at
    /// the opening: what [`RestrictedGame::prune`] keeps.
    pub weights: Vec<(History, Action, u8, f64)>,
}
