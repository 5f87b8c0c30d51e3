//! What kind of failure an answer's error is, and which parameter it
//! names: the one place the crates' error types are read, so that the
//! Python exceptions follow them.
//!
//! Every query of the adapter returns [`Error`], which holds the typed
//! error of the layer that refused it: the answers crate's (it names the
//! parameter), the lookup crate's or the games crate's (a range error names
//! its argument, as the server's 400s do), or this crate's own
//! [`ParamError`] for a parameter refused before any query ran.
//! [`classify`] matches on it; nothing is read back from a message.

use std::fmt;

/// A parameter refused by this crate before any query ran (a malformed
/// offset, a side that is neither, a log that is not JSON).
#[derive(Debug, Clone)]
pub struct ParamError {
    /// The Python keyword argument.
    pub parameter: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParamError {}

/// Why a query of the adapter failed: the typed error of the layer that
/// refused it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The answers crate's query error.
    #[error(transparent)]
    Answers(#[from] gametab_answers::Error),
    /// A parameter this crate refused.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The tables: missing, unreadable, or a key or range they refuse.
    #[error(transparent)]
    Tables(#[from] gametab_lookup::Error),
    /// The rules or an engine.
    #[error(transparent)]
    Rules(#[from] gametab_games::Error),
    /// A Cluedo log whose events contradict each other.
    #[error(transparent)]
    Log(#[from] gametab_games::cluedo::LogError),
    /// A table that does not convert to Arrow.
    #[cfg(feature = "python")]
    #[error(transparent)]
    Arrow(#[from] arrow_schema::ArrowError),
    /// A document that does not convert to JSON, or a log that is not JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// Where the error happened (`in the log given`).
    #[error("{context}")]
    Context {
        /// Where.
        context: String,
        /// The error.
        #[source]
        source: Box<Error>,
    },
}

/// The adapter's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Say where an error happened ([`Error::Context`]).
pub trait Context<T> {
    /// The value, or the error inside `context`.
    fn with_context<D: fmt::Display>(self, context: impl FnOnce() -> D) -> Result<T>;
}

impl<T, E: Into<Error>> Context<T> for std::result::Result<T, E> {
    fn with_context<D: fmt::Display>(self, context: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| Error::Context {
            context: context().to_string(),
            source: Box::new(e.into()),
        })
    }
}

pub use gametab_answers::chain;

/// `Err` of a [`ParamError`].
pub fn param<T>(parameter: &'static str, message: impl Into<String>) -> Result<T> {
    Err(ParamError {
        parameter,
        message: message.into(),
    }
    .into())
}

/// The Python exception class an error becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A parameter out of range or malformed (`QueryError`, a `ValueError`).
    Query,
    /// A game log that cannot be read or contradicts itself (`LogError`, a
    /// `QueryError` naming `log`).
    Log,
    /// A well-formed key the tables do not hold (`MissingKeyError`, a
    /// `KeyError`).
    MissingKey,
    /// A table set that is missing, unreadable or fails its digests
    /// (`TablesError`).
    Tables,
    /// The engine's time or step budget ran out (`BudgetExceeded`, a
    /// `TimeoutError`).
    Budget,
}

/// A classified error: its kind, its parameter (if it names one) and the
/// message (the whole chain, as the CLI prints it).
#[derive(Debug, Clone)]
pub struct Classified {
    /// The exception class.
    pub kind: Kind,
    /// The parameter, for a query or log error.
    pub parameter: Option<String>,
    /// The message.
    pub message: String,
}

/// Classify `error`; `log_query` says whether the query takes a log (whose
/// inconsistencies are then the log's fault, parameter `log`), and
/// `rename` maps an engine's argument name to the Python parameter.
pub fn classify(
    error: &Error,
    log_query: bool,
    rename: fn(gametab_games::Argument) -> &'static str,
) -> Classified {
    let message = chain(error);
    let (kind, parameter) = kind_of(error, log_query, rename);
    Classified {
        kind,
        parameter: parameter.map(str::to_owned),
        message,
    }
}

/// The exception class and parameter of `error` ([`classify`]).
fn kind_of(
    error: &Error,
    log_query: bool,
    rename: fn(gametab_games::Argument) -> &'static str,
) -> (Kind, Option<&'static str>) {
    let inconsistent = if log_query { Kind::Log } else { Kind::Query };
    let log_parameter = if log_query { Some("log") } else { None };
    match error {
        Error::Context { source, .. } => kind_of(source, log_query, rename),
        Error::Answers(e) => {
            use gametab_answers::Error as A;
            match e {
                A::Invalid {
                    parameter: gametab_answers::Parameter::Log,
                    ..
                } => (Kind::Log, Some("log")),
                A::Invalid { parameter, .. } => (Kind::Query, Some(python_name(*parameter))),
                A::NotInTables { .. } => (Kind::MissingKey, None),
                A::Refused { .. } => (inconsistent, log_parameter),
                A::Budget(_) => (Kind::Budget, None),
                _ => (Kind::Tables, None),
            }
        }
        Error::Param(e) if e.parameter == "log" => (Kind::Log, Some("log")),
        Error::Param(e) => (Kind::Query, Some(e.parameter)),
        Error::Tables(e) => {
            use gametab_lookup::Error as L;
            match e {
                L::OutOfRange { what, .. } => (Kind::Query, Some(rename(*what))),
                L::NotInTable { .. } => (Kind::MissingKey, None),
                L::Inconsistent(_) => (inconsistent, log_parameter),
                L::Budget(_) => (Kind::Budget, None),
                _ => (Kind::Tables, None),
            }
        }
        Error::Rules(e) => {
            use gametab_games::Error as G;
            match e {
                G::OutOfRange { what, .. }
                    if !log_query
                        || matches!(
                            *what,
                            gametab_games::Argument::Room | gametab_games::Argument::Model
                        ) =>
                {
                    (Kind::Query, Some(rename(*what)))
                }
                G::OutOfRange { .. } => (Kind::Log, Some("log")),
                G::Inconsistent(_) | G::AtEvent { .. } => (inconsistent, log_parameter),
                G::Budget(_) => (Kind::Budget, None),
            }
        }
        // A log that is not JSON is the log's fault; a document that does
        // not convert is the query's.
        Error::Json(_) | Error::Log(_) => (inconsistent, log_parameter),
        #[cfg(feature = "python")]
        Error::Arrow(_) => (Kind::Tables, None),
    }
}

/// A query parameter's name in this API: the answers crate's, but for the
/// reliability, which Python spells out (`reliability=`, not `rel=`).
pub fn python_name(parameter: gametab_answers::Parameter) -> &'static str {
    match parameter {
        gametab_answers::Parameter::Rel => "reliability",
        other => other.name(),
    }
}

/// An engine argument as the Python parameter (the answers crate's
/// reading of it, [`gametab_answers::Parameter::of_argument`]).
pub fn python_parameter(what: gametab_games::Argument) -> &'static str {
    gametab_answers::Parameter::of_argument(what).map_or(what.text(), python_name)
}
