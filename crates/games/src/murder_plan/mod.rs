//! Murder Plan (the Tragedy Looper scenario): the rules model shared by the
//! solver pipeline and the lookup: states, both sides' actions, the turn
//! resolution and the brain's choice, and dense codes of cards and actions
//! ([`codes`]) for compact encodings.

pub mod codes;
mod days;
pub mod model;

#[cfg(test)]
mod model_tests;

pub use codes::CardKind;
pub use days::DaysLeft;
pub use model::{
    BrainTarget, LimitedCards, MastermindAction, MastermindCard, Offset, Placement,
    ProtagonistAction, ProtagonistCard, State, TurnOutcome,
};
