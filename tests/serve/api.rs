//! The endpoints: the CLI's documents, identity headers, ETags, CORS, and
//! every kind of bad input.

use std::io::{Read, Write};
use std::net::TcpStream;

use gametab_lookup::io::blake2_hex;
use serde_json::Value;

use super::common;
use super::harness::{agent, cli_json, examples, get, get_with, post, send, Server};

fn tables_arg() -> String {
    common::built_tables().display().to_string()
}

#[test]
fn every_endpoint_answers_the_cli_document_and_names_its_set() {
    let server = Server::start(common::built_tables(), &[]);
    let agent = agent();
    let manifest = std::fs::read(common::built_tables().join("manifest.json")).unwrap();
    let digest = blake2_hex(&manifest);
    let tables = tables_arg();
    let state = ["--days", "8", "--brain", "0,1", "--killer", "1,0"];
    let lookup = |query: &[&str]| {
        let mut args = vec!["lookup", "--json", "--tables", &tables];
        args.extend_from_slice(query);
        cli_json(&args)
    };
    let cases: Vec<(String, Value)> = vec![
        (
            "/v1/murder-plan/state?days=8&brain=0,1&killer=1,0".into(),
            lookup(&[&["state"][..], &state].concat()),
        ),
        (
            "/v1/murder-plan/state?days=3&brain=1,1&killer=0,0&killer_intrigue=2&key_person_intrigue=1\
             &diagonal_left=false&intrigue2_left=true&forbid_movement_left=1"
                .into(),
            lookup(&[
                "state", "--days", "3", "--brain", "1,1", "--killer", "0,0",
                "--killer-intrigue", "2", "--key-person-intrigue", "1", "--no-diagonal",
                "--forbid-movement-left", "1",
            ]),
        ),
        (
            "/v1/murder-plan/moves?side=protagonists&days=8&brain=0,1&killer=1,0".into(),
            lookup(&[&["moves", "--side", "protagonists"][..], &state].concat()),
        ),
        (
            "/v1/murder-plan/sample?side=mastermind&u=0.42&days=8&brain=0,1&killer=1,0".into(),
            lookup(&[&["sample", "--side", "mastermind", "--u", "0.42"][..], &state].concat()),
        ),
        (
            "/v1/murder-plan/win-rate?horizon=4&brain=0,0&killer=0,0".into(),
            lookup(&["win-rate", "--horizon", "4", "--brain", "0,0", "--killer", "0,0"]),
        ),
        ("/v1/murder-plan/win-rates".into(), lookup(&["win-rates"])),
        (
            "/v1/dice/bid?players=4&bid=5x5&hand=1,5,5,2,3&rel=2&wild=false".into(),
            cli_json(&[
                "dice", "--players", "4", "--bid", "5x5", "--hand", "1,5,5,2,3", "--rel", "2",
                "--json",
            ]),
        ),
        (
            // 50 dice: 6^45 outcomes, counts far beyond 2^64 (decimal strings).
            "/v1/dice/bid?players=10&bid=12x3&hand=3,3,4,6,1&rel=1.5&wild=true".into(),
            cli_json(&[
                "dice", "--players", "10", "--bid", "12x3", "--hand", "3,3,4,6,1", "--rel", "1.5",
                "--wild", "--json",
            ]),
        ),
        (
            "/v1/dice/endgame?dice=2,1&sides=5&hand=3,5&history=1x5,2x3".into(),
            cli_json(&[
                "dice", "endgame", "--tables", &tables, "--dice", "2,1", "--sides", "5", "--hand",
                "3,5", "--history", "1x5,2x3", "--json",
            ]),
        ),
        (
            "/v1/dice/endgame?dice=1,1&sides=6&wild=true".into(),
            cli_json(&[
                "dice", "endgame", "--tables", &tables, "--dice", "1,1", "--sides", "6", "--wild",
                "--json",
            ]),
        ),
    ];
    for (path, expected) in &cases {
        let answer = get(&agent, &format!("{}{path}", server.url));
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
        assert_eq!(&answer.json(), expected, "{path}");
        assert_eq!(
            answer.header("x-gametab-digest"),
            Some(digest.as_str()),
            "{path}"
        );
        assert!(answer
            .header("x-gametab-version")
            .unwrap()
            .starts_with("gametab "));
        assert_eq!(answer.header("content-type"), Some("application/json"));
        let etag = answer.header("etag").expect("an ETag").to_string();
        let again = get_with(
            &agent,
            &format!("{}{path}", server.url),
            &[("if-none-match", &etag)],
        );
        assert_eq!(again.status, 304, "{path}: revalidation");
        assert!(again.body.is_empty());
    }
    // The published 8-day win rate from x = (0,1), y = (1,0) is what the
    // state endpoint reports as the value.
    let state = get(&agent, &format!("{}{}", server.url, cases[0].0)).json();
    let rates = &cases[5].1["win_rates"][7];
    let start = rates["starts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["brain"] == serde_json::json!([0, 1]) && s["killer"] == serde_json::json!([1, 0])
        })
        .unwrap();
    assert_eq!(state["value"], start["value"]);
    assert!(
        state["moves"]["mastermind"][0]["loss"]
            .as_f64()
            .unwrap()
            .abs()
            < 1e-9
    );

    // The engines, POSTed the example logs.
    let examples = examples();
    let cluedo = std::fs::read(examples.join("cluedo-game.json")).unwrap();
    let answer = post(
        &agent,
        &format!("{}/v1/cluedo/notebook?model=uniform-responder", server.url),
        &cluedo,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    let log = examples.join("cluedo-game.json").display().to_string();
    assert_eq!(
        answer.json(),
        cli_json(&[
            "cluedo",
            "--log",
            &log,
            "--json",
            "--model",
            "uniform-responder"
        ])
    );
    assert_eq!(answer.header("x-gametab-digest"), Some(digest.as_str()));
    let answer = post(
        &agent,
        &format!("{}/v1/cluedo/advice?room=Kitchen&top=5", server.url),
        &cluedo,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.json(),
        cli_json(&[
            "cluedo", "--log", &log, "--advise", "--room", "Kitchen", "--top", "5", "--json"
        ])
    );
    let werewolf = std::fs::read(examples.join("werewolf-demo.json")).unwrap();
    let answer = post(
        &agent,
        &format!("{}/v1/werewolf/posterior", server.url),
        &werewolf,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    let log = examples.join("werewolf-demo.json").display().to_string();
    assert_eq!(
        answer.json(),
        cli_json(&["werewolf", "--log", &log, "--json"])
    );
    // A role log through the same endpoint: the answer gains its role
    // section, the same as the CLI's.
    let roles = examples.join("werewolf-roles-12.json");
    let answer = post(
        &agent,
        &format!("{}/v1/werewolf/posterior?rule=information", server.url),
        &std::fs::read(&roles).unwrap(),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    let roles = roles.display().to_string();
    let json = answer.json();
    assert_eq!(
        json,
        cli_json(&[
            "werewolf",
            "--log",
            &roles,
            "--rule",
            "information",
            "--json"
        ])
    );
    assert_eq!(json["roles"]["players"][3]["hunter"], 1.0);
    // The roles endpoint: the same report for a role log; a side-only log
    // is read as a game without special roles and gains the role section,
    // with the side engine's P(wolf).
    let by_roles = post(
        &agent,
        &format!("{}/v1/werewolf/roles?rule=information", server.url),
        &std::fs::read(&roles).unwrap(),
    );
    assert_eq!(by_roles.status, 200, "{}", by_roles.body);
    assert_eq!(by_roles.json(), json);
    let side_only = post(
        &agent,
        &format!("{}/v1/werewolf/roles", server.url),
        &werewolf,
    );
    assert_eq!(side_only.status, 200, "{}", side_only.body);
    let side_only = side_only.json();
    let plain = cli_json(&["werewolf", "--log", &log, "--json"]);
    let players = side_only["roles"]["players"].as_array().unwrap();
    assert_eq!(players.len(), plain["beliefs"].as_array().unwrap().len());
    for (role, belief) in players.iter().zip(plain["beliefs"].as_array().unwrap()) {
        let (a, b) = (
            role["wolf"].as_f64().unwrap(),
            belief["p_wolf"].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-12, "{role} vs {belief}");
    }

    // Health, the manifest as built, and the explorer page.
    let health = get(&agent, &format!("{}/health", server.url)).json();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["digest"], digest.as_str());
    let answer = get(&agent, &format!("{}/v1/manifest", server.url));
    assert_eq!(answer.body.as_bytes(), manifest.as_slice());
    let page = get(&agent, &format!("{}/", server.url));
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.body.contains("/v1/murder-plan/state"));
}

