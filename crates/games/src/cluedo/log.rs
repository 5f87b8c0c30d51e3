//! The game log read by `gametab cluedo --log game.json`: whose knowledge
//! it is (`viewer`) and their hand, the suggestions in order (who
//! suggested, the three cards, who showed a card and, if the viewer
//! suggested, which card), failed accusations and any extra facts. Passes
//! are implied by the seat order: every player between the suggester and
//! the one who showed (all other players when nobody showed) said they
//! hold none of the three cards.
//!
//! Players are numbered from 1, in turn order (player 1 is dealt first),
//! as in every game of gametab: `viewer`, `by`, `shown_by` and a fact's
//! `player` are such numbers. Example (`scripts/examples/cluedo-game.json`
//! is a complete one):
//!
//! ```json
//! {
//!   "players": 4,
//!   "viewer": 1,
//!   "names": ["me", "Ann", "Bob", "Cat"],
//!   "hand": ["Miss Scarlett", "Rope", "Kitchen", "Hall", "Study"],
//!   "suggestions": [
//!     {"by": 2, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 4},
//!     {"by": 1, "cards": ["Mrs White", "Spanner", "Library"], "shown_by": 3, "card": "Spanner"},
//!     {"by": 3, "cards": ["Professor Plum", "Candlestick", "Ballroom"], "shown_by": null}
//!   ],
//!   "accusations": [{"by": 4, "cards": ["Colonel Mustard", "Revolver", "Study"]}],
//!   "facts": [{"kind": "holds", "player": 2, "card": "Lead Piping"}]
//! }
//! ```
//!
//! **The old format.** Logs written before players were numbered from 1
//! say `"me"` instead of `"viewer"` and number every seat in them from 0
//! (`"me": 0` is `"viewer": 1`, `"by": 3` is `"by": 4`). Such a log is
//! still read, whole in the old numbering, and converted
//! ([`GameLog::numbering`] is then [`Numbering::FromZero`] and
//! [`GameLog::old_format_warning`] says how to rewrite it); a log with both
//! `me` and `viewer` is refused, since it could be read either way.
//!
//! Read or not, a [`GameLog`] holds seats as 0-based indices (a
//! [`Seat`]'s), converted from the written numbers modulo 256 so that
//! nothing is lost: a `"by": 0` of a new log is held as 255, which is at
//! no table, and refused as player 0 by [`GameLog::knowledge`]. Written
//! out ([`serde::Serialize`]) a log is always in the new format.
//!
//! A log that breaks the rules is refused with a [`LogError`] naming the
//! entry ([`LogEvent`], e.g. `suggestions[3]`) and what is wrong with it:
//! a suggestion or accusation that is not exactly one suspect, one weapon
//! and one room, a card listed twice, a `names` list that is not one name
//! per seat, a player who is not at the table (named in the log's own
//! numbering). Reading such a log anyway (a set of cards instead of the
//! list) would silently answer another question, so nothing is repaired.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet, Category, Deck, Rules, Seat};
use super::facts::{Fact, Knowledge, Observer};
use crate::error::{Error, Result};

/// How the text of a log numbers its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Numbering {
    /// From 1 (the log has `"viewer"`): the format.
    #[default]
    FromOne,
    /// From 0 (the log has `"me"`): the old format, still read.
    FromZero,
}

impl Numbering {
    /// The number of the first player.
    pub const fn first(self) -> u8 {
        match self {
            Numbering::FromOne => 1,
            Numbering::FromZero => 0,
        }
    }

    /// The seat a written number stands for (modulo 256: lossless, see
    /// the module's documentation).
    pub const fn seat(self, written: u8) -> Seat {
        Seat(written.wrapping_sub(self.first()))
    }

    /// The number written for `seat`.
    pub const fn written(self, seat: Seat) -> u8 {
        seat.0.wrapping_add(self.first())
    }

