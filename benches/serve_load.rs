//! A bounded load generator against `gametab serve` on loopback (not a
//! criterion bench: a closed-loop load test that stops by itself).
//!
//! `cargo bench --bench serve_load` starts the release `gametab serve` on
//! a free loopback port over a table set (`GAMETAB_TABLES`, default
//! `tables/`, built by `scripts/build-tables`), then for each connection
//! count (8 and 64) keeps that many keep-alive HTTP/1.1 connections busy
//! for `SERVE_BENCH_SECONDS` (default 10) with a fixed mix of table
//! queries: Murder Plan states with every move (60%), Liar's Dice bids
//! (30%) and win rates (10%). Each connection is a hyper client on one
//! tokio runtime (`SERVE_BENCH_CLIENT_THREADS`, default 1); the server runs
//! with its defaults (a worker per core, the answer cache on).
//!
//! It prints throughput, latency percentiles per query kind, errors, and
//! the server's resident memory (VmRSS) sampled every second, then the same
//! state query answered by one `gametab lookup` process per query, for
//! comparison. Every answer's status is checked: any non-200 is an error.
//!
//! That is phase `load` (it also prints the server's CPU time per request,
//! which the client's share of the cores does not change as much as the
//! throughput). `SERVE_BENCH_PHASES` (default `load,attack,memory`) also
//! runs the issue-23 measurements: `attack` (`connections`: idle, keep-alive,
//! slowloris and slow-body connections against a descriptor limit of 1024;
//! `heavy`: table p99 with four heavy Werewolf logs in flight; the CPU the server
//! spends after heavy clients leave; 16 concurrent Cluedo advice requests:
//! `serve_load/attack.rs`) and `memory` (RSS at start and over 30 published
//! sets: `serve_load/memory.rs`). `SERVE_BENCH_BINARY=path/to/gametab`
//! measures another build (an older one, for a before/after) with the same
//! bench.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "serve_load/attack.rs"]
mod attack;
#[path = "serve_load/memory.rs"]
mod memory;
#[path = "serve_load/server.rs"]
mod server;

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper::Request;
use hyper_util::rt::TokioIo;

/// The query kinds of the mix, in the order their shares are listed.
const KINDS: [&str; 3] = ["murder-plan state", "dice bid", "win rate"];

/// The request paths, cycled through by every connection (each starting
/// at its own offset): 6 Murder Plan states, 3 dice bids, 1 win rate in
/// every 10.
fn mix() -> Vec<(usize, String)> {
    let offsets = ["0,0", "0,1", "1,0", "1,1"];
    let mut states = Vec::new();
    for days in 1..=8 {
        for (i, brain) in offsets.iter().enumerate() {
            let killer = offsets[(i + days) % 4];
            let intrigue = days % 3;
            states.push(format!(
                "/v1/murder-plan/state?days={days}&brain={brain}&killer={killer}&killer_intrigue={intrigue}"
            ));
        }
    }
    let bids = [
        "/v1/dice/bid?players=4&bid=5x5&mine=1,5,5,2,3&rel=2&wild=false",
        "/v1/dice/bid?players=6&bid=8x3&mine=3,3,4,6,1&rel=1.5&wild=true",
        "/v1/dice/bid?players=3&bid=4x6&mine=6,2,2,5,5&rel=0",
    ];
    let rates = [
        "/v1/murder-plan/win-rate?horizon=8",
        "/v1/murder-plan/win-rate?horizon=5&brain=0,1&killer=1,0",
    ];
    let mut paths = Vec::new();
    for round in 0..states.len() {
        for k in 0..6 {
            paths.push((0, states[(round * 6 + k) % states.len()].clone()));
        }
        for k in 0..3 {
            paths.push((1, bids[(round + k) % bids.len()].to_string()));
        }
        paths.push((2, rates[round % rates.len()].to_string()));
    }
    paths
}

/// What one connection measured.
#[derive(Default)]
struct Measured {
    /// Latency of every answer in microseconds, per kind.
    latencies: [Vec<u32>; 3],
    errors: u64,
    first_error: Option<String>,
}

async fn connection(
    address: String,
    paths: Arc<Vec<(usize, String)>>,
    start: usize,
    stop: Arc<AtomicBool>,
) -> Measured {
    let mut measured = Measured::default();
    let stream = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    stream.set_nodelay(true).unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(conn);
    let mut i = start;
    while !stop.load(Ordering::Relaxed) {
        let (kind, path) = &paths[i % paths.len()];
        i += 1;
        let request = Request::get(path.as_str())
            .header("host", address.as_str())
            .body(Empty::<Bytes>::new())
            .unwrap();
        let sent = Instant::now();
        let result = async {
            let response = sender.send_request(request).await?;
            let status = response.status();
            let body = response.into_body().collect().await?.to_bytes();
            Ok::<_, hyper::Error>((status, body.len()))
        }
        .await;
        let micros = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        match result {
            Ok((status, len)) if status == 200 && len > 0 => measured.latencies[*kind].push(micros),
            Ok((status, _)) => {
                measured.errors += 1;
                measured
                    .first_error
                    .get_or_insert(format!("{status} for {path}"));
            }
            Err(e) => {
                measured.errors += 1;
                measured
                    .first_error
                    .get_or_insert(format!("{e} for {path}"));
                break;
            }
        }
    }
    measured
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[at]) / 1000.0
}

