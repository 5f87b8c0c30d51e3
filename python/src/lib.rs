//! gametab-python: the native module of the Python package `gametab`
//! (`python/gametab/`, built by maturin into one abi3 wheel).
//!
//! Two layers, so that re-pointing the bindings is cheap:
//!
//! - [`adapter`]: plain Rust, one small module per game, each query a
//!   call into `gametab-answers` (the documents the command line's
//!   `--json` and the server print) or `gametab-games` (the rules), its
//!   answer a `serde_json::Value` and its error an [`adapter::error::Error`]
//!   (the typed error of the layer that refused it), matched by
//!   [`adapter::error::classify`] into the Python
//!   exception it becomes, with the parameter it names;
//! - `py` (feature `python`): the pyo3 module `gametab._gametab`, which
//!   converts arguments and answers, releases the GIL and applies the
//!   engine budgets around the long work, and exports whole tables as
//!   Arrow streams (`arrow`).
//!
//! Only `gametab-games`, `gametab-lookup` and `gametab-answers` are
//! bound: nothing here reaches the solver (HiGHS); tests/layout.rs checks.

pub mod adapter;

#[cfg(feature = "python")]
mod arrow;
#[cfg(feature = "python")]
mod py;
