//! The brute force the role engine is checked against: every full role
//! assignment, every lovers' pair and every hidden night choice (the
//! wolves' victim, the guard's target given the one before, the witch's
//! save, poison and target) enumerated one by one, straight from the
//! model's description on `RoleModel`, with no closed form and nothing
//! shared with the engine but the public event types. The information
//! gain is computed from its definition: the joint entropy now minus the
//! expected joint entropy once the elimination's outcome is seen (0 once
//! the game is over in every hypothesis). It reads every event kind: the
//! viewer's private knowledge (pack, lovers, the witch's night) as
//! filters, a self-destruct as a wolf, the end with a wolf-villager pair
//! of lovers as a third side. The nights are in `brute_night.rs`.

use std::collections::HashMap;

use super::brute_night::{brute_night, NightState, WitchView};

use gametab_games::werewolf::roles::{
    Known, RevealRule, Role, RoleEvent, RoleGame, RoleModel, RoleSetup,
};
use gametab_games::werewolf::{Player, Side};

/// The brute-force posterior.
pub struct Brute {
    /// P(role) by seat.
    pub roles: Vec<[f64; 7]>,
    /// P(lover) by seat.
    pub lovers: Vec<f64>,
    /// P(pair) by pair of seat indices (lower first), positive ones only.
    pub pairs: HashMap<(usize, usize), f64>,
    /// Joint entropy (bits) of (roles, pair).
    pub entropy_bits: f64,
    /// P(goes on), P(village won), P(wolves won), P(lovers won).
    pub outcome: [f64; 4],
    /// Information gain (bits) of eliminating each seat (dead: 0), by
    /// reveal rule (role, side).
    pub gains: Vec<[f64; 2]>,
}

/// Every full assignment of the setup's roles to the seats.
fn assignments(setup: &RoleSetup) -> Vec<Vec<Role>> {
    let mut counts: Vec<(Role, u32)> = Role::ALL.iter().map(|&r| (r, setup.count(r))).collect();
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn go(counts: &mut [(Role, u32)], n: usize, current: &mut Vec<Role>, out: &mut Vec<Vec<Role>>) {
        if current.len() == n {
            out.push(current.clone());
            return;
        }
        for i in 0..counts.len() {
            if counts[i].1 > 0 {
                counts[i].1 -= 1;
                current.push(counts[i].0);
                go(counts, n, current, out);
                current.pop();
                counts[i].1 += 1;
            }
        }
    }
    go(
        &mut counts,
        setup.players() as usize,
        &mut current,
        &mut out,
    );
    out
}

fn bit(p: Player) -> u64 {
    1u64 << p.index()
}

fn side(role: Role) -> Side {
    if role == Role::Wolf {
        Side::Wolf
    } else {
        Side::Village
    }
}

/// The side a report names when it is written as a side.
fn side_of(report: Known) -> Option<Side> {
    match report {
        Known::Side(s) => Some(s),
        Known::Role(_) => None,
    }
}

/// The side of what a vision showed.
fn side_of_seen(seen: Known) -> Side {
    match seen {
        Known::Side(s) => s,
        Known::Role(r) => side(r),
    }
}

/// The chance that a card drawn from the village cards other than the
/// seer's is `role`.
fn card_share(setup: &RoleSetup, role: Role) -> f64 {
    let pool = setup.players() - setup.wolves() - setup.count(Role::Seer);
    if role == Role::Seer || role == Role::Wolf || pool == 0 {
        return 0.0;
    }
    f64::from(setup.count(role)) / f64::from(pool)
}

/// P(a seer's vision of a player holding `truth` shows `report`).
fn vision(setup: &RoleSetup, model: &RoleModel, truth: Role, report: Known) -> f64 {
    let a = model.sides.seer_accuracy;
    match report {
        Known::Side(s) => {
            if side(truth) == s {
                a
            } else {
                1.0 - a
            }
        }
        Known::Role(r) => {
            if truth == r {
                a
            } else if side(truth) != side(r) {
                (1.0 - a) * card_share(setup, r)
            } else {
                0.0
            }
        }
    }
}

/// P(a false seer reports `report`).
fn fake_report(setup: &RoleSetup, model: &RoleModel, report: Known) -> f64 {
    match report {
        Known::Side(Side::Wolf) | Known::Role(Role::Wolf) => model.fake_says_wolf,
        Known::Side(Side::Village) => 1.0 - model.fake_says_wolf,
        Known::Role(r) => (1.0 - model.fake_says_wolf) * card_share(setup, r),
    }
}

fn hunter_alone(role: Role, shot: bool, can_shoot: bool, model: &RoleModel) -> f64 {
    match (role == Role::Hunter, shot) {
        (true, true) => model.hunter_shoots,
        (true, false) if can_shoot => 1.0 - model.hunter_shoots,
        (true, false) => 1.0,
        (false, true) => 0.0,
        (false, false) => 1.0,
    }
}