#[test]
fn an_old_cluedo_log_is_answered_as_its_new_twin_with_a_warning_header() {
    // The example in the new format and in the old one (`me`, seats from
    // 0): the same answers; only the old one's carries `Warning: 299`.
    let server = Server::start(common::built_tables(), &[]);
    let agent = agent();
    let new = std::fs::read(examples().join("cluedo-game.json")).unwrap();
    let old = common::OLD_CLUEDO_LOG.as_bytes();
    let warning = r#"299 gametab "\"me\" numbers seats from 0, the old format; write \"viewer\": 1 and number every seat from 1 (docs/cluedo.md)""#;
    for path in [
        "/v1/cluedo/notebook",
        "/v1/cluedo/advice?top=3",
        "/v1/cluedo/advice?room=Kitchen&top=2",
    ] {
        let url = format!("{}{path}", server.url);
        let answer_new = post(&agent, &url, &new);
        let answer_old = post(&agent, &url, old);
        assert_eq!(answer_new.status, 200, "{path}: {}", answer_new.body);
        assert_eq!(answer_old.status, 200, "{path}: {}", answer_old.body);
        assert_eq!(answer_old.json(), answer_new.json(), "{path}");
        assert_eq!(answer_new.header("warning"), None, "{path}");
        assert_eq!(answer_old.header("warning"), Some(warning), "{path}");
    }
    // Both keys: refused, naming both.
    let both =
        String::from_utf8(new)
            .unwrap()
            .replacen(r#""viewer": 1,"#, r#""viewer": 1, "me": 0,"#, 1);
    let answer = post(
        &agent,
        &format!("{}/v1/cluedo/notebook", server.url),
        both.as_bytes(),
    );
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert!(
        answer.json()["error"]
            .as_str()
            .unwrap()
            .contains("the log has both \"viewer\" and \"me\""),
        "{}",
        answer.body
    );
    assert_eq!(answer.header("warning"), None);
}

/// Send `method path` (with `body`) and check the status and the JSON
/// error's parameter.
fn expect_error(
    agent: &ureq::Agent,
    server: &Server,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    status: u16,
    parameter: Option<&str>,
) {
    let url = format!("{}{path}", server.url);
    let answer = match body {
        Some(body) => post(agent, &url, body),
        None => send(agent, method, &url),
    };
    assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
    let json = answer.json();
    assert!(
        json["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{path}"
    );
    assert_eq!(
        json["parameter"].as_str(),
        parameter,
        "{method} {path}: {json}"
    );
    assert!(
        answer.header("x-gametab-digest").is_some(),
        "{path}: no digest"
    );
}

#[test]
fn bad_input_gets_the_right_status_and_names_the_parameter() {
    let mut server = Server::start(common::built_tables(), &[]);
    let agent = agent();
    let state = "brain=0,1&killer=1,0";
    let gets: Vec<(String, u16, Option<&str>)> = vec![
        (
            format!("/v1/murder-plan/state?days=9&{state}"),
            400,
            Some("days"),
        ),
        (
            format!("/v1/murder-plan/state?days=-1&{state}"),
            400,
            Some("days"),
        ),
        (
            format!("/v1/murder-plan/state?days=3.5&{state}"),
            400,
            Some("days"),
        ),
        (format!("/v1/murder-plan/state?{state}"), 400, Some("days")),
        (
            "/v1/murder-plan/state?days=3&brain=2,0&killer=1,0".into(),
            400,
            Some("brain"),
        ),
        (
            "/v1/murder-plan/state?days=3&brain=0,1".into(),
            400,
            Some("killer"),
        ),
        (
            "/v1/murder-plan/state?days=3&brain=0,1,1&killer=0,0".into(),
            400,
            Some("brain"),
        ),
        (
            format!("/v1/murder-plan/state?days=3&{state}&killer_intrigue=5"),
            400,
            Some("killer_intrigue"),
        ),
        (
            format!("/v1/murder-plan/state?days=3&{state}&diagonal_left=maybe"),
            400,
            Some("diagonal_left"),
        ),
        (
            format!("/v1/murder-plan/state?days=3&{state}&colour=red"),
            400,
            Some("colour"),
        ),
        (
            format!("/v1/murder-plan/state?days=3&days=4&{state}"),
            400,
            Some("days"),
        ),
        (
            format!("/v1/murder-plan/moves?side=referee&days=3&{state}"),
            400,
            Some("side"),
        ),
        (
            format!("/v1/murder-plan/moves?side=mastermind&days=0&{state}"),
            400,
            Some("days"),
        ),
        (
            format!("/v1/murder-plan/sample?side=mastermind&days=3&{state}&u=1"),
            400,
            Some("u"),
        ),
        (
            format!("/v1/murder-plan/sample?side=mastermind&days=3&{state}&u=NaN"),
            400,
            Some("u"),
        ),
        (
            format!("/v1/murder-plan/sample?side=mastermind&days=3&{state}"),
            400,
            Some("u"),
        ),
        // A state the mastermind has already won has no moves: not in the table.
        (
            format!("/v1/murder-plan/moves?side=mastermind&days=3&{state}&killer_intrigue=4"),
            404,
            None,
        ),
        (
            "/v1/murder-plan/win-rate?horizon=0".into(),
            400,
            Some("horizon"),
        ),
        (
            "/v1/murder-plan/win-rate?horizon=3&brain=0,1".into(),
            400,
            Some("killer"),
        ),
        (
            "/v1/murder-plan/win-rates?horizon=3".into(),
            400,
            Some("horizon"),
        ),
        (
            "/v1/dice/bid?players=4&bid=5x7&hand=1,5".into(),
            400,
            Some("bid"),
        ),
        (
            "/v1/dice/bid?players=4&bid=five&hand=1,5".into(),
            400,
            Some("bid"),
        ),
        (
            "/v1/dice/bid?players=4&bid=5x5&hand=1,9".into(),
            400,
            Some("hand"),
        ),
        (
            "/v1/dice/bid?players=11&bid=5x5&hand=1,5,5,2,3".into(),
            400,
            Some("players"),
        ),
        (
            "/v1/dice/bid?players=1&bid=5x5&hand=1".into(),
            400,
            Some("players"),
        ),
        (
            "/v1/dice/bid?players=4&bid=5x5&hand=1,5,5,2,3&rel=-1".into(),
            400,
            Some("rel"),
        ),
        (
            "/v1/dice/bid?bid=5x5&hand=1,5,5,2,3".into(),
            400,
            Some("players"),
        ),
        ("/v1/dice/endgame?sides=6".into(), 400, Some("dice")),
        ("/v1/dice/endgame?dice=2".into(), 400, Some("dice")),
        ("/v1/dice/endgame?dice=0,1".into(), 400, Some("dice")),
        (
            "/v1/dice/endgame?dice=1,1&sides=7".into(),
            400,
            Some("sides"),
        ),
        ("/v1/dice/endgame?dice=1,1&hand=x".into(), 400, Some("hand")),
        (
            "/v1/dice/endgame?dice=1,1&hand=1,2".into(),
            400,
            Some("hand"),
        ),
        (
            "/v1/dice/endgame?dice=1,1&history=1x6,1x5".into(),
            400,
            Some("history"),
        ),
        (
            "/v1/dice/endgame?dice=1,1&history=1x7".into(),
            400,
            Some("history"),
        ),
        ("/v1/dice/endgame?dice=2,2&sides=6".into(), 404, None),
        // Old spellings are refused naming the new one.
        (
            "/v1/dice/bid?players=4&bid=5x5&mine=1,5".into(),
            400,
            Some("mine"),
        ),
        (
            "/v1/dice/endgame?dice=2,1&sides=5&history=15,23".into(),
            400,
            Some("history"),
        ),
        ("/v1/manifest?x=1".into(), 400, Some("x")),
        ("/health?x=1".into(), 400, Some("x")),
        ("/v1/openapi.json?x=1".into(), 400, Some("x")),
        ("/v1/nothing-here".into(), 404, None),
        ("/v2/murder-plan/state".into(), 404, None),
    ];
    for (path, status, parameter) in &gets {
        expect_error(&agent, &server, "GET", path, None, *status, *parameter);
    }
    for (method, path) in [
        ("POST", "/health"),
        ("DELETE", "/v1/murder-plan/state"),
        ("GET", "/v1/cluedo/notebook"),
        ("PUT", "/v1/werewolf/posterior"),
        ("GET", "/v1/werewolf/roles"),
    ] {
        expect_error(&agent, &server, method, path, None, 405, None);
    }

    // Bodies: not JSON, not UTF-8, JSON that is no log, logs that break the
    // rules, an unknown model.
    let cluedo = "/v1/cluedo/notebook";
    let werewolf = "/v1/werewolf/posterior";
    let bodies: Vec<(&str, Vec<u8>, u16, Option<&str>)> = vec![
        (cluedo, b"{\"players\": 4,".to_vec(), 400, Some("body")),
        (cluedo, vec![0xff, 0xfe, 0x00], 400, Some("body")),
        (cluedo, b"[1, 2, 3]".to_vec(), 422, Some("body")),
        (
            cluedo,
            br#"{"players": 9, "viewer": 1, "hand": []}"#.to_vec(),
            422,
            Some("body"),
        ),
        (
            cluedo,
            br#"{"players": 3, "viewer": 1, "hand": ["Rope", "Rope"]}"#.to_vec(),
            422,
            Some("body"),
        ),
        (
            "/v1/cluedo/notebook?model=psychic",
            b"{}".to_vec(),
            400,
            Some("model"),
        ),
        (werewolf, b"nonsense".to_vec(), 400, Some("body")),
        (
            werewolf,
            br#"{"players": 5, "wolves": 9, "events": []}"#.to_vec(),
            422,
            Some("body"),
        ),
        (
            werewolf,
            br#"{"players": 5, "wolves": 1, "events": [{"kind": "teleport"}]}"#.to_vec(),
            422,
            Some("body"),
        ),
        (
            werewolf,
            br#"{"players": 6, "wolves": 1, "roles": {"witch": 1}, "events": [
                {"kind": "night", "deaths": []}, {"kind": "night", "deaths": []},
                {"kind": "night", "deaths": []}]}"#
                .to_vec(),
            422,
            Some("body"),
        ),
        (
            "/v1/werewolf/posterior?rule=coin",
            b"{}".to_vec(),
            400,
            Some("rule"),
        ),
    ];
    for (path, body, status, parameter) in &bodies {
        expect_error(
            &agent,
            &server,
            "POST",
            path,
            Some(body),
            *status,
            *parameter,
        );
    }
    assert!(server.is_running());
}

