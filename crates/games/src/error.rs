//! The error type of the games crate: the ways a model or an engine can
//! refuse its input, and the one way a caller can stop an engine (its
//! [`crate::budget::Budget`]). Loading errors (files, digests, Parquet)
//! belong to the lookup crate, whose `Error` takes these over variant for
//! variant.
//!
//! A refusal that belongs to one event of a game log (a Werewolf vote by a
//! dead player, the night after which no role assignment is left) is an
//! [`Error::AtEvent`]: the event's index is data, not only text, so a
//! caller can point at it (the server names `events[12]`), and the message
//! reads exactly as the refusal without it plus where it happened.

/// A query or a game description the rules or the engines refuse. Nothing
/// in this crate panics on bad input: it returns one of these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// An argument outside the game's range.
    #[error("{what} is out of range: {detail}")]
    OutOfRange {
        /// The argument.
        what: Argument,
        /// The value and the allowed range.
        detail: String,
    },
    /// Input that is inconsistent in itself (contradictory facts or evidence).
    #[error("inconsistent input: {0}")]
    Inconsistent(String),
    /// The engine stopped because the caller's budget ran out or was
    /// cancelled ([`crate::budget`]); the input itself may be fine.
    #[error("{0}")]
    Budget(#[from] Exceeded),
    /// One event of a game log is refused: `error` says why.
    #[error("{}", .error.located(*.index, .event.as_deref()))]
    AtEvent {
        /// The event's 0-based position in the log's `events` list (the
        /// message counts from 1, as a reader does).
        index: usize,
        /// The event as the engine read it, when it could read it.
        event: Option<String>,
        /// The refusal itself (never another `AtEvent`).
        error: Box<Error>,
    },
}

impl Error {
    /// `self` as the refusal of the event at 0-based `index` (described by
    /// `event` when it could be read). An error that already names its
    /// event keeps it, and a budget's stop is no event's fault.
    #[must_use]
    pub fn at_event(self, index: usize, event: Option<String>) -> Error {
        match self {
            Error::AtEvent { .. } | Error::Budget(_) => self,
            error => Error::AtEvent {
                index,
                event,
                error: Box::new(error),
            },
        }
    }