/// Who won under `roles` and `pair` once `living` remain (None: goes on):
/// 1 the village (no wolf alive), 2 the wolves (the pack at least as many
/// as the others alive), 3 the lovers (a wolf-villager pair, the last two
/// alive). While such a pair lives, its wolf is out of the pack.
pub fn winner(roles: &[Role], living: u64, pair: Option<(usize, usize)>) -> Option<usize> {
    let alive: Vec<usize> = (0..roles.len()).filter(|&i| living >> i & 1 == 1).collect();
    let wolves = alive.iter().filter(|&&i| roles[i] == Role::Wolf).count();
    if wolves == 0 {
        return Some(1);
    }
    let mixed = pair.is_some_and(|(a, b)| {
        alive.contains(&a)
            && alive.contains(&b)
            && (roles[a] == Role::Wolf) != (roles[b] == Role::Wolf)
    });
    if mixed && alive.len() == 2 {
        return Some(3);
    }
    let pack = if mixed { wolves - 1 } else { wolves };
    if pack > 0 && pack >= alive.len() - pack {
        return Some(2);
    }
    None
}

/// The likelihood of every event of `game` under `roles` and `pair`, and
/// the living when it stopped.
fn likelihood(game: &RoleGame, roles: &[Role], pair: Option<(usize, usize)>) -> (f64, u64) {
    let model = game.model();
    let setup = game.setup();
    let events: Vec<RoleEvent> = game.events().cloned().collect();
    let n = roles.len();
    let mut living: u64 = (1u64 << n) - 1;
    let is_wolf = |i: usize| roles[i] == Role::Wolf;
    let mut weight = 1.0;
    let mut states: Vec<(NightState, f64)> = vec![((true, true, None), 1.0)];
    let mut tie: Option<u64> = None;
    // Bookkeeping for the lovers: the step of every death by a step's own
    // cause (night, night kill, vote), and who died at all.
    let mut step = 0usize;
    let mut primary_in = vec![usize::MAX; n];
    let mut dead = vec![false; n];
    let mut named_pair = false;
    let mut own_checks: Vec<(Player, Known)> = Vec::new();
    let mut witch_view: Option<WitchView> = None;
    if let Some((viewer, known)) = game.viewer() {
        let ok = match known {
            Known::Side(s) => side(roles[viewer.index()]) == s,
            Known::Role(r) => roles[viewer.index()] == r,
        };
        if !ok {
            return (0.0, living);
        }
    }
    for (index, event) in events.iter().enumerate() {
        let consequence = matches!(
            event,
            RoleEvent::HunterShot { .. } | RoleEvent::LoverDeath { .. }
        );
        if !consequence && winner(roles, living, pair).is_some() {
            // The game had ended: nothing can follow.
            return (0.0, living);
        }
        // The shot following a death step, if any.
        let shooter_after = || {
            events[index + 1..]
                .iter()
                .take_while(|e| {
                    matches!(
                        e,
                        RoleEvent::HunterShot { .. } | RoleEvent::LoverDeath { .. }
                    )
                })
                .find_map(|e| match e {
                    RoleEvent::HunterShot { hunter, .. } => Some(*hunter),
                    _ => None,
                })
        };
        // Whether a hunter dying by this step has anyone left to shoot:
        // someone outlives its deaths and its lovers' grief (or he shot).
        let can_shoot = |primary: u64| {
            let mut left = living & !primary;
            for e in events[index + 1..].iter().take_while(|e| {
                matches!(
                    e,
                    RoleEvent::HunterShot { .. } | RoleEvent::LoverDeath { .. }
                )
            }) {
                match e {
                    RoleEvent::HunterShot { .. } => return true,
                    RoleEvent::LoverDeath { player, .. } => left &= !bit(*player),
                    _ => {}
                }
            }
            left != 0
        };
        match event {
            RoleEvent::Night { deaths, guarded } => {
                step += 1;
                let mask = deaths.iter().fold(0u64, |m, &p| m | bit(p));
                brute_night(
                    roles,
                    living,
                    mask,
                    guarded.map(|g| g.index()),
                    shooter_after(),
                    can_shoot(mask),
                    witch_view.take(),
                    model,
                    &mut states,
                );
                for d in deaths {
                    primary_in[d.index()] = step;
                    dead[d.index()] = true;
                }
                living &= !mask;
            }
            RoleEvent::NightKill { victim } => {
                step += 1;
                if is_wolf(victim.index()) {
                    return (0.0, living);
                }
                let non_wolves = (0..n)
                    .filter(|&i| living >> i & 1 == 1 && !is_wolf(i))
                    .count();
                weight /= non_wolves as f64;
                weight *= hunter_alone(
                    roles[victim.index()],
                    shooter_after() == Some(*victim),
                    can_shoot(bit(*victim)),
                    model,
                );
                // No guard that night: he protected nobody.
                for (state, _) in states.iter_mut() {
                    state.2 = None;
                }
                primary_in[victim.index()] = step;
                dead[victim.index()] = true;
                living &= !bit(*victim);
            }
            RoleEvent::SeerCheck { target, result } => {
                weight *= vision(&setup, model, roles[target.index()], *result);
                own_checks.push((*target, *result));
            }
            RoleEvent::Vote { voter, target } => {
                let (j, k) = (voter.index(), target.index());
                let partner = pair.and_then(|(a, b)| {
                    if a == j {
                        Some(b)
                    } else if b == j {
                        Some(a)
                    } else {
                        None
                    }
                });
                let partner = partner.filter(|&p| living >> p & 1 == 1);
                if partner == Some(k) {
                    return (0.0, living);
                }
                let w = |t: usize| model.sides.votes.weight(side(roles[j]), side(roles[t]));
                let pool = tie.unwrap_or(living);
                let total: f64 = (0..n)
                    .filter(|&t| t != j && pool >> t & 1 == 1 && Some(t) != partner)
                    .map(w)
                    .sum();
                weight *= w(k) / total;
            }
            RoleEvent::Tie { players } => {
                tie = Some(players.iter().fold(0u64, |m, &p| m | bit(p)));
            }
            RoleEvent::NoElimination => tie = None,
            RoleEvent::Behaviour { player, score } => {
                if is_wolf(player.index()) {
                    weight *= score.exp();
                }
            }
            RoleEvent::Eliminated { player, shown } => {
                tie = None;
                step += 1;
                let role = roles[player.index()];
                if let Some(known) = shown {
                    let ok = match known {
                        Known::Side(s) => side(role) == *s,
                        Known::Role(r) => role == *r,
                    };
                    if !ok {
                        return (0.0, living);
                    }
                }
                weight *= hunter_alone(
                    role,
                    shooter_after() == Some(*player),
                    can_shoot(bit(*player)),
                    model,
                );
                primary_in[player.index()] = step;
                dead[player.index()] = true;
                living &= !bit(*player);
            }
            RoleEvent::Revealed { player, known } => {
                let role = roles[player.index()];
                let ok = match known {
                    Known::Side(s) => side(role) == *s,
                    Known::Role(r) => role == *r,
                };
                if !ok {
                    return (0.0, living);
                }
            }
            RoleEvent::HunterShot { hunter, target } => {
                if roles[hunter.index()] != Role::Hunter {
                    return (0.0, living);
                }
                dead[target.index()] = true;
                living &= !bit(*target);
            }
            RoleEvent::LoverDeath { player, lover } => {
                let named = (player.index(), lover.index());
                if pair != Some((named.0.min(named.1), named.0.max(named.1))) {
                    return (0.0, living);
                }
                named_pair = true;
                dead[player.index()] = true;
                living &= !bit(*player);
            }
            RoleEvent::Pack { wolves } => {
                let listed = wolves.iter().fold(0u64, |m, &p| m | bit(p));
                if (0..n).any(|i| (listed >> i & 1 == 1) != is_wolf(i)) {
                    return (0.0, living);
                }
            }
            RoleEvent::Lovers { pair: known } => {
                let viewer = game.viewer().map(|(v, _)| v.index());
                let ok = match known {
                    Some((a, b)) => {
                        let (a, b) = (a.index(), b.index());
                        pair == Some((a.min(b), a.max(b)))
                    }
                    None => pair.is_none_or(|(a, b)| Some(a) != viewer && Some(b) != viewer),
                };
                if !ok {
                    return (0.0, living);
                }
            }
            RoleEvent::SelfDestruct { player } => {
                if !is_wolf(player.index()) {
                    return (0.0, living);
                }
            }
            RoleEvent::WitchNight {
                shown,
                saved,
                poisoned,
            } => {
                witch_view = Some((
                    shown.map(|p| p.index()),
                    *saved,
                    poisoned.map(|p| p.index()),
                ));
            }
            RoleEvent::Claim {
                player,
                role,
                check,
            } => {
                let actual = roles[player.index()];
                // The seer viewer telling a vision she logged: the same
                // vision, already counted.
                let told = game.viewer() == Some((*player, Known::Role(Role::Seer)))
                    && *role == Role::Seer
                    && check.is_some_and(|(target, report)| {
                        own_checks.iter().any(|&(t, seen)| {
                            t == target
                                && (report == seen || side_of(report) == Some(side_of_seen(seen)))
                        })
                    });
                if told {
                    continue;
                }
                if actual == *role {
                    if let Some((target, report)) = check {
                        weight *= vision(&setup, model, roles[target.index()], *report);
                    }
                } else {
                    weight *= if actual == Role::Wolf {
                        model.fake_claim
                    } else {
                        model.village_fake_claim
                    };
                    if let Some((_, report)) = check {
                        weight *= fake_report(&setup, model, *report);
                    }
                }
            }
        }
    }
    if let (Some((a, b)), false) = (pair, named_pair) {
        // Unnamed lovers both live, or both died by one step's own cause
        // (otherwise the second would have died of grief, logged).
        let together =
            dead[a] && dead[b] && primary_in[a] == primary_in[b] && primary_in[a] != usize::MAX;
        if !(together || (!dead[a] && !dead[b])) {
            return (0.0, living);
        }
    }
    (weight * states.iter().map(|(_, w)| w).sum::<f64>(), living)
}

