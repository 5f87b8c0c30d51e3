//! The deck, the seats and the deal shape of Cluedo: cards grouped into the
//! three categories (suspects, weapons, rooms), card sets as bitsets, the
//! round-robin hand sizes, and the card names of the standard deck.
//!
//! The engine works on any deck of at most [`MAX_CARDS`] cards with at least
//! one card per category, so that brute-force tests can run on reduced decks;
//! the real game is [`Rules::standard`] (6 + 6 + 9 cards, 3 to 6 players).

use std::fmt;

use crate::error::{Error, Result};

/// Most cards a deck may have (card sets are 32-bit masks; the standard deck
/// has 21).
pub const MAX_CARDS: usize = 24;
/// Most players at the table.
pub const MAX_PLAYERS: usize = 6;

/// One of the three kinds of card; the envelope holds exactly one of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Who did it.
    Suspect,
    /// With what.
    Weapon,
    /// Where.
    Room,
}

impl Category {
    /// The three categories in deck order.
    pub const ALL: [Category; 3] = [Category::Suspect, Category::Weapon, Category::Room];

    /// Position in [`Category::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Category::Suspect => 0,
            Category::Weapon => 1,
            Category::Room => 2,
        }
    }

    /// Lowercase name, as used in game logs.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Suspect => "suspect",
            Category::Weapon => "weapon",
            Category::Room => "room",
        }
    }
}

/// A card, numbered in deck order: the suspects first, then the weapons,
/// then the rooms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

impl Card {
    /// The index of the card in deck order.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A seat at the table, 0-based in turn order (seat 0 is dealt first). It
/// is shown as the player's number, from 1 (`Seat(0)` is `player 1`), as
/// logs and every output number players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", u16::from(self.0) + 1)
    }
}

/// A set of cards, as a bitmask over deck order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CardSet(pub u32);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set of the given cards.
    pub fn of(cards: &[Card]) -> CardSet {
        CardSet(cards.iter().fold(0, |mask, c| mask | 1 << c.0))
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 == 1
    }

    /// The set with `card` added.
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// Number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Cards in both sets.
    pub const fn and(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in either set.
    pub const fn or(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards of `self` not in `other`.
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The cards in deck order.
    pub fn cards(self) -> impl Iterator<Item = Card> {
        (0..32u8).filter(move |i| self.0 >> i & 1 == 1).map(Card)
    }
}

/// How many cards of each category a deck has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deck {
    sizes: [u8; 3],
}

impl Deck {
    /// The standard deck: 6 suspects, 6 weapons, 9 rooms.
    pub const STANDARD: Deck = Deck { sizes: [6, 6, 9] };

    /// A deck with the given numbers of suspects, weapons and rooms.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a category is empty or the deck has more
    /// than [`MAX_CARDS`] cards.
    pub fn new(suspects: u8, weapons: u8, rooms: u8) -> Result<Deck> {
        let sizes = [suspects, weapons, rooms];
        let total: usize = sizes.iter().map(|&s| s as usize).sum();
        if sizes.contains(&0) || total > MAX_CARDS {
            return Err(Error::OutOfRange {
                what: crate::Argument::Deck,
                detail: format!(
                    "{suspects} suspects, {weapons} weapons, {rooms} rooms: every category \
                     needs a card and the deck at most {MAX_CARDS} cards"
                ),
            });
        }
        Ok(Deck { sizes })
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.sizes.iter().map(|&s| s as usize).sum()
    }

    /// Whether the deck has no cards (never true for a constructed deck).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of cards of `category`.
    pub fn category_size(&self, category: Category) -> usize {
        self.sizes[category.index()] as usize
    }

    /// The first card of `category` in deck order.
    fn category_start(&self, category: Category) -> usize {
        self.sizes[..category.index()]
            .iter()
            .map(|&s| s as usize)
            .sum()
    }

    /// The cards of `category`.
    pub fn category_cards(&self, category: Category) -> CardSet {
        let start = self.category_start(category);
        let size = self.category_size(category);
        CardSet(((1u32 << size) - 1) << start)
    }

    /// Every card of the deck.
    pub fn all_cards(&self) -> CardSet {
        CardSet((1u32 << self.len()) - 1)
    }

    /// The category of `card`.
    pub fn category(&self, card: Card) -> Category {
        let mut start = 0;
        for category in Category::ALL {
            start += self.category_size(category);
            if card.index() < start {
                return category;
            }
        }
        Category::Room
    }

    /// Whether `card` belongs to this deck.
    pub fn contains(&self, card: Card) -> bool {
        card.index() < self.len()
    }

    /// The name of `card`: the standard names for the standard deck, else
    /// the category letter and the 1-based number in the category (`S1`,
    /// `W2`, `R3`).
    pub fn card_name(&self, card: Card) -> String {
        if *self == Deck::STANDARD && card.index() < STANDARD_NAMES.len() {
            return STANDARD_NAMES[card.index()].to_string();
        }
        let category = self.category(card);
        let letter = ["S", "W", "R"][category.index()];
        format!(
            "{letter}{}",
            card.index() - self.category_start(category) + 1
        )
    }

