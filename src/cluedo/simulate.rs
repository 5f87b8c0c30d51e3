//! Simulated Cluedo games for benchmarks and tests: a seeded random deal and
//! a run of suggestions answered by the rules (the first player holding a
//! named card shows one at random), written down as the game log of one
//! seat. The logs are consistent by construction. [`suggestions_to_solve`]
//! plays a game to the end under a suggestion [`Policy`], to compare the
//! exact advice with the most-likely-triple rule.

use gametab_games::cluedo::{
    Card, CardSet, Category, Deck, GameLog, LoggedSuggestion, Rules, Seat,
};

/// A small deterministic generator (xorshift64*), so that runs repeat.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

impl Rng {
    fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A card of `set`, uniformly.
    fn pick(&mut self, set: CardSet) -> Card {
        let cards: Vec<Card> = set.cards().collect();
        cards[self.below(cards.len())]
    }
}

/// A random standard deal for `players` (3..=6): the deck and every seat's
/// hand (the envelope holds the rest).
fn deal(players: usize, rng: &mut Rng) -> (Deck, Vec<CardSet>) {
    let rules = Rules::standard(players).expect("3 to 6 players");
    let deck = *rules.deck();
    let envelope = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
        set.with(rng.pick(deck.category_cards(c)))
    });
    let mut rest: Vec<Card> = deck.all_cards().minus(envelope).cards().collect();
    for i in (1..rest.len()).rev() {
        rest.swap(i, rng.below(i + 1));
    }
    let mut hands = vec![CardSet::EMPTY; players];
    for (i, card) in rest.into_iter().enumerate() {
        hands[i % players] = hands[i % players].with(card);
    }
    (deck, hands)
}

/// The log, as seen by seat `me`, of a random `players`-player game after
/// `suggestions` suggestions (players take turns from seat 0).
///
/// # Panics
/// Never for `players` in 3..=6 and `me < players`; other values panic
/// (this is a test and benchmark helper).
pub fn simulated_log(players: usize, me: u8, suggestions: usize, seed: u64) -> GameLog {
    let mut rng = Rng::seeded(seed);
    let (deck, hands) = deal(players, &mut rng);
    let name = |c: Card| deck.card_name(c);
    let mut log = GameLog {
        players,
        me,
        names: Vec::new(),
        hand: hands[usize::from(me)].cards().map(name).collect(),
        suggestions: Vec::new(),
        accusations: Vec::new(),
        facts: Vec::new(),
    };
    for turn in 0..suggestions {
        let by = Seat((turn % players) as u8);
        let named = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
            set.with(rng.pick(deck.category_cards(c)))
        });
        let mut shown_by = None;
        let mut card = None;
        for step in 1..players {
            let responder = (by.index() + step) % players;
            let held = hands[responder].and(named);
            if !held.is_empty() {
                shown_by = Some(responder as u8);
                let shown = rng.pick(held);
                if by.0 == me || responder == usize::from(me) {
                    card = Some(name(shown));
                }
                break;
            }
        }
        log.suggestions.push(LoggedSuggestion {
            by: by.0,
            cards: named.cards().map(name).collect(),
            shown_by,
            card,
        });
    }
    log
}

/// How [`suggestions_to_solve`] picks my next suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The suggestion of highest exact expected information gain
    /// (`gametab_games::cluedo::advise`).
    InformationGain,
    /// The single most likely envelope triple (ties: first in deck order).
    MostLikelyTriple,
}

/// Play a seeded game in which only I (seat 0) suggest, answered by the
/// rules (the first opponent from my left holding a named card shows me one
/// of them at random), until the envelope is certain. Returns how many
/// suggestions that took, or `None` when `limit` was reached first (the
/// most-likely rule can repeat a suggestion that teaches nothing).
///
/// # Errors
/// Engine errors (none for consistent simulated logs).
///
/// # Panics
/// For `players` outside 3..=6 (a benchmark helper).
pub fn suggestions_to_solve(
    players: usize,
    seed: u64,
    policy: Policy,
    limit: usize,
) -> gametab_games::Result<Option<usize>> {
    use gametab_games::cluedo::{accusation, advise, Model};
    let mut rng = Rng::seeded(seed);
    let (deck, hands) = deal(players, &mut rng);
    let name = |c: Card| deck.card_name(c);
    let mut log = GameLog {
        players,
        me: 0,
        names: Vec::new(),
        hand: hands[0].cards().map(name).collect(),
        suggestions: Vec::new(),
        accusations: Vec::new(),
        facts: Vec::new(),
    };
    for made in 0..=limit {
        let knowledge = log.knowledge()?;
        let (likely, p) = accusation(&knowledge, Model::EqualDeals)?;
        if p >= 1.0 {
            return Ok(Some(made));
        }
        if made == limit {
            break;
        }
        let named = match policy {
            Policy::MostLikelyTriple => likely,
            Policy::InformationGain => advise(&knowledge, Model::EqualDeals, Seat(0), None)?
                .ranking
                .first()
                .map_or(likely, |s| s.cards),
        };
        let named = CardSet::of(&named);
        let mut shown_by = None;
        let mut card = None;
        for (responder, hand) in hands.iter().enumerate().skip(1) {
            let held = hand.and(named);
            if !held.is_empty() {
                shown_by = Some(responder as u8);
                card = Some(name(rng.pick(held)));
                break;
            }
        }
        log.suggestions.push(LoggedSuggestion {
            by: 0,
            cards: named.cards().map(name).collect(),
            shown_by,
            card,
        });
    }
    Ok(None)
}
