//! The endgame solver's one error type: what went wrong solving a game,
//! certifying a pair of strategies, or reading a cache or job file. A
//! caller can tell apart what is the input's fault (a damaged file, entries
//! that are not a strategy of the game), what is the solver's (HiGHS, a
//! pair that does not certify, an oracle that did not settle), and what is
//! a bug ([`Error::Internal`]); the message names the game and what to do.

use gametab_games::dice::endgame::Endgame;

use super::MAX_EXPLOITABILITY;

/// Why an endgame could not be solved, certified, read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// HiGHS refused the model, failed, or stopped short of an optimum.
    #[error("{0}")]
    Highs(String),
    /// A strategy pair whose exploitability is above [`MAX_EXPLOITABILITY`]
    /// (or, for a cached pair, above the bound it was stored with).
    #[error("{game}: {what} (exploitability {exploitability:e} > {MAX_EXPLOITABILITY:e})")]
    Uncertified {
        /// The game.
        game: Endgame,
        /// Whose strategies, and that they do not certify.
        what: &'static str,
        /// The exploitability the certificate found.
        exploitability: f64,
    },
    /// The double oracle stopped without an equilibrium: out of rounds, or
    /// out of time where no deadline was given.
    #[error("{game}: the double oracle {reason}")]
    NotConverged {
        /// The game.
        game: Endgame,
        /// How it stopped.
        reason: String,
    },
    /// Strategy entries or a restricted game that do not belong to the game
    /// (a damaged or forged cache or job file, or a table's rows).
    #[error("{0}")]
    BadEntries(String),
    /// A cache or job file this build cannot read: truncated, a wrong
    /// magic number or checksum, another format version or solver.
    #[error("{0}")]
    BadFile(String),
    /// A cache or job file's payload that does not decode.
    #[error("malformed payload")]
    Malformed(#[source] bincode::error::DecodeError),
    /// A cache or job file could not be encoded.
    #[error("cannot encode the {what}")]
    Encode {
        /// The cache or the job file.
        what: &'static str,
        /// Why.
        #[source]
        source: bincode::error::EncodeError,
    },
    /// A cache or job file that exists but cannot be read.
    #[error("cannot read it")]
    Read(#[source] std::io::Error),
    /// The rules refuse the game, or a strategy breaks them.
    #[error(transparent)]
    Rules(#[from] gametab_games::Error),
    /// The solver's own structures disagree: a bug, not the input's fault.
    #[error("internal error in the endgame solver ({0}); please report it")]
    Internal(String),
}

/// The endgame solver's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Turn a missing row, column or sequence of the solver's own index into
/// [`Error::Internal`] naming it.
pub(crate) trait Expect<T> {
    /// The value, or [`Error::Internal`] naming `what`.
    fn expect_internal(self, what: &str) -> Result<T>;
}

impl<T> Expect<T> for Option<T> {
    fn expect_internal(self, what: &str) -> Result<T> {
        self.ok_or_else(|| Error::Internal(format!("no {what}")))
    }
}

/// Return `Err(Error::$variant(format!(...)))` unless the condition holds
/// (the crate's `ensure!`, typed).
macro_rules! check {
    ($variant:ident, $cond:expr, $($message:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            return Err($crate::endgame::Error::$variant(format!($($message)+)));
        }
    };
}
pub(crate) use check;
