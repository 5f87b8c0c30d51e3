//! The engine pool under heavy legal logs (`src/serve/engine.rs`): the
//! time budget answers a 503 naming it, a full queue answers 503 at once,
//! a request whose client went away stops its engine, and table requests
//! are answered while every engine thread is busy.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::common;
use super::harness::{agent, examples, get, post, read_answer, Server};

/// A legal Werewolf log that takes the engine far longer than any budget
/// below: 64 players, 4 wolves (635,376 wolf sets to weigh), `votes` votes.
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

/// POST `body` on a raw connection and return it unread (the client that
/// walks away closes it).
fn post_raw(server: &Server, path: &str, body: &[u8]) -> TcpStream {
    let mut stream = server.connect();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body).unwrap();
    stream
}

#[test]
fn the_time_budget_answers_503_naming_it() {
    let server = Server::start(common::built_tables(), &["--engine-ms", "300"]);
    let answer = post(
        &agent(),
        &format!("{}/v1/werewolf/posterior", server.url),
        &heavy_werewolf_log(2000),
    );
    assert_eq!(answer.status, 503, "{}", answer.body);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("time budget of 300 ms") && error.contains("--engine-ms"),
        "{error}"
    );
    // A light log is still answered within the same budget.
    let demo = std::fs::read(examples().join("werewolf-demo.json")).unwrap();
    let answer = post(
        &agent(),
        &format!("{}/v1/werewolf/posterior", server.url),
        &demo,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[test]
fn a_full_queue_is_refused_at_once_and_an_abandoned_request_frees_its_thread() {
    let server = Server::start(
        common::built_tables(),
        &[
            "--engine-threads",
            "1",
            "--engine-queue",
            "1",
            "--engine-ms",
            "600000",
        ],
    );
    let heavy = heavy_werewolf_log(5000);
    // One computing, one waiting: the third is refused with Retry-After.
    let computing = post_raw(&server, "/v1/werewolf/posterior", &heavy);
    std::thread::sleep(Duration::from_millis(300));
    let waiting = post_raw(&server, "/v1/werewolf/posterior", &heavy);
    std::thread::sleep(Duration::from_millis(300));
    let mut refused = post_raw(&server, "/v1/werewolf/roles", &heavy);
    let answer = read_answer(&mut refused);
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert_eq!(answer.header("retry-after"), Some("1"));
    assert!(answer.json()["error"]
        .as_str()
        .unwrap()
        .contains("--engine-queue"));
    // Both heavy clients walk away: their engine work stops (it would take
    // minutes), so a light request is answered by the one engine thread.
    drop(computing);
    waiting.shutdown(std::net::Shutdown::Both).unwrap();
    drop(waiting);
    let demo = std::fs::read(examples().join("werewolf-demo.json")).unwrap();
    let started = Instant::now();
    // The server notices the closed connections asynchronously: a client
    // that honours Retry-After tries again.
    let answer = loop {
        let answer = post(
            &agent(),
            &format!("{}/v1/werewolf/posterior", server.url),
            &demo,
        );
        if answer.status != 503 || started.elapsed() > Duration::from_secs(60) {
            break answer;
        }
        std::thread::sleep(Duration::from_secs(1));
    };
    assert_eq!(answer.status, 200, "{}", answer.body);
    // Not a timing bound: the heavy logs alone need minutes of CPU.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the abandoned requests kept the engine: {:?}",
        started.elapsed()
    );
}

/// p99 of `latencies`.
fn p99(latencies: &mut [Duration]) -> Duration {
    latencies.sort();
    latencies[(latencies.len() - 1) * 99 / 100]
}

/// `count` table queries on one keep-alive connection: their latencies.
fn table_latencies(server: &Server, count: usize) -> Vec<Duration> {
    let agent = agent();
    let url = format!(
        "{}/v1/murder-plan/state?days=8&brain=0,1&killer=1,0",
        server.url
    );
    (0..count)
        .map(|_| {
            let started = Instant::now();
            assert_eq!(get(&agent, &url).status, 200);
            started.elapsed()
        })
        .collect()
}

#[test]
fn table_queries_do_not_wait_behind_saturated_engines() {
    let server = Server::start(common::built_tables(), &["--engine-ms", "600000"]);
    let quiet = p99(&mut table_latencies(&server, 500));
    // Four heavy logs in flight: every engine thread busy, the rest queued.
    let heavy = heavy_werewolf_log(5000);
    let clients: Vec<TcpStream> = (0..4)
        .map(|_| post_raw(&server, "/v1/werewolf/posterior", &heavy))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let loaded = p99(&mut table_latencies(&server, 2000));
    drop(clients);
    // The issue's bound is 5 ms. The machine running the tests may be busy
    // with other work, which no server can help: the bound is 5 ms or three
    // times the quiet p99 measured just before, whichever is larger (the
    // unbounded server went from 0.6 ms to 95 ms here).
    let bound = Duration::from_millis(5).max(quiet * 3);
    assert!(
        loaded <= bound,
        "table p99 with four heavy logs in flight: {loaded:?} (quiet: {quiet:?})"
    );
}
