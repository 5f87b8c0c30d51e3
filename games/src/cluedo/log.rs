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

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Rules, Seat};
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
    /// [`Error::OutOfRange`] (what: "game log") with the JSON error and its
    /// position.
    pub fn from_json(text: &str) -> Result<GameLog> {
        serde_json::from_str(text).map_err(|e| Error::OutOfRange {
            what: "game log",
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

    /// The knowledge the log gives me.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for unknown cards or seats, a suggestion that is
    /// not one card per category, a shown card I could not have seen, or a
    /// suggester showing to themselves.
    pub fn knowledge(&self) -> Result<Knowledge> {
        let rules = Rules::standard(self.players)?;
        let deck = *rules.deck();
        let cards = |names: &[String]| -> Result<CardSet> {
            names
                .iter()
                .map(|n| deck.parse_card(n))
                .try_fold(CardSet::EMPTY, |set, c| Ok(set.with(c?)))
        };
        let me = Seat(self.me);
        let hand = cards(&self.hand)?;
        let mut knowledge = Knowledge::new(rules, Observer::Player { seat: me, hand })?;
        for (n, suggestion) in self.suggestions.iter().enumerate() {
            for fact in suggestion.facts(&rules, me, cards(&suggestion.cards)?, n)? {
                knowledge.add(fact)?;
            }
        }
        for accusation in &self.accusations {
            knowledge.add(Fact::FailedAccusation {
                cards: cards(&accusation.cards)?,
            })?;
        }
        for fact in &self.facts {
            knowledge.add(match fact {
                LoggedFact::Holds { player, card } => Fact::Holds {
                    player: Seat(*player),
                    card: deck.parse_card(card)?,
                },
                LoggedFact::HoldsNone { player, cards: c } => Fact::HoldsNone {
                    player: Seat(*player),
                    cards: cards(c)?,
                },
                LoggedFact::HoldsAtLeastOne { player, cards: c } => Fact::HoldsAtLeastOne {
                    player: Seat(*player),
                    cards: cards(c)?,
                },
            })?;
        }
        Ok(knowledge)
    }
}

impl LoggedSuggestion {
    /// The facts this suggestion gives me (suggestion number `n`, 0-based,
    /// for error messages).
    fn facts(&self, rules: &Rules, me: Seat, named: CardSet, n: usize) -> Result<Vec<Fact>> {
        let bad = |detail: String| Error::OutOfRange {
            what: "suggestion",
            detail: format!("suggestion {}: {detail}", n + 1),
        };
        let by = Seat(self.by);
        if !rules.has_seat(by) || self.shown_by.is_some_and(|s| !rules.has_seat(Seat(s))) {
            return Err(bad("a seat is not at the table".into()));
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
