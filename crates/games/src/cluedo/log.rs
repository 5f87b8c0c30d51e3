//! The game log read by `gametab cluedo --log game.json`: my seat and hand,
//! the suggestions in order (who suggested, the three cards, who showed a
//! card and, if I suggested, which card), failed accusations and any extra
//! facts. Passes are implied by the seat order: every player between the
//! suggester and the one who showed (all other players when nobody showed)
//! said they hold none of the three cards.
//!
//! Example (`scripts/examples/cluedo-game.json` is a complete one):
//!
//! ```json
//! {
//!   "players": 4,
//!   "me": 0,
//!   "names": ["me", "Ann", "Bob", "Cat"],
//!   "hand": ["Miss Scarlett", "Rope", "Kitchen", "Hall", "Study"],
//!   "suggestions": [
//!     {"by": 1, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 3},
//!     {"by": 0, "cards": ["Mrs White", "Spanner", "Library"], "shown_by": 2, "card": "Spanner"},
//!     {"by": 2, "cards": ["Professor Plum", "Candlestick", "Ballroom"], "shown_by": null}
//!   ],
//!   "accusations": [{"by": 3, "cards": ["Colonel Mustard", "Revolver", "Study"]}],
//!   "facts": [{"kind": "holds", "player": 1, "card": "Lead Piping"}]
//! }
//! ```
//!
//! A log that breaks the rules is refused with a [`LogError`] naming the
//! entry ([`LogEvent`], e.g. `suggestions[3]`) and what is wrong with it:
//! a suggestion or accusation that is not exactly one suspect, one weapon
//! and one room, a card listed twice, a `names` list that is not one name
//! per seat, a seat that is not at the table. Reading such a log anyway
//! (a set of cards instead of the list) would silently answer another
//! question, so nothing is repaired.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Category, Deck, Rules, Seat};
use super::facts::{Fact, Knowledge, Observer};
use crate::error::{Error, Result};

/// A whole game log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLog {
    /// Number of players, 3 to 6.
    pub players: usize,
    /// My seat (0 is dealt first and the turn order follows the seats).
    pub me: u8,
    /// Optional display names, one per seat.
    #[serde(default)]
    pub names: Vec<String>,
    /// My cards.
    pub hand: Vec<String>,
    /// Every suggestion, in order.
    #[serde(default)]
    pub suggestions: Vec<LoggedSuggestion>,
    /// Failed accusations.
    #[serde(default)]
    pub accusations: Vec<LoggedAccusation>,
    /// Facts learned some other way.
    #[serde(default)]
    pub facts: Vec<LoggedFact>,
}

/// One suggestion and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedSuggestion {
    /// The suggester's seat.
    pub by: u8,
    /// The suspect, weapon and room named (any order).
    pub cards: Vec<String>,
    /// Who showed a card (`null` if nobody could).
    pub shown_by: Option<u8>,
    /// The card shown, when I made the suggestion (or I showed it).
    #[serde(default)]
    pub card: Option<String>,
}

/// A failed accusation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedAccusation {
    /// The accuser.
    pub by: u8,
    /// The accused suspect, weapon and room.
    pub cards: Vec<String>,
}

/// An extra fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LoggedFact {
    /// The player holds the card.
    Holds {
        /// Seat.
        player: u8,
        /// Card name.
        card: String,
    },
    /// The player holds none of the cards.
    HoldsNone {
        /// Seat.
        player: u8,
        /// Card names.
        cards: Vec<String>,
    },
    /// The player holds at least one of the cards.
    HoldsAtLeastOne {
        /// Seat.
        player: u8,
        /// Card names.
        cards: Vec<String>,
    },
}

impl GameLog {
    /// Parse a log from JSON text.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (what: crate::Argument::GameLog) with the JSON error and its
    /// position.
    pub fn from_json(text: &str) -> Result<GameLog> {
        serde_json::from_str(text).map_err(|e| Error::OutOfRange {
            what: crate::Argument::GameLog,
            detail: e.to_string(),
        })
    }

