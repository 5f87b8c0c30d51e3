//! The day-night cycle (issue 37, item 5): days and nights alternate, one
//! elimination at most a day, no vote after the day's end; each refusal
//! names the event and the rule. What may follow a day's end is accepted:
//! the step's shot and grief, last words, the seer viewer's own check.

use gametab_games::werewolf::roles::{Known, Role, RoleEvent, RoleGame, RoleModel, RoleSetup};

use super::{claim, night, out, seat, tie, vote, VILLAGE};

/// Push `events`; the last must be refused, naming its index and with
/// `expected` in the message.
fn refused(setup: RoleSetup, viewer: Option<(u32, Role)>, events: Vec<RoleEvent>, expected: &str) {
    let mut game = RoleGame::new(
        setup,
        RoleModel::default(),
        viewer.map(|(n, r)| (seat(n), Known::Role(r))),
    )
    .unwrap();
    let last = events.len() - 1;
    for (index, event) in events.into_iter().enumerate() {
        let shown = event.to_string();
        match game.push(event) {
            Ok(()) if index < last => {}
            Ok(()) => panic!("{shown} was accepted"),
            Err(error) if index < last => panic!("event {index} ({shown}): {error}"),
            Err(error) => {
                assert_eq!(error.event_index(), Some(last), "{error}");
                let text = error.to_string();
                assert!(
                    text.contains(&format!("event {} ({shown})", last + 1)),
                    "{text}"
                );
                assert!(text.contains(expected), "{shown}: {text}");
            }
        }
    }
}

fn six() -> RoleSetup {
    RoleSetup::new(6, 1, &[Role::Seer, Role::Witch, Role::Hunter]).unwrap()
}

#[test]
fn two_eliminations_need_a_night_between() {
    refused(
        six(),
        None,
        vec![night(&[]), vote(1, 2), out(2, None), out(3, None)],
        "the day ended with the elimination (event 3): one elimination at most a day",
    );
}

#[test]
fn nothing_is_voted_after_no_elimination() {
    let day = vec![
        night(&[6]),
        tie(&[1, 2]),
        vote(3, 1),
        RoleEvent::NoElimination,
    ];
    refused(
        six(),
        None,
        [day.clone(), vec![vote(4, 2)]].concat(),
        "the day ended with `no_elimination` (event 4)",
    );
    refused(
        six(),
        None,
        [day.clone(), vec![out(2, None)]].concat(),
        "one elimination at most a day",
    );
    refused(
        six(),
        None,
        [day, vec![tie(&[1, 2])]].concat(),
        "no vote after the day's end",
    );
}

#[test]
fn two_nights_need_a_day_between() {
    refused(
        six(),
        None,
        vec![night(&[]), night(&[1])],
        "days and nights alternate: the day after the night of event 1 has not ended",
    );
    // Votes alone do not end a day.
    refused(
        six(),
        None,
        vec![night(&[]), vote(1, 2), vote(2, 1), night(&[3])],
        "has not ended",
    );
    refused(
        six(),
        None,
        vec![vote(1, 2), night(&[3])],
        "the day logged before the first night has not ended",
    );
}

/// What may follow the day's end before the night: the shot and the
/// lovers' grief, talk, the seer viewer's own check.
#[test]
fn the_day_end_is_followed_by_its_consequences_and_the_night() {
    let mut game = RoleGame::new(
        six(),
        RoleModel::default(),
        Some((seat(1), Known::Role(Role::Seer))),
    )
    .unwrap();
    for event in [
        night(&[]),
        vote(2, 3),
        out(3, Some(Known::Role(Role::Hunter))),
        RoleEvent::HunterShot {
            hunter: seat(3),
            target: seat(4),
        },
        claim(2, Role::Villager, None),
        RoleEvent::SeerCheck {
            target: seat(5),
            result: VILLAGE,
        },
        night(&[5]),
        tie(&[1, 2]),
        RoleEvent::NoElimination,
        night(&[]),
    ] {
        let shown = event.to_string();
        game.push(event).unwrap_or_else(|e| panic!("{shown}: {e}"));
    }
    assert_eq!(game.len(), 10);
}

/// A card or side made known is a fact, not talk: it may open a log
/// before its first night, and follow a self-destruct.
#[test]
fn reveals_come_at_any_time() {
    let mut game = RoleGame::new(six(), RoleModel::default(), None).unwrap();
    for event in [
        RoleEvent::Revealed {
            player: seat(6),
            known: VILLAGE,
        },
        night(&[]),
        RoleEvent::SelfDestruct { player: seat(2) },
        RoleEvent::Revealed {
            player: seat(3),
            known: Known::Role(Role::Seer),
        },
        night(&[4]),
    ] {
        let shown = event.to_string();
        game.push(event).unwrap_or_else(|e| panic!("{shown}: {e}"));
    }
}
