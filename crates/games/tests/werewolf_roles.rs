//! Role-engine checks against an independent brute force: every full role
//! assignment, every lovers' pair and every hidden night choice (victim,
//! guard target given the last one, witch's save, poison and target)
//! enumerated one by one straight from the model's description, on small
//! setups where each role is present, on hand-made logs using every event
//! kind and on hundreds of random legal games; plus hand-checked values of
//! each rule, the agreement with the side-only engine when no special role
//! is present, long logs against a rescaled computation, and the refusals.
//! This file holds the shared helpers; the checks are in `werewolf_roles/`:
//! against the brute force (`brute_force.rs`, the brute force itself in
//! `brute.rs` and `brute_night.rs`; random legal games `random.rs`), by
//! hand (`by_hand.rs`), relabelling and long logs (`relabelled.rs`,
//! `rescaled.rs`), the refusals (`rules.rs`), and the rest by their names.

use gametab_games::werewolf::roles::{
    Known, RevealRule, Role, RoleEvent, RoleGame, RoleModel, RolePosterior, RoleSetup, Winner,
};
use gametab_games::werewolf::{Event, Game, Player, Posterior, Side};

#[path = "werewolf_roles/brute.rs"]
mod brute;
#[path = "werewolf_roles/brute_force.rs"]
mod brute_force;
#[path = "werewolf_roles/brute_night.rs"]
mod brute_night;
#[path = "werewolf_roles/by_hand.rs"]
mod by_hand;
#[path = "werewolf_roles/cycle.rs"]
mod cycle;
#[path = "werewolf_roles/defects.rs"]
mod defects;
#[path = "werewolf_roles/private.rs"]
mod private;
#[path = "werewolf_roles/random.rs"]
mod random;
#[path = "werewolf_roles/relabelled.rs"]
mod relabelled;
#[path = "werewolf_roles/rescaled.rs"]
mod rescaled;
#[path = "werewolf_roles/rules.rs"]
mod rules;

use brute::brute;

pub fn seat(n: u32) -> Player {
    Player::from_number(n, gametab_games::werewolf::Setup::new(64, 1).unwrap()).unwrap()
}

/// The largest difference between the engine and the brute force on
/// `game`, after checking each answer within its tolerance.
pub fn assert_agrees(game: &RoleGame) -> f64 {
    let exact = RolePosterior::compute(game).unwrap_or_else(|e| panic!("{e}"));
    let brute = brute(game);
    let mut worst: f64 = 0.0;
    let mut check = |what: String, e: f64, b: f64, tolerance: f64| {
        let d = (e - b).abs();
        assert!(d < tolerance, "{what}: engine {e}, brute force {b}");
        worst = worst.max(d);
    };
    for player in game.setup().sides().all_players() {
        for role in Role::ALL {
            check(
                format!("{player} {role}"),
                exact.p_role(player, role),
                brute.roles[player.index()][role.index()],
                1e-10,
            );
        }
        check(
            format!("{player} lover"),
            exact.p_lover(player),
            brute.lovers[player.index()],
            1e-10,
        );
        for (i, reveal) in [RevealRule::Role, RevealRule::Side].into_iter().enumerate() {
            check(
                format!("{player} information gain ({})", reveal.name()),
                exact.information_gain(player, reveal),
                brute.gains[player.index()][i],
                1e-9,
            );
        }
    }
    check(
        "joint entropy".into(),
        exact.joint_entropy(),
        brute.entropy_bits,
        1e-9,
    );
    let engine_outcome = [
        exact.p_ongoing(),
        exact.p_won(Winner::Village),
        exact.p_won(Winner::Wolves),
        exact.p_won(Winner::Lovers),
    ];
    for (i, (&e, &b)) in engine_outcome.iter().zip(&brute.outcome).enumerate() {
        check(format!("outcome {i}"), e, b, 1e-10);
    }
    // Every pair listed has its probability, and no impossible pair is.
    assert_eq!(exact.lovers().len(), brute.pairs.len(), "pairs listed");
    for &((a, b), p) in exact.lovers() {
        let q = brute
            .pairs
            .get(&(a.index(), b.index()))
            .copied()
            .unwrap_or(0.0);
        check(format!("pair {a} {b}"), p, q, 1e-10);
    }
    worst
}

/// The default model with the two rules the older hand checks leave out
/// (knifing a wolf, the witch poisoning herself) at 0.
pub fn without_knife_or_self_poison() -> RoleModel {
    RoleModel {
        wolves_knife_wolf: 0.0,
        witch_poisons_herself: 0.0,
        ..RoleModel::default()
    }
}

pub fn game_with(
    setup: RoleSetup,
    model: RoleModel,
    viewer: Option<(u32, Role)>,
    events: Vec<RoleEvent>,
) -> RoleGame {
    let mut game =
        RoleGame::new(setup, model, viewer.map(|(n, r)| (seat(n), Known::Role(r)))).unwrap();
    for event in events {
        let shown = event.to_string();
        game.push(event).unwrap_or_else(|e| panic!("{shown}: {e}"));
    }
    game
}

pub fn game(setup: RoleSetup, viewer: Option<(u32, Role)>, events: Vec<RoleEvent>) -> RoleGame {
    game_with(setup, RoleModel::default(), viewer, events)
}

pub fn night(deaths: &[u32]) -> RoleEvent {
    RoleEvent::Night {
        deaths: deaths.iter().map(|&n| seat(n)).collect(),
        guarded: None,
    }
}

pub fn guarded_night(deaths: &[u32], guarded: u32) -> RoleEvent {
    RoleEvent::Night {
        deaths: deaths.iter().map(|&n| seat(n)).collect(),
        guarded: Some(seat(guarded)),
    }
}

pub fn vote(voter: u32, target: u32) -> RoleEvent {
    RoleEvent::Vote {
        voter: seat(voter),
        target: seat(target),
    }
}

pub fn claim(player: u32, role: Role, check: Option<(u32, Known)>) -> RoleEvent {
    RoleEvent::Claim {
        player: seat(player),
        role,
        check: check.map(|(t, k)| (seat(t), k)),
    }
}

/// The day's vote tied between `players`.
pub fn tie(players: &[u32]) -> RoleEvent {
    RoleEvent::Tie {
        players: players.iter().map(|&n| seat(n)).collect(),
    }
}

pub fn out(player: u32, shown: Option<Known>) -> RoleEvent {
    RoleEvent::Eliminated {
        player: seat(player),
        shown,
    }
}

pub const WOLF: Known = Known::Side(Side::Wolf);
pub const VILLAGE: Known = Known::Side(Side::Village);
const ALL_BUT_CUPID: [Role; 4] = [Role::Seer, Role::Witch, Role::Hunter, Role::Guard];
const ALL_FIVE: [Role; 5] = [
    Role::Seer,
    Role::Witch,
    Role::Hunter,
    Role::Guard,
    Role::Cupid,
];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

pub fn example(name: &str) -> String {
    let path = format!(
        "{}/../../scripts/examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
