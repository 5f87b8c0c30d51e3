//! Every kind of query the command line answers, timed as a whole process:
//! start, open the tables (manifest, digests), decode what the query needs,
//! answer, exit. Each query runs `QUERY_RUNS` times (default 15) after one
//! unmeasured run that warms the page cache; the report gives the minimum,
//! median and maximum wall time and marks those whose median exceeds the
//! 150 ms target. Medians are the number to quote: the machine is shared.
//!
//! `cargo bench --bench query_processes` (a plain program, not criterion:
//! what is measured is a process, not a function). It runs
//! `target/release/gametab` (or `GAMETAB_BIN`) on the tables in `tables/`
//! (or `GAMETAB_TABLES`); build both first (`cargo build --release`,
//! `gametab build`).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The target of issue 28: every query within this as a whole process.
const TARGET: Duration = Duration::from_millis(150);

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bin = std::env::var_os("GAMETAB_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/gametab"));
    let tables = std::env::var("GAMETAB_TABLES")
        .unwrap_or_else(|_| root.join("tables").display().to_string());
    let runs: usize = std::env::var("QUERY_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15)
        .max(1);
    let cluedo = root
        .join("scripts/examples/cluedo-game.json")
        .display()
        .to_string();
    let t = tables.as_str();
    let queries: Vec<Vec<&str>> = vec![
        vec![
            "lookup", "--tables", t, "value", "--days", "3", "--brain", "0,0", "--killer", "0,0",
        ],
        vec![
            "lookup",
            "--tables",
            t,
            "strategy",
            "--side",
            "mastermind",
            "--days",
            "8",
            "--brain",
            "0,1",
            "--killer",
            "1,0",
        ],
        vec![
            "lookup",
            "--tables",
            t,
            "sample",
            "--side",
            "protagonists",
            "--days",
            "8",
            "--u",
            "0.42",
            "--brain",
            "0,1",
            "--killer",
            "1,0",
        ],
        vec![
            "lookup", "--tables", t, "brain", "--days", "5", "--brain", "0,0", "--killer", "1,1",
        ],
        vec![
            "lookup",
            "--tables",
            t,
            "win-rate",
            "--horizon",
            "8",
            "--brain",
            "0,1",
            "--killer",
            "1,0",
        ],
        vec!["lookup", "--tables", t, "win-rates"],
        vec![
            "lookup", "--tables", t, "state", "--days", "8", "--brain", "0,1", "--killer", "1,0",
        ],
        vec![
            "lookup",
            "--tables",
            t,
            "moves",
            "--side",
            "mastermind",
            "--days",
            "8",
            "--brain",
            "0,1",
            "--killer",
            "1,0",
        ],
        vec![
            "dice",
            "--players",
            "4",
            "--bid",
            "5x5",
            "--mine",
            "1,5,5,2,3",
        ],
        vec![
            "dice",
            "--players",
            "4",
            "--bid",
            "5x5",
            "--mine",
            "1,5,5,2,3",
            "--wild",
            "--json",
        ],
        vec![
            "dice",
            "endgame",
            "--tables",
            t,
            "--dice",
            "1,1",
            "--sides",
            "6",
            "--hand",
            "4",
            "--history",
            "13",
        ],
        vec![
            "dice",
            "endgame",
            "--tables",
            t,
            "--dice",
            "2,1",
            "--sides",
            "6",
            "--hand",
            "3,5",
            "--history",
            "15,23",
        ],
        vec![
            "dice",
            "endgame",
            "--tables",
            t,
            "--dice",
            "1,2",
            "--sides",
            "6",
            "--history",
            "16,21,26",
            "--json",
        ],
        vec![
            "dice", "endgame", "--tables", t, "--dice", "2,1", "--sides", "6", "--wild", "--hand",
            "1,6",
        ],
        vec!["cluedo", "--log", &cluedo],
        vec!["cluedo", "--log", &cluedo, "--json"],
        vec!["cluedo", "--log", &cluedo, "--advise"],
        vec!["cluedo", "--log", &cluedo, "--advise", "--room", "Kitchen"],
    ];
    println!("median ms | min ms | max ms | query (gametab ...)");
    let mut over = 0;
    for args in &queries {
        let run = || {
            let start = Instant::now();
            let status = Command::new(&bin)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            (start.elapsed(), status.is_ok_and(|s| s.success()))
        };
        let (_, ok) = run();
        if !ok {
            println!("   failed | | | {}", args.join(" "));
            over += 1;
            continue;
        }
        let mut times: Vec<Duration> = (0..runs).map(|_| run().0).collect();
        times.sort();
        let median = times[times.len() / 2];
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mark = if median > TARGET {
            over += 1;
            "  (over 150 ms)"
        } else {
            ""
        };
        println!(
            "{:9.1} | {:6.1} | {:6.1} | {}{mark}",
            ms(median),
            ms(times[0]),
            ms(times[times.len() - 1]),
            args.join(" ")
                .replace(t, "TABLES")
                .replace(&cluedo, "scripts/examples/cluedo-game.json")
        );
    }
    println!(
        "{over} of {} queries over the 150 ms target (or failed)",
        queries.len()
    );
}
