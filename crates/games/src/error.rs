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
        what: &'static str,
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
            what: "player",
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
