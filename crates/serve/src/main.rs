//! `gametab-serve`: the server alone, for a deployment that only answers
//! queries (no solver linked, so no HiGHS, cmake or libclang to build it).
//! It takes the flags of `gametab serve` and behaves the same: the
//! `listening on` line on standard output, the error chain once on
//! standard error and a non-zero exit on failure.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;

use gametab_serve::ServeArgs;

/// Serve the tables over HTTP (JSON), reloading when a new set is published.
#[derive(Debug, Parser)]
#[command(name = "gametab-serve", version)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
}

fn main() -> ExitCode {
    let args = Cli::parse().serve;
    let mut out = BufWriter::new(io::stdout());
    let result = gametab_serve::run(args, &mut out);
    let _ = out.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", gametab_serve::error::chain(&error));
            ExitCode::FAILURE
        }
    }
}