/// The client's runtime threads (`SERVE_BENCH_CLIENT_THREADS`, default 1:
/// on a 2-core machine the client and the server share the cores).
fn client_threads() -> usize {
    std::env::var("SERVE_BENCH_CLIENT_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

use server::rss_kib;

fn run(address: &str, pid: u32, connections: usize, seconds: u64) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(client_threads())
        .enable_all()
        .build()
        .unwrap();
    let paths = Arc::new(mix());
    let stop = Arc::new(AtomicBool::new(false));
    let mut rss = Vec::new();
    let cpu_before = server::cpu_time(pid);
    let started = Instant::now();
    let measured: Vec<Measured> = runtime.block_on(async {
        let tasks: Vec<_> = (0..connections)
            .map(|c| {
                tokio::spawn(connection(
                    address.to_string(),
                    Arc::clone(&paths),
                    c * 7,
                    Arc::clone(&stop),
                ))
            })
            .collect();
        for _ in 0..seconds {
            tokio::time::sleep(Duration::from_secs(1)).await;
            rss.push(rss_kib(pid));
        }
        stop.store(true, Ordering::Relaxed);
        let mut all = Vec::new();
        for task in tasks {
            all.push(task.await.unwrap());
        }
        all
    });
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = server::cpu_time(pid).saturating_sub(cpu_before);
    let errors: u64 = measured.iter().map(|m| m.errors).sum();
    let mut total = 0;
    println!("\n{connections} connections, {elapsed:.1} s:");
    let mut every = Vec::new();
    for (k, kind) in KINDS.iter().enumerate() {
        let mut all: Vec<u32> = measured
            .iter()
            .flat_map(|m| m.latencies[k].iter().copied())
            .collect();
        all.sort_unstable();
        total += all.len();
        println!(
            "  {kind:<18} {:>8} answers  p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
            all.len(),
            percentile(&all, 0.5),
            percentile(&all, 0.99),
            percentile(&all, 1.0)
        );
        every.extend(all);
    }
    every.sort_unstable();
    println!(
        "  all                {total:>8} answers  p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
        percentile(&every, 0.5),
        percentile(&every, 0.99),
        percentile(&every, 1.0)
    );
    println!(
        "  throughput {:.0} requests/s, {errors} errors; server CPU {:.1} us per request",
        total as f64 / elapsed,
        cpu.as_secs_f64() * 1e6 / total.max(1) as f64
    );
    if let Some(e) = measured.iter().find_map(|m| m.first_error.clone()) {
        println!("  first error: {e}");
    }
    let mib: Vec<String> = rss
        .iter()
        .map(|k| format!("{:.1}", *k as f64 / 1024.0))
        .collect();
    println!("  server RSS each second (MiB): {}", mib.join(" "));
}

/// The same state query by one `gametab lookup` process each.
fn cli_per_query(tables: &std::path::Path, count: usize) {
    let mut times = Vec::new();
    for i in 0..count {
        let days = (i % 8 + 1).to_string();
        let started = Instant::now();
        let output = Command::new(server::binary())
            .args(["lookup", "--tables"])
            .arg(tables)
            .args([
                "state", "--days", &days, "--brain", "0,1", "--killer", "1,0",
            ])
            .output()
            .expect("gametab lookup runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        times.push((started.elapsed().as_micros()) as u32);
    }
    times.sort_unstable();
    let mean = times.iter().map(|&t| f64::from(t)).sum::<f64>() / times.len() as f64;
    println!(
        "\nCLI, one `gametab lookup state` process per query ({count} queries, sequential):\n  \
         p50 {:.1} ms  max {:.1} ms  throughput {:.1} queries/s",
        percentile(&times, 0.5),
        percentile(&times, 1.0),
        1e6 / mean
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that names something else
    // (another bench's) skips this one.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filter.is_empty() && !filter.iter().any(|f| "serve_load".contains(f.as_str())) {
        return;
    }
    let tables = std::env::var_os("GAMETAB_TABLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables"));
    if !tables.join("manifest.json").exists() {
        eprintln!(
            "serve_load: no table set in {} (run scripts/build-tables, or set GAMETAB_TABLES)",
            tables.display()
        );
        std::process::exit(1);
    }
    let phases =
        std::env::var("SERVE_BENCH_PHASES").unwrap_or_else(|_| "load,attack,memory".into());
    let phases: Vec<&str> = phases.split(',').map(str::trim).collect();
    println!(
        "serve_load: {} on {}, phases {phases:?}",
        server::binary().display(),
        tables.display()
    );
    if phases.contains(&"load") {
        load(&tables);
    }
    if phases.contains(&"attack") || phases.contains(&"connections") {
        attack::connections(&tables);
    }
    if phases.contains(&"attack") || phases.contains(&"heavy") {
        attack::heavy(&tables);
    }
    if phases.contains(&"memory") {
        memory::reloads(&tables);
    }
}

/// Phase `load`: throughput and latency at 8 and 64 connections.
fn load(tables: &std::path::Path) {
    let seconds: u64 = std::env::var("SERVE_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    // SERVE_BENCH_CACHE_MIB=0 measures every answer computed afresh.
    let cache_mib = std::env::var("SERVE_BENCH_CACHE_MIB").unwrap_or_else(|_| "64".into());
    let server = server::Server::start(tables, &["--cache-mib", &cache_mib], None);
    let address = server.address.clone();
    println!(
        "gametab serve on {address}, tables {}, answer cache {cache_mib} MiB, client threads {}",
        tables.display(),
        client_threads()
    );
    let paths = mix();
    let mut kinds = BTreeMap::new();
    for (k, _) in &paths {
        *kinds.entry(KINDS[*k]).or_insert(0.0) += 100.0 / paths.len() as f64;
    }
    println!("mix (% of requests): {kinds:?}");
    for connections in [8, 64] {
        run(&address, server.pid(), connections, seconds);
    }
    drop(server);
    cli_per_query(tables, 40);
}
