//! The engine pool under heavy legal logs (`crates/serve/src/engine.rs`): the
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

/// Whether the server has not yet answered on `stream` (nothing to read,
/// connection still open).
fn unanswered(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut byte = [0u8; 1];
    let pending =
        matches!(stream.peek(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
    stream.set_nonblocking(false).unwrap();
    pending
}

/// The engines saturated (every thread computing a heavy log, the queue
/// full, a further engine request refused at once), table queries are all
/// answered, and the heavy requests are still unanswered when the last
/// table answer has come: so the tables were answered while every engine
/// was busy, not after. No latency bound here: the table latency under
/// saturated engines is measured by `cargo bench --bench serve_load`
/// (its `load` phase), not asserted against a clock.
#[test]
fn table_queries_do_not_wait_behind_saturated_engines() {
    let server = Server::start(
        common::built_tables(),
        &[
            "--engine-threads",
            "2",
            "--engine-queue",
            "2",
            "--engine-ms",
            "600000",
        ],
    );
    let heavy = heavy_werewolf_log(5000);
    // Two computing, two waiting (each heavy log needs minutes of CPU).
    let clients: Vec<TcpStream> = (0..4)
        .map(|_| {
            let client = post_raw(&server, "/v1/werewolf/posterior", &heavy);
            std::thread::sleep(Duration::from_millis(300));
            client
        })
        .collect();
    let saturated = |what: &str| {
        let mut refused = post_raw(&server, "/v1/werewolf/roles", &heavy);
        let answer = read_answer(&mut refused);
        assert_eq!(answer.status, 503, "{what}: {}", answer.body);
        assert!(
            answer.json()["error"]
                .as_str()
                .unwrap()
                .contains("--engine-queue"),
            "{what}: {}",
            answer.body
        );
    };
    saturated("before the table queries");
    let agent = agent();
    let url = format!(
        "{}/v1/murder-plan/state?days=8&brain=0,1&killer=1,0",
        server.url
    );
    for i in 0..2000 {
        let answer = get(&agent, &url);
        assert_eq!(answer.status, 200, "table query {i}: {}", answer.body);
    }
    saturated("after the table queries");
    for (i, client) in clients.iter().enumerate() {
        assert!(
            unanswered(client),
            "heavy request {i} was answered before the table queries were done"
        );
    }
}
