//! Cluedo engine on the documented example log: the exact notebook of every
//! model, and malformed logs as typed errors naming what is wrong.

use gametab_games::cluedo::{analyse, Category, GameLog, Model, Place, Seat};
use gametab_games::Error;

const EXAMPLE: &str = include_str!("../../scripts/examples/cluedo-game.json");

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
        Err(Error::OutOfRange { what: "card", .. })
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
