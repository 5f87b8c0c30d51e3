//! The explorer page in a real headless browser: Debian's chromium driven
//! through chromedriver's W3C WebDriver API (plain HTTP + JSON, spoken here
//! with the same client as the API tests). `scripts/setup --test` installs
//! both. The page must load, show the table's value, follow a state picked
//! by clicking, answer the dice form, and log no console error; its panels
//! of the other games (the Liar's Dice endgame, Cluedo advice with a log
//! built by its form, Werewolf roles) must show the server's answers and
//! its errors as the server words them. Screenshots are left in
//! `target/tmp/explorer.png` and `target/tmp/panels.png` for people to
//! look at. (The page's game: `game.rs`.)

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::common;
use super::harness::{agent, get, Server};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver on a free loopback port, killed when dropped.
pub(super) struct Driver {
    child: Child,
    url: String,
    agent: ureq::Agent,
}

impl Driver {
    pub(super) fn start() -> Driver {
        for program in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                std::path::Path::new(program).exists(),
                "{program} is missing: run scripts/setup --test (it installs Debian's chromium and chromium-driver)"
            );
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            agent: agent(),
        };
        let start = Instant::now();
        loop {
            if let Ok(mut r) = driver.agent.get(format!("{}/status", driver.url)).call() {
                let text = r.body_mut().read_to_string().unwrap_or_default();
                let status: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                if status["value"]["ready"] == true {
                    return driver;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromedriver never ready"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.url);
        let mut response = match body {
            Some(body) => self
                .agent
                .post(&url)
                .header("content-type", "application/json")
                .send(body.to_string().as_bytes()),
            None if method == "DELETE" => self.agent.delete(&url).call(),
            None => self.agent.get(&url).call(),
        }
        .unwrap();
        let status = response.status();
        let text = response.body_mut().read_to_string().unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert!(status.is_success(), "WebDriver {method} {path}: {answer}");
        answer["value"].clone()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session.
pub(super) struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl Session<'_> {
    pub(super) fn new<'a>(driver: &'a Driver, profile: &std::path::Path) -> Session<'a> {
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1300,1100",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let value = driver.call("POST", "/session", Some(capabilities));
        Session {
            driver,
            id: value["sessionId"].as_str().unwrap().to_string(),
        }
    }

    pub(super) fn post(&self, path: &str, body: Value) -> Value {
        self.driver
            .call("POST", &format!("/session/{}{path}", self.id), Some(body))
    }

    pub(super) fn script(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": []}))
    }

    pub(super) fn text(&self, id: &str) -> String {
        self.script(&format!(
            "return document.getElementById('{id}').textContent"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    pub(super) fn element(&self, css: &str) -> String {
        let found = self.post("/element", json!({"using": "css selector", "value": css}));
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap()
            .to_string()
    }

    pub(super) fn click(&self, css: &str) {
        let element = self.element(css);
        self.post(&format!("/element/{element}/click"), json!({}));
    }

    pub(super) fn type_into(&self, css: &str, text: &str) {
        let element = self.element(css);
        self.post(&format!("/element/{element}/clear"), json!({}));
        self.post(
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        );
    }

    /// Wait (up to 20 s) until element `id`'s text satisfies `ok`.
    pub(super) fn wait_for_text(&self, id: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let text = self.text(id);
            if ok(&text) {
                return text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "#{id} shows {text:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The browser's console entries at SEVERE level since the last call.
    pub(super) fn console_errors(&self) -> Vec<Value> {
        let entries = self.post("/se/log", json!({"type": "browser"}));
        entries
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .cloned()
            .collect()
    }

    pub(super) fn screenshot(&self) -> Vec<u8> {
        let value = self
            .driver
            .call("GET", &format!("/session/{}/screenshot", self.id), None);
        decode_base64(value.as_str().unwrap())
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .agent
            .delete(format!("{}/session/{}", self.driver.url, self.id))
            .call();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes[..chunk.len() - 1].to_vec()
        })
        .collect()
}

/// The page's rendering of a probability (`pct` in the page).
fn percent(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}

#[test]
fn the_explorer_page_shows_the_tables_and_follows_the_state() {
    // The page loads the module for its game (a missing one would be a
    // console error here, so say so first).
    let web = common::web_module();
    let server = Server::start(common::built_tables(), &["--web", web.to_str().unwrap()]);
    let api = agent();
    let value_of = |query: &str| {
        get(
            &api,
            &format!("{}/v1/murder-plan/state?{query}", server.url),
        )
        .json()
    };
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let session = Session::new(&driver, profile.path());
    session.post("/url", json!({ "url": format!("{}/", server.url) }));

    // The default state: 8 days, x = (0,1), y = (1,0).
    let start = value_of("days=8&brain=0,1&killer=1,0");
    let shown = session.wait_for_text("mp-value", |t| t.starts_with("V = "));
    assert!(
        shown.starts_with(&format!(
            "V = {}",
            percent(start["value"].as_f64().unwrap())
        )),
        "{shown}"
    );
    let rows = session.script("return document.querySelectorAll('#mm-moves tr').length");
    assert_eq!(
        rows,
        json!(start["moves"]["mastermind"].as_array().unwrap().len() + 1)
    );
    let bars = session.script("return document.querySelectorAll('#pr-strategy .bar').length");
    assert_eq!(
        bars,
        json!(start["protagonists_strategy"].as_array().unwrap().len())
    );

    // Pick another state by clicking options: 3 days, both at the key
    // person, the killer with 2 intrigue.
    session.click("#days option[value='3']");
    session.click("#brain option[value='0,0']");
    session.click("#killer option[value='0,0']");
    session.click("#killer_intrigue option[value='2']");
    let picked = value_of("days=3&brain=0,0&killer=0,0&killer_intrigue=2");
    let expected = format!("V = {}", percent(picked["value"].as_f64().unwrap()));
    assert_ne!(picked["value"], start["value"]);
    let shown = session.wait_for_text("mp-value", |t| t.starts_with(&expected));
    assert!(shown.contains("3 days left"), "{shown}");
    let best = session.script(
        "return document.querySelector('#mm-moves tr:nth-child(2) td:nth-child(2)').textContent",
    );
    let first = &picked["moves"]["mastermind"][0];
    assert_eq!(
        best,
        json!(format!(
            "{} / {} / {}",
            first["card_on_key_person"].as_str().unwrap(),
            first["card_on_brain"].as_str().unwrap(),
            first["card_on_killer"].as_str().unwrap()
        ))
    );

    // The dice form: type a bid and press Enter.
    session.type_into("#bid", "4x3\u{E007}");
    let dice = get(
        &api,
        &format!(
            "{}/v1/dice/bid?players=4&bid=4x3&hand=1,5,5,2,3&rel=2&wild=false",
            server.url
        ),
    )
    .json();
    let probability = percent(dice["odds"]["raw_probability"].as_f64().unwrap());
    let out = session.wait_for_text("dice-out", |t| t.contains(&probability));
    assert!(
        out.contains(dice["odds"]["raw"]["favourable"].as_str().unwrap()),
        "{out}"
    );

    // A bad bid shows the server's error, naming the parameter.
    session.type_into("#bid", "4x9\u{E007}");
    let error = session.wait_for_text("dice-error", |t| !t.is_empty());
    assert!(error.contains("parameter: bid"), "{error}");

    session.script("window.scrollTo(0, 0)");
    let shot = session.screenshot();
    assert!(shot.starts_with(b"\x89PNG"), "a PNG screenshot");
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer.png");
    std::fs::write(&target, shot).unwrap();

    let errors = session.console_errors();
    // The bad bid's 400 is the one expected console entry (the browser logs
    // failed fetches); nothing else may be there.
    let unexpected: Vec<&Value> = errors
        .iter()
        .filter(|e| {
            !e["message"]
                .as_str()
                .unwrap_or("")
                .contains("/v1/dice/bid?")
        })
        .collect();
    assert!(unexpected.is_empty(), "console errors: {unexpected:?}");
}

/// The text of the element `css` selects (empty when there is none).
fn text_of(session: &Session, css: &str) -> String {
    session
        .script(&format!(
            "const e = document.querySelector({css:?}); return e ? e.textContent : ''"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn rows(session: &Session, css: &str) -> u64 {
    session
        .script(&format!(
            "return document.querySelectorAll('{css} tr').length"
        ))
        .as_u64()
        .unwrap()
}

/// Wait (up to 20 s) until the form field `id` holds a value containing
/// `needle` (a textarea's text is its value, not its content).
fn wait_for_value(session: &Session, id: &str, needle: &str) {
    let start = Instant::now();
    loop {
        let value = session.script(&format!("return document.getElementById('{id}').value"));
        if value.as_str().is_some_and(|v| v.contains(needle)) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "#{id} holds {value}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Set a form field's value by script (a textarea holding a whole log is
/// not typed key by key).
fn set_value(session: &Session, id: &str, value: &str) {
    session.script(&format!(
        "document.getElementById('{id}').value = {}",
        serde_json::to_string(value).unwrap()
    ));
}

#[test]
fn the_endgame_cluedo_and_werewolf_panels_answer_from_the_server() {
    let web = common::web_module();
    let server = Server::start(common::built_tables(), &["--web", web.to_str().unwrap()]);
    let api = agent();
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let session = Session::new(&driver, profile.path());
    session.post("/url", json!({ "url": format!("{}/", server.url) }));
    session.wait_for_text("mp-value", |t| t.starts_with("V = "));

    // Liar's Dice endgame: the form's default point, then a bad history.
    let endgame = get(
        &api,
        &format!(
            "{}/v1/dice/endgame?dice=2,1&sides=5&wild=false&hand=3,5&history=1x5,2x3",
            server.url
        ),
    )
    .json();
    session.click("#endgame-form button[type=submit]");
    let exact = endgame["game"]["value_exact"].as_str().unwrap();
    let shown = session.wait_for_text("endgame-out", |t| t.contains(exact));
    assert!(shown.contains("player 1 to move, holding 3,5"), "{shown}");
    let actions = endgame["point"]["actions"].as_array().unwrap();
    assert_eq!(rows(&session, "#endgame-actions"), actions.len() as u64 + 1);
    let posterior = endgame["point"]["opponent_posterior"].as_array().unwrap();
    assert_eq!(
        rows(&session, "#endgame-posterior"),
        posterior.len() as u64 + 1
    );
    let first = &actions[0];
    assert_eq!(
        text_of(&session, "#endgame-actions tr:nth-child(2) td:nth-child(2)"),
        percent(first["probability"].as_f64().unwrap())
    );
    session.type_into("#endgame-history", "1x5,1x4\u{E007}");
    let bad = get(
        &api,
        &format!(
            "{}/v1/dice/endgame?dice=2,1&sides=5&wild=false&hand=3,5&history=1x5,1x4",
            server.url
        ),
    );
    assert_eq!(bad.status, 400);
    let error = session.wait_for_text("endgame-error", |t| !t.is_empty());
    assert_eq!(
        error,
        format!(
            "{} (parameter: history)",
            bad.json()["error"].as_str().unwrap()
        )
    );

    // Cluedo: the example log, then one suggestion more built by the form.
    wait_for_value(&session, "cluedo-log", "suggestions");
    set_value(&session, "cluedo-top", "4");
    session.click("#cluedo-advise");
    let log = std::fs::read(super::harness::examples().join("cluedo-game.json")).unwrap();
    let advice = super::harness::post(
        &api,
        &format!("{}/v1/cluedo/advice?top=4", server.url),
        &log,
    )
    .json();
    let best = &advice["suggestions"][0];
    let triple = format!(
        "{}, {}, {}",
        best["suspect"].as_str().unwrap(),
        best["weapon"].as_str().unwrap(),
        best["room"].as_str().unwrap()
    );
    let shown = session.wait_for_text("cluedo-out", |t| t.contains("accusation:"));
    assert!(shown.contains(&triple), "{shown}");
    assert_eq!(rows(&session, "#cluedo-ranking"), 5);
    assert!(
        shown.contains(&format!(
            "ranked by {}",
            advice["objective"]["name"].as_str().unwrap()
        )),
        "{shown}"
    );
    let race = &advice["accusation"]["race"];
    assert!(
        shown.contains(&format!(
            "race: accusing now wins {:.4}; waiting one round about {:.4}",
            race["p_win_accusing_now"].as_f64().unwrap(),
            race["p_win_waiting"].as_f64().unwrap()
        )),
        "{shown}"
    );
    let accusation = &advice["accusation"];
    assert!(
        shown.contains(&format!(
            "wins with probability {:.4}",
            accusation["probability"].as_f64().unwrap()
        )),
        "{shown}"
    );
    // Me (player 1, the form's default) suggesting Mrs White, Dagger,
    // Hall; Ann (player 2) shows the Dagger.
    session.click("#cluedo-suspect option[value='Mrs White']");
    session.click("#cluedo-weapon option[value='Dagger']");
    session.click("#cluedo-suggested-room option[value='Hall']");
    set_value(&session, "cluedo-shown-by", "2");
    set_value(&session, "cluedo-card", "Dagger");
    session.click("#cluedo-add");
    let mut longer: Value = serde_json::from_slice(&log).unwrap();
    longer["suggestions"].as_array_mut().unwrap().push(json!({
        "by": 1, "cards": ["Mrs White", "Dagger", "Hall"], "shown_by": 2, "card": "Dagger"
    }));
    let after = super::harness::post(
        &api,
        &format!("{}/v1/cluedo/advice?top=4", server.url),
        longer.to_string().as_bytes(),
    )
    .json();
    let entropy = format!(
        "envelope entropy {:.3} bits",
        after["envelope_entropy_bits"].as_f64().unwrap()
    );
    assert_ne!(
        after["envelope_entropy_bits"],
        advice["envelope_entropy_bits"]
    );
    let shown = session.wait_for_text("cluedo-out", |t| t.contains(&entropy));
    assert!(shown.contains("324 suggestions ranked"), "{shown}");
    // An old log (`me`, seats from 0): the form, which numbers players
    // from 1, does not extend it, and says how to rewrite it.
    set_value(&session, "cluedo-log", common::OLD_CLUEDO_LOG);
    session.click("#cluedo-add");
    let error = session.wait_for_text("cluedo-error", |t| !t.is_empty());
    assert!(
        error.starts_with(
            "this log has \"me\", the old format numbering seats from 0: write \"viewer\": 1"
        ),
        "{error}"
    );
    // A log that breaks the rules: the server's 422, as it says it.
    set_value(
        &session,
        "cluedo-log",
        r#"{"players": 4, "viewer": 1, "hand": ["Rope"], "suggestions": []}"#,
    );
    session.click("#cluedo-advise");
    // The old-format refusal is still shown until the new answer replaces it.
    let previous = error;
    let error = session.wait_for_text("cluedo-error", |t| !t.is_empty() && t != previous);
    assert!(
        error.starts_with("invalid log: hand: hand is out of range"),
        "{error}"
    );

    // Werewolf: the 7-player role example, then a log naming seat 9.
    wait_for_value(&session, "werewolf-log", "events");
    session.click("#werewolf-read");
    let log = std::fs::read(super::harness::examples().join("werewolf-roles-7.json")).unwrap();
    let roles =
        super::harness::post(&api, &format!("{}/v1/werewolf/roles", server.url), &log).json();
    session.wait_for_text("werewolf-out", |t| t.contains("role assignments"));
    let players = roles["roles"]["players"].as_array().unwrap();
    assert_eq!(
        rows(&session, "#werewolf-roles-table"),
        players.len() as u64 + 1
    );
    let columns = roles["roles"]["counts"].as_array().unwrap().len() as u64 + 2;
    let header = session.script(
        "return document.querySelectorAll('#werewolf-roles-table tr:first-child th').length",
    );
    assert_eq!(header, json!(columns));
    // Player 1 is the seer, for certain.
    assert_eq!(
        text_of(&session, "#werewolf-roles-table tr:nth-child(2)"),
        format!(
            "1yes{}",
            roles["roles"]["counts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let role = c[0].as_str().unwrap();
                    format!("{:.4}", players[0][role].as_f64().unwrap())
                })
                .collect::<String>()
        )
    );
    let ranking = roles["ranking"].as_array().unwrap();
    assert_eq!(
        rows(&session, "#werewolf-ranking"),
        ranking.len() as u64 + 1
    );
    assert_eq!(
        text_of(
            &session,
            "#werewolf-ranking tr:nth-child(2) td:nth-child(2)"
        ),
        ranking[0].to_string()
    );
    set_value(
        &session,
        "werewolf-log",
        r#"{"players": 7, "wolves": 2, "events": [{"kind": "vote", "voter": 9, "target": 2}]}"#,
    );
    session.click("#werewolf-read");
    let error = session.wait_for_text("werewolf-error", |t| !t.is_empty());
    assert!(error.contains("player is out of range: 9"), "{error}");

    session.script("window.scrollTo(0, document.getElementById('endgame').offsetTop)");
    let shot = session.screenshot();
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("panels.png");
    std::fs::write(&target, shot).unwrap();
    // The refused queries are the only console entries (the browser logs
    // failed fetches).
    let unexpected: Vec<Value> = session
        .console_errors()
        .into_iter()
        .filter(|e| {
            let message = e["message"].as_str().unwrap_or("");
            ![
                "/v1/dice/endgame?",
                "/v1/cluedo/advice?",
                "/v1/werewolf/roles",
            ]
            .iter()
            .any(|path| message.contains(path))
        })
        .collect();
    assert!(unexpected.is_empty(), "console errors: {unexpected:?}");
}

/// A game the tables store by its support (1v3 five-sided, from the
/// committed job file): at a point without rows the panel shows the
/// default moves and the server's note saying so; on the support, no note.
#[test]
fn the_endgame_panel_says_when_it_shows_the_default_of_a_game_stored_by_its_support() {
    let (_keep, tables) = common::set_with_large_game();
    let web = common::web_module();
    let server = Server::start(&tables, &["--web", web.to_str().unwrap()]);
    let api = agent();
    // An opening bid player 1 (one die) never makes: player 2 holding
    // 2,4,5 has no row there and calls.
    let url = |history: &str| {
        format!(
            "{}/v1/dice/endgame?dice=1,3&sides=5&wild=false&hand=2,4,5&history={history}",
            server.url
        )
    };
    let (history, answer) = (1..=4)
        .flat_map(|count| (1..=5).map(move |face| format!("{count}x{face}")))
        .map(|history| {
            let answer = get(&api, &url(&history)).json();
            (history, answer)
        })
        .find(|(_, answer)| answer["point"]["note"].is_string())
        .expect("an opening bid off the support");
    let note = answer["point"]["note"].as_str().unwrap();
    assert!(note.contains("the call"), "{note}");

    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let session = Session::new(&driver, profile.path());
    session.post("/url", json!({ "url": format!("{}/", server.url) }));
    session.wait_for_text("mp-value", |t| t.starts_with("V = "));
    set_value(&session, "endgame-dice", "1,3");
    set_value(&session, "endgame-sides", "5");
    set_value(&session, "endgame-hand", "2,4,5");
    set_value(&session, "endgame-history", &history);
    session.click("#endgame-form button[type=submit]");
    let shown = session.wait_for_text("endgame-out", |t| t.contains("1v3, 5-sided"));
    assert!(shown.contains(note), "{shown}");
    assert_eq!(text_of(&session, "#endgame-note"), note);
    assert_eq!(
        text_of(&session, "#endgame-actions tr:nth-child(2) td:nth-child(1)"),
        "call"
    );
    assert_eq!(
        text_of(&session, "#endgame-actions tr:nth-child(2) td:nth-child(2)"),
        percent(1.0)
    );
    // The opening itself, player 1 holding a 3, on the support: no note.
    let opening = get(
        &api,
        &format!(
            "{}/v1/dice/endgame?dice=1,3&sides=5&wild=false&hand=3&history=",
            server.url
        ),
    )
    .json();
    assert!(opening["point"]["note"].is_null(), "{opening}");
    set_value(&session, "endgame-hand", "3");
    set_value(&session, "endgame-history", "");
    session.click("#endgame-form button[type=submit]");
    let shown = session.wait_for_text("endgame-out", |t| t.contains("at the opening"));
    assert!(!shown.contains(note), "{shown}");
}