/// A Cluedo log of `events` suggestions (each legal on its own).
fn long_cluedo_log(events: usize) -> Vec<u8> {
    let suggestion = r#"{"by": 2, "cards": ["Colonel Mustard", "Rope", "Hall"], "shown_by": 3},"#;
    let mut log = String::from(
        r#"{"players": 3, "viewer": 1, "hand": ["Miss Scarlett", "Knife", "Kitchen", "Lead Pipe", "Study", "Mrs Peacock"], "suggestions": ["#,
    );
    for _ in 0..events {
        log.push_str(suggestion);
    }
    log.pop();
    log.push_str("]}");
    log.into_bytes()
}

/// Send only the head of a POST declaring `length` bytes with
/// `Expect: 100-continue` (as curl does for large bodies) and read the
/// status line: the server must refuse from the head alone.
fn status_of_declared_body(server: &Server, path: &str, length: usize) -> String {
    let address = server.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\nExpect: 100-continue\r\n\r\n"
    )
    .unwrap();
    let mut head = [0u8; 512];
    let n = stream.read(&mut head).unwrap();
    String::from_utf8_lossy(&head[..n])
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn if_none_match_revalidates_answers_only() {
    let server = Server::start(common::built_tables(), &[]);
    let agent = agent();
    let good = format!(
        "{}/v1/murder-plan/state?days=8&brain=0,1&killer=1,0",
        server.url
    );
    let etag = get(&agent, &good).header("etag").unwrap().to_string();
    for tag in ["*", etag.as_str(), &format!("W/{etag}"), "\"other\", *"] {
        let answer = get_with(&agent, &good, &[("if-none-match", tag)]);
        assert_eq!(answer.status, 304, "{tag}");
    }
    assert_eq!(
        get_with(&agent, &good, &[("if-none-match", "\"other\"")]).status,
        200
    );
    // A query with no answer is its error, whatever the client holds.
    for (path, status, parameter) in [
        (
            "/v1/murder-plan/state?days=banana&brain=0,1&killer=1,0",
            400,
            Some("days"),
        ),
        (
            "/v1/murder-plan/state?days=8&brain=0,1&killer=1,0&x=1",
            400,
            Some("x"),
        ),
        (
            "/v1/murder-plan/moves?side=mastermind&days=3&brain=0,1&killer=1,0&killer_intrigue=4",
            404,
            None,
        ),
        ("/v1/dice/endgame?dice=2,2&sides=6", 404, None),
        ("/v1/manifest?x=1", 400, Some("x")),
    ] {
        for tag in ["*", etag.as_str()] {
            let answer = get_with(
                &agent,
                &format!("{}{path}", server.url),
                &[("if-none-match", tag)],
            );
            assert_eq!(answer.status, status, "{path} with {tag}: {}", answer.body);
            assert_eq!(answer.json()["parameter"].as_str(), parameter, "{path}");
        }
    }
}

