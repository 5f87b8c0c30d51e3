//! Phase `memory` of the load bench: resident memory at start and over
//! `SERVE_BENCH_RELOADS` (default 30) published sets.
//!
//! The server serves a private copy of the table set. Each reload stages a
//! copy whose manifest differs only in its build time (a new set, the same
//! answers), publishes it with the pipeline's own publish step (the
//! directory exchange), waits until `/health` names it, and samples the
//! server's VmRSS. Four keep-alive clients query tables all along, so the
//! answer caches fill and the runtime's threads allocate as in service.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gametab_build::publish::{publish, staging_dir};
use gametab_lookup::io::blake2_hex;
use gametab_lookup::manifest::Manifest;

use super::server::{fresh_get, rss_kib, Server};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The digest `/health` reports.
fn serving(address: &str) -> Option<String> {
    let mut stream = std::net::TcpStream::connect(address).ok()?;
    use std::io::{Read, Write};
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    write!(
        stream,
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let body = answer.split("\r\n\r\n").nth(1)?;
    let json: serde_json::Value = serde_json::from_str(body).ok()?;
    Some(json["digest"].as_str()?.to_string())
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// RSS at start and over the reloads.
pub fn reloads(tables: &Path) {
    let count: u32 = std::env::var("SERVE_BENCH_RELOADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("tables");
    copy_dir(tables, &dir);
    let server = Server::start(&dir, &["--poll-ms", "100"], None);
    let pid = server.pid();
    let started_rss = rss_kib(pid);
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..4)
        .map(|c| {
            let (address, stop) = (server.address.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut i = c;
                while !stop.load(Ordering::Relaxed) {
                    let days = i % 8 + 1;
                    let brain = ["0,0", "0,1", "1,0", "1,1"][i / 8 % 4];
                    let path = format!(
                        "/v1/murder-plan/state?days={days}&brain={brain}&killer=1,0&killer_intrigue={}",
                        i / 32 % 3
                    );
                    let _ = fresh_get(&address, &path, Duration::from_secs(30));
                    i += 1;
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(3));
    let first = rss_kib(pid);
    println!(
        "\nmemory: RSS after start {:.1} MiB, after 3 s of table queries {:.1} MiB (the first set)",
        mib(started_rss),
        mib(first)
    );
    let mut samples = Vec::new();
    let mut load_times = Vec::new();
    for i in 1..=count {
        let staging = staging_dir(&dir);
        copy_dir(&dir, &staging);
        let path = staging.join("manifest.json");
        let mut manifest: Manifest =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        manifest.build_seconds = 100_000.0 + f64::from(i);
        let bytes = serde_json::to_vec_pretty(&manifest).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let digest = blake2_hex(&bytes);
        let published = Instant::now();
        publish(&staging, &dir).unwrap();
        while serving(&server.address).as_deref() != Some(digest.as_str()) {
            assert!(
                published.elapsed() < Duration::from_secs(120),
                "reload {i} never served"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        load_times.push(published.elapsed());
        std::thread::sleep(Duration::from_millis(500));
        samples.push(rss_kib(pid));
    }
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }
    std::thread::sleep(Duration::from_secs(5));
    let idle = rss_kib(pid);
    let max = samples.iter().copied().max().unwrap_or(0);
    let last = samples.last().copied().unwrap_or(0);
    let list: Vec<String> = samples.iter().map(|k| format!("{:.0}", mib(*k))).collect();
    println!(
        "  RSS after each of {count} reloads (MiB): {}",
        list.join(" ")
    );
    let mut times = load_times.clone();
    times.sort();
    println!(
        "  publish to serving: median {:.2} s, max {:.2} s",
        times
            .get(times.len() / 2)
            .map_or(0.0, Duration::as_secs_f64),
        times.last().map_or(0.0, Duration::as_secs_f64)
    );
    println!(
        "  first set {:.1} MiB; after the reloads: last {:.1} MiB ({:+.1}%), max {:.1} MiB \
         ({:+.1}%), after 5 s idle {:.1} MiB ({:+.1}%)",
        mib(first),
        mib(last),
        (last as f64 / first as f64 - 1.0) * 100.0,
        mib(max),
        (max as f64 / first as f64 - 1.0) * 100.0,
        mib(idle),
        (idle as f64 / first as f64 - 1.0) * 100.0
    );
}
