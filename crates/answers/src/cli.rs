//! What the command line's query commands share: their failure type
//! ([`Error`]: the query's own [`crate::Error`], or the output refusing the
//! answer), the JSON they print with `--json` ([`pretty`]) and the
//! warnings they print for an old spelling ([`warn`]).

use serde::Serialize;

/// Why a query command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The query has no answer.
    #[error(transparent)]
    Query(#[from] crate::Error),
    /// Writing the answer failed (a closed pipe, a full disk).
    #[error("cannot write the answer")]
    Write(#[from] std::io::Error),
}

impl From<gametab_lookup::Error> for Error {
    fn from(error: gametab_lookup::Error) -> Error {
        Error::Query(error.into())
    }
}

impl From<gametab_games::Error> for Error {
    fn from(error: gametab_games::Error) -> Error {
        Error::Query(error.into())
    }
}

/// Result alias of the commands.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `value` as pretty-printed JSON and a newline, what `--json` prints.
///
/// # Errors
/// Never for the crate's documents (plain data); a serialiser's refusal
/// is an [`crate::Error::Refused`].
pub fn pretty(value: &impl Serialize) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map(|text| text + "\n")
        .map_err(|e| {
            Error::Query(crate::Error::Refused {
                event: None,
                message: format!("cannot encode the answer: {e}"),
            })
        })
}

/// Print a warning about an old spelling on standard error, where it does
/// not mix with the answer.
#[allow(clippy::print_stderr)]
pub fn warn(message: &str) {
    eprintln!("warning: {message}");
}