/// What eliminating `x` shows under `reveal` for a hypothesis: x's card
/// or side, the shot (with its chance), the lover who dies with x and
/// their card or side. Each outcome with its probability.
fn outcomes(
    roles: &[Role],
    pair: Option<(usize, usize)>,
    x: usize,
    reveal: RevealRule,
    model: &RoleModel,
) -> Vec<(String, f64)> {
    let show = |i: usize| match reveal {
        RevealRule::Role => format!("{:?}", roles[i]),
        RevealRule::Side => format!("{:?}", side(roles[i])),
    };
    let lover = pair.and_then(|(a, b)| {
        if a == x {
            Some(b)
        } else if b == x {
            Some(a)
        } else {
            None
        }
    });
    let grief = match lover {
        Some(y) => format!("lover {y} {}", show(y)),
        None => "no lover".to_string(),
    };
    let shots: Vec<(bool, f64)> = if roles[x] == Role::Hunter {
        vec![
            (true, model.hunter_shoots),
            (false, 1.0 - model.hunter_shoots),
        ]
    } else {
        vec![(false, 1.0)]
    };
    shots
        .into_iter()
        .filter(|(_, p)| *p > 0.0)
        .map(|(shot, p)| (format!("{} shot {shot} {grief}", show(x)), p))
        .collect()
}

