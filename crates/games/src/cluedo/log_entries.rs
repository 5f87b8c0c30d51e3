//! The entries of a Cluedo game log ([`super::log`]): a suggestion and its
//! answer ([`LoggedSuggestion`], with the facts it gives the viewer), a
//! failed accusation, an extra fact, and the card names they are written
//! with, checked against the deck.

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Category, Deck, Rules, Seat};
use super::facts::Fact;
use crate::error::{Error, Result};

/// One suggestion and its answer. Its seats are the written numbers in a
/// [`RawLog`](super::log::RawLog), 0-based indices in a
/// [`GameLog`](super::log::GameLog).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedSuggestion {
    /// The suggester.
    pub by: u8,
    /// The suspect, weapon and room named (any order).
    pub cards: Vec<String>,
    /// Who showed a card (`null` if nobody could).
    pub shown_by: Option<u8>,
    /// The card shown, when the viewer made the suggestion (or showed it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

/// A failed accusation. Its seat is as in [`LoggedSuggestion`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedAccusation {
    /// The accuser.
    pub by: u8,
    /// The accused suspect, weapon and room.
    pub cards: Vec<String>,
}

/// An extra fact. Its seat is as in [`LoggedSuggestion`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LoggedFact {
    /// The player holds the card.
    Holds {
        /// The player.
        player: u8,
        /// Card name.
        card: String,
    },
    /// The player holds none of the cards.
    HoldsNone {
        /// The player.
        player: u8,
        /// Card names.
        cards: Vec<String>,
    },
    /// The player holds at least one of the cards.
    HoldsAtLeastOne {
        /// The player.
        player: u8,
        /// Card names.
        cards: Vec<String>,
    },
}

impl LoggedFact {
    /// The player the fact is about.
    pub fn player(&self) -> u8 {
        match self {
            LoggedFact::Holds { player, .. }
            | LoggedFact::HoldsNone { player, .. }
            | LoggedFact::HoldsAtLeastOne { player, .. } => *player,
        }
    }

    /// The same fact, its player renumbered by `f`.
    pub(super) fn renumbered(self, f: impl Fn(u8) -> u8) -> LoggedFact {
        match self {
            LoggedFact::Holds { player, card } => LoggedFact::Holds {
                player: f(player),
                card,
            },
            LoggedFact::HoldsNone { player, cards } => LoggedFact::HoldsNone {
                player: f(player),
                cards,
            },
            LoggedFact::HoldsAtLeastOne { player, cards } => LoggedFact::HoldsAtLeastOne {
                player: f(player),
                cards,
            },
        }
    }
}

/// The cards called `names`, each listed once.
pub(super) fn card_list(deck: &Deck, names: &[String]) -> Result<Vec<Card>> {
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
pub(super) fn triple(deck: &Deck, names: &[String], what: crate::Argument) -> Result<CardSet> {
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
    pub(super) fn facts(&self, rules: &Rules, me: Seat, named: CardSet) -> Result<Vec<Fact>> {
        let bad = |detail: String| Error::OutOfRange {
            what: crate::Argument::Suggestion,
            detail,
        };
        // The seats are checked by the caller, in the log's numbering.
        let by = Seat(self.by);
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