    /// The display name of `seat`.
    pub fn name(&self, seat: Seat) -> String {
        self.names
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| format!("player {}", seat.0))
    }

    /// The knowledge the log gives me, every entry checked against the
    /// rules.
    ///
    /// # Errors
    /// A [`LogError`] naming the first entry refused: a number of players
    /// outside 3..=6, `me` or another seat not at the table, a `names` list
    /// that is neither empty nor one name per seat, an unknown card, a card
    /// listed twice, a hand of the wrong size, a suggestion or accusation
    /// that is not one card per category, a shown card I could not have
    /// seen, or a suggester showing to themselves.
    pub fn knowledge(&self) -> std::result::Result<Knowledge, LogError> {
        let at = |event: LogEvent| move |error: Error| LogError { event, error };
        let rules = Rules::standard(self.players).map_err(at(LogEvent::Players))?;
        if !self.names.is_empty() && self.names.len() != self.players {
            return Err(LogError {
                event: LogEvent::Names,
                error: Error::OutOfRange {
                    what: crate::Argument::Names,
                    detail: format!(
                        "{} names for {} players: give one name per seat, or none",
                        self.names.len(),
                        self.players
                    ),
                },
            });
        }
        let deck = *rules.deck();
        let me = Seat(self.me);
        check_seat(&rules, me, crate::Argument::Me).map_err(at(LogEvent::Me))?;
        let hand = card_list(&deck, &self.hand).map_err(at(LogEvent::Hand))?;
        let mut knowledge = Knowledge::new(
            rules,
            Observer::Player {
                seat: me,
                hand: CardSet::of(&hand),
            },
        )
        .map_err(at(LogEvent::Hand))?;
        for (n, suggestion) in self.suggestions.iter().enumerate() {
            let event = LogEvent::Suggestion(n);
            let named =
                triple(&deck, &suggestion.cards, crate::Argument::Suggestion).map_err(at(event))?;
            for fact in suggestion.facts(&rules, me, named).map_err(at(event))? {
                knowledge.add(fact).map_err(at(event))?;
            }
        }
        for (n, accusation) in self.accusations.iter().enumerate() {
            let event = LogEvent::Accusation(n);
            check_seat(&rules, Seat(accusation.by), crate::Argument::Accuser).map_err(at(event))?;
            let cards =
                triple(&deck, &accusation.cards, crate::Argument::Accusation).map_err(at(event))?;
            knowledge
                .add(Fact::FailedAccusation { cards })
                .map_err(at(event))?;
        }
        for (n, fact) in self.facts.iter().enumerate() {
            let event = LogEvent::Fact(n);
            let set = |names: &[String]| card_list(&deck, names).map(|c| CardSet::of(&c));
            let fact = match fact {
                LoggedFact::Holds { player, card } => {
                    deck.parse_card(card).map(|card| Fact::Holds {
                        player: Seat(*player),
                        card,
                    })
                }
                LoggedFact::HoldsNone { player, cards } => {
                    set(cards).map(|cards| Fact::HoldsNone {
                        player: Seat(*player),
                        cards,
                    })
                }
                LoggedFact::HoldsAtLeastOne { player, cards } => {
                    set(cards).map(|cards| Fact::HoldsAtLeastOne {
                        player: Seat(*player),
                        cards,
                    })
                }
            };
            knowledge.add(fact.map_err(at(event))?).map_err(at(event))?;
        }
        Ok(knowledge)
    }
}

/// The entry of a game log an error is about: a top-level field or one
/// element of the `suggestions`, `accusations` or `facts` arrays (0-based,
/// as in the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogEvent {
    /// The `players` field.
    Players,
    /// The `me` field.
    Me,
    /// The `names` list.
    Names,
    /// The `hand` list.
    Hand,
    /// `suggestions[i]`.
    Suggestion(usize),
    /// `accusations[i]`.
    Accusation(usize),
    /// `facts[i]`.
    Fact(usize),
}

impl LogEvent {
    /// The JSON path of the entry: `players`, `me`, `names`, `hand`,
    /// `suggestions[3]`, `accusations[0]`, `facts[1]`.
    pub fn path(self) -> String {
        match self {
            LogEvent::Players => "players".into(),
            LogEvent::Me => "me".into(),
            LogEvent::Names => "names".into(),
            LogEvent::Hand => "hand".into(),
            LogEvent::Suggestion(i) => format!("suggestions[{i}]"),
            LogEvent::Accusation(i) => format!("accusations[{i}]"),
            LogEvent::Fact(i) => format!("facts[{i}]"),
        }
    }

    /// The index within its array, for the array entries.
    pub fn index(self) -> Option<usize> {
        match self {
            LogEvent::Suggestion(i) | LogEvent::Accusation(i) | LogEvent::Fact(i) => Some(i),
            _ => None,
        }
    }
}

impl fmt::Display for LogEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path())
    }
}

/// A game log refused: the entry ([`LogEvent`]) and the engine's error
/// about it. A server answers it as a 422 whose parameter is
/// [`LogEvent::path`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{event}: {error}")]
pub struct LogError {
    /// The entry refused.
    pub event: LogEvent,
    /// What is wrong with it.
    pub error: Error,
}

