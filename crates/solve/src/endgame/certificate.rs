//! The independent certificate of an endgame equilibrium: each player's best
//! response to the other's stored behaviour strategy, by a walk over the
//! public histories that never looks at the LP. Also turns realisation plans
//! into behaviour strategies.
//!
//! A best response of player `p` holding hand `i` is found backwards over
//! the histories (a child history is a larger bit set than its parent, so
//! decreasing numeric order visits children first). With `r(j, h)` the
//! opponent's own reach of `h` with hand `j`, the unnormalised value
//! `U_i(h) = sum_j chance(j) r(j, h) E[payoff | i, j, h, p best-responding]`
//! is a maximum over `p`'s actions where `p` moves and a sum where the
//! opponent moves; `p`'s best-response value is `sum_i chance(i) U_i(empty)`.
//! Every (hand, history) of `p` is its own information set, so the maximum
//! per node is exactly a best response.

use gametab_games::dice::endgame::{Action, Endgame, Hands, History, Player, Strategy};

/// The certificate of a strategy pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certificate {
    /// Player 1's best-response value against player 2's strategy (an upper
    /// bound on the game value).
    pub upper: f64,
    /// Player 1's payoff when player 2 best-responds to player 1's strategy
    /// (a lower bound on the game value).
    pub lower: f64,
}

impl Certificate {
    /// `upper - lower`, 0 at an exact equilibrium.
    pub fn exploitability(&self) -> f64 {
        self.upper - self.lower
    }

    /// Whether the exploitability is at most
    /// [`super::MAX_EXPLOITABILITY`] (false for NaN).
    pub fn is_certified(&self) -> bool {
        self.exploitability() <= super::MAX_EXPLOITABILITY
    }
}

/// Certify the pair: both best responses.
pub fn certify(one: &Strategy, two: &Strategy) -> Certificate {
    let upper = best_response(two, None);
    let lower = -best_response(one, None);
    Certificate { upper, lower }
}

/// Whether the last bid of a history is true, for every bid and pair of
/// hands, from [`Endgame::last_bid_true`]: the walks look it up instead of
/// counting dice at every (history, hand, hand).
pub(crate) struct BidTruth {
    /// Player 1's and player 2's numbers of hands.
    hands: [usize; 2],
    /// `[(bid * hands[0] + i) * hands[1] + j]` for player 1's hand `i` and
    /// player 2's hand `j`.
    truth: Vec<bool>,
}

impl BidTruth {
    pub(crate) fn new(game: Endgame, hands: &[Hands; 2]) -> BidTruth {
        let mut truth =
            Vec::with_capacity(game.bid_count() as usize * hands[0].len() * hands[1].len());
        for bid in 0..game.bid_count() as u8 {
            let history = History::EMPTY.then(bid);
            for i in 0..hands[0].len() {
                for j in 0..hands[1].len() {
                    let hands = [hands[0].hand(i), hands[1].hand(j)];
                    truth.push(game.last_bid_true(history, hands).unwrap_or(false));
                }
            }
        }
        BidTruth {
            hands: [hands[0].len(), hands[1].len()],
            truth,
        }
    }

    /// The payoff to `player` of a call after the non-empty `history` with
    /// the hands of these indices (player 1's first): the value of
    /// [`Endgame::call_payoff`], negated for player 2.
    pub(crate) fn payoff(
        &self,
        game: Endgame,
        player: Player,
        history: History,
        index: [usize; 2],
    ) -> f64 {
        let bid = usize::from(history.last().unwrap_or(0));
        let caller_loses = self.truth[(bid * self.hands[0] + index[0]) * self.hands[1] + index[1]];
        let player_one_wins = caller_loses == (game.to_move(history) == Player::Two);
        let payoff = if player_one_wins { 1.0 } else { -1.0 };
        match player {
            Player::One => payoff,
            Player::Two => -payoff,
        }
    }
}

/// The opponent's own reach of every history with every hand, dense
/// `[hand * H + history]`.
fn reaches(strategy: &Strategy) -> Vec<f64> {
    let game = strategy.game();
    let histories = game.history_count();
    let hands = game.hands(strategy.player()).len();
    let mut reach = vec![0.0; hands * histories];
    for j in 0..hands {
        let base = j * histories;
        reach[base] = 1.0;
        for h in 1..histories as u32 {
            let history = History(h);
            let parent = history.parent();
            let own = if game.to_move(parent) == strategy.player() {
                let bid = history.last().unwrap_or(0);
                strategy.probability(j, parent, Action::Bid(bid))
            } else {
                1.0
            };
            reach[base + h as usize] = reach[base + parent.0 as usize] * own;
        }
    }
    reach
}

