//! The explorer page's game in Debian's chromium, with the server down:
//! the page is loaded from `gametab serve` (which serves the WebAssembly
//! module of `scripts/build-web` and the set's browser bundle), the server
//! is stopped, and two whole games are played by clicking, one as each
//! side. Then every turn of the page's record is replayed in Rust against
//! the lookup crate on the Parquet tables and the games crate's rules: the
//! value before and after, the opponent's draw at the shown u, the state
//! after the cards and after the brain's optimal target, the value of the
//! player's play and what it gave up against the best one, and the result.
//! A screenshot of the finished game is left in `target/tmp/game.png`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use gametab_games::murder_plan::model::{resolve, LimitedCards, Offset, State};
use gametab_games::murder_plan::{MastermindCard, Placement, ProtagonistCard};
use gametab_lookup::murder_plan::MurderPlanTables;
use gametab_lookup::Tables;

use super::browser::{Driver, Session};
use super::common;
use super::harness::Server;

fn offset(value: &Value) -> Offset {
    let bit = |i: usize| integer(&value[i]) as u8;
    Offset::new(bit(0), bit(1)).unwrap()
}

/// A state of the page's record.
fn state(value: &Value) -> State {
    let int = |name: &str| integer(&value[name]) as u8;
    State {
        brain: offset(&value["brain"]),
        killer: offset(&value["killer"]),
        killer_intrigue: int("killerIntrigue"),
        key_person_intrigue: int("keyPersonIntrigue"),
        limited: LimitedCards {
            diagonal: value["diagonalLeft"].as_bool().unwrap(),
            intrigue_plus_two: value["intrigue2Left"].as_bool().unwrap(),
            forbid_movement: int("forbidMovementLeft"),
        },
    }
}

fn action<Card>(value: &Value, card: impl Fn(&str) -> Option<Card>) -> Placement<Card> {
    let of = |name: &str| card(value[name].as_str().unwrap()).unwrap();
    Placement {
        key_person: of("keyPerson"),
        brain: of("brain"),
        killer: of("killer"),
    }
}

/// A number of the page's record. The record comes with every number as
/// JavaScript's shortest round-trip text (see [`record`]), parsed here by
/// Rust's correctly rounded parser: serde_json's own float parsing may be
/// one unit in the last place off, and the comparisons are exact.
fn number(value: &Value) -> f64 {
    value.as_str().unwrap().parse().unwrap()
}

fn integer(value: &Value) -> u64 {
    value.as_str().unwrap().parse().unwrap()
}

/// The page's record of the game, numbers as text.
fn record(session: &Session) -> Value {
    let text = session.script(
        "return JSON.stringify(window.gametabGame(), (k, v) => typeof v === 'number' ? String(v) : v)",
    );
    serde_json::from_str(text.as_str().unwrap()).unwrap()
}

/// Replay the page's record of a finished game against the lookup crate
/// and the rules; returns the number of turns.
fn replay(game: &Value, tables: &MurderPlanTables) -> usize {
    let mastermind = game["side"] == "mastermind";
    let turns = game["turns"].as_array().unwrap();
    let mut current = state(&game["start"]);
    let horizon = integer(&game["horizon"]) as u8;
    assert_eq!(
        number(&game["startValue"]),
        tables.value(horizon, current).unwrap()
    );
    for (i, turn) in turns.iter().enumerate() {
        let days = horizon - i as u8;
        let context = format!("turn {}", i + 1);
        assert_eq!(integer(&turn["days"]), u64::from(days), "{context}");
        assert_eq!(
            state(&turn["state"]),
            current,
            "{context}: the state carries over"
        );
        assert_eq!(
            number(&turn["valueBefore"]),
            tables.value(days, current).unwrap(),
            "{context}"
        );
        let u = number(&turn["u"]);
        let a = action(&turn["mastermind"], MastermindCard::from_label);
        let b = action(&turn["protagonists"], ProtagonistCard::from_label);
        // The opponent's cards are its stored strategy's draw at u.
        if mastermind {
            assert_eq!(
                b,
                tables.sample_protagonists(days, current, u).unwrap(),
                "{context}"
            );
        } else {
            assert_eq!(
                a,
                tables.sample_mastermind(days, current, u).unwrap(),
                "{context}"
            );
        }
        let post = resolve(a, b).apply(current);
        assert_eq!(state(&turn["afterCards"]), post, "{context}");
        let (target, value) = tables.brain_choice(days, post).unwrap();
        assert_eq!(turn["brain"]["target"], target.label(), "{context}");
        assert_eq!(number(&turn["brain"]["value"]), value, "{context}");
        let next = target.apply(post);
        assert_eq!(state(&turn["next"]), next, "{context}");
        assert_eq!(
            number(&turn["valueAfter"]),
            tables.value(days - 1, next).unwrap(),
            "{context}"
        );
        // The player's play against the opponent's optimal strategy.
        let (mine, best) = if mastermind {
            let moves = tables.mastermind_moves(days, current).unwrap();
            let mine = moves.iter().find(|m| m.action == a).unwrap();
            (
                (mine.value, mine.loss),
                (moves[0].loss, format!("{:?}", moves[0].action.labels())),
            )
        } else {
            let moves = tables.protagonist_moves(days, current).unwrap();
            let mine = moves.iter().find(|m| m.action == b).unwrap();
            (
                (mine.value, mine.loss),
                (moves[0].loss, format!("{:?}", moves[0].action.labels())),
            )
        };
        assert_eq!(number(&turn["myValue"]), mine.0, "{context}");
        assert_eq!(number(&turn["myLoss"]), mine.1, "{context}");
        assert_eq!(number(&turn["gaveUp"]), mine.1 - best.0, "{context}");
        let shown = &turn["best"];
        let labels =
            [&shown["keyPerson"], &shown["brain"], &shown["killer"]].map(|v| v.as_str().unwrap());
        assert_eq!(format!("{labels:?}"), best.1, "{context}");
        current = next;
        let over = next.is_win() || days == 1;
        assert_eq!(
            over,
            i + 1 == turns.len(),
            "{context}: the game ends exactly when it is over"
        );
    }
    let winner = if current.is_win() {
        "mastermind"
    } else {
        "protagonists"
    };
    assert_eq!(game["winner"], winner);
    turns.len()
}