    /// Why `written` is no player of a `players`-player table, in this
    /// numbering.
    fn not_at_table(self, written: u8, players: usize) -> String {
        let first = usize::from(self.first());
        let last = players + first - 1;
        match self {
            Numbering::FromOne => {
                format!("player {written} is not at the table: players are 1 to {last}")
            }
            Numbering::FromZero => format!(
                "player {written} is not at the table: this log has \"me\", the old format, \
                 which numbers players from 0, so they are 0 to {last}"
            ),
        }
    }
}

/// A whole game log, its seats 0-based (see the module's documentation;
/// the JSON is read and written through [`RawLog`]'s numbers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawLog", into = "RawLog")]
pub struct GameLog {
    /// Number of players, 3 to 6.
    pub players: usize,
    /// The seat whose knowledge the log is (0-based: the JSON's `viewer`
    /// minus 1).
    pub viewer: u8,
    /// How the text read numbered the players (the new format when the log
    /// was not read from text).
    pub numbering: Numbering,
    /// Optional display names, one per seat.
    pub names: Vec<String>,
    /// The viewer's cards.
    pub hand: Vec<String>,
    /// Every suggestion, in order.
    pub suggestions: Vec<LoggedSuggestion>,
    /// Failed accusations.
    pub accusations: Vec<LoggedAccusation>,
    /// Facts learned some other way.
    pub facts: Vec<LoggedFact>,
}

/// A game log as written: the players numbered from 1 (`viewer`), or from
/// 0 in an old log (`me`). [`GameLog`] reads and writes its JSON through
/// this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLog {
    /// Number of players, 3 to 6.
    pub players: usize,
    /// The player whose knowledge the log is, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewer: Option<u8>,
    /// The old format: the viewer's seat, from 0 (every seat of the log
    /// is then numbered from 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub me: Option<u8>,
    /// Optional display names, one per seat.
    #[serde(default)]
    pub names: Vec<String>,
    /// The viewer's cards.
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

impl TryFrom<RawLog> for GameLog {
    type Error = String;

    /// Convert the written numbers to seats.
    ///
    /// # Errors
    /// A log with both `viewer` and `me`, or with neither.
    fn try_from(raw: RawLog) -> std::result::Result<GameLog, String> {
        let (numbering, written) = match (raw.viewer, raw.me) {
            (Some(viewer), None) => (Numbering::FromOne, viewer),
            (None, Some(me)) => (Numbering::FromZero, me),
            (Some(_), Some(_)) => {
                return Err(
                    "the log has both \"viewer\" and \"me\": give \"viewer\" only, \
                            the player whose knowledge the log is, numbering every player \
                            from 1 (\"me\" is the old format, which numbered them from 0)"
                        .into(),
                )
            }
            (None, None) => {
                return Err(
                    "missing field `viewer` (the player whose knowledge the log is, \
                            numbered from 1)"
                        .into(),
                )
            }
        };
        let seat = |n: u8| numbering.seat(n).0;
        Ok(GameLog {
            players: raw.players,
            viewer: seat(written),
            numbering,
            names: raw.names,
            hand: raw.hand,
            suggestions: raw
                .suggestions
                .into_iter()
                .map(|s| LoggedSuggestion {
                    by: seat(s.by),
                    shown_by: s.shown_by.map(seat),
                    ..s
                })
                .collect(),
            accusations: raw
                .accusations
                .into_iter()
                .map(|a| LoggedAccusation {
                    by: seat(a.by),
                    ..a
                })
                .collect(),
            facts: raw.facts.into_iter().map(|f| f.renumbered(seat)).collect(),
        })
    }
}

impl From<GameLog> for RawLog {
    /// The log in the new format, its players numbered from 1.
    fn from(log: GameLog) -> RawLog {
        let number = |s: u8| Numbering::FromOne.written(Seat(s));
        RawLog {
            players: log.players,
            viewer: Some(number(log.viewer)),
            me: None,
            names: log.names,
            hand: log.hand,
            suggestions: log
                .suggestions
                .into_iter()
                .map(|s| LoggedSuggestion {
                    by: number(s.by),
                    shown_by: s.shown_by.map(number),
                    ..s
                })
                .collect(),
            accusations: log
                .accusations
                .into_iter()
                .map(|a| LoggedAccusation {
                    by: number(a.by),
                    ..a
                })
                .collect(),
            facts: log
                .facts
                .into_iter()
                .map(|f| f.renumbered(number))
                .collect(),
        }
    }
}

