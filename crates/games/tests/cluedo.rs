//! Cluedo engine on the documented example log: the exact notebook of every
//! model, malformed logs as typed errors naming what is wrong, and logs
//! that break the rules refused naming the entry.

use gametab_games::cluedo::{
    analyse, Category, GameLog, LogError, LogEvent, Model, Numbering, Place, Seat,
};
use gametab_games::Error;

const EXAMPLE: &str = include_str!("../../../scripts/examples/cluedo-game.json");

#[test]
fn the_example_log_gives_an_exact_notebook() {
    let log = GameLog::from_json(EXAMPLE).unwrap();
    let knowledge = log.knowledge().unwrap();
    let deck = *knowledge.rules().deck();
    let card = |n: &str| deck.parse_card(n).unwrap();
    for model in Model::ALL {
        let notebook = analyse(&knowledge, model).unwrap();
        // Ann showed me the Spanner; Bob the Conservatory; Cat holds the
        // Lead Piping; my cards are mine.
        assert_eq!(notebook.p_holds(Seat(1), card("Spanner")), 1.0);
        assert_eq!(notebook.p_holds(Seat(2), card("Conservatory")), 1.0);
        assert_eq!(notebook.p_holds(Seat(3), card("Lead Piping")), 1.0);
        assert_eq!(notebook.p_holds(Seat(0), card("Hall")), 1.0);
        // Everybody passed on Plum, Candlestick, Ballroom except their
        // suggester (Bob): each is Bob's or in the envelope.
        for name in ["Professor Plum", "Candlestick", "Ballroom"] {
            let c = card(name);
            let sum = notebook.p_envelope(c) + notebook.p_holds(Seat(2), c);
            assert!((sum - 1.0).abs() < 1e-12, "{name}");
        }
        // Probabilities of every card add up to one; the envelope holds one
        // card per category.
        for c in 0..21u8 {
            let c = gametab_games::cluedo::Card(c);
            let total: f64 = std::iter::once(Place::Envelope)
                .chain(knowledge.rules().seats().map(Place::Hand))
                .map(|p| notebook.probability(c, p))
                .sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
        for category in Category::ALL {
            let sum: f64 = deck
                .category_cards(category)
                .cards()
                .map(|c| notebook.p_envelope(c))
                .sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn malformed_logs_are_typed_errors() {
    assert!(matches!(
        GameLog::from_json("{\"players\": 4"),
        Err(Error::OutOfRange { .. })
    ));
    let bad_card = EXAMPLE.replace("\"Rope\", \"Kitchen\"", "\"Rop\", \"Kitchen\"");
    let log = GameLog::from_json(&bad_card).unwrap();
    assert!(matches!(
        log.knowledge(),
        Err(LogError {
            event: LogEvent::Hand,
            error: Error::OutOfRange {
                what: gametab_games::Argument::Card,
                ..
            }
        })
    ));
    let seven = EXAMPLE.replace("\"players\": 4", "\"players\": 7");
    assert!(GameLog::from_json(&seven).unwrap().knowledge().is_err());
    // Claiming Ann passed on the Spanner she showed me is a contradiction
    // naming both facts.
    let mut log = GameLog::from_json(EXAMPLE).unwrap();
    log.facts
        .push(gametab_games::cluedo::LoggedFact::HoldsNone {
            player: 1,
            cards: vec!["Spanner".into()],
        });
    let message = analyse(&log.knowledge().unwrap(), Model::EqualDeals)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("player 2 holds none of {Spanner}"),
        "{message}"
    );
    assert!(message.contains("showed me Spanner"), "{message}");
}

/// The example log with `from` replaced by `to` (which must occur).
fn edited(from: &str, to: &str) -> GameLog {
    assert!(EXAMPLE.contains(from), "{from}");
    GameLog::from_json(&EXAMPLE.replacen(from, to, 1)).unwrap()
}

/// The error of a log the rules refuse: its entry and its message.
fn refused(log: &GameLog) -> (LogEvent, String) {
    let error = log.knowledge().unwrap_err();
    (error.event, error.to_string())
}

#[test]
fn logs_that_break_the_rules_are_refused_naming_the_entry() {
    // Another player's suggestion (Ann's, suggestions[1]) with two cards,
    // five cards, or two rooms: read as a card set it would change the
    // answer (Cat's "at least one of" fact would cover other cards).
    let theirs = r#"{"by": 2, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 4}"#;
    let cases = [
        (
            r#"["Mrs Peacock", "Dagger"]"#,
            "2 cards (1 suspects, 1 weapons, 0 rooms)",
        ),
        (
            r#"["Mrs Peacock", "Dagger", "Lounge", "Rope", "Hall"]"#,
            "5 cards (1 suspects, 2 weapons, 2 rooms)",
        ),
        (
            r#"["Mrs Peacock", "Hall", "Lounge"]"#,
            "3 cards (1 suspects, 0 weapons, 2 rooms)",
        ),
        (
            r#"["Mrs Peacock", "Dagger", "Dagger"]"#,
            "Dagger is listed twice",
        ),
    ];
    for (cards, message) in cases {
        let log = edited(
            theirs,
            &theirs.replace(r#"["Mrs Peacock", "Dagger", "Lounge"]"#, cards),
        );
        let (event, text) = refused(&log);
        assert_eq!(event, LogEvent::Suggestion(1), "{cards}");
        assert_eq!(event.path(), "suggestions[1]");
        assert!(text.starts_with("suggestions[1]: "), "{text}");
        assert!(text.contains(message), "{text}");
    }
    // Bob's suggestion that nobody answered, with two rooms.
    let mine =
        r#"{"by": 3, "cards": ["Professor Plum", "Candlestick", "Ballroom"], "shown_by": null}"#;
    let log = edited(mine, &mine.replace("Candlestick", "Hall"));
    assert_eq!(refused(&log).0, LogEvent::Suggestion(2));

    // A hand listing a card twice (five names, four cards).
    let log = edited(r#""Rope", "Kitchen""#, r#""Rope", "Rope""#);
    let (event, text) = refused(&log);
    assert_eq!(event, LogEvent::Hand);
    assert!(text.contains("Rope is listed twice"), "{text}");

    // An accusation that is not one card per category: two weapons, four
    // cards with a repeat, or a seat not at the table.
    let accusation = r#"["Colonel Mustard", "Revolver", "Billiard Room"]"#;
    for (cards, message) in [
        (r#"["Colonel Mustard", "Revolver", "Rope"]"#, "0 rooms"),
        (
            r#"["Colonel Mustard", "Revolver", "Billiard Room", "Revolver"]"#,
            "Revolver is listed twice",
        ),
        (r#"["Colonel Mustard", "Revolver"]"#, "2 cards"),
    ] {
        let (event, text) = refused(&edited(accusation, cards));
        assert_eq!(event, LogEvent::Accusation(0));
        assert!(text.starts_with("accusations[0]: "), "{text}");
        assert!(text.contains(message), "{text}");
    }
    let (event, text) = refused(&edited(
        r#""accusations": [{"by": 4"#,
        r#""accusations": [{"by": 5"#,
    ));
    assert_eq!(event, LogEvent::Accusation(0));
    assert_eq!(
        text,
        "accusations[0]: by is out of range: player 5 is not at the table: players are 1 to 4"
    );

    // A names list of the wrong length.
    let (event, text) = refused(&edited(
        r#""names": ["me", "Ann", "Bob", "Cat"]"#,
        r#""names": ["me", "Ann", "Bob"]"#,
    ));
    assert_eq!(event, LogEvent::Names);
    assert!(text.contains("3 names for 4 players"), "{text}");

    // A fact listing a card twice, and the viewer off the table.
    let (event, _) = refused(&edited(
        r#"{"kind": "holds", "player": 4, "card": "Lead Piping"}"#,
        r#"{"kind": "holds_none", "player": 4, "cards": ["Rope", "Rope"]}"#,
    ));
    assert_eq!(event, LogEvent::Fact(0));
    let (event, text) = refused(&edited(r#""viewer": 1"#, r#""viewer": 5"#));
    assert_eq!(event, LogEvent::Viewer);
    assert_eq!(
        text,
        "viewer: viewer is out of range: player 5 is not at the table: players are 1 to 4"
    );

    // The games crate's error keeps the kind and names the entry.
    let error: Error = edited(r#""Rope", "Kitchen""#, r#""Rope", "Rope""#)
        .knowledge()
        .unwrap_err()
        .into();
    assert!(
        matches!(&error, Error::OutOfRange { what: gametab_games::Argument::CardList, detail } if detail.starts_with("hand: "))
    );
}

/// The example log in the old format: `me` instead of `viewer`, every seat
/// numbered from 0 (as `scripts/examples/cluedo-game.json` was written
/// before players were numbered from 1 in every game).
const OLD_EXAMPLE: &str = r#"{
  "players": 4,
  "me": 0,
  "names": ["me", "Ann", "Bob", "Cat"],
  "hand": ["Miss Scarlett", "Rope", "Kitchen", "Hall", "Study"],
  "suggestions": [
    {"by": 0, "cards": ["Mrs White", "Spanner", "Library"], "shown_by": 1, "card": "Spanner"},
    {"by": 1, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 3},
    {"by": 2, "cards": ["Professor Plum", "Candlestick", "Ballroom"], "shown_by": null},
    {"by": 3, "cards": ["Colonel Mustard", "Rope", "Study"], "shown_by": 0, "card": "Rope"},
    {"by": 0, "cards": ["Reverend Green", "Revolver", "Conservatory"], "shown_by": 2, "card": "Conservatory"},
    {"by": 1, "cards": ["Mrs White", "Lead Piping", "Dining Room"], "shown_by": 2}
  ],
  "accusations": [{"by": 3, "cards": ["Colonel Mustard", "Revolver", "Billiard Room"]}],
  "facts": [{"kind": "holds", "player": 3, "card": "Lead Piping"}]
}"#;

#[test]
fn an_old_log_numbering_seats_from_0_is_read_as_its_new_twin() {
    let new = GameLog::from_json(EXAMPLE).unwrap();
    let old = GameLog::from_json(OLD_EXAMPLE).unwrap();
    assert_eq!(new.numbering, Numbering::FromOne);
    assert_eq!(old.numbering, Numbering::FromZero);
    assert_eq!(new.old_format_warning(), None);
    assert_eq!(
        old.old_format_warning().unwrap(),
        "\"me\" numbers seats from 0, the old format; write \"viewer\": 1 and number every \
         seat from 1 (docs/cluedo.md)"
    );
    // The same seats once read, so the same knowledge and notebooks.
    assert_eq!(
        GameLog {
            numbering: Numbering::FromOne,
            ..old.clone()
        },
        new
    );
    assert_eq!(old.knowledge().unwrap(), new.knowledge().unwrap());
    // Written out, both are the example in the new format.
    let example: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    assert_eq!(serde_json::to_value(&old).unwrap(), example);
    assert_eq!(serde_json::to_value(&new).unwrap(), example);
}

#[test]
fn a_log_with_both_viewer_and_me_or_neither_is_refused() {
    let both = EXAMPLE.replace(r#""viewer": 1,"#, r#""viewer": 1, "me": 0,"#);
    let error = GameLog::from_json(&both).unwrap_err().to_string();
    assert!(
        error.contains("the log has both \"viewer\" and \"me\""),
        "{error}"
    );
    let neither = EXAMPLE.replace(r#""viewer": 1,"#, "");
    let error = GameLog::from_json(&neither).unwrap_err().to_string();
    assert!(error.contains("missing field `viewer`"), "{error}");
}

#[test]
fn seats_off_the_table_are_named_in_the_logs_own_numbering() {
    // New format: players 1 to 4; 0 is no player (it is not read as the
    // old numbering's first seat).
    let refused_text = |text: &str| GameLog::from_json(text).unwrap().knowledge().unwrap_err();
    let cases = [
        (
            r#"{"by": 2, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 4}"#,
            r#"{"by": 0, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 4}"#,
            "suggestions[1]: by is out of range: player 0 is not at the table: players are 1 to 4",
        ),
        (
            r#"{"by": 2, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 4}"#,
            r#"{"by": 2, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 5}"#,
            "suggestions[1]: shown_by is out of range: player 5 is not at the table: players are \
             1 to 4",
        ),
        (
            r#""player": 4"#,
            r#""player": 0"#,
            "facts[0]: player is out of range: player 0 is not at the table: players are 1 to 4",
        ),
        (
            r#""viewer": 1"#,
            r#""viewer": 0"#,
            "viewer: viewer is out of range: player 0 is not at the table: players are 1 to 4",
        ),
    ];
    for (from, to, message) in cases {
        assert!(EXAMPLE.contains(from), "{from}");
        let error = refused_text(&EXAMPLE.replacen(from, to, 1));
        assert_eq!(error.to_string(), message);
    }
    // Old format: the message says the log numbers from 0.
    let old = |from: &str, to: &str| {
        assert!(OLD_EXAMPLE.contains(from), "{from}");
        refused_text(&OLD_EXAMPLE.replacen(from, to, 1))
    };
    let error = old(r#""accusations": [{"by": 3"#, r#""accusations": [{"by": 4"#);
    assert_eq!(
        error.to_string(),
        "accusations[0]: by is out of range: player 4 is not at the table: this log has \"me\", \
         the old format, which numbers players from 0, so they are 0 to 3"
    );
    let error = old(r#""me": 0"#, r#""me": 4"#);
    assert_eq!(error.event, LogEvent::Me);
    assert_eq!(error.event.path(), "me");
    assert!(error
        .to_string()
        .starts_with("me: me is out of range: player 4"));
}
