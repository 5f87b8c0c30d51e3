//! The JSON documents of the Murder Plan queries, as typed structs: what
//! `gametab lookup` prints and the server's `/v1/murder-plan/...`
//! endpoints send. The large ones (a state with both sides' ~200 moves,
//! ~40 KB) serialise straight from these structs; building a
//! `serde_json::Value` tree first cost more than the lookups themselves.

use serde::Serialize;

use gametab_games::murder_plan::{DaysLeft, Placement, State};
use gametab_lookup::murder_plan::{MoveJson, MurderPlanTables};

use crate::error::Result;

/// The side whose strategy is asked for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Side {
    /// The mastermind (sigma*).
    Mastermind,
    /// The protagonists (tau*).
    Protagonists,
}

impl Side {
    /// The side's name in documents and URLs.
    pub fn name(self) -> &'static str {
        match self {
            Side::Mastermind => "mastermind",
            Side::Protagonists => "protagonists",
        }
    }
}

/// A full action: the card on each character.
#[derive(Debug, Clone, Serialize)]
pub struct Cards {
    /// Card on the key person.
    pub card_on_key_person: &'static str,
    /// Card on the brain.
    pub card_on_brain: &'static str,
    /// Card on the killer.
    pub card_on_killer: &'static str,
}

impl Cards {
    /// The cards of `action`, named by `label`.
    pub fn of<C: Copy>(action: Placement<C>, label: impl Fn(C) -> &'static str) -> Cards {
        Cards {
            card_on_key_person: label(action.key_person),
            card_on_brain: label(action.brain),
            card_on_killer: label(action.killer),
        }
    }
}

/// One action of an optimal mixed strategy.
#[derive(Debug, Clone, Serialize)]
pub struct SupportEntry {
    /// The action's cards.
    #[serde(flatten)]
    pub cards: Cards,
    /// Its probability.
    pub probability: f64,
}

/// A strategy's support as entries, in the stored order.
pub fn support_of<C: Copy>(
    support: &[(Placement<C>, f64)],
    label: impl Fn(C) -> &'static str + Copy,
) -> Vec<SupportEntry> {
    support
        .iter()
        .map(|&(action, probability)| SupportEntry {
            cards: Cards::of(action, label),
            probability,
        })
        .collect()
}

/// One side's moves, best first.
///
/// # Errors
/// As [`MurderPlanTables::mastermind_moves`].
pub fn moves_of(
    mp: &MurderPlanTables,
    side: Side,
    days: DaysLeft,
    state: State,
) -> Result<Vec<MoveJson>> {
    Ok(match side {
        Side::Mastermind => mp
            .mastermind_moves(days, state)?
            .iter()
            .map(|m| m.to_json(|c| c.label()))
            .collect(),
        Side::Protagonists => mp
            .protagonist_moves(days, state)?
            .iter()
            .map(|m| m.to_json(|c| c.label()))
            .collect(),
    })
}

/// A state's fields, as the endpoints' parameters name them.
#[derive(Debug, Clone, Serialize)]
pub struct StateFields {
    /// Brain offset x as `[a, b]`.
    pub brain: [u8; 2],
    /// Killer offset y as `[a, b]`.
    pub killer: [u8; 2],
    /// Killer intrigue (0..=4).
    pub killer_intrigue: u8,
    /// Key-person intrigue (0..=2).
    pub key_person_intrigue: u8,
    /// The diagonal card is still available.
    pub diagonal_left: bool,
    /// The intrigue+2 card is still available.
    pub intrigue2_left: bool,
    /// Forbid-movement uses left (0..=3).
    pub forbid_movement_left: u8,
}

impl StateFields {
    /// The fields of `state`.
    pub fn of(state: State) -> StateFields {
        StateFields {
            brain: [state.brain.first(), state.brain.second()],
            killer: [state.killer.first(), state.killer.second()],
            killer_intrigue: state.killer_intrigue,
            key_person_intrigue: state.key_person_intrigue,
            diagonal_left: state.limited.diagonal,
            intrigue2_left: state.limited.intrigue_plus_two,
            forbid_movement_left: state.limited.forbid_movement,
        }
    }
}

/// Both sides' moves.
#[derive(Debug, Clone, Serialize)]
pub struct BothMoves {
    /// The mastermind's, best (highest value) first.
    pub mastermind: Vec<MoveJson>,
    /// The protagonists', best (lowest value) first.
    pub protagonists: Vec<MoveJson>,
}

/// Everything about one state (`lookup state`, `GET /v1/murder-plan/state`):
/// value, certificate gap, reachability, whether the mastermind has won,
/// both optimal strategies and both sides' moves. With no turn to play
/// (0 days left, or a won state) the strategies and moves are empty.
#[derive(Debug, Clone, Serialize)]
pub struct StateDocument {
    /// Turns left.
    pub days_left: DaysLeft,
    /// The state (intrigue clamped to the caps).
    pub state: StateFields,
    /// V_d(S).
    pub value: f64,
    /// The certificate gap of the stored strategies.
    pub gap: f64,
    /// Whether the state occurs in some game of horizon <= 8.
    pub reachable: bool,
    /// Whether the mastermind has already won (the values table's
    /// column of the same name).
    pub mastermind_won: bool,
    /// sigma*: the mastermind's optimal mixed strategy (the rows of
    /// `murder_plan_mastermind_strategy`).
    pub mastermind_strategy: Vec<SupportEntry>,
    /// tau*: the protagonists' optimal mixed strategy (the rows of
    /// `murder_plan_protagonists_strategy`).
    pub protagonists_strategy: Vec<SupportEntry>,
    /// Every legal move of each side with its value and loss.
    pub moves: BothMoves,
}

impl StateDocument {
    /// The document of (`days`, `state`).
    ///
    /// # Errors
    /// Days left above 8 or a forbid-movement count above 3.
    pub fn new(mp: &MurderPlanTables, days: DaysLeft, state: State) -> Result<StateDocument> {
        let state = state.clamped();
        let won = state.is_win();
        let playable = !won && days.get() >= 1;
        let (mastermind, protagonists, moves) = if playable {
            (
                support_of(mp.mastermind_strategy(days, state)?, |c| c.label()),
                support_of(mp.protagonists_strategy(days, state)?, |c| c.label()),
                BothMoves {
                    mastermind: moves_of(mp, Side::Mastermind, days, state)?,
                    protagonists: moves_of(mp, Side::Protagonists, days, state)?,
                },
            )
        } else {
            let none = BothMoves {
                mastermind: Vec::new(),
                protagonists: Vec::new(),
            };
            (Vec::new(), Vec::new(), none)
        };
        Ok(StateDocument {
            days_left: days,
            state: StateFields::of(state),
            value: mp.value(days, state)?,
            gap: mp.gap(days, state)?,
            reachable: mp.reachable(days, state)?,
            mastermind_won: won,
            mastermind_strategy: mastermind,
            protagonists_strategy: protagonists,
            moves,
        })
    }
}

/// One side's moves (`lookup moves`, `GET /v1/murder-plan/moves`).
#[derive(Debug, Clone, Serialize)]
pub struct MovesDocument {
    /// Turns left.
    pub days_left: DaysLeft,
    /// Whose moves.
    pub side: &'static str,
    /// V_d(S).
    pub value: f64,
    /// The certificate gap.
    pub gap: f64,
    /// The moves, best first.
    pub moves: Vec<MoveJson>,
}
