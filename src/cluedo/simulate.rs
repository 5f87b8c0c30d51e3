//! Simulated Cluedo games for benchmarks and tests: a seeded random deal and
//! a run of suggestions answered by the rules (the first player holding a
//! named card shows one at random), written down as the game log of one
//! seat. The logs are consistent by construction.

use gametab_games::cluedo::{Card, CardSet, Category, GameLog, LoggedSuggestion, Rules, Seat};

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

/// The log, as seen by seat `me`, of a random `players`-player game after
/// `suggestions` suggestions (players take turns from seat 0).
///
/// # Panics
/// Never for `players` in 3..=6 and `me < players`; other values panic
/// (this is a test and benchmark helper).
pub fn simulated_log(players: usize, me: u8, suggestions: usize, seed: u64) -> GameLog {
    let rules = Rules::standard(players).expect("3 to 6 players");
    let deck = *rules.deck();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let pick = |rng: &mut Rng, set: CardSet| {
        let cards: Vec<Card> = set.cards().collect();
        cards[rng.below(cards.len())]
    };
    let envelope = Category::ALL.iter().fold(CardSet::EMPTY, |set, &c| {
        set.with(pick(&mut rng, deck.category_cards(c)))
    });
    let mut rest: Vec<Card> = deck.all_cards().minus(envelope).cards().collect();
    for i in (1..rest.len()).rev() {
        rest.swap(i, rng.below(i + 1));
    }
    let mut hands = vec![CardSet::EMPTY; players];
    for (i, card) in rest.into_iter().enumerate() {
        hands[i % players] = hands[i % players].with(card);
    }
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
            set.with(pick(&mut rng, deck.category_cards(c)))
        });
        let mut shown_by = None;
        let mut card = None;
        for step in 1..players {
            let responder = (by.index() + step) % players;
            let held = hands[responder].and(named);
            if !held.is_empty() {
                shown_by = Some(responder as u8);
                let shown = pick(&mut rng, held);
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
