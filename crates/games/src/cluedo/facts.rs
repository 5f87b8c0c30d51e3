//! What a player knows: the observer (a seated player with a hand, or a
//! spectator), and the facts gathered during play. Adding a fact checks that
//! it names real seats and cards; whether the facts agree with each other is
//! the engine's business ([`super::analyse`]).

use std::fmt;

use super::cards::{Card, CardSet, Category, Rules, Seat};
use crate::error::{Error, Result};

/// One piece of knowledge about the deal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Fact {
    /// `player` holds `card` (known some other way than being shown it).
    Holds {
        /// The holder.
        player: Seat,
        /// The card.
        card: Card,
    },
    /// `player` answered my suggestion `suggestion` by showing me `card`.
    /// Under [`super::Model::EqualDeals`] this is the same as
    /// [`Fact::Holds`]; [`super::Model::UniformResponder`] also weighs how
    /// likely the player was to show that very card.
    ShowedMe {
        /// The responder.
        player: Seat,
        /// The card I saw.
        card: Card,
        /// The three cards I named.
        suggestion: CardSet,
    },
    /// `player` holds none of `cards` (passed on a suggestion naming them).
    HoldsNone {
        /// The player who passed.
        player: Seat,
        /// The cards named.
        cards: CardSet,
    },
    /// `player` holds at least one of `cards` (showed a card I did not see).
    HoldsAtLeastOne {
        /// The responder.
        player: Seat,
        /// The cards named.
        cards: CardSet,
    },
    /// The three `cards` (one per category) are not the envelope.
    FailedAccusation {
        /// The accused triple.
        cards: CardSet,
    },
}

impl Fact {
    /// The fact in words, with the deck's card names.
    pub fn describe(&self, rules: &Rules) -> String {
        let deck = rules.deck();
        match self {
            Fact::Holds { player, card } => format!("{player} holds {}", deck.card_name(*card)),
            Fact::ShowedMe {
                player,
                card,
                suggestion,
            } => format!(
                "{player} showed me {} for my suggestion {}",
                deck.card_name(*card),
                deck.describe(*suggestion)
            ),
            Fact::HoldsNone { player, cards } => {
                format!("{player} holds none of {}", deck.describe(*cards))
            }
            Fact::HoldsAtLeastOne { player, cards } => {
                format!("{player} holds at least one of {}", deck.describe(*cards))
            }
            Fact::FailedAccusation { cards } => {
                format!("the envelope is not {}", deck.describe(*cards))
            }
        }
    }
}

/// Who is reasoning: a seated player who knows their own hand, or a
/// spectator who knows no hand (useful for the unconditioned deal count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Observer {
    /// A player at `seat` holding `hand`.
    Player {
        /// My seat.
        seat: Seat,
        /// My cards.
        hand: CardSet,
    },
    /// Nobody's hand is known.
    Spectator,
}

impl Observer {
    /// My seat, if I am playing.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            Observer::Player { seat, .. } => Some(*seat),
            Observer::Spectator => None,
        }
    }
}

/// Everything known: rules, observer and facts, each checked to name real
/// seats and cards.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Knowledge {
    rules: Rules,
    observer: Observer,
    facts: Vec<Fact>,
}

impl Knowledge {
    /// Knowledge with no facts yet.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a seat not at the table, a card not in the
    /// deck or a hand of the wrong size.
    pub fn new(rules: Rules, observer: Observer) -> Result<Knowledge> {
        if let Observer::Player { seat, hand } = observer {
            check_seat(&rules, seat)?;
            check_cards(&rules, hand)?;
            let size = rules.hand_size(seat);
            if hand.len() != size {
                return Err(Error::OutOfRange {
                    what: crate::Argument::Hand,
                    detail: format!(
                        "{} cards {}, but {seat} is dealt {size} with {} players",
                        hand.len(),
                        rules.deck().describe(hand),
                        rules.players()
                    ),
                });
            }
        }
        Ok(Knowledge {
            rules,
            observer,
            facts: Vec::new(),
        })
    }