/// Pick the cards of each character by clicking their options.
fn choose(session: &Session, cards: [&str; 3]) {
    for (character, card) in ["keyPerson", "brain", "killer"].iter().zip(cards) {
        session.click(&format!("#game-card-{character} option[value='{card}']"));
    }
}

/// The number of rows of the game's log (its heading included).
fn log_rows(session: &Session) -> u64 {
    session
        .script("return document.querySelectorAll('#game-log tr').length")
        .as_u64()
        .unwrap()
}

/// Play turns until the game is over: each turn the first plan of
/// `plans` whose cards the page offers (`plans` end with blanks, always
/// legal); returns the page's record.
fn play(session: &Session, plans: &[[&str; 3]]) -> Value {
    for turn in 1..=8u64 {
        if !session.text("game-result").is_empty() {
            break;
        }
        let offered = session.script(
            "return ['keyPerson','brain','killer'].map(c => [...document.querySelectorAll('#game-card-' + c + ' option')].map(o => o.value))",
        );
        let fits = |plan: &[&str; 3]| {
            (0..3).all(|i| offered[i].as_array().unwrap().iter().any(|v| v == plan[i]))
        };
        let plan = plans.iter().find(|p| fits(p)).unwrap();
        choose(session, *plan);
        session.click("#game-play");
        let start = Instant::now();
        while log_rows(session) < turn + 1 && session.text("game-error").is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "turn {turn} never shows"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let error = session.text("game-error");
        assert!(error.is_empty(), "turn {turn} refused: {error}");
    }
    session.wait_for_text("game-result", |t| t.starts_with("Game over"));
    record(session)
}

fn new_game(session: &Session, side: &str, days: u8, start: usize, seed: u32) {
    session.click(&format!("#game-side option[value='{side}']"));
    session.click(&format!("#game-days option[value='{days}']"));
    session.click(&format!("#game-start option[value='{start}']"));
    session.type_into("#game-seed", &seed.to_string());
    session.click("#game-new");
    session.wait_for_text("game-now", |t| t.starts_with("Turn 1 of"));
}

#[test]
fn a_whole_game_is_played_in_the_page_with_the_server_down() {
    let tables = Tables::open(common::built_tables()).unwrap();
    let murder_plan = tables.murder_plan().unwrap();
    let dist = common::web_module();
    let server = Server::start(common::built_tables(), &["--web", dist.to_str().unwrap()]);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let session = Session::new(&driver, profile.path());
    session.post(
        "/url",
        serde_json::json!({ "url": format!("{}/", server.url) }),
    );
    let status = session.wait_for_text("game-status", |t| {
        t.starts_with("ready") || t.contains("cannot")
    });
    assert!(status.starts_with("ready"), "{status}");
    // The explorer's first answers are in (nothing is left in flight);
    // from here on the page is on its own.
    session.wait_for_text("mp-value", |t| t.starts_with("V = "));
    session.wait_for_text("dice-out", |t| !t.is_empty());
    drop(server);

    // As the mastermind from x=(0,1), y=(1,0) (start 6), 8 turns. The
    // first try puts the one intrigue+1 card on two characters: refused
    // by the module, with its reason, and nothing is played.
    new_game(&session, "mastermind", 8, 6, 7);
    choose(&session, ["intrigue+1", "blank", "intrigue+1"]);
    session.click("#game-play");
    let refusal = session.wait_for_text("game-error", |t| !t.is_empty());
    assert!(
        refusal.contains("illegal with these cards left"),
        "{refusal}"
    );
    assert_eq!(log_rows(&session), 1, "a refused play plays nothing");
    let plans = [
        ["blank", "diagonal", "intrigue+2"],
        ["intrigue+1", "horizontal", "vertical"],
        ["blank", "blank", "intrigue+1"],
        ["blank", "blank", "blank"],
    ];
    let first = play(&session, &plans);
    let turns = replay(&first, murder_plan);
    let result = session.text("game-result");
    let winner = if first["winner"] == "mastermind" {
        format!("the mastermind wins on turn {turns}")
    } else {
        "the protagonists win".to_string()
    };
    assert!(result.contains(&winner), "{result}");

    session.script("window.scrollTo(0, document.getElementById('game').offsetTop)");
    let shot = session.screenshot();
    assert!(shot.starts_with(b"\x89PNG"));
    std::fs::write(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("game.png"),
        shot,
    )
    .unwrap();

    // As the protagonists from everyone together (start 0), 5 turns.
    new_game(&session, "protagonists", 5, 0, 3);
    let plans = [
        ["forbid-movement", "forbid-intrigue", "horizontal"],
        ["forbid-intrigue", "vertical", "forbid-movement"],
        ["blank", "blank", "forbid-intrigue"],
        ["blank", "blank", "blank"],
    ];
    let second = play(&session, &plans);
    replay(&second, murder_plan);
    assert!(session.text("game-result").starts_with("Game over"));

    let errors = session.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
}
