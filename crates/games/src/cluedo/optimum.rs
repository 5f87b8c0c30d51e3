//! The optimal suggestion policy on reduced decks, by exact expectimax: the
//! oracle the shipped ranking is measured against (issue 27).
//!
//! **The game solved.** I (one seat, one hand) am the only player who
//! suggests; the opponents answer by the rules (going round from my left,
//! the first one holding a named card shows me one of them, picked
//! uniformly among the named cards he holds; nobody shows when nobody
//! holds one). Every deal agreeing with my hand is equally likely a priori.
//! The objective is the expected number of suggestions until the envelope
//! is *certain*: a single envelope triple keeps a positive probability.
//! The uniform responder is both how the answers are drawn and how I read
//! them, so the belief after any history is the exact Bayesian posterior.
//!
//! **Knowledge states.** A state is the posterior over the deals that agree
//! with my hand, enumerated once: the deals still possible, each with its
//! exact integer weight (the product over my past suggestions of the
//! chance `1/|H|` that its responder showed the card I saw, scaled to
//! integers and divided by the weights' greatest common divisor, so that
//! equal posteriors have one representation). States are memoised in a
//! hash map, and relabelling cards within a category (keeping my hand) maps
//! a state to one of equal value, so each state is stored under the least
//! of its relabellings. Probabilities are exact integer ratios rounded once
//! to `f64`; expected numbers of suggestions are `f64` sums of products (a
//! few ulps of rounding, nothing else).
//!
//! **The choices allowed.** A suggestion one of whose answers could leave
//! the set of possible deals unchanged (the responder is known to hold the
//! shown card and the players before him to hold none of the three) only
//! reweighs deals, and repeating it reweighs them again without end: with
//! such suggestions the set of states is infinite. The optimum is taken
//! over the policies that never make one ([`Solitaire::allowed`]); in every
//! state there is one (name a card of uncertain place in each unsolved
//! category and the known envelope card of each solved one: every answer
//! then places a card), and every allowed suggestion shrinks the deals
//! still possible, so every allowed policy ends within as many suggestions
//! as there are deals. [`Solitaire::evaluate`] scores any policy exactly
//! (including one that makes a reweighing suggestion: its chains are
//! followed to a depth bound and the probability left beyond it reported).
//!
//! Both searches tick the caller's [`crate::budget`] once per state.
//!
//! Pruning keeps the exact minimum: a suggestion is abandoned as soon as
//! the expected suggestions already accounted for, plus one for every
//! uncertain outcome not yet evaluated, reach the best found.

use std::collections::HashMap;

use super::key_hasher::BuildKeyHasher;

use super::cards::{Card, CardSet, Category, Rules, Seat, MAX_PLAYERS};
use super::engine::{position_in_category, triple_index};
use super::ranking::{order, Now, Objective};
use super::ranking::{Outcome, Response, Scored};
use crate::error::{Error, Result};

#[path = "optimum_deals.rs"]
mod deals;
use deals::{deal_out, gcd};

/// Weights are kept below this, so that a deal's id and weight share one
/// `u64` of the memo key (ids below 2^16).
const WEIGHT_LIMIT: u64 = 1 << 47;
/// Most deals a solitaire game may have (ids in 16 bits).
const MAX_DEALS: usize = 1 << 16;
/// [`Solitaire::evaluate`] follows reweighing chains this deep.
const DEPTH_LIMIT: usize = 64;

/// One deal: the opponents' hands in answering order and the envelope
/// triple's index.
#[derive(Debug, Clone, Copy)]
struct Deal {
    hands: [u32; MAX_PLAYERS],
    envelope: u16,
}

/// A knowledge state: `(deal id << 47 | weight)` for every possible deal,
/// sorted, weights divided by their greatest common divisor.
type Belief = Box<[u64]>;

type Memo = HashMap<Belief, f64, BuildKeyHasher>;

/// The solitaire game of one seat and hand on a (reduced) deck.
#[derive(Debug, Clone)]
pub struct Solitaire {
    rules: Rules,
    me: Seat,
    hand: CardSet,
    /// The opponents in answering order.
    order: Vec<Seat>,
    deals: Vec<Deal>,
    /// Every suggestion, suspect-major (the canonical order).
    suggestions: Vec<[Card; 3]>,
    /// Card relabellings that keep my hand: `maps[k][card]`, and the deal
    /// each deal becomes under it.
    symmetries: Vec<Vec<u32>>,
}

/// The optimum of a solitaire game.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimum {
    /// Expected suggestions until certain under the optimal policy.
    pub expected: f64,
    /// An optimal first suggestion (the first in canonical order).
    pub first: [Card; 3],
    /// Distinct knowledge states whose value was computed.
    pub states: usize,
}

