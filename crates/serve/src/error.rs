//! Why the server cannot start or cannot take a table set: typed, so the
//! binaries print the chain and a reload names what it refused. (A
//! request's error answer is [`crate::params::ApiError`], made from the
//! query's own `gametab_answers::Error`.)

use std::path::PathBuf;

/// A table set the server refuses to serve (at start, or on a reload).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The set's manifest cannot be read.
    #[error("cannot read {path}")]
    Manifest {
        /// The manifest's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A table of the set does not load, or its digest differs.
    #[error("loading the table set in {dir}")]
    Tables {
        /// The set's directory.
        dir: PathBuf,
        /// The lookup crate's refusal.
        #[source]
        source: gametab_lookup::Error,
    },
}

/// Why `gametab serve` stopped before serving, or while serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// There is no table set where `--tables` points.
    #[error(transparent)]
    NoTables(#[from] gametab_answers::Error),
    /// The set is there but does not load.
    #[error("cannot serve {dir}")]
    Load {
        /// The set's directory.
        dir: PathBuf,
        /// Why.
        #[source]
        source: LoadError,
    },
    /// `--cors-origin` is not a valid origin.
    #[error("--cors-origin {0:?} is not a valid origin")]
    CorsOrigin(String),
    /// A path is listed twice in the route table (a bug).
    #[error("{0} is listed twice in the route table")]
    DuplicateRoute(&'static str),
    /// The address cannot be bound.
    #[error("cannot listen on {addr}")]
    Listen {
        /// The address.
        addr: std::net::SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The runtime, the engine threads or standard output failed.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

pub use gametab_answers::chain;
