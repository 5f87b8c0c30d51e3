//! Murder Plan (the Tragedy Looper scenario): the rules model and the table
//! schemas shared by the solver pipeline and the lookup.

pub mod model;
pub mod schema;
mod tables;

pub use tables::MurderPlanTables;

#[cfg(test)]
mod model_tests;

pub use model::{
    BrainTarget, LimitedCards, MastermindAction, MastermindCard, Offset, Placement,
    ProtagonistAction, ProtagonistCard, State, TurnOutcome,
};
