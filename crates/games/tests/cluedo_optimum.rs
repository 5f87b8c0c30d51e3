//! The optimal suggestion policy as a test oracle (issue 27): exact
//! expectimax values checked by hand on tiny decks and against an
//! independent memoised expectimax (no relabelling, no pruning) on small
//! ones; then, on the 3-suspect, 3-weapon, 4-room deck with three players,
//! every hand type: no policy beats the optimum and the shipped ranking
//! reaches it within 0.5%.

use std::collections::HashMap;

use gametab_games::cluedo::{Card, CardSet, Category, Deck, Objective, Rules, Seat, Solitaire};

fn rules(s: u8, w: u8, r: u8, players: usize) -> Rules {
    Rules::new(Deck::new(s, w, r).unwrap(), players).unwrap()
}

fn optimum(rules: Rules, seat: u8, hand: &[u8]) -> f64 {
    let hand = CardSet::of(&hand.iter().map(|&c| Card(c)).collect::<Vec<_>>());
    Solitaire::new(rules, Seat(seat), hand)
        .unwrap()
        .optimum()
        .unwrap()
        .expected
}

#[test]
fn tiny_games_have_the_values_worked_out_by_hand() {
    // One suspect, one weapon, rooms R1..R4 (cards 2..5); two players.
    // Seat 1 holds R1; seat 0 holds two of R2, R3, R4, the third is in the
    // envelope. Naming R2: seat 0 shows it (2/3), leaving two rooms and one
    // more suggestion, or nobody does (1/3) and R2 is the envelope's.
    assert!((optimum(rules(1, 1, 4, 2), 1, &[2]) - 5.0 / 3.0).abs() < 1e-15);
    // Seat 0 holds R1, R2: R3 or R4, one suggestion decides.
    assert_eq!(optimum(rules(1, 1, 4, 2), 0, &[2, 3]), 1.0);
    // Two suspects, two weapons, two rooms (S1 S2 W1 W2 R1 R2 = 0..5);
    // seat 1 holds S1, so S2 is the envelope's; seat 0 holds the weapon and
    // the room that are not. Any suggestion is certain only if nobody
    // answers (1/4); otherwise one category is left, one more suggestion.
    assert!((optimum(rules(2, 2, 2, 2), 1, &[0]) - 1.75).abs() < 1e-15);
    // Certain from the start: nothing to suggest.
    assert_eq!(optimum(rules(2, 1, 2, 2), 0, &[0]), 1.0);
    assert_eq!(optimum(rules(1, 1, 2, 2), 0, &[2]), 0.0);
}

/// A deal: opponents' hands (answering order) and the envelope.
type Deal = (Vec<CardSet>, CardSet);

/// Every deal agreeing with `hand` (independent enumeration).
fn deals(rules: &Rules, me: Seat, hand: CardSet) -> (Vec<Seat>, Vec<Deal>) {
    let deck = rules.deck();
    let n = rules.players();
    let order: Vec<Seat> = (1..n).map(|k| Seat(((me.index() + k) % n) as u8)).collect();
    let mut out = Vec::new();
    let free = |c: Category| {
        deck.category_cards(c)
            .minus(hand)
            .cards()
            .collect::<Vec<_>>()
    };
    for s in free(Category::Suspect) {
        for w in free(Category::Weapon) {
            for r in free(Category::Room) {
                let envelope = CardSet::of(&[s, w, r]);
                let rest: Vec<Card> = deck
                    .all_cards()
                    .minus(hand)
                    .minus(envelope)
                    .cards()
                    .collect();
                // Every assignment of the rest to opponents, by counting in
                // base (opponents), kept when the hand sizes are right.
                let k = order.len();
                for code in 0..k.pow(rest.len() as u32) {
                    let mut hands = vec![CardSet::EMPTY; k];
                    let mut c = code;
                    for &card in &rest {
                        hands[c % k] = hands[c % k].with(card);
                        c /= k;
                    }
                    if hands
                        .iter()
                        .zip(&order)
                        .all(|(h, &p)| h.len() == rules.hand_size(p))
                    {
                        out.push((hands, envelope));
                    }
                }
            }
        }
    }
    (order, out)
}

/// A posterior as exact fractions of deal weights: (deal index, weight)
/// with weights as reduced integer multiples.
type Posterior = Vec<(usize, u64)>;

fn reduce(mut p: Posterior) -> Posterior {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let g = p.iter().fold(0, |g, e| gcd(g, e.1));
    for e in &mut p {
        e.1 /= g;
    }
    p.sort_unstable();
    p
}

/// Memoised expectimax over raw posteriors, every allowed suggestion tried.
struct Naive {
    order: Vec<Seat>,
    deals: Vec<Deal>,
    suggestions: Vec<CardSet>,
    memo: HashMap<Posterior, f64>,
}