/// The brute-force posterior of `game`.
pub fn brute(game: &RoleGame) -> Brute {
    let setup = game.setup();
    let model = game.model();
    let n = setup.players() as usize;
    let pairs: Vec<Option<(usize, usize)>> = if setup.has(Role::Cupid) {
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| Some((a, b))))
            .collect()
    } else {
        vec![None]
    };
    let mut weights = Vec::new();
    for roles in assignments(&setup) {
        for &pair in &pairs {
            let (w, _) = likelihood(game, &roles, pair);
            if w > 0.0 {
                weights.push((roles.clone(), pair, w));
            }
        }
    }
    // The living at the end are public: the same under every hypothesis.
    let living = game.living().0;
    let z: f64 = weights.iter().map(|(_, _, w)| w).sum();
    let mut roles_p = vec![[0.0; 7]; n];
    let mut lovers = vec![0.0; n];
    let mut pair_p: HashMap<(usize, usize), f64> = HashMap::new();
    let mut entropy = 0.0;
    let mut outcome = [0.0; 4];
    for (roles, pair, w) in &weights {
        let q = w / z;
        entropy -= q * q.log2();
        for (i, r) in roles.iter().enumerate() {
            roles_p[i][r.index()] += q;
        }
        if let Some((a, b)) = pair {
            lovers[*a] += q;
            lovers[*b] += q;
            *pair_p.entry((*a, *b)).or_default() += q;
        }
        outcome[winner(roles, living, *pair).unwrap_or(0)] += q;
    }
    // H(S) - E_O H(S | O), from the definition; no elimination follows
    // a game over in every hypothesis.
    let gains = (0..n)
        .map(|x| {
            if living >> x & 1 == 0 || outcome[0] == 0.0 {
                return [0.0; 2];
            }
            [RevealRule::Role, RevealRule::Side].map(|reveal| {
                let mut by_outcome: HashMap<String, Vec<f64>> = HashMap::new();
                for (roles, pair, w) in &weights {
                    let q = w / z;
                    for (o, p) in outcomes(roles, *pair, x, reveal, model) {
                        by_outcome.entry(o).or_default().push(q * p);
                    }
                }
                let expected: f64 = by_outcome
                    .values()
                    .map(|joint| {
                        let po: f64 = joint.iter().sum();
                        let h: f64 = joint
                            .iter()
                            .filter(|&&m| m > 0.0)
                            .map(|&m| -(m / po) * (m / po).log2())
                            .sum();
                        po * h
                    })
                    .sum();
                entropy - expected
            })
        })
        .collect();
    Brute {
        roles: roles_p,
        lovers,
        pairs: pair_p,
        entropy_bits: entropy,
        outcome,
        gains,
    }
}