    /// The card called `name`: a standard name (case, spaces and punctuation
    /// ignored; common North-American names accepted) or the generic
    /// `S1`/`W2`/`R3` form.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the unknown card.
    pub fn parse_card(&self, name: &str) -> Result<Card> {
        let wanted = normalise(name);
        let generic = (0..self.len() as u8).map(Card).find(|&c| {
            let category = self.category(c);
            let letter = ["s", "w", "r"][category.index()];
            wanted == format!("{letter}{}", c.index() - self.category_start(category) + 1)
        });
        if let Some(card) = generic {
            return Ok(card);
        }
        if *self == Deck::STANDARD {
            let standard = STANDARD_NAMES.iter().position(|n| normalise(n) == wanted);
            let alias = ALIASES
                .iter()
                .find(|(alias, _)| normalise(alias) == wanted)
                .and_then(|(_, n)| STANDARD_NAMES.iter().position(|s| s == n));
            if let Some(index) = standard.or(alias) {
                return Ok(Card(index as u8));
            }
        }
        let hint = if *self == Deck::STANDARD {
            let names = STANDARD_NAMES
                .iter()
                .chain(ALIASES.iter().map(|(alias, _)| alias));
            crate::suggest::did_you_mean(name, names.copied())
        } else {
            String::new()
        };
        Err(Error::OutOfRange {
            what: crate::Argument::Card,
            detail: format!("no card called {name:?} in this deck{hint}"),
        })
    }

    /// Human-readable list of a set's cards.
    pub fn describe(&self, cards: CardSet) -> String {
        let names: Vec<String> = cards.cards().map(|c| self.card_name(c)).collect();
        format!("{{{}}}", names.join(", "))
    }
}

/// Lowercase, letters and digits only.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Names of the standard deck's 21 cards, in deck order (UK edition).
pub const STANDARD_NAMES: [&str; 21] = [
    "Miss Scarlett",
    "Colonel Mustard",
    "Mrs White",
    "Reverend Green",
    "Mrs Peacock",
    "Professor Plum",
    "Candlestick",
    "Dagger",
    "Lead Piping",
    "Revolver",
    "Rope",
    "Spanner",
    "Kitchen",
    "Ballroom",
    "Conservatory",
    "Dining Room",
    "Billiard Room",
    "Library",
    "Lounge",
    "Hall",
    "Study",
];

/// Other names of the same cards (North-American editions).
const ALIASES: [(&str, &str); 8] = [
    ("Miss Scarlet", "Miss Scarlett"),
    ("Mr Green", "Reverend Green"),
    ("Mister Green", "Reverend Green"),
    ("Knife", "Dagger"),
    ("Lead Pipe", "Lead Piping"),
    ("Wrench", "Spanner"),
    ("Pistol", "Revolver"),
    ("Billiards Room", "Billiard Room"),
];

/// The deck and the number of players: everything that fixes the shape of
/// a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    deck: Deck,
    players: u8,
}

impl Rules {
    /// The real game: the standard deck and 3 to 6 players.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a number of players outside 3..=6.
    pub fn standard(players: usize) -> Result<Rules> {
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Players,
                detail: format!("{players} players; Cluedo is played by 3 to 6"),
            });
        }
        Rules::new(Deck::STANDARD, players)
    }

    /// Any deck with 2 to 6 players (reduced decks are for tests and
    /// teaching).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for fewer than 2 or more than 6 players.
    pub fn new(deck: Deck, players: usize) -> Result<Rules> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(Error::OutOfRange {
                what: crate::Argument::Players,
                detail: format!("{players} players; between 2 and {MAX_PLAYERS} are supported"),
            });
        }
        Ok(Rules {
            deck,
            players: players as u8,
        })
    }

    /// The deck.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The seats in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
    }

    /// Whether `seat` is at this table.
    pub fn has_seat(&self, seat: Seat) -> bool {
        seat.index() < self.players()
    }

    /// Hand size of `seat`: the cards outside the envelope are dealt round
    /// robin from seat 0, so the first `(cards - 3) % players` seats get one
    /// card more (N = 4: 5, 5, 4, 4).
    pub fn hand_size(&self, seat: Seat) -> usize {
        let dealt = self.deck.len() - 3;
        dealt / self.players() + usize::from(seat.index() < dealt % self.players())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_sizes_follow_the_round_robin_deal() {
        let sizes = |n| {
            let rules = Rules::standard(n).unwrap();
            rules
                .seats()
                .map(|s| rules.hand_size(s))
                .collect::<Vec<_>>()
        };
        assert_eq!(sizes(3), [6, 6, 6]);
        assert_eq!(sizes(4), [5, 5, 4, 4]);
        assert_eq!(sizes(5), [4, 4, 4, 3, 3]);
        assert_eq!(sizes(6), [3; 6]);
        assert!(Rules::standard(2).is_err());
        assert!(Rules::standard(7).is_err());
    }

    #[test]
    fn names_round_trip_and_categories_are_ranges() {
        let deck = Deck::STANDARD;
        for i in 0..21u8 {
            let card = Card(i);
            assert_eq!(deck.parse_card(&deck.card_name(card)).unwrap(), card);
        }
        assert_eq!(
            deck.parse_card("knife").unwrap(),
            deck.parse_card("Dagger").unwrap()
        );
        assert_eq!(deck.parse_card("dining-room").unwrap(), Card(15));
        assert_eq!(deck.category(Card(5)), Category::Suspect);
        assert_eq!(deck.category(Card(6)), Category::Weapon);
        assert_eq!(deck.category(Card(12)), Category::Room);
        assert_eq!(deck.category_cards(Category::Room).len(), 9);
        assert!(deck.parse_card("Billiards").is_err());
        let small = Deck::new(2, 2, 3).unwrap();
        assert_eq!(small.card_name(Card(4)), "R1");
        assert_eq!(small.parse_card("w2").unwrap(), Card(3));
    }
}