impl Naive {
    fn value(&mut self, p: &Posterior) -> f64 {
        let envelopes: Vec<CardSet> = p.iter().map(|e| self.deals[e.0].1).collect();
        if envelopes.iter().all(|&e| e == envelopes[0]) {
            return 0.0;
        }
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let mut best = f64::INFINITY;
        for s in self.suggestions.clone() {
            // Outcome -> posterior after it (weights times 6 / |held|).
            let mut outcomes: HashMap<Option<(usize, Card)>, Posterior> = HashMap::new();
            let mut total = 0u64;
            for &(d, w) in p {
                total += 6 * w;
                let hands = &self.deals[d].0;
                match (0..self.order.len()).find(|&i| !hands[i].and(s).is_empty()) {
                    Some(i) => {
                        let held = hands[i].and(s);
                        for card in held.cards() {
                            outcomes
                                .entry(Some((i, card)))
                                .or_default()
                                .push((d, w * 6 / held.len() as u64));
                        }
                    }
                    None => outcomes.entry(None).or_default().push((d, 6 * w)),
                }
            }
            if outcomes.values().any(|o| o.len() == p.len()) {
                continue;
            }
            let mut q = 1.0;
            for (_, o) in outcomes {
                let weight: u64 = o.iter().map(|e| e.1).sum();
                q += weight as f64 / total as f64 * self.value(&reduce(o));
            }
            best = best.min(q);
        }
        self.memo.insert(p.clone(), best);
        best
    }
}

fn naive_optimum(rules: Rules, me: Seat, hand: CardSet) -> f64 {
    let deck = rules.deck();
    let (order, deals) = deals(&rules, me, hand);
    let cat = |c: Category| deck.category_cards(c).cards().collect::<Vec<_>>();
    let mut suggestions = Vec::new();
    for s in cat(Category::Suspect) {
        for w in cat(Category::Weapon) {
            for r in cat(Category::Room) {
                suggestions.push(CardSet::of(&[s, w, r]));
            }
        }
    }
    let start: Posterior = (0..deals.len()).map(|d| (d, 1)).collect();
    let mut naive = Naive {
        order,
        deals,
        suggestions,
        memo: HashMap::new(),
    };
    naive.value(&start)
}

#[test]
fn the_optimum_equals_an_independent_expectimax_on_small_decks() {
    // Deck 2-2-3 with three players (hands 2, 1, 1) and 2-3-3 with three
    // players (hands 2, 2, 1): every seat, a few hands.
    let cases: [(Rules, u8, &[u8]); 6] = [
        (rules(2, 2, 3, 3), 0, &[0, 4]),
        (rules(2, 2, 3, 3), 1, &[2]),
        (rules(2, 2, 3, 3), 2, &[5]),
        (rules(2, 3, 3, 3), 0, &[2, 3]),
        (rules(2, 3, 3, 3), 1, &[5, 6]),
        (rules(2, 3, 3, 3), 2, &[0]),
    ];
    for (rules, seat, hand) in cases {
        let hand_set = CardSet::of(&hand.iter().map(|&c| Card(c)).collect::<Vec<_>>());
        let fast = optimum(rules, seat, hand);
        let naive = naive_optimum(rules, Seat(seat), hand_set);
        assert!(
            (fast - naive).abs() < 1e-12,
            "seat {seat} hand {hand:?}: {fast} vs {naive}"
        );
        assert!(fast > 1.0);
    }
}

/// Every hand type of the 3-3-4 deck with three players: per seat, the
/// first cards of each category (which ones does not matter by symmetry).
fn hand_types(rules: &Rules) -> Vec<(Seat, CardSet)> {
    let deck = rules.deck();
    let mut out = Vec::new();
    for seat in rules.seats() {
        let size = rules.hand_size(seat);
        for s in 0..=2.min(size) {
            for w in 0..=2.min(size - s) {
                let r = size - s - w;
                if r > 3 {
                    continue;
                }
                let take = |c: Category, k: usize| deck.category_cards(c).cards().take(k);
                let cards: Vec<Card> = take(Category::Suspect, s)
                    .chain(take(Category::Weapon, w))
                    .chain(take(Category::Room, r))
                    .collect();
                out.push((seat, CardSet::of(&cards)));
            }
        }
    }
    out
}

#[test]
fn the_shipped_ranking_reaches_the_optimum_on_every_hand_type() {
    let rules = rules(3, 3, 4, 3);
    let types = hand_types(&rules);
    // Seat 0 holds 3 cards (8 compositions), seats 1 and 2 hold 2 (6 each).
    assert_eq!(types.len(), 20);
    for (seat, hand) in types {
        let game = Solitaire::new(rules, seat, hand).unwrap();
        let optimum = game.optimum().unwrap();
        let shipped = game.evaluate(Objective::DEFAULT).unwrap();
        assert_eq!(shipped.unfinished, 0.0);
        assert!(
            shipped.expected >= optimum.expected - 1e-12,
            "{seat} {hand:?}: a policy beat the optimum"
        );
        assert!(
            shipped.expected <= optimum.expected * 1.005,
            "{seat} {hand:?}: {} vs optimum {}",
            shipped.expected,
            optimum.expected
        );
        // P(certain within k) rises to 1 and its complement sums to the
        // expected count.
        let uncertain: f64 = shipped.certain_within.iter().map(|c| 1.0 - c).sum();
        assert!((uncertain - shipped.expected).abs() < 1e-9);
        assert!((shipped.certain_within.last().unwrap() - 1.0).abs() < 1e-12);
    }
}