    /// Add a fact.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a seat not at the table, a card not in the
    /// deck, an empty card set, a suggestion or accusation that is not one
    /// card of each category, or a shown card outside the suggestion.
    pub fn add(&mut self, fact: Fact) -> Result<()> {
        let rules = &self.rules;
        match &fact {
            Fact::Holds { player, card } => {
                check_seat(rules, *player)?;
                check_cards(rules, CardSet::EMPTY.with(*card))?;
            }
            Fact::ShowedMe {
                player,
                card,
                suggestion,
            } => {
                check_seat(rules, *player)?;
                check_triple(rules, *suggestion, crate::Argument::Suggestion)?;
                if !suggestion.contains(*card) {
                    return Err(Error::OutOfRange {
                        what: crate::Argument::ShownCard,
                        detail: format!(
                            "{} is not one of the suggested {}",
                            rules.deck().card_name(*card),
                            rules.deck().describe(*suggestion)
                        ),
                    });
                }
                if Some(*player) == self.observer.seat() {
                    return Err(Error::OutOfRange {
                        what: crate::Argument::Responder,
                        detail: format!("{player} is me: I cannot show myself a card"),
                    });
                }
            }
            Fact::HoldsNone { player, cards } | Fact::HoldsAtLeastOne { player, cards } => {
                check_seat(rules, *player)?;
                check_cards(rules, *cards)?;
                if cards.is_empty() {
                    return Err(Error::OutOfRange {
                        what: crate::Argument::CardSet,
                        detail: format!("empty set in fact about {player}"),
                    });
                }
            }
            Fact::FailedAccusation { cards } => {
                check_triple(rules, *cards, crate::Argument::Accusation)?
            }
        }
        self.facts.push(fact);
        Ok(())
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The observer.
    pub fn observer(&self) -> &Observer {
        &self.observer
    }

    /// The facts, in the order added.
    pub fn facts(&self) -> &[Fact] {
        &self.facts
    }

    /// The same knowledge with only the facts whose indices `keep` selects.
    pub(crate) fn with_facts(&self, keep: impl Fn(usize) -> bool) -> Knowledge {
        Knowledge {
            rules: self.rules,
            observer: self.observer,
            facts: self
                .facts
                .iter()
                .enumerate()
                .filter(|(i, _)| keep(*i))
                .map(|(_, f)| f.clone())
                .collect(),
        }
    }
}

impl fmt::Display for Knowledge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, fact) in self.facts.iter().enumerate() {
            writeln!(f, "fact {}: {}", i + 1, fact.describe(&self.rules))?;
        }
        Ok(())
    }
}

fn check_seat(rules: &Rules, seat: Seat) -> Result<()> {
    if rules.has_seat(seat) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what: crate::Argument::Seat,
            detail: format!(
                "{seat} is not at the table: players are 1 to {}",
                rules.players()
            ),
        })
    }
}

fn check_cards(rules: &Rules, cards: CardSet) -> Result<()> {
    if cards.minus(rules.deck().all_cards()).is_empty() {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what: crate::Argument::Card,
            detail: format!(
                "card number {} is not in a deck of {}",
                cards.minus(rules.deck().all_cards()).0.trailing_zeros(),
                rules.deck().len()
            ),
        })
    }
}

/// A suggestion or accusation: exactly one card of each category.
fn check_triple(rules: &Rules, cards: CardSet, what: crate::Argument) -> Result<()> {
    check_cards(rules, cards)?;
    let deck = rules.deck();
    if Category::ALL
        .iter()
        .all(|&c| cards.and(deck.category_cards(c)).len() == 1)
    {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what,
            detail: format!(
                "{} is not one suspect, one weapon and one room",
                deck.describe(cards)
            ),
        })
    }
}
