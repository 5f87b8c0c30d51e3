//! Dense codes of cards and full actions, for the compact encodings that
//! carry actions as one byte: the browser bundle of the lookup crate and
//! the WebAssembly module's calls from JavaScript.
//!
//! A card's code is its position in its side's canonical order
//! ([`MastermindCard::ALL`], [`ProtagonistCard::ALL`]); a full action's is
//! `kinds² · key person + kinds · brain + killer`, the same lexicographic
//! order in which [`super::model::mastermind_actions`] and
//! [`super::model::protagonist_actions`] list them (216 mastermind codes,
//! 125 protagonist codes: both fit a byte). [`CardKind`] lets the code
//! that handles both sides' actions (the bundle's mirror images, the
//! module's labels) be written once.

use super::model::{
    mastermind_actions, protagonist_actions, LimitedCards, MastermindCard, Placement,
    ProtagonistCard,
};

/// What both sides' cards share: the canonical list, labels, the axis swap.
pub trait CardKind: Copy + Eq + std::fmt::Debug + 'static {
    /// Every card kind, in the canonical order.
    const KINDS: &'static [Self];

    /// The label used in the tables and on the command line.
    fn label(self) -> &'static str;

    /// The card's image under the axis swap.
    fn swapped(self) -> Self;

    /// The side's legal full actions with `limited` cards left, in the
    /// canonical order ([`mastermind_actions`], [`protagonist_actions`]).
    fn legal_actions(limited: LimitedCards) -> Vec<Placement<Self>>;

    /// The card's code: its position in [`CardKind::KINDS`].
    fn code(self) -> u8 {
        Self::KINDS
            .iter()
            .position(|&k| k == self)
            .expect("every card is listed in KINDS") as u8
    }

    /// The card of this code, if any.
    fn from_code(code: u8) -> Option<Self> {
        Self::KINDS.get(usize::from(code)).copied()
    }
}

impl CardKind for MastermindCard {
    const KINDS: &'static [Self] = &MastermindCard::ALL;

    fn label(self) -> &'static str {
        MastermindCard::label(self)
    }

    fn swapped(self) -> Self {
        MastermindCard::swapped(self)
    }

    fn legal_actions(limited: LimitedCards) -> Vec<Placement<Self>> {
        mastermind_actions(limited)
    }
}

impl CardKind for ProtagonistCard {
    const KINDS: &'static [Self] = &ProtagonistCard::ALL;

    fn label(self) -> &'static str {
        ProtagonistCard::label(self)
    }

    fn swapped(self) -> Self {
        ProtagonistCard::swapped(self)
    }

    fn legal_actions(limited: LimitedCards) -> Vec<Placement<Self>> {
        protagonist_actions(limited)
    }
}

impl<Card: CardKind> Placement<Card> {
    /// Number of codes of this side's full actions (legal or not): 216 for
    /// the mastermind, 125 for the protagonists.
    pub const CODES: usize = Card::KINDS.len() * Card::KINDS.len() * Card::KINDS.len();

    /// The action's code, `kinds² · key person + kinds · brain + killer`.
    pub fn code(self) -> u8 {
        let kinds = Card::KINDS.len() as u8;
        (self.key_person.code() * kinds + self.brain.code()) * kinds + self.killer.code()
    }

    /// The action of this code (`None` at or above [`Placement::CODES`]).
    pub fn from_code(code: u8) -> Option<Placement<Card>> {
        let kinds = Card::KINDS.len() as u8;
        if usize::from(code) >= Self::CODES {
            return None;
        }
        Some(Placement {
            key_person: Card::from_code(code / (kinds * kinds))?,
            brain: Card::from_code(code / kinds % kinds)?,
            killer: Card::from_code(code % kinds)?,
        })
    }

    /// The three cards' labels (key person, brain, killer).
    pub fn labels(self) -> [&'static str; 3] {
        self.cards().map(Card::label)
    }

    /// The action's image under the axis swap, card by card.
    pub fn mirrored(self) -> Placement<Card> {
        Placement {
            key_person: self.key_person.swapped(),
            brain: self.brain.swapped(),
            killer: self.killer.swapped(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<Card: CardKind>(legal: &[Placement<Card>]) {
        let codes: Vec<u8> = legal.iter().map(|a| a.code()).collect();
        // Canonical order is code order, and every code decodes back.
        assert!(codes.windows(2).all(|w| w[0] < w[1]), "{codes:?}");
        for (&action, &code) in legal.iter().zip(&codes) {
            assert_eq!(Placement::<Card>::from_code(code), Some(action));
            assert_eq!(action.mirrored().mirrored(), action);
        }
        let past = u8::try_from(Placement::<Card>::CODES).ok();
        assert_eq!(past.and_then(Placement::<Card>::from_code), None);
    }

    #[test]
    fn codes_follow_the_canonical_order_and_round_trip() {
        assert_eq!(Placement::<MastermindCard>::CODES, 216);
        assert_eq!(Placement::<ProtagonistCard>::CODES, 125);
        for limited in (0..16).filter_map(LimitedCards::from_index) {
            round_trips(&mastermind_actions(limited));
            round_trips(&protagonist_actions(limited));
        }
        let all = Placement {
            key_person: MastermindCard::Blank,
            brain: MastermindCard::Blank,
            killer: MastermindCard::Blank,
        };
        assert_eq!(all.code(), 215);
        assert_eq!(all.labels(), ["blank"; 3]);
        let first = Placement::<ProtagonistCard>::from_code(0).unwrap();
        assert_eq!(first.cards(), [ProtagonistCard::Horizontal; 3]);
        assert_eq!(first.mirrored().cards(), [ProtagonistCard::Vertical; 3]);
    }
}