#[test]
fn oversized_bodies_and_long_logs_are_refused() {
    // The default 1 MiB limit: a million-event log (~70 MB) is refused from
    // its declared length, before a byte of it is sent.
    let log = long_cluedo_log(1_000_000);
    assert!(log.len() > 60_000_000);
    let server = Server::start(common::built_tables(), &[]);
    let status = status_of_declared_body(&server, "/v1/cluedo/notebook", log.len());
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
    // A body just over the limit, sent whole by the client: 413 naming it.
    let agent = agent();
    let over = long_cluedo_log((1 << 20) / 70 + 10);
    assert!(over.len() > 1 << 20);
    let answer = post(&agent, &format!("{}/v1/cluedo/notebook", server.url), &over);
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(answer.json()["parameter"], "body");
    drop(server);

    // With room for the body, the log's length is the limit: 422, promptly.
    let server = Server::start(common::built_tables(), &["--max-body", "100000000"]);
    let answer = post(&agent, &format!("{}/v1/cluedo/notebook", server.url), &log);
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert!(answer.json()["error"]
        .as_str()
        .unwrap()
        .contains("at most 10000"));
    assert_eq!(answer.json()["parameter"], "body");
    // And a log within the limit is answered.
    let answer = post(
        &agent,
        &format!("{}/v1/cluedo/notebook", server.url),
        &long_cluedo_log(50),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[test]
fn cors_is_off_by_default_and_exact_when_asked() {
    let agent = agent();
    let path = "/v1/murder-plan/win-rate?horizon=8";
    let server = Server::start(common::built_tables(), &[]);
    let plain = get_with(
        &agent,
        &format!("{}{path}", server.url),
        &[("origin", "https://looper.example")],
    );
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("access-control-allow-origin"), None);
    drop(server);
    let server = Server::start(
        common::built_tables(),
        &["--cors-origin", "https://looper.example"],
    );
    let answer = get_with(
        &agent,
        &format!("{}{path}", server.url),
        &[("origin", "https://looper.example")],
    );
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("https://looper.example")
    );
    assert!(answer
        .header("access-control-expose-headers")
        .unwrap()
        .contains("x-gametab-digest"));
    // Another origin is told only the allowed one: its browser refuses.
    let other = get_with(
        &agent,
        &format!("{}{path}", server.url),
        &[("origin", "https://evil.example")],
    );
    assert_ne!(
        other.header("access-control-allow-origin"),
        Some("https://evil.example")
    );
    // A preflight for the POST endpoints.
    let request = ureq::http::Request::builder()
        .method("OPTIONS")
        .uri(format!("{}/v1/cluedo/notebook", server.url))
        .header("origin", "https://looper.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(())
        .unwrap();
    let preflight = agent.run(request).unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "https://looper.example"
    );
}

