//! The build's one error type. A build fails for one of a few reasons a
//! caller can tell apart: the file system ([`Error::Io`]), a table set that
//! does not load ([`Error::Tables`]), a solver ([`Error::Endgame`],
//! [`Error::MatrixGame`]), a check of the new tables or of a known answer
//! ([`Error::Check`]), a bad argument ([`Error::Invalid`], [`Error::Query`],
//! [`Error::Arguments`]), or the reader of the answer gone
//! ([`Error::Output`]). [`Error::Context`] says what the build was doing
//! when a lower error happened; the command line prints the chain
//! (`error: verifying the new tables before publishing: ...`).

use std::fmt::Display;
use std::io;
use std::path::{Path, PathBuf};

/// Why a build, a verification or a build-side command failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be created, read, written, synced or
    /// renamed.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was tried: `create`, `write`, `rename ... to`.
        action: String,
        /// The path it was tried on.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: io::Error,
    },
    /// Writing the command's answer failed (a reader gone is one case).
    #[error("cannot write the answer")]
    Output(#[from] io::Error),
    /// A table set, or a table just written, that does not load.
    #[error(transparent)]
    Tables(#[from] gametab_lookup::Error),
    /// A query the answers layer refuses (a game's subcommand).
    #[error(transparent)]
    Query(#[from] gametab_answers::Error),
    /// A game's subcommand that failed in the answers layer's command line.
    #[error(transparent)]
    Command(#[from] gametab_answers::cli::Error),
    /// The Liar's Dice endgame solver.
    #[error(transparent)]
    Endgame(#[from] gametab_solve::endgame::Error),
    /// The Murder Plan's matrix-game solver.
    #[error(transparent)]
    MatrixGame(#[from] gametab_solve::matrix_game::SolveError),
    /// The rules refuse a game or a position.
    #[error(transparent)]
    Rules(#[from] gametab_games::Error),
    /// The published numbers the build checks against do not read.
    #[error(transparent)]
    KnownAnswers(#[from] crate::known_answers::PublishedError),
    /// A JSON document could not be encoded.
    #[error("cannot encode JSON")]
    Json(#[from] serde_json::Error),
    /// A cache could not be encoded.
    #[error("cannot encode the cache")]
    Encode(#[from] bincode::error::EncodeError),
    /// A count or code outside the range of its column's integer type.
    #[error("a number outside its column's range")]
    Range(#[from] std::num::TryFromIntError),
    /// The build's worker threads could not be started.
    #[error("cannot start the build's threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The command line does not parse.
    #[error(transparent)]
    Arguments(#[from] clap::Error),
    /// An argument or input the caller can fix; the message says how.
    #[error("{0}")]
    Invalid(String),
    /// A check failed: the new tables, a known answer, the registry's list
    /// of tables, the rows a builder counted.
    #[error("{0}")]
    Check(String),
    /// A chart could not be drawn.
    #[error("{0}")]
    Plot(String),
    /// What the build was doing when `source` failed.
    #[error("{context}")]
    Context {
        /// What was being done.
        context: String,
        /// The error it met.
        #[source]
        source: Box<Error>,
    },
}

/// The build's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// [`Error::Io`]: `action` on `path` failed.
    pub fn io(action: impl Into<String>, path: &Path, source: io::Error) -> Error {
        Error::Io {
            action: action.into(),
            path: path.to_path_buf(),
            source,
        }
    }

    /// [`Error::Check`] with the message.
    pub fn check(message: impl Display) -> Error {
        Error::Check(message.to_string())
    }
}

/// Say what the build was doing when an error happened
/// ([`Error::Context`]), on any result whose error converts into
/// [`Error`].
pub trait Context<T> {
    /// The value, or the error wrapped in `context`.
    fn context(self, context: impl Display) -> Result<T>;

    /// [`Context::context`] with a message made only on failure.
    fn with_context<D: Display>(self, context: impl FnOnce() -> D) -> Result<T>;
}

impl<T, E: Into<Error>> Context<T> for std::result::Result<T, E> {
    fn context(self, context: impl Display) -> Result<T> {
        self.map_err(|e| Error::Context {
            context: context.to_string(),
            source: Box::new(e.into()),
        })
    }

    fn with_context<D: Display>(self, context: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| Error::Context {
            context: context().to_string(),
            source: Box::new(e.into()),
        })
    }
}

impl<T> Context<T> for Option<T> {
    /// The value, or [`Error::Check`] with `context` as its message (a
    /// missing value is a check that failed).
    fn context(self, context: impl Display) -> Result<T> {
        self.ok_or_else(|| Error::check(context))
    }

    fn with_context<D: Display>(self, context: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| Error::check(context()))
    }
}

/// Return `Err(Error::$variant(format!(...)))` unless the condition holds
/// (the crate's `ensure!`, typed).
macro_rules! check {
    ($variant:ident, $cond:expr, $($message:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            return Err($crate::error::Error::$variant(format!($($message)+)));
        }
    };
}
pub(crate) use check;

/// Return `Err(Error::$variant(format!(...)))` (the crate's `bail!`,
/// typed).
macro_rules! fail {
    ($variant:ident, $($message:tt)+) => {
        return Err($crate::error::Error::$variant(format!($($message)+)))
    };
}
pub(crate) use fail;

pub use gametab_answers::chain;