/// A policy's exact score in a solitaire game.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Expected suggestions until certain (a lower bound when
    /// `unfinished > 0`).
    pub expected: f64,
    /// `P(certain within k suggestions)` for k = 0, 1, ...
    pub certain_within: Vec<f64>,
    /// Probability of still being uncertain after `DEPTH_LIMIT` (64)
    /// suggestions (0 unless the policy repeats reweighing suggestions).
    pub unfinished: f64,
    /// The policy's first suggestion.
    pub first: [Card; 3],
}

/// A suggestion's answers from a state: per answer its weight (the chance
/// times `6 * total weight`) and the state after it, unnormalised.
struct Answers {
    outcomes: Vec<(Response, u64, Vec<u64>)>,
    /// Six times the state's total weight.
    denominator: u64,
}

impl Solitaire {
    /// The game of `me` holding `hand`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a hand of the wrong size or with cards not
    /// in the deck, a seat not at the table, or a deck with more than
    /// 65,536 deals.
    pub fn new(rules: Rules, me: Seat, hand: CardSet) -> Result<Solitaire> {
        let deck = *rules.deck();
        // The same checks as a player's knowledge.
        super::facts::Knowledge::new(rules, super::facts::Observer::Player { seat: me, hand })?;
        let order: Vec<Seat> = (1..rules.players())
            .map(|k| Seat(((me.index() + k) % rules.players()) as u8))
            .collect();
        let category = |c: Category| deck.category_cards(c).minus(hand);
        let mut deals = Vec::new();
        for s in category(Category::Suspect).cards() {
            for w in category(Category::Weapon).cards() {
                for r in category(Category::Room).cards() {
                    let envelope = CardSet::of(&[s, w, r]);
                    let positions = [s, w, r].map(|c| position_in_category(&rules, c));
                    let index = triple_index(&rules, positions) as u16;
                    let rest: Vec<Card> = deck
                        .all_cards()
                        .minus(hand)
                        .minus(envelope)
                        .cards()
                        .collect();
                    let mut left: Vec<usize> = order.iter().map(|&p| rules.hand_size(p)).collect();
                    let mut hands = [0u32; MAX_PLAYERS];
                    deal_out(&rest, 0, &mut left, &mut hands, index, &mut deals);
                    if deals.len() > MAX_DEALS {
                        return Err(Error::OutOfRange {
                            what: crate::Argument::SolitaireGame,
                            detail: format!("more than {MAX_DEALS} deals: the deck is too large"),
                        });
                    }
                }
            }
        }
        let suggestions = {
            let cards = |c: Category| deck.category_cards(c).cards().collect::<Vec<_>>();
            let mut all = Vec::new();
            for &s in &cards(Category::Suspect) {
                for &w in &cards(Category::Weapon) {
                    for &r in &cards(Category::Room) {
                        all.push([s, w, r]);
                    }
                }
            }
            all
        };
        let mut game = Solitaire {
            rules,
            me,
            hand,
            order,
            deals,
            suggestions,
            symmetries: Vec::new(),
        };
        game.symmetries = game.deal_symmetries();
        Ok(game)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// My seat.
    pub fn me(&self) -> Seat {
        self.me
    }

    /// My hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// Number of deals agreeing with my hand.
    pub fn deals(&self) -> usize {
        self.deals.len()
    }

    /// The state before any suggestion: every deal, weight 1.
    fn start(&self) -> Belief {
        (0..self.deals.len() as u64)
            .map(|id| id << 47 | 1)
            .collect()
    }

    /// Whether one envelope triple is left.
    fn certain(&self, belief: &[u64]) -> bool {
        let envelope = |e: &u64| self.deals[(e >> 47) as usize].envelope;
        belief
            .first()
            .is_none_or(|first| belief.iter().all(|e| envelope(e) == envelope(first)))
    }

    /// The answers to `cards` from `belief`.
    fn answers(&self, belief: &[u64], cards: [Card; 3]) -> Answers {
        let named = CardSet::of(&cards).0;
        let slots = 3 * self.order.len() + 1;
        let mut children: Vec<Vec<u64>> = vec![Vec::new(); slots];
        let mut total = 0u64;
        for &e in belief {
            let id = e >> 47;
            let weight = e & (WEIGHT_LIMIT - 1);
            total += weight;
            let deal = &self.deals[id as usize];
            let answer = (0..self.order.len()).find(|&p| deal.hands[p] & named != 0);
            match answer {
                Some(p) => {
                    let held = deal.hands[p] & named;
                    let factor = 6 / u64::from(held.count_ones());
                    for (k, card) in cards.iter().enumerate() {
                        if held >> card.0 & 1 == 1 {
                            children[3 * p + k].push((id << 47) | (weight * factor));
                        }
                    }
                }
                None => children[slots - 1].push((id << 47) | (weight * 6)),
            }
        }
        let outcomes = children
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_empty())
            .map(|(slot, child)| {
                let response = if slot == slots - 1 {
                    Response::Nobody
                } else {
                    Response::Shows {
                        seat: self.order[slot / 3],
                        card: cards[slot % 3],
                    }
                };
                let weight = child.iter().map(|e| e & (WEIGHT_LIMIT - 1)).sum();
                (response, weight, child)
            })
            .collect();
        Answers {
            outcomes,
            denominator: 6 * total,
        }
    }

