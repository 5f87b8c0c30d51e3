//! What the exact engine answers with: the deal-weighting [`Model`], the
//! [`Place`] a card can be in, and the [`Notebook`] of exact deal counts
//! per card and place, from which every probability is one division.

use super::cards::{Card, Rules, Seat, MAX_PLAYERS};
use crate::error::{Error, Result};

/// How deals are weighted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Model {
    /// "equal-deals": every deal consistent with the facts counts once. No
    /// assumption about how players choose which card to show. The default.
    EqualDeals,
    /// "uniform-responder": as `EqualDeals`, but a deal is also weighted by
    /// the chance that each responder who showed me a card would have shown
    /// that very card, assuming a responder holding several of the named
    /// cards picks one uniformly at random.
    UniformResponder,
}

impl Model {
    /// Both models, default first.
    pub const ALL: [Model; 2] = [Model::EqualDeals, Model::UniformResponder];

    /// The model's name, as used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Model::EqualDeals => "equal-deals",
            Model::UniformResponder => "uniform-responder",
        }
    }

    /// The model called `name`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for an unknown name.
    pub fn parse(name: &str) -> Result<Model> {
        Model::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| Error::OutOfRange {
                what: crate::Argument::Model,
                detail: format!("{name:?}; the models are equal-deals and uniform-responder"),
            })
    }
}

/// Where a card can be: in the envelope or in a player's hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// The envelope (the answer).
    Envelope,
    /// A player's hand.
    Hand(Seat),
}

/// The exact result: for the chosen [`Model`], the (weighted) number of
/// consistent deals and, for every card and place, the (weighted) number of
/// those deals that put the card there.
///
/// Under [`Model::EqualDeals`] the numbers are plain deal counts. Under
/// [`Model::UniformResponder`] they are weighted counts multiplied by a
/// positive integer scale, so only their ratios (the probabilities) mean
/// anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notebook {
    pub(super) rules: Rules,
    pub(super) model: Model,
    pub(super) deals: u128,
    /// Per card: envelope deals, then deals per seat.
    pub(super) places: Vec<[u128; MAX_PLAYERS + 1]>,
}

impl Notebook {
    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The model the numbers follow.
    pub fn model(&self) -> Model {
        self.model
    }

    /// Number of consistent deals (weighted and scaled under
    /// [`Model::UniformResponder`]).
    pub fn deals(&self) -> u128 {
        self.deals
    }

    /// Consistent deals that put `card` at `place`.
    pub fn deals_with(&self, card: Card, place: Place) -> u128 {
        let slot = match place {
            Place::Envelope => 0,
            Place::Hand(seat) => 1 + seat.index(),
        };
        self.places
            .get(card.index())
            .and_then(|p| p.get(slot))
            .copied()
            .unwrap_or(0)
    }

    /// Exact probability that `card` is at `place`, rounded to `f64` only at
    /// the end.
    pub fn probability(&self, card: Card, place: Place) -> f64 {
        self.deals_with(card, place) as f64 / self.deals as f64
    }

    /// P(`card` is in the envelope).
    pub fn p_envelope(&self, card: Card) -> f64 {
        self.probability(card, Place::Envelope)
    }

    /// P(`seat` holds `card`).
    pub fn p_holds(&self, seat: Seat, card: Card) -> f64 {
        self.probability(card, Place::Hand(seat))
    }
}
