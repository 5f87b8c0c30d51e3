//! Cluedo engine on the documented example log: the exact notebook of every
//! model, malformed logs as typed errors naming what is wrong, and logs
//! that break the rules refused naming the entry.

use gametab_games::cluedo::{analyse, Category, GameLog, LogError, LogEvent, Model, Place, Seat};
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
        message.contains("player 1 holds none of {Spanner}"),
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
    let theirs = r#"{"by": 1, "cards": ["Mrs Peacock", "Dagger", "Lounge"], "shown_by": 3}"#;
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
        r#"{"by": 2, "cards": ["Professor Plum", "Candlestick", "Ballroom"], "shown_by": null}"#;
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
        r#""accusations": [{"by": 3"#,
        r#""accusations": [{"by": 4"#,
    ));
    assert_eq!(event, LogEvent::Accusation(0));
    assert!(text.contains("seat 4"), "{text}");

    // A names list of the wrong length.
    let (event, text) = refused(&edited(
        r#""names": ["me", "Ann", "Bob", "Cat"]"#,
        r#""names": ["me", "Ann", "Bob"]"#,
    ));
    assert_eq!(event, LogEvent::Names);
    assert!(text.contains("3 names for 4 players"), "{text}");

    // A fact listing a card twice, and `me` off the table.
    let (event, _) = refused(&edited(
        r#"{"kind": "holds", "player": 3, "card": "Lead Piping"}"#,
        r#"{"kind": "holds_none", "player": 3, "cards": ["Rope", "Rope"]}"#,
    ));
    assert_eq!(event, LogEvent::Fact(0));
    assert_eq!(refused(&edited(r#""me": 0"#, r#""me": 4"#)).0, LogEvent::Me);

    // The games crate's error keeps the kind and names the entry.
    let error: Error = edited(r#""Rope", "Kitchen""#, r#""Rope", "Rope""#)
        .knowledge()
        .unwrap_err()
        .into();
    assert!(
        matches!(&error, Error::OutOfRange { what: gametab_games::Argument::CardList, detail } if detail.starts_with("hand: "))
    );
}
