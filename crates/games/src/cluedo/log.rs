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

use serde::{Deserialize, Serialize};

use super::cards::{CardSet, Rules, Seat};
use super::facts::{Fact, Knowledge, Observer};
use crate::error::{Error, Result};

use super::log_entries::{card_list, triple};
pub use super::log_entries::{LoggedAccusation, LoggedFact, LoggedSuggestion};
pub use super::log_error::{LogError, LogEvent};

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