    /// The 0-based index of the log event this error belongs to, if any.
    pub fn event_index(&self) -> Option<usize> {
        match self {
            Error::AtEvent { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// The same refusal with its event folded into the text (for a caller
    /// whose own error type has no event index).
    #[must_use]
    pub fn without_event(self) -> Error {
        match self {
            Error::AtEvent {
                index,
                event,
                error,
            } => match *error {
                Error::OutOfRange { what, detail } => Error::OutOfRange {
                    what,
                    detail: format!("{detail} (event {})", index + 1),
                },
                Error::Inconsistent(detail) => Error::Inconsistent(format!(
                    "{}: {detail}",
                    event_name(index, event.as_deref())
                )),
                other @ (Error::AtEvent { .. } | Error::Budget(_)) => other.without_event(),
            },
            other => other,
        }
    }

    /// The message of this error as the refusal of event `index`.
    fn located(&self, index: usize, event: Option<&str>) -> String {
        match self {
            Error::OutOfRange { what, detail } => {
                format!("{what} is out of range: {detail} (event {})", index + 1)
            }
            Error::Inconsistent(detail) => {
                format!("inconsistent input: {}: {detail}", event_name(index, event))
            }
            other @ (Error::AtEvent { .. } | Error::Budget(_)) => other.to_string(),
        }
    }
}

/// "event 12 (vote 1 -> 2)", or "event 12" when the event could not be read.
fn event_name(index: usize, event: Option<&str>) -> String {
    match event {
        Some(event) => format!("event {} ({event})", index + 1),
        None => format!("event {}", index + 1),
    }
}

/// The argument an [`Error::OutOfRange`] is about, as data: a caller maps
/// it to its own name for the input (the server's query parameter, the
/// command line's flag, a Python keyword) with a `match`, never by reading
/// the message. It displays as the words the messages use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Argument {
    /// shown_by
    ShownBy,
    /// by
    By,
    /// accusation
    Accusation,
    /// lover
    Lover,
    /// wolf
    Wolf,
    /// hunter
    Hunter,
    /// checked player
    CheckedPlayer,
    /// accuser
    Accuser,
    /// me
    Me,
    /// grid players
    GridPlayers,
    /// grid dice per player
    GridDicePerPlayer,
    /// grid reliabilities
    GridReliabilities,
    /// grid hand sizes
    GridHandSizes,
    /// grid total dice
    GridTotalDice,
    /// action
    Action,
    /// behaviour score
    BehaviourScore,
    /// bid
    Bid,
    /// bid count
    BidCount,
    /// bidder's dice
    BiddersDice,
    /// card
    Card,
    /// card list
    CardList,
    /// card set
    CardSet,
    /// days_left
    DaysLeft,
    /// deck
    Deck,
    /// early-game votes
    EarlyGameVotes,
    /// endgame
    Endgame,
    /// face
    Face,
    /// face class
    FaceClass,
    /// few-candidate configuration
    FewCandidateConfiguration,
    /// few-candidate configuration text
    FewCandidateConfigurationText,
    /// forbid_movement_left
    ForbidMovementLeft,
    /// game log
    GameLog,
    /// hand
    Hand,
    /// history
    History,
    /// model
    Model,
    /// my dice
    MyDice,
    /// names
    Names,
    /// objective
    Objective,
    /// player
    Player,
    /// player 1's dice
    PlayerOnesDice,
    /// player 2's dice
    PlayerTwosDice,
    /// players
    Players,
    /// policy
    Policy,
    /// reliability
    Reliability,
    /// responder
    Responder,
    /// responder weights
    ResponderWeights,
    /// role assignments
    RoleAssignments,
    /// role count
    RoleCount,
    /// role-model probability
    RoleModelProbability,
    /// roles
    Roles,
    /// room
    Room,
    /// seat
    Seat,
    /// seer accuracy
    SeerAccuracy,
    /// shown card
    ShownCard,
    /// sides
    Sides,
    /// solitaire game
    SolitaireGame,
    /// solitaire weights
    SolitaireWeights,
    /// special role
    SpecialRole,
    /// suggestion
    Suggestion,
    /// suggestion weights
    SuggestionWeights,
    /// total dice
    TotalDice,
    /// u
    U,
    /// viewer
    Viewer,
    /// vote weight
    VoteWeight,
    /// wolf sets
    WolfSets,
    /// wolves
    Wolves,
}

impl Argument {
    /// The argument in the words of the messages.
    pub const fn text(self) -> &'static str {
        match self {
            Argument::ShownBy => "shown_by",
            Argument::By => "by",
            Argument::Accusation => "accusation",
            Argument::Lover => "lover",
            Argument::Wolf => "wolf",
            Argument::Hunter => "hunter",
            Argument::CheckedPlayer => "checked player",
            Argument::Accuser => "accuser",
            Argument::Me => "me",
            Argument::GridPlayers => "grid players",
            Argument::GridDicePerPlayer => "grid dice per player",
            Argument::GridReliabilities => "grid reliabilities",
            Argument::GridHandSizes => "grid hand sizes",
            Argument::GridTotalDice => "grid total dice",
            Argument::Action => "action",
            Argument::BehaviourScore => "behaviour score",
            Argument::Bid => "bid",
            Argument::BidCount => "bid count",
            Argument::BiddersDice => "bidder's dice",
            Argument::Card => "card",
            Argument::CardList => "card list",
            Argument::CardSet => "card set",
            Argument::DaysLeft => "days_left",
            Argument::Deck => "deck",
            Argument::EarlyGameVotes => "early-game votes",
            Argument::Endgame => "endgame",
            Argument::Face => "face",
            Argument::FaceClass => "face class",
            Argument::FewCandidateConfiguration => "few-candidate configuration",
            Argument::FewCandidateConfigurationText => "few-candidate configuration text",
            Argument::ForbidMovementLeft => "forbid_movement_left",
            Argument::GameLog => "game log",
            Argument::Hand => "hand",
            Argument::History => "history",
            Argument::Model => "model",
            Argument::MyDice => "my dice",
            Argument::Names => "names",
            Argument::Objective => "objective",
            Argument::Player => "player",
            Argument::PlayerOnesDice => "player 1's dice",
            Argument::PlayerTwosDice => "player 2's dice",
            Argument::Players => "players",
            Argument::Policy => "policy",
            Argument::Reliability => "reliability",
            Argument::Responder => "responder",
            Argument::ResponderWeights => "responder weights",
            Argument::RoleAssignments => "role assignments",
            Argument::RoleCount => "role count",
            Argument::RoleModelProbability => "role-model probability",
            Argument::Roles => "roles",
            Argument::Room => "room",
            Argument::Seat => "seat",
            Argument::SeerAccuracy => "seer accuracy",
            Argument::ShownCard => "shown card",
            Argument::Sides => "sides",
            Argument::SolitaireGame => "solitaire game",
            Argument::SolitaireWeights => "solitaire weights",
            Argument::SpecialRole => "special role",
            Argument::Suggestion => "suggestion",
            Argument::SuggestionWeights => "suggestion weights",
            Argument::TotalDice => "total dice",
            Argument::U => "u",
            Argument::Viewer => "viewer",
            Argument::VoteWeight => "vote weight",
            Argument::WolfSets => "wolf sets",
            Argument::Wolves => "wolves",
        }
    }
}

impl std::fmt::Display for Argument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_error_reads_as_before_and_keeps_its_index() {
        let error = Error::Inconsistent("player 3 is already dead".into())
            .at_event(11, Some("vote 3 -> 1".into()));
        assert_eq!(error.event_index(), Some(11));
        assert_eq!(
            error.to_string(),
            "inconsistent input: event 12 (vote 3 -> 1): player 3 is already dead"
        );
        assert_eq!(
            error.clone().without_event(),
            Error::Inconsistent("event 12 (vote 3 -> 1): player 3 is already dead".into())
        );
        let range = Error::OutOfRange {
            what: crate::Argument::Player,
            detail: "9, allowed 1..=7".into(),
        }
        .at_event(2, None);
        assert_eq!(
            range.to_string(),
            "player is out of range: 9, allowed 1..=7 (event 3)"
        );
        // An error already at an event keeps its index.
        assert_eq!(error.clone().at_event(4, None), error);
        assert_eq!(Error::Inconsistent("x".into()).event_index(), None);
    }
}

/// Why a budget stopped the work (defined here, below the budget, so that
/// [`Error`] can carry it; `gametab_games::budget::Exceeded` names it too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Exceeded {
    /// The time limit passed.
    #[error("the time budget of {limit_ms} ms ran out")]
    Time {
        /// The limit the budget was made with, in milliseconds.
        limit_ms: u64,
    },
    /// The step limit was reached (deterministic: the same input stops at
    /// the same step on any machine).
    #[error("the budget of {limit} engine steps ran out")]
    Steps {
        /// The limit the budget was made with.
        limit: u64,
    },
    /// The caller cancelled the work (e.g. its client disconnected).
    #[error("the work was cancelled")]
    Cancelled,
}