/// The best-response value of the opponent of `strategy`'s player (payoff to
/// the responder). When `fill` is given (a strategy of the responder), every
/// (hand, history) where that strategy's own reach is 0 is set to the best
/// response's action there (ties to the first action in [`Endgame::actions`]
/// order), which leaves its realisation plan, and so its value, unchanged.
pub fn best_response(strategy: &Strategy, mut fill: Option<&mut Strategy>) -> f64 {
    let game = strategy.game();
    let other = strategy.player();
    let me = other.opponent();
    let hands = [game.hands(Player::One), game.hands(Player::Two)];
    let truth = BidTruth::new(game, &hands);
    let mine = &hands[me.index()];
    let histories = game.history_count();
    let calls = OpponentCalls::of(strategy, &hands[other.index()]);
    let fill_reach = fill.as_deref().map(reaches);
    let mut total = 0.0;
    let mut value = vec![0.0; histories];
    for i in 0..mine.len() {
        for h in (0..histories as u32).rev() {
            let history = History(h);
            let mover = game.to_move(history);
            // The call: weighted by the opponent's chance and reach (and his
            // call probability where he is the one to call).
            let mut call = 0.0;
            if !history.is_empty() {
                for (&j, &weight) in calls.at(h) {
                    let j = usize::from(j);
                    let index = if me == Player::One { [i, j] } else { [j, i] };
                    call += weight * truth.payoff(game, me, history, index);
                }
            }
            let bids = history.last().map_or(0, |l| l + 1)..game.bid_count() as u8;
            value[h as usize] = if mover == me {
                let mut best = (
                    if history.is_empty() {
                        f64::NEG_INFINITY
                    } else {
                        call
                    },
                    Action::Call,
                );
                for b in bids {
                    let v = value[history.then(b).0 as usize];
                    if v > best.0 {
                        best = (v, Action::Bid(b));
                    }
                }
                if let (Some(fill), Some(own)) = (fill.as_deref_mut(), fill_reach.as_ref()) {
                    if own[i * histories + h as usize] == 0.0 {
                        for action in game.actions(history) {
                            let p = if action == best.1 { 1.0 } else { 0.0 };
                            fill.set(i, history, action, p);
                        }
                    }
                }
                best.0
            } else {
                call + bids.map(|b| value[history.then(b).0 as usize]).sum::<f64>()
            };
        }
        total += mine.probability(i) * value[0];
    }
    total
}

/// The opponent's side of every call in a best response, by history: the
/// hands `j` he reaches the history with (own reach `r > 0`), each with the
/// weight `chance(j) * r * p`, `p` his probability of the call where he is
/// the one to call and 1 where the responder is. Hands of reach 0 are left
/// out, so a walk visits only what he reaches; the weights are the products
/// the walk would form, in the same order, to the bit.
struct OpponentCalls {
    /// Where each history's hands start in `hands` and `weights`
    /// (`histories + 1` entries).
    starts: Vec<usize>,
    hands: Vec<u8>,
    weights: Vec<f64>,
}

impl OpponentCalls {
    fn of(strategy: &Strategy, theirs: &Hands) -> OpponentCalls {
        let game = strategy.game();
        let histories = game.history_count();
        let reach = reaches(strategy);
        let chance: Vec<f64> = (0..theirs.len()).map(|j| theirs.probability(j)).collect();
        let mut starts = Vec::with_capacity(histories + 1);
        let (mut hands, mut weights) = (Vec::new(), Vec::new());
        for h in 0..histories as u32 {
            starts.push(hands.len());
            let history = History(h);
            let calls = game.to_move(history) == strategy.player();
            for (j, &chance) in chance.iter().enumerate() {
                let r = reach[j * histories + h as usize];
                if r == 0.0 {
                    continue;
                }
                let p = if calls {
                    strategy.probability(j, history, Action::Call)
                } else {
                    1.0
                };
                // A player has at most 126 hands (four dice of six sides:
                // MAX_DICE, MAX_SIDES), so an index fits a byte.
                hands.push(j as u8);
                weights.push(chance * r * p);
            }
        }
        starts.push(hands.len());
        OpponentCalls {
            starts,
            hands,
            weights,
        }
    }

    /// The opponent's hands and weights at history `h`.
    fn at(&self, h: u32) -> impl Iterator<Item = (&u8, &f64)> {
        let range = self.starts[h as usize]..self.starts[h as usize + 1];
        self.hands[range.clone()].iter().zip(&self.weights[range])
    }
}

/// The behaviour strategy of a realisation plan: each action's weight over
/// the weight of the sequence before it, normalised; probabilities below
/// `1e-10` of an information set are taken as 0 (solver noise). Information
/// sets the plan never reaches (weights summing to 0) are left at 0 for
/// [`best_response`] to fill.
pub fn behaviour(plan: &Strategy) -> Strategy {
    let game = plan.game();
    let player = plan.player();
    let mut strategy = Strategy::zero(game, player);
    let mut weights = Vec::new();
    for i in 0..game.hands(player).len() {
        for h in (0..game.history_count() as u32).map(History) {
            if game.to_move(h) != player {
                continue;
            }
            weights.clear();
            weights.extend(
                game.actions(h)
                    .map(|a| (a, plan.probability(i, h, a).max(0.0))),
            );
            let sum: f64 = weights.iter().map(|w| w.1).sum();
            if sum <= 0.0 {
                continue;
            }
            for w in &mut weights {
                w.1 /= sum;
                if w.1 < 1e-10 {
                    w.1 = 0.0;
                }
            }
            let kept: f64 = weights.iter().map(|w| w.1).sum();
            for &(action, w) in &weights {
                strategy.set(i, h, action, w / kept);
            }
        }
    }
    strategy
}

/// Player 1's expected payoff when both play the given strategies.
pub fn pair_value(one: &Strategy, two: &Strategy) -> f64 {
    let game = one.game();
    let (reach_one, reach_two) = (reaches(one), reaches(two));
    let hands = [game.hands(Player::One), game.hands(Player::Two)];
    let truth = BidTruth::new(game, &hands);
    let histories = game.history_count();
    let mut value = 0.0;
    for h in 1..histories as u32 {
        let history = History(h);
        let caller = game.to_move(history);
        for i in 0..hands[0].len() {
            let r1 = reach_one[i * histories + h as usize];
            if r1 == 0.0 {
                continue;
            }
            for j in 0..hands[1].len() {
                let r2 = reach_two[j * histories + h as usize];
                if r2 == 0.0 {
                    continue;
                }
                let call = match caller {
                    Player::One => one.probability(i, history, Action::Call),
                    Player::Two => two.probability(j, history, Action::Call),
                };
                value += hands[0].probability(i)
                    * hands[1].probability(j)
                    * r1
                    * r2
                    * call
                    * truth.payoff(game, Player::One, history, [i, j]);
            }
        }
    }
    value
}
