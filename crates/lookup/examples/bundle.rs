//! Decode a Murder Plan browser bundle and print what it holds and how
//! long decoding took (the WebAssembly module does the same on load).
//!
//! ```text
//! cargo run --release -p gametab-lookup --example bundle -- tables/murder_plan_browser.bin.gz [ROUNDS]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use gametab_lookup::murder_plan::bundle;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: bundle FILE [ROUNDS]");
        return ExitCode::from(2);
    };
    let rounds: u32 = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let file = match std::fs::read(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let content = match bundle::gunzip(&file) {
        Ok(content) => content,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let inflated = started.elapsed();
    let mut positions = 0;
    for _ in 0..rounds {
        match bundle::decode_content(&content) {
            Ok(decoded) => positions = decoded.positions,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let decoded = started.elapsed() - inflated;
    println!(
        "{path}: {} bytes, {} of content, {positions} positions; gunzip {:.2} ms, decode {:.2} ms",
        file.len(),
        content.len(),
        inflated.as_secs_f64() * 1e3,
        decoded.as_secs_f64() * 1e3 / f64::from(rounds)
    );
    ExitCode::SUCCESS
}