/// One suggestion and its answer. Its seats are the written numbers in a
/// [`RawLog`], 0-based indices in a [`GameLog`].
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
    fn renumbered(self, f: impl Fn(u8) -> u8) -> LoggedFact {
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

    /// The display name of `seat`: its name in `names`, else `player N`,
    /// numbered from 1.
    pub fn name(&self, seat: Seat) -> String {
        self.names
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| seat.to_string())
    }

    /// For a log read in the old format (`me`, players numbered from 0):
    /// what to write instead, for a warning; `None` for a log in the
    /// format.
    pub fn old_format_warning(&self) -> Option<String> {
        (self.numbering == Numbering::FromZero).then(|| {
            format!(
                "\"me\" numbers seats from 0, the old format; write \"viewer\": {} and number \
                 every seat from 1 (docs/cluedo.md)",
                u16::from(self.viewer) + 1
            )
        })
    }

    /// The entry of the viewer's field: `viewer`, or `me` in an old log.
    fn viewer_event(&self) -> LogEvent {
        match self.numbering {
            Numbering::FromOne => LogEvent::Viewer,
            Numbering::FromZero => LogEvent::Me,
        }
    }

    /// The knowledge the log gives me, every entry checked against the
    /// rules.
    ///
    /// # Errors
    /// A [`LogError`] naming the first entry refused: a number of players
    /// outside 3..=6, the viewer or another player not at the table, a `names` list
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
        let me = Seat(self.viewer);
        let what = match self.numbering {
            Numbering::FromOne => crate::Argument::Viewer,
            Numbering::FromZero => crate::Argument::Me,
        };
        self.check_seat(&rules, me, what)
            .map_err(at(self.viewer_event()))?;
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
            for seat in std::iter::once((crate::Argument::By, suggestion.by))
                .chain(suggestion.shown_by.map(|s| (crate::Argument::ShownBy, s)))
            {
                self.check_seat(&rules, Seat(seat.1), seat.0)
                    .map_err(at(event))?;
            }
            for fact in suggestion.facts(&rules, me, named).map_err(at(event))? {
                knowledge.add(fact).map_err(at(event))?;
            }
        }
        for (n, accusation) in self.accusations.iter().enumerate() {
            let event = LogEvent::Accusation(n);
            self.check_seat(&rules, Seat(accusation.by), crate::Argument::By)
                .map_err(at(event))?;
            let cards =
                triple(&deck, &accusation.cards, crate::Argument::Accusation).map_err(at(event))?;
            knowledge
                .add(Fact::FailedAccusation { cards })
                .map_err(at(event))?;
        }
        for (n, fact) in self.facts.iter().enumerate() {
            let event = LogEvent::Fact(n);
            let set = |names: &[String]| card_list(&deck, names).map(|c| CardSet::of(&c));
            self.check_seat(&rules, Seat(fact.player()), crate::Argument::Player)
                .map_err(at(event))?;
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

    /// Refuse a seat not at the table, naming it in the log's numbering.
    fn check_seat(&self, rules: &Rules, seat: Seat, what: crate::Argument) -> Result<()> {
        if rules.has_seat(seat) {
            return Ok(());
        }
        Err(Error::OutOfRange {
            what,
            detail: self
                .numbering
                .not_at_table(self.numbering.written(seat), rules.players()),
        })
    }
}

/// The entry of a game log an error is about: a top-level field or one
/// element of the `suggestions`, `accusations` or `facts` arrays (0-based,
/// as in the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogEvent {
    /// The `players` field.
    Players,
    /// The `viewer` field.
    Viewer,
    /// The `me` field of an old log.
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
    /// The JSON path of the entry: `players`, `viewer`, `me`, `names`, `hand`,
    /// `suggestions[3]`, `accusations[0]`, `facts[1]`.
    pub fn path(self) -> String {
        match self {
            LogEvent::Players => "players".into(),
            LogEvent::Viewer => "viewer".into(),
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
