//! Werewolf: the exact posterior and the vote ranking of a 12-player,
//! 4-wolf game after a full first day of evidence (target: under 1 ms);
//! and the same table with roles, two nights and two days of role events:
//! seer, witch, hunter and guard (target: under 100 ms), and with cupid
//! and the lovers as well (target: under 2 s).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

use gametab_games::werewolf::roles::{
    Known, RevealRule, Role, RoleEvent, RoleGame, RoleModel, RolePosterior, RoleSetup,
};
use gametab_games::werewolf::{
    rank, Event, EvidenceModel, Game, Player, Posterior, ScoringRule, Setup, Side,
};

/// Night 1: the wolves kill 12, the seer checks 3 (wolf). Day 1: every one
/// of the 11 living players votes, two behaviour scores, 3 is voted out and
/// revealed. Then the day-2 votes so far.
fn first_day() -> Game {
    let setup = Setup::new(12, 4).expect("valid setup");
    let p = |n| Player::from_number(n, setup).expect("seat at the table");
    let mut game = Game::new(setup, EvidenceModel::default(), None).expect("valid model");
    let mut events = vec![
        Event::NightKill { victim: p(12) },
        Event::SeerCheck {
            target: p(3),
            result: Side::Wolf,
        },
    ];
    let day_one = [
        (1, 3),
        (2, 3),
        (3, 5),
        (4, 3),
        (5, 6),
        (6, 3),
        (7, 1),
        (8, 3),
        (9, 7),
        (10, 3),
        (11, 7),
    ];
    events.extend(day_one.iter().map(|&(voter, target)| Event::Vote {
        voter: p(voter),
        target: p(target),
    }));
    events.push(Event::Behaviour {
        player: p(7),
        score: 1.5,
    });
    events.push(Event::Behaviour {
        player: p(9),
        score: -0.5,
    });
    events.push(Event::Eliminated {
        player: p(3),
        revealed: Some(Side::Wolf),
    });
    let day_two = [(1, 5), (2, 5), (4, 5), (5, 6)];
    events.extend(day_two.iter().map(|&(voter, target)| Event::Vote {
        voter: p(voter),
        target: p(target),
    }));
    for event in events {
        game.push(event).expect("consistent evidence");
    }
    game
}

fn posterior_and_ranking(c: &mut Criterion) {
    let game = first_day();
    c.bench_function("werewolf 12p/4w first day: posterior + ranking", |b| {
        b.iter(|| {
            let posterior = Posterior::compute(black_box(&game)).expect("within the size limit");
            rank(&posterior, ScoringRule::Published, None)
        })
    });
}

/// Night 1 kills 12; two players claim seer with opposite checks; every
/// living player votes; 3 is voted out without the card shown; night 2 is
/// quiet; a witch claim and the day-2 votes so far.
fn role_game(specials: &[Role]) -> RoleGame {
    let setup = RoleSetup::new(12, 4, specials).expect("valid setup");
    let p = |n| Player::from_number(n, setup.sides()).expect("seat at the table");
    let mut game = RoleGame::new(setup, RoleModel::default(), None).expect("valid model");
    let mut events = vec![
        RoleEvent::Night {
            deaths: vec![p(12)],
            guarded: None,
        },
        RoleEvent::Claim {
            player: p(1),
            role: Role::Seer,
            check: Some((p(3), Known::Side(Side::Wolf))),
        },
        RoleEvent::Claim {
            player: p(5),
            role: Role::Seer,
            check: Some((p(1), Known::Side(Side::Wolf))),
        },
    ];
    let day_one = [
        (1, 3),
        (2, 3),
        (3, 5),
        (4, 3),
        (5, 1),
        (6, 3),
        (7, 1),
        (8, 3),
        (9, 7),
        (10, 3),
        (11, 7),
    ];
    events.extend(day_one.iter().map(|&(voter, target)| RoleEvent::Vote {
        voter: p(voter),
        target: p(target),
    }));
    events.push(RoleEvent::Behaviour {
        player: p(7),
        score: 1.5,
    });
    events.push(RoleEvent::Eliminated {
        player: p(3),
        shown: None,
    });
    events.push(RoleEvent::Night {
        deaths: vec![],
        guarded: None,
    });
    events.push(RoleEvent::Claim {
        player: p(2),
        role: Role::Witch,
        check: None,
    });
    let day_two = [(1, 5), (2, 5), (4, 5), (5, 6), (6, 5)];
    events.extend(day_two.iter().map(|&(voter, target)| RoleEvent::Vote {
        voter: p(voter),
        target: p(target),
    }));
    for event in events {
        game.push(event).expect("consistent evidence");
    }
    game
}

fn role_posterior_and_ranking(c: &mut Criterion) {
    let cases = [
        (
            "werewolf roles 12p/4w seer witch hunter guard: posterior + ranking",
            vec![Role::Seer, Role::Witch, Role::Hunter, Role::Guard],
        ),
        (
            "werewolf roles 12p/4w seer witch hunter guard cupid: posterior + ranking",
            vec![
                Role::Seer,
                Role::Witch,
                Role::Hunter,
                Role::Guard,
                Role::Cupid,
            ],
        ),
    ];
    for (name, specials) in cases {
        let game = role_game(&specials);
        c.bench_function(name, |b| {
            b.iter(|| {
                let posterior =
                    RolePosterior::compute(black_box(&game)).expect("within the size limit");
                posterior.rank(ScoringRule::Published, RevealRule::Role, None)
            })
        });
    }
}

criterion_group!(benches, posterior_and_ranking, role_posterior_and_ranking);
criterion_main!(benches);
