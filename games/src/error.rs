//! The error type of the games crate: the two ways a model or an engine can
//! refuse its input, and the one way a caller can stop an engine (its
//! [`crate::budget::Budget`]). Loading errors (files, digests, Parquet)
//! belong to the lookup crate, whose `Error` takes these over variant for
//! variant.

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
    Budget(#[from] crate::budget::Exceeded),
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