    /// Divide a child state's weights by their gcd.
    fn normalise(&self, mut child: Vec<u64>) -> Result<Vec<u64>> {
        let divisor = child
            .iter()
            .fold(0u64, |g, e| gcd(g, e & (WEIGHT_LIMIT - 1)));
        for e in &mut child {
            let weight = (*e & (WEIGHT_LIMIT - 1)) / divisor.max(1);
            if weight >= WEIGHT_LIMIT / 8 {
                return Err(Error::OutOfRange {
                    what: crate::Argument::SolitaireWeights,
                    detail: "a deal's weight outgrew 44 bits".into(),
                });
            }
            *e = (*e >> 47) << 47 | weight;
        }
        Ok(child)
    }

    /// Whether every answer to the suggestion leaves fewer possible deals
    /// (see the module documentation).
    fn allowed(belief: &[u64], answers: &Answers) -> bool {
        answers.outcomes.iter().all(|o| o.2.len() < belief.len())
    }

    /// The optimum from the start.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] if a weight outgrows 44 bits.
    pub fn optimum(&self) -> Result<Optimum> {
        let mut memo = Memo::default();
        let start = self.start();
        let expected = self.value(&start, &mut memo)?;
        let mut first = self.suggestions[0];
        for &cards in &self.suggestions {
            let answers = self.answers(&start, cards);
            if !Self::allowed(&start, &answers) {
                continue;
            }
            if let Some(q) = self.q_value(&answers, f64::INFINITY, &mut memo)? {
                if q <= expected * (1.0 + 1e-12) {
                    first = cards;
                    break;
                }
            }
        }
        Ok(Optimum {
            expected,
            first,
            states: memo.len(),
        })
    }

    /// The optimal expected suggestions until certain from `belief`.
    fn value(&self, belief: &[u64], memo: &mut Memo) -> Result<f64> {
        crate::budget::tick()?;
        if self.certain(belief) {
            return Ok(0.0);
        }
        let key = self.canonical(belief);
        if let Some(&v) = memo.get(&key) {
            return Ok(v);
        }
        // Suggestions by their lower bound (one plus the chance of an
        // uncertain answer), most promising first.
        let mut candidates: Vec<(f64, Answers)> = Vec::new();
        for &cards in &self.suggestions {
            let answers = self.answers(belief, cards);
            if !Self::allowed(belief, &answers) {
                continue;
            }
            let uncertain: u64 = answers
                .outcomes
                .iter()
                .filter(|o| !self.certain(&o.2))
                .map(|o| o.1)
                .sum();
            let bound = 1.0 + uncertain as f64 / answers.denominator as f64;
            candidates.push((bound, answers));
        }
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut best = f64::INFINITY;
        for (bound, answers) in &candidates {
            if *bound >= best {
                break;
            }
            if let Some(q) = self.q_value(answers, best, memo)? {
                best = best.min(q);
            }
        }
        memo.insert(key, best);
        Ok(best)
    }

    /// `1 + sum P(answer) value(after it)`, or `None` once it cannot beat
    /// `best`.
    fn q_value(&self, answers: &Answers, best: f64, memo: &mut Memo) -> Result<Option<f64>> {
        let denominator = answers.denominator as f64;
        let mut rest: f64 = answers
            .outcomes
            .iter()
            .filter(|o| !self.certain(&o.2))
            .map(|o| o.1 as f64 / denominator)
            .sum();
        let mut q = 1.0;
        let mut order: Vec<&(Response, u64, Vec<u64>)> = answers.outcomes.iter().collect();
        order.sort_by_key(|b| std::cmp::Reverse(b.1));
        for (_, weight, child) in order {
            if self.certain(child) {
                continue;
            }
            let p = *weight as f64 / denominator;
            rest -= p;
            let child = self.normalise(child.clone())?;
            q += p * self.value(&child, memo)?;
            if q + rest.max(0.0) >= best {
                return Ok(None);
            }
        }
        Ok(Some(q))
    }

