//! The `gametab` package's library: the HTTP server ([`serve`]), which
//! `gametab serve` runs. It answers with the same documents as the command
//! line, built by the game modules of `gametab-build`; the table build
//! itself (`gametab-build`) and its LPs (`gametab-solve`) are crates of
//! their own under `crates/`, and `main.rs` wires the command line to them.
//!
//! Commands write their answers to the `std::io::Write` handle they are
//! given, never with `print!`: a closed standard output must end a command
//! quietly, not panic it (see `main.rs`).

#![warn(clippy::print_stdout)]

pub mod serve;