#[test]
fn a_set_that_does_not_load_is_refused_at_start() {
    let (_parent, tables) = common::copy_of_tables();
    std::fs::write(tables.join("murder_plan_values.parquet"), b"not parquet").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("murder_plan_values.parquet"), "{stderr}");
    assert!(output.stdout.is_empty(), "it never listened");
}

#[test]
fn only_the_manifests_files_are_read_and_each_is_checked() {
    let (_parent, tables) = common::copy_of_tables();
    // A file outside the manifest is never opened: reading this FIFO would
    // block the load forever.
    let fifo = tables.join("stray.fifo");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the path only.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let server = Server::start(&tables, &[]);
    let answer = get(&agent(), &format!("{}/health", server.url));
    assert_eq!(answer.status, 200);
    drop(server);
    // A table no endpoint reads is not decoded, but its digest is checked.
    std::fs::remove_file(&fifo).unwrap();
    let file = tables.join("dice_decisions.parquet");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("dice_decisions.parquet") && stderr.contains("digest"),
        "{stderr}"
    );
}

#[test]
fn old_spellings_are_refused_naming_the_new_one() {
    let server = Server::start(common::built_tables(), &[]);
    let agent = agent();
    let mine = get(
        &agent,
        &format!("{}/v1/dice/bid?players=4&bid=5x5&mine=1,5", server.url),
    );
    assert_eq!(mine.status, 400);
    assert_eq!(
        mine.json()["error"],
        "'mine' is the old name of 'hand': write hand=1,5"
    );
    let history = get(
        &agent,
        &format!(
            "{}/v1/dice/endgame?dice=2,1&sides=5&hand=3,5&history=15,23",
            server.url
        ),
    );
    assert_eq!(history.status, 400);
    assert_eq!(
        history.json()["error"],
        "history '15,23': bids run together are the old form; write them as COUNTxFACE: \
         history=1x5,2x3"
    );
    // The document names fields as the tables' columns do.
    let state = get(
        &agent,
        &format!(
            "{}/v1/murder-plan/state?days=8&brain=0,1&killer=1,0",
            server.url
        ),
    )
    .json();
    assert_eq!(state["mastermind_won"], false);
    assert!(state["mastermind_strategy"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));
    assert!(state["protagonists_strategy"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));
    let bid = get(
        &agent,
        &format!(
            "{}/v1/dice/bid?players=4&bid=5x5&hand=5,1,5,2,3",
            server.url
        ),
    )
    .json();
    assert_eq!(bid["situation"]["hand"], "1,2,3,5,5");
}