    /// The exact score of the policy that ranks by `objective` (the
    /// shipped ranking code, fed with this state's exact outcomes).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] if a weight outgrows 44 bits.
    pub fn evaluate(&self, objective: Objective) -> Result<Evaluation> {
        let start = self.start();
        let first = self.choice(&start, objective);
        let mut memo: HashMap<Belief, Vec<f64>, BuildKeyHasher> = HashMap::default();
        let uncertain = self.uncertain_after(&start, objective, 0, &mut memo)?;
        // uncertain[k] = P(not certain after k suggestions); the expected
        // count is their sum.
        let expected = uncertain.iter().sum();
        let unfinished = if uncertain.len() > DEPTH_LIMIT {
            uncertain[DEPTH_LIMIT]
        } else {
            0.0
        };
        // The last entry of `uncertain` is its last positive one: certain
        // one suggestion later (unless cut at the depth bound).
        let mut certain_within: Vec<f64> = uncertain.iter().map(|u| 1.0 - u).collect();
        if unfinished == 0.0 {
            certain_within.push(1.0);
        }
        Ok(Evaluation {
            expected,
            certain_within,
            unfinished,
            first,
        })
    }

    /// `P(still uncertain after k suggestions)` for k = 0, 1, ... under the
    /// policy, from `belief` reached after `depth` suggestions.
    fn uncertain_after(
        &self,
        belief: &[u64],
        objective: Objective,
        depth: usize,
        memo: &mut HashMap<Belief, Vec<f64>, BuildKeyHasher>,
    ) -> Result<Vec<f64>> {
        crate::budget::tick()?;
        if self.certain(belief) {
            return Ok(Vec::new());
        }
        if depth >= DEPTH_LIMIT {
            return Ok(vec![1.0]);
        }
        // The policy is a function of the state (the ranking is invariant
        // under relabelling, up to its canonical tie order), so the memo is
        // keyed by the state itself, not its least relabelling.
        let key: Belief = belief.into();
        if let Some(v) = memo.get(&key) {
            return Ok(v.clone());
        }
        let cards = self.choice(belief, objective);
        let answers = self.answers(belief, cards);
        let mut out = vec![1.0];
        let denominator = answers.denominator as f64;
        for (_, weight, child) in answers.outcomes {
            let p = weight as f64 / denominator;
            let child = self.normalise(child)?;
            let after = self.uncertain_after(&child, objective, depth + 1, memo)?;
            if out.len() < after.len() + 1 {
                out.resize(after.len() + 1, 0.0);
            }
            for (k, u) in after.iter().enumerate() {
                out[k + 1] += p * u;
            }
        }
        memo.insert(key, out.clone());
        Ok(out)
    }

    /// Every suggestion scored from `belief` as the engine scores it.
    pub(crate) fn scored(&self, belief: &[u64]) -> (Vec<u128>, Vec<Scored>) {
        let triples = self.triples();
        let mut base = vec![0u128; triples];
        for &e in belief {
            base[usize::from(self.deals[(e >> 47) as usize].envelope)] +=
                u128::from(e & (WEIGHT_LIMIT - 1));
        }
        let now = Now::new(&self.rules, &base);
        let scored = self
            .suggestions
            .iter()
            .map(|&cards| {
                let answers = self.answers(belief, cards);
                let outcomes = answers
                    .outcomes
                    .iter()
                    .map(|(response, weight, child)| {
                        let mut envelope = vec![0u128; triples];
                        for &e in child {
                            envelope[usize::from(self.deals[(e >> 47) as usize].envelope)] +=
                                u128::from(e & (WEIGHT_LIMIT - 1));
                        }
                        Outcome {
                            response: *response,
                            weight: u128::from(*weight),
                            envelope,
                        }
                    })
                    .collect();
                Scored::new(&now, cards, outcomes, u128::from(answers.denominator))
            })
            .collect();
        (base, scored)
    }

    /// The suggestion the ranking by `objective` puts first.
    fn choice(&self, belief: &[u64], objective: Objective) -> [Card; 3] {
        let (_, mut scored) = self.scored(belief);
        order(&mut scored, objective);
        scored[0].cards
    }

    fn triples(&self) -> usize {
        let deck = self.rules.deck();
        Category::ALL
            .iter()
            .map(|&c| deck.category_size(c))
            .product()
    }
}
