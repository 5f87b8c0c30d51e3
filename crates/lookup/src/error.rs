//! The crate's error type: every way loading a table or answering a query can
//! fail, with the context needed to act on it (which file, which state).

use std::path::PathBuf;

/// Everything that can go wrong in this crate. Nothing here panics on bad
/// input: malformed files and out-of-range queries become one of these.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A table file that should be in the directory is not there.
    #[error("table file {path} is missing")]
    MissingFile {
        /// The path that was looked for.
        path: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not a readable Parquet file (truncated, corrupted or not
    /// Parquet at all).
    #[error("table {table} is not a readable Parquet file: {detail}")]
    CorruptTable {
        /// The table (or file) being read.
        table: String,
        /// What the Parquet reader reported.
        detail: String,
    },
    /// A readable Parquet file that is not the expected table: another
    /// table, another program's file, or a missing or mismatching column.
    #[error("{table}: foreign table file: {detail}")]
    ForeignTable {
        /// The table that was expected.
        table: String,
        /// What differs.
        detail: String,
    },
    /// The file was written with another schema version of this table.
    #[error("{table}: schema version {found} in file, this reader needs {expected}")]
    SchemaVersion {
        /// The table.
        table: String,
        /// Version this crate reads.
        expected: u32,
        /// Version found in the file (or its unparsable text).
        found: String,
    },
    /// The Murder Plan browser bundle cannot be read: not gzip, truncated,
    /// or content that breaks its layout or the rules (see
    /// `murder_plan::bundle`).
    #[error("{file}: unreadable browser bundle: {detail}")]
    CorruptBundle {
        /// The bundle's name.
        file: &'static str,
        /// What is wrong, and where.
        detail: String,
    },
    /// A file's BLAKE2 digest differs from the one in `manifest.json`.
    #[error("{file}: BLAKE2 digest {found} does not match manifest ({expected})")]
    DigestMismatch {
        /// The file.
        file: String,
        /// Digest recorded in the manifest.
        expected: String,
        /// Digest of the bytes read.
        found: String,
    },
    /// The manifest file exists but cannot be understood.
    #[error("manifest {path} is invalid: {detail}")]
    BadManifest {
        /// Path of the manifest.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// The rows of a table contradict each other or the rules (a duplicate
    /// key, a probability outside [0, 1], a value out of range).
    #[error("{table}, row {row}: {detail}")]
    BadRow {
        /// The table.
        table: String,
        /// Zero-based row number.
        row: usize,
        /// What is wrong.
        detail: String,
    },
    /// A query argument outside the game's range.
    #[error("{what} is out of range: {detail}")]
    OutOfRange {
        /// The argument.
        what: gametab_games::Argument,
        /// The value and the allowed range.
        detail: String,
    },
    /// A well-formed query whose answer the loaded tables do not hold.
    #[error("not in table {table}: {key}")]
    NotInTable {
        /// The table consulted.
        table: &'static str,
        /// The key that was looked up.
        key: String,
    },
    /// Input that is inconsistent in itself (contradictory facts or evidence).
    #[error("inconsistent input: {0}")]
    Inconsistent(String),
    /// An engine the query fell back to stopped on its caller's budget
    /// (`gametab_games::budget`).
    #[error("{0}")]
    Budget(gametab_games::budget::Exceeded),
    /// Data handed to the table writer does not match the schema (feature
    /// `write`: only the table builder writes tables).
    #[cfg(any(test, feature = "write"))]
    #[error("cannot write table {table}: {detail}")]
    Write {
        /// The table.
        table: &'static str,
        /// What is wrong.
        detail: String,
    },
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<gametab_games::Error> for Error {
    /// A model's or an engine's refusal, as the same variant here, so a
    /// caller matches one error type whatever answered the query.
    fn from(error: gametab_games::Error) -> Error {
        match error {
            gametab_games::Error::OutOfRange { what, detail } => Error::OutOfRange { what, detail },
            gametab_games::Error::Inconsistent(detail) => Error::Inconsistent(detail),
            gametab_games::Error::Budget(exceeded) => Error::Budget(exceeded),
            // The event index folds into the text: a table query has no log.
            located @ gametab_games::Error::AtEvent { .. } => Error::from(located.without_event()),
        }
    }
}
