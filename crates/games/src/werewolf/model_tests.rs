//! Unit tests of the Werewolf model: setups, players, events refused
//! against the hard facts, and the evidence model's likelihoods.

use super::*;

fn p(n: u32, setup: Setup) -> Player {
    Player::from_number(n, setup).unwrap()
}

#[test]
fn setup_and_player_ranges() {
    assert!(Setup::new(1, 1).is_err());
    assert!(Setup::new(65, 4).is_err());
    assert!(Setup::new(6, 0).is_err());
    assert!(Setup::new(6, 6).is_err());
    let setup = Setup::new(64, 10).unwrap();
    assert_eq!(setup.everyone().len(), 64);
    assert!(Player::from_number(0, setup).is_err());
    assert!(Player::from_number(65, setup).is_err());
    assert_eq!(p(64, setup).number(), 64);
}

#[test]
fn contradictions_name_the_event() {
    let setup = Setup::new(6, 1).unwrap();
    let mut game = Game::new(setup, EvidenceModel::default(), None).unwrap();
    game.push(Event::SeerCheck {
        target: p(2, setup),
        result: Side::Wolf,
    })
    .unwrap();
    let error = game
        .push(Event::Eliminated {
            player: p(2, setup),
            revealed: Some(Side::Village),
        })
        .unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, Error::AtEvent { index: 1, .. }));
    assert!(
        text.contains("event 2") && text.contains("player 2"),
        "{text}"
    );
    // Two known wolves in a one-wolf game.
    let error = game
        .push(Event::Revealed {
            player: p(3, setup),
            side: Side::Wolf,
        })
        .unwrap_err();
    assert!(error.to_string().contains("only 1"), "{error}");
    // The failed pushes left the game unchanged.
    assert_eq!(game.events().count(), 1);
}

#[test]
fn dead_players_cannot_act() {
    let setup = Setup::new(6, 2).unwrap();
    let mut game = Game::new(setup, EvidenceModel::default(), None).unwrap();
    game.push(Event::NightKill {
        victim: p(4, setup),
    })
    .unwrap();
    for event in [
        Event::Vote {
            voter: p(4, setup),
            target: p(1, setup),
        },
        Event::Vote {
            voter: p(1, setup),
            target: p(4, setup),
        },
        Event::SeerCheck {
            target: p(4, setup),
            result: Side::Village,
        },
        Event::Eliminated {
            player: p(4, setup),
            revealed: None,
        },
    ] {
        assert!(
            matches!(game.push(event), Err(Error::AtEvent { .. })),
            "{event}"
        );
    }
    assert!(game
        .push(Event::Vote {
            voter: p(1, setup),
            target: p(1, setup)
        })
        .is_err());
    assert!(game
        .push(Event::Behaviour {
            player: p(1, setup),
            score: f64::NAN
        })
        .is_err());
}

#[test]
fn model_validation() {
    let mut model = EvidenceModel::default();
    assert!(model.validate().is_ok());
    model.votes.wolf_votes_wolf = 0.0;
    assert!(model.validate().is_err());
    let model = EvidenceModel {
        seer_accuracy: 0.4,
        ..EvidenceModel::default()
    };
    assert!(model.validate().is_err());
}
