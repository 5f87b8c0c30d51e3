//! What kind of failure an answer's error is, and which parameter it
//! names: the one place the crates' error types are read, so that the
//! Python exceptions follow them.
//!
//! The answers crate reports through `anyhow`; the typed causes in its
//! chain are the lookup crate's and the games crate's errors (a range
//! error names its argument, as the server's 400s do), or this crate's
//! own [`ParamError`] for a parameter refused before any query ran.

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

/// `Err` of a [`ParamError`].
pub fn param<T>(parameter: &'static str, message: impl Into<String>) -> anyhow::Result<T> {
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
    error: &anyhow::Error,
    log_query: bool,
    rename: fn(gametab_games::Argument) -> &'static str,
) -> Classified {
    let message = format!("{error:#}");
    let found = |kind: Kind, parameter: Option<&str>| Classified {
        kind,
        parameter: parameter.map(str::to_owned),
        message: message.clone(),
    };
    let inconsistent = if log_query { Kind::Log } else { Kind::Query };
    let log_parameter = if log_query { Some("log") } else { None };
    for cause in error.chain() {
        if let Some(e) = cause.downcast_ref::<gametab_answers::Error>() {
            use gametab_answers::Error as A;
            return match e {
                A::Invalid {
                    parameter: gametab_answers::Parameter::Log,
                    ..
                } => found(Kind::Log, Some("log")),
                A::Invalid { parameter, .. } => found(Kind::Query, Some(python_name(*parameter))),
                A::NotInTables { .. } => found(Kind::MissingKey, None),
                A::Refused { .. } => found(inconsistent, log_parameter),
                A::Budget(_) => found(Kind::Budget, None),
                _ => found(Kind::Tables, None),
            };
        }
        if let Some(e) = cause.downcast_ref::<ParamError>() {
            let kind = if e.parameter == "log" {
                Kind::Log
            } else {
                Kind::Query
            };
            return found(kind, Some(e.parameter));
        }
        if let Some(e) = cause.downcast_ref::<gametab_lookup::Error>() {
            use gametab_lookup::Error as L;
            return match e {
                L::OutOfRange { what, .. } => found(Kind::Query, Some(rename(*what))),
                L::NotInTable { .. } => found(Kind::MissingKey, None),
                L::Inconsistent(_) => found(inconsistent, log_parameter),
                L::Budget(_) => found(Kind::Budget, None),
                _ => found(Kind::Tables, None),
            };
        }
        if let Some(e) = cause.downcast_ref::<gametab_games::Error>() {
            use gametab_games::Error as G;
            return match e {
                G::OutOfRange { what, .. }
                    if !log_query
                        || matches!(
                            *what,
                            gametab_games::Argument::Room | gametab_games::Argument::Model
                        ) =>
                {
                    found(Kind::Query, Some(rename(*what)))
                }
                G::OutOfRange { .. } => found(Kind::Log, Some("log")),
                G::Inconsistent(_) | G::AtEvent { .. } => found(inconsistent, log_parameter),
                G::Budget(_) => found(Kind::Budget, None),
            };
        }
        if cause.downcast_ref::<serde_json::Error>().is_some() && log_query {
            return found(Kind::Log, Some("log"));
        }
    }
    // Untyped refusals (`bail!` in the answers crate): a query's are about
    // its input; a log query's about the log.
    found(inconsistent, log_parameter)
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
