//! Which entry of a Cluedo game log an error is about ([`LogEvent`]), and
//! the error that names it ([`LogError`]).

use std::fmt;

use crate::error::Error;

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
