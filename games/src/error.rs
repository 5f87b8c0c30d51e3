//! The error type of the games crate: the two ways a model or an engine can
//! refuse its input. Loading errors (files, digests, Parquet) belong to the
//! lookup crate, whose `Error` takes these over variant for variant.

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
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
