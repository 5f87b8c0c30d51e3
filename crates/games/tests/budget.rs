//! The engines stop on their caller's budget ([`gametab_games::budget`]):
//! a step budget stops each engine inside its own loops with the typed
//! error, a cancel from another thread stops a run that would take long,
//! and an ample budget changes no answer.

use std::time::Duration;

use gametab_games::budget::{Budget, Exceeded};
use gametab_games::cluedo::{advise, analyse, GameLog as CluedoLog, Model, Seat};
use gametab_games::werewolf::roles::RolePosterior;
use gametab_games::werewolf::{Event, EvidenceModel, Game, GameLog, Player, Posterior, Setup};
use gametab_games::Error;

fn example(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/examples/");
    std::fs::read_to_string(format!("{path}{name}")).unwrap()
}

fn out_of_steps(limit: u64) -> Error {
    Error::Budget(Exceeded::Steps { limit })
}

/// A side-only game of 64 players and 4 wolves (C(64, 4) = 635,376 wolf
/// sets) with `events` behaviour scores: seconds of work unbudgeted.
fn heavy_werewolf_game(events: u32) -> Game {
    let setup = Setup::new(64, 4).unwrap();
    let mut game = Game::new(setup, EvidenceModel::default(), None).unwrap();
    for i in 0..events {
        let player = Player::from_number(i % 64 + 1, setup).unwrap();
        let score = f64::from(i % 7) / 7.0 - 0.4;
        game.push(Event::Behaviour { player, score }).unwrap();
    }
    game
}

#[test]
fn werewolf_posteriors_stop_inside_their_enumeration() {
    let game = heavy_werewolf_game(20);
    let budget = Budget::with_steps(10_000);
    assert_eq!(
        budget.run(|| Posterior::compute(&game)),
        Err(out_of_steps(10_000))
    );

    let log: GameLog = serde_json::from_str(&example("werewolf-roles-12.json")).unwrap();
    let roles = log.to_role_game().unwrap();
    assert_eq!(
        Budget::with_steps(5).run(|| RolePosterior::compute(&roles).map(|p| p.assignment_count())),
        Err(out_of_steps(5))
    );
    let exact = RolePosterior::compute(&roles).unwrap();
    let budgeted = Budget::with_steps(u64::MAX)
        .run(|| RolePosterior::compute(&roles))
        .unwrap();
    assert_eq!(budgeted.assignment_count(), exact.assignment_count());
    for player in roles.setup().sides().all_players() {
        assert_eq!(
            budgeted.role_distribution(player),
            exact.role_distribution(player)
        );
    }

    // Reading a log is budgeted too (one step per event).
    let demo: GameLog = serde_json::from_str(&example("werewolf-demo.json")).unwrap();
    assert_eq!(
        Budget::with_steps(1).run(|| demo.to_game().map(drop)),
        Err(out_of_steps(1))
    );
    let side = demo.to_game().unwrap();
    assert_eq!(
        Budget::unlimited().run(|| Posterior::compute(&side)),
        Posterior::compute(&side)
    );
}

#[test]
fn cluedo_engines_stop_inside_their_counts() {
    let log = CluedoLog::from_json(&example("cluedo-game.json")).unwrap();
    let knowledge = log.knowledge().unwrap();
    let me = Seat(log.viewer);
    for model in [Model::EqualDeals, Model::UniformResponder] {
        assert_eq!(
            Budget::with_steps(3).run(|| analyse(&knowledge, model).map(drop)),
            Err(out_of_steps(3))
        );
        assert_eq!(
            Budget::with_steps(200).run(|| advise(&knowledge, model, me, None).map(drop)),
            Err(out_of_steps(200))
        );
        let exact = analyse(&knowledge, model).unwrap();
        let budgeted = Budget::with_steps(u64::MAX)
            .run(|| analyse(&knowledge, model))
            .unwrap();
        assert_eq!(format!("{budgeted:?}"), format!("{exact:?}"));
    }
}

#[test]
fn a_cancel_from_another_thread_stops_a_long_run() {
    // 2,000 behaviour terms for each of 635,376 wolf sets: far longer than
    // the moment before the cancel.
    let game = heavy_werewolf_game(2_000);
    let budget = Budget::unlimited();
    let engine = {
        let budget = budget.clone();
        std::thread::spawn(move || budget.run(|| Posterior::compute(&game).map(drop)))
    };
    std::thread::sleep(Duration::from_millis(50));
    budget.cancel();
    assert_eq!(
        engine.join().unwrap(),
        Err(Error::Budget(Exceeded::Cancelled))
    );
}
