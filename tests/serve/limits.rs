//! The server under a hostile but legal client: descriptors, timeouts and
//! protocol errors (`crates/serve/src/conn/`).
//!
//! The only timing bound asserted is the issue's own: with 300 idle or
//! slowloris connections against a descriptor limit of 256, a normal
//! request is answered within 2 s. Everything else waits generously (a
//! timeout only turns a hang into a failure).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::common;
use super::harness::{agent, closed_within, get, raw, read_answer, Server};

/// Answer `GET /v1/murder-plan/win-rate?horizon=8` on a new connection and
/// return how long it took.
fn timed_request(server: &Server) -> Duration {
    let started = Instant::now();
    let mut stream = TcpStream::connect(server.address()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /v1/murder-plan/win-rate?horizon=8 HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.address()
    )
    .unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 200, "{}", answer.body);
    started.elapsed()
}

#[test]
fn idle_and_slowloris_connections_cannot_shut_out_a_client() {
    // 256 descriptors: room for 192 connections (64 are kept in reserve).
    let server = Server::start_limited(common::built_tables(), &[], Some(256));
    let log = server.wait_for_log("at most 192 connections");
    assert!(log.contains("descriptor room 192"), "{log}");
    let address = server.address().to_string();
    // 150 idle connections, then 150 slowloris ones that send a head's
    // first bytes and one more byte every 200 ms, never its end.
    let mut idle: Vec<TcpStream> = (0..150)
        .map(|_| TcpStream::connect(&address).unwrap())
        .collect();
    let mut slow: Vec<TcpStream> = (0..150)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).unwrap();
            stream
                .write_all(b"GET /v1/manifest HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .unwrap();
            stream
        })
        .collect();
    let mut worst = Duration::ZERO;
    for round in 0..10 {
        for stream in &mut slow {
            // A write to a connection the server closed may fail: the
            // attacker just carries on.
            let _ = stream.write_all(b"a");
        }
        let took = timed_request(&server);
        worst = worst.max(took);
        if round == 0 {
            // The oldest connections made room; the newest still wait.
            assert!(closed_within(&mut idle[0], Duration::from_secs(10)));
            assert!(!closed_within(&mut slow[149], Duration::from_millis(50)));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        worst < Duration::from_secs(2),
        "a request under attack took {worst:?}"
    );
    // The server never ran out of descriptors and still answers.
    assert_eq!(get(&agent(), &format!("{}/health", server.url)).status, 200);
    drop((idle, slow));
}

#[test]
fn slow_heads_slow_bodies_and_idle_connections_are_closed() {
    let server = Server::start(
        common::built_tables(),
        &["--header-timeout-ms", "300", "--idle-timeout-ms", "600"],
    );
    // A head that never ends.
    let mut slowloris = server.connect();
    slowloris
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    // A connection that never sends anything.
    let mut silent = server.connect();
    // A keep-alive connection after one answer.
    let mut kept = server.connect();
    kept.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    assert_eq!(read_answer(&mut kept).status, 200);
    for (what, stream) in [
        ("slowloris", &mut slowloris),
        ("silent", &mut silent),
        ("kept alive", &mut kept),
    ] {
        assert!(
            closed_within(stream, Duration::from_secs(20)),
            "{what} connection still open"
        );
    }
    // A body that stops halfway: 408, a JSON error naming the body.
    let mut stream = server.connect();
    stream
        .write_all(
            b"POST /v1/cluedo/notebook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"players\": 3,",
        )
        .unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 408, "{}", answer.body);
    assert_eq!(answer.json()["parameter"], "body");
    assert!(answer.json()["error"]
        .as_str()
        .unwrap()
        .contains("--header-timeout-ms"));
    // The server still answers.
    assert_eq!(get(&agent(), &format!("{}/health", server.url)).status, 200);
}

#[test]
fn protocol_errors_are_json_error_documents() {
    let server = Server::start(common::built_tables(), &[]);
    let long_value = "x".repeat(64 << 10);
    let cases: Vec<(String, Vec<u8>, u16)> = vec![
        (
            "a 64 KiB query value".into(),
            format!("GET /v1/murder-plan/state?days={long_value} HTTP/1.1\r\nHost: x\r\n\r\n")
                .into_bytes(),
            431,
        ),
        (
            "a 20 KiB header".into(),
            format!(
                "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
                "y".repeat(20 << 10)
            )
            .into_bytes(),
            431,
        ),
        (
            "101 header fields".into(),
            format!(
                "GET /health HTTP/1.1\r\nHost: x\r\n{}\r\n",
                (0..101)
                    .map(|i| format!("X-H{i}: v\r\n"))
                    .collect::<String>()
            )
            .into_bytes(),
            431,
        ),
        (
            "a malformed request line".into(),
            b"GET /health HTTP/1.1 extra\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "a header without a colon".into(),
            b"GET /health HTTP/1.1\r\nHost x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "an unparsable Content-Length".into(),
            b"POST /v1/cluedo/notebook HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n"
                .to_vec(),
            400,
        ),
    ];
    for (what, request, status) in cases {
        let answer = raw(&server, &request);
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
        assert_eq!(
            answer.header("content-type"),
            Some("application/json"),
            "{what}"
        );
        let json = answer.json();
        assert!(
            json["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}: {json}"
        );
        assert!(json.get("parameter").is_some(), "{what}: {json}");
        assert!(answer.header("x-gametab-digest").is_some(), "{what}");
    }
    // A query value just short of the head limit is a 400 naming it.
    let answer = raw(
        &server,
        format!(
            "GET /v1/murder-plan/state?days={} HTTP/1.1\r\nHost: x\r\n\r\n",
            "9".repeat(8 << 10)
        )
        .as_bytes(),
    );
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.json()["parameter"], "days");
}

#[test]
fn a_declared_body_over_the_limit_is_refused_from_its_header_at_once() {
    let server = Server::start(common::built_tables(), &[]);
    for length in [(1 << 20) + 1, 16 << 20, 64 << 20] {
        // A tiny body after a large declared length, without `Expect`: the
        // 413 comes without waiting for the rest (the read timeout only
        // turns a wait for bytes that never come into a failure).
        let mut stream = server.connect();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        write!(
            stream,
            "POST /v1/cluedo/notebook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\n\r\n{{}}"
        )
        .unwrap();
        let answer = read_answer(&mut stream);
        assert_eq!(answer.status, 413, "{length}: {}", answer.body);
        assert_eq!(answer.json()["parameter"], "body");
        assert!(answer.json()["error"]
            .as_str()
            .unwrap()
            .contains(&length.to_string()));
        assert_eq!(answer.header("connection"), Some("close"));
    }
    // A client that sends its large body anyway reads the 413 too.
    let mut stream = server.connect();
    let length = 4 << 20;
    write!(
        stream,
        "POST /v1/werewolf/posterior HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n"
    )
    .unwrap();
    let sender = {
        let mut stream = stream.try_clone().unwrap();
        std::thread::spawn(move || {
            let chunk = vec![b' '; 64 << 10];
            for _ in 0..length / chunk.len() {
                if stream.write_all(&chunk).is_err() {
                    break;
                }
            }
        })
    };
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 413, "{}", answer.body);
    sender.join().unwrap();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
}