impl From<LogError> for Error {
    /// The same kind of error, its detail prefixed with the entry's path.
    fn from(e: LogError) -> Error {
        match e.error {
            Error::OutOfRange { what, detail } => Error::OutOfRange {
                what,
                detail: format!("{}: {detail}", e.event),
            },
            Error::Inconsistent(detail) => Error::Inconsistent(format!("{}: {detail}", e.event)),
            // A budget's stop is no entry's fault; an error that already
            // names its event (the Werewolf engines') keeps it.
            kept @ (Error::Budget(_) | Error::AtEvent { .. }) => kept,
        }
    }
}

fn check_seat(rules: &Rules, seat: Seat, what: crate::Argument) -> Result<()> {
    if rules.has_seat(seat) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what,
            detail: format!(
                "seat {}; seats are 0 to {} with {} players",
                seat.0,
                rules.players() - 1,
                rules.players()
            ),
        })
    }
}

/// The cards called `names`, each listed once.
fn card_list(deck: &Deck, names: &[String]) -> Result<Vec<Card>> {
    let mut cards: Vec<Card> = Vec::with_capacity(names.len());
    for name in names {
        let card = deck.parse_card(name)?;
        if cards.contains(&card) {
            return Err(Error::OutOfRange {
                what: crate::Argument::CardList,
                detail: format!("{} is listed twice", deck.card_name(card)),
            });
        }
        cards.push(card);
    }
    Ok(cards)
}

/// The cards of a suggestion or an accusation: exactly one suspect, one
/// weapon and one room.
fn triple(deck: &Deck, names: &[String], what: crate::Argument) -> Result<CardSet> {
    let cards = CardSet::of(&card_list(deck, names)?);
    let per_category = Category::ALL.map(|c| cards.and(deck.category_cards(c)).len());
    if per_category == [1, 1, 1] {
        return Ok(cards);
    }
    let [suspects, weapons, rooms] = per_category;
    Err(Error::OutOfRange {
        what,
        detail: format!(
            "{} is {} cards ({suspects} suspects, {weapons} weapons, {rooms} rooms), not one \
             suspect, one weapon and one room",
            deck.describe(cards),
            cards.len()
        ),
    })
}

impl LoggedSuggestion {
    /// The facts this suggestion gives me.
    fn facts(&self, rules: &Rules, me: Seat, named: CardSet) -> Result<Vec<Fact>> {
        let bad = |detail: String| Error::OutOfRange {
            what: crate::Argument::Suggestion,
            detail,
        };
        let by = Seat(self.by);
        if !rules.has_seat(by) || self.shown_by.is_some_and(|s| !rules.has_seat(Seat(s))) {
            return Err(bad(format!(
                "a seat is not at the table (seats are 0 to {})",
                rules.players() - 1
            )));
        }
        if self.shown_by == Some(self.by) {
            return Err(bad(
                "the suggester cannot answer their own suggestion".into()
            ));
        }
        let card = self
            .card
            .as_deref()
            .map(|c| rules.deck().parse_card(c))
            .transpose()?;
        let mut facts = Vec::new();
        let players = rules.players();
        for step in 1..players {
            let responder = Seat(((by.index() + step) % players) as u8);
            if Some(responder.0) == self.shown_by {
                facts.extend(self.answer(me, by, responder, named, card).map_err(bad)?);
                return Ok(facts);
            }
            facts.push(Fact::HoldsNone {
                player: responder,
                cards: named,
            });
        }
        if card.is_some() {
            return Err(bad("a card is given but nobody showed one".into()));
        }
        Ok(facts)
    }

    /// The fact from the player who showed a card.
    fn answer(
        &self,
        me: Seat,
        by: Seat,
        responder: Seat,
        named: CardSet,
        card: Option<Card>,
    ) -> std::result::Result<Option<Fact>, String> {
        if by == me {
            let card = card.ok_or("I suggested, so the shown card must be given")?;
            return Ok(Some(Fact::ShowedMe {
                player: responder,
                card,
                suggestion: named,
            }));
        }
        if card.is_some_and(|c| !named.contains(c)) {
            return Err("the shown card is not one of the three named".into());
        }
        if responder == me {
            // What I showed tells me nothing new; my hand is checked by the
            // engine against the passes.
            return Ok(Some(Fact::HoldsAtLeastOne {
                player: me,
                cards: card.map_or(named, |c| CardSet::EMPTY.with(c)),
            }));
        }
        if card.is_some() {
            return Err("I could not see a card shown to someone else".into());
        }
        Ok(Some(Fact::HoldsAtLeastOne {
            player: responder,
            cards: named,
        }))
    }
}
