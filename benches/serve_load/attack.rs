//! Phase `attack` of the load bench: the server as a hostile but legal
//! client meets it (issue 23), measured the same way for any build.
//!
//! - [`connections`]: idle, idle keep-alive, slowloris and slow-body
//!   connections (`SERVE_BENCH_ATTACKERS` of each, default 300) against a
//!   descriptor limit of 1024, held for `SERVE_BENCH_ATTACK_SECONDS`
//!   (default 45): how many the server closed, and how a fresh client
//!   fared meanwhile (a probe every 200 ms, 5 s timeout).
//! - [`heavy`]: table p99 at 8 connections, quiet and with four heavy
//!   Werewolf logs kept in flight; the server's CPU time after four heavy
//!   logs whose clients left after 2 s; 16 concurrent Cluedo advice
//!   requests.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::server::{cpu_time, fresh_get, percentile_ms, post_unread, status_of, Server};

/// A legal Werewolf log of 64 players, 4 wolves and `votes` votes (5,000
/// votes: about 218 KiB, the issue's "15 s of CPU" log).
pub fn heavy_werewolf_log(votes: u32) -> Vec<u8> {
    let events: Vec<String> = (0..votes)
        .map(|i| {
            let voter = i % 64 + 1;
            let target = (voter + 1 + i % 62) % 64 + 1;
            format!(r#"{{"kind": "vote", "voter": {voter}, "target": {target}}}"#)
        })
        .collect();
    format!(
        r#"{{"players": 64, "wolves": 4, "events": [{}]}}"#,
        events.join(",")
    )
    .into_bytes()
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Whether the server has closed `stream` (without waiting): an answer
/// the attacker never read (a 408) is read past to see the end behind it.
fn closed(mut stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut buffer = [0u8; 4096];
    let result = loop {
        match stream.read(&mut buffer) {
            Ok(0) => break true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break false,
            Err(_) => break true,
        }
    };
    stream.set_nonblocking(false).unwrap();
    result
}

/// Idle, keep-alive, slowloris and slow-body connections against a
/// descriptor limit of 1024.
pub fn connections(tables: &Path) {
    let per_kind = env_or("SERVE_BENCH_ATTACKERS", 300) as usize;
    let seconds = env_or("SERVE_BENCH_ATTACK_SECONDS", 45);
    let server = Server::start(tables, &[], Some(1024));
    let address = server.address.clone();
    let addr = address.parse().unwrap();
    let connect = || TcpStream::connect_timeout(&addr, Duration::from_secs(1)).ok();
    let mut failed = 0;
    let mut kinds: Vec<(&str, Vec<TcpStream>)> = Vec::new();
    for kind in ["idle", "keep-alive", "slowloris", "slow body"] {
        let mut streams = Vec::new();
        for _ in 0..per_kind {
            let Some(mut stream) = connect() else {
                failed += 1;
                continue;
            };
            let sent = match kind {
                "keep-alive" => {
                    let r = stream.write_all(
                        format!("GET /health HTTP/1.1\r\nHost: {address}\r\n\r\n").as_bytes(),
                    );
                    // Read the answer (its head and small body).
                    stream
                        .set_read_timeout(Some(Duration::from_secs(5)))
                        .unwrap();
                    let mut buf = [0u8; 1024];
                    r.and_then(|()| stream.read(&mut buf).map(drop))
                }
                "slowloris" => stream.write_all(b"GET /v1/manifest HTTP/1.1\r\nX-Slow: "),
                "slow body" => stream.write_all(
                    b"POST /v1/cluedo/notebook HTTP/1.1\r\nHost: x\r\n\
                      Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
                ),
                _ => Ok(()),
            };
            if sent.is_ok() {
                streams.push(stream);
            } else {
                failed += 1;
            }
        }
        kinds.push((kind, streams));
    }
    let opened: usize = kinds.iter().map(|(_, s)| s.len()).sum();
    println!(
        "\nattack, connections: {opened} opened ({per_kind} of each kind, {failed} failed to \
         open), server descriptor limit 1024, held {seconds} s"
    );
    // A byte a second on the slow ones; a fresh probe every 200 ms.
    let stop = Arc::new(AtomicBool::new(false));
    let probes: Arc<Mutex<Vec<Result<Duration, String>>>> = Arc::default();
    let prober = {
        let (stop, probes, address) = (Arc::clone(&stop), Arc::clone(&probes), address.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let result = fresh_get(
                    &address,
                    "/v1/murder-plan/win-rate?horizon=8",
                    Duration::from_secs(5),
                )
                .and_then(|(status, took)| {
                    if status == 200 {
                        Ok(took)
                    } else {
                        Err(format!("status {status}"))
                    }
                });
                probes.lock().unwrap().push(result);
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(seconds) {
        std::thread::sleep(Duration::from_secs(1));
        for (kind, streams) in &mut kinds {
            if *kind == "slowloris" || *kind == "slow body" {
                for stream in streams.iter_mut() {
                    let _ = stream.write_all(b"a");
                }
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    prober.join().unwrap();
    for (kind, streams) in &kinds {
        let open = streams.iter().filter(|s| !closed(s)).count();
        println!(
            "  {kind:<11} {:>5} opened, {open:>5} still open after {seconds} s",
            streams.len()
        );
    }
    let probes = probes.lock().unwrap();
    let mut answered: Vec<Duration> = probes.iter().filter_map(|p| p.clone().ok()).collect();
    answered.sort();
    let failures: Vec<&String> = probes.iter().filter_map(|p| p.as_ref().err()).collect();
    println!(
        "  fresh client meanwhile: {} of {} answered, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
         {} failed{}",
        answered.len(),
        probes.len(),
        percentile_ms(&answered, 0.5),
        percentile_ms(&answered, 0.99),
        percentile_ms(&answered, 1.0),
        failures.len(),
        failures
            .first()
            .map(|e| format!(" (first: {e})"))
            .unwrap_or_default()
    );
}

/// A keep-alive client reading answers by their `content-length`.
struct KeepAlive {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl KeepAlive {
    fn connect(address: &str) -> KeepAlive {
        let stream = TcpStream::connect(address).unwrap();
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        KeepAlive {
            stream,
            buffer: Vec::new(),
        }
    }

    /// GET `path`: the status.
    fn get(&mut self, path: &str) -> Option<u16> {
        write!(self.stream, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").ok()?;
        let mut chunk = [0u8; 16384];
        let head_end = loop {
            if let Some(at) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let n = self.stream.read(&mut chunk).ok().filter(|&n| n > 0)?;
            self.buffer.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).to_ascii_lowercase();
        let status = head.get(9..12)?.parse().ok()?;
        let length: usize = head
            .split("\r\n")
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        while self.buffer.len() < head_end + length {
            let n = self.stream.read(&mut chunk).ok().filter(|&n| n > 0)?;
            self.buffer.extend_from_slice(&chunk[..n]);
        }
        self.buffer.drain(..head_end + length);
        Some(status)
    }
}

/// Table queries on `connections` keep-alive connections for `duration`:
/// every latency, and the count of failures.
fn table_latencies(address: &str, connections: usize, duration: Duration) -> (Vec<Duration>, u64) {
    let paths: Vec<String> = (1..=8)
        .flat_map(|days| {
            ["0,0", "0,1", "1,0", "1,1"].into_iter().map(move |brain| {
                format!("/v1/murder-plan/state?days={days}&brain={brain}&killer=1,0")
            })
        })
        .collect();
    let paths = Arc::new(paths);
    let threads: Vec<_> = (0..connections)
        .map(|c| {
            let (address, paths) = (address.to_string(), Arc::clone(&paths));
            std::thread::spawn(move || {
                let mut client = KeepAlive::connect(&address);
                let (mut latencies, mut failures) = (Vec::new(), 0u64);
                let started = Instant::now();
                let mut i = c * 7;
                while started.elapsed() < duration {
                    let sent = Instant::now();
                    match client.get(&paths[i % paths.len()]) {
                        Some(200) => latencies.push(sent.elapsed()),
                        _ => {
                            failures += 1;
                            client = KeepAlive::connect(&address);
                        }
                    }
                    i += 1;
                }
                (latencies, failures)
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut failures = 0;
    for thread in threads {
        let (latencies, failed) = thread.join().unwrap();
        all.extend(latencies);
        failures += failed;
    }
    all.sort();
    (all, failures)
}

fn report_latencies(what: &str, (latencies, failures): &(Vec<Duration>, u64)) {
    println!(
        "  {what:<44} {:>7} answers  p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms  {failures} failed",
        latencies.len(),
        percentile_ms(latencies, 0.5),
        percentile_ms(latencies, 0.99),
        percentile_ms(latencies, 1.0)
    );
}

/// Heavy engine requests and the table queries beside them.
pub fn heavy(tables: &Path) {
    let window = Duration::from_secs(env_or("SERVE_BENCH_HEAVY_SECONDS", 10));
    let server = Server::start(tables, &[], None);
    let address = server.address.clone();
    let log = Arc::new(heavy_werewolf_log(5000));
    println!(
        "\nattack, heavy engine requests (Werewolf log of 64 players, 5,000 votes, {} KiB):",
        log.len() / 1024
    );
    report_latencies(
        "table queries, 8 connections, quiet",
        &table_latencies(&address, 8, window),
    );
    // Four heavy logs kept in flight: a client whose request is answered
    // (by a 503 of a budget, or the answer) sends it again at once.
    let stop = Arc::new(AtomicBool::new(false));
    let heavy_answers: Arc<Mutex<Vec<Option<u16>>>> = Arc::default();
    let senders: Vec<_> = (0..4)
        .map(|_| {
            let (address, log, stop, answers) = (
                address.clone(),
                Arc::clone(&log),
                Arc::clone(&stop),
                Arc::clone(&heavy_answers),
            );
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Ok(mut stream) = post_unread(&address, "/v1/werewolf/posterior", &log)
                    else {
                        std::thread::sleep(Duration::from_millis(100));
                        continue;
                    };
                    // Poll for the answer so that the loop can stop.
                    loop {
                        match status_of(&mut stream, Duration::from_millis(200)) {
                            Some(status) => {
                                answers.lock().unwrap().push(Some(status));
                                break;
                            }
                            None if stop.load(Ordering::Relaxed) => return,
                            None if closed(&stream) => {
                                answers.lock().unwrap().push(None);
                                break;
                            }
                            None => {}
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    report_latencies(
        "table queries, 8 connections, 4 heavy in flight",
        &table_latencies(&address, 8, window),
    );
    stop.store(true, Ordering::Relaxed);
    for sender in senders {
        sender.join().unwrap();
    }
    let answers = heavy_answers.lock().unwrap().clone();
    println!(
        "  heavy answers meanwhile (status, none = closed): {:?}",
        answers
    );
    drop(server);

    // Four heavy logs whose clients leave after 2 s: how long the server
    // keeps computing (CPU time still growing, sampled every 500 ms).
    let server = Server::start(tables, &[], None);
    let clients: Vec<TcpStream> = (0..4)
        .filter_map(|_| post_unread(&server.address, "/v1/werewolf/posterior", &log).ok())
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    drop(clients);
    let left = Instant::now();
    let before = cpu_time(server.pid());
    let mut last = before;
    let limit = Duration::from_secs(env_or("SERVE_BENCH_BUSY_LIMIT", 300));
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let now = cpu_time(server.pid());
        let grew = now.saturating_sub(last);
        last = now;
        if grew < Duration::from_millis(50) || left.elapsed() > limit {
            break;
        }
    }
    println!(
        "  four heavy logs, clients gone after 2 s: server busy {:.1} s more ({:.1} s of CPU)",
        left.elapsed().as_secs_f64() - 0.5,
        last.saturating_sub(before).as_secs_f64()
    );
    drop(server);

    // 16 concurrent Cluedo advice requests on the example log.
    let server = Server::start(tables, &[], None);
    let example = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/examples/cluedo-game.json"),
    )
    .unwrap();
    let started = Instant::now();
    let mut streams: Vec<TcpStream> = (0..16)
        .filter_map(|_| post_unread(&server.address, "/v1/cluedo/advice", &example).ok())
        .collect();
    let mut outcomes = Vec::new();
    for stream in &mut streams {
        let left = Duration::from_secs(60).saturating_sub(started.elapsed());
        let status = status_of(stream, left.max(Duration::from_millis(1)));
        outcomes.push((status, started.elapsed()));
    }
    let within = outcomes
        .iter()
        .filter(|(s, t)| *s == Some(200) && *t <= Duration::from_secs(26))
        .count();
    let mut statuses: Vec<String> = outcomes
        .iter()
        .map(|(s, t)| {
            format!(
                "{}@{:.1}s",
                s.map_or("none".into(), |s| s.to_string()),
                t.as_secs_f64()
            )
        })
        .collect();
    statuses.sort();
    println!(
        "  16 concurrent Cluedo advice requests: {within} answered 200 within 26 s; every answer: {}",
        statuses.join(" ")
    );
}
