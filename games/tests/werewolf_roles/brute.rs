//! The brute force the role engine is checked against: every full role
//! assignment, every lovers' pair and every hidden night choice (victim,
//! guard, witch's save, poison and target) enumerated one by one, straight
//! from the model's description on `RoleModel`, with no closed form and
//! nothing shared with the engine but the public event types.

use gametab_games::werewolf::roles::{Known, Role, RoleEvent, RoleGame, RoleModel, RoleSetup};
use gametab_games::werewolf::{Player, Side};

/// The brute-force posterior: role of every seat, P(lover) per seat, joint
/// entropy (bits).
pub struct Brute {
    pub roles: Vec<[f64; 7]>,
    pub lovers: Vec<f64>,
    pub entropy_bits: f64,
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

/// One way the witch's night can go: saved or not, whom she poisoned, its
/// probability, and the potions (antidote, poison) left after it.
type Branch = (bool, Option<usize>, f64, (bool, bool));

/// P(observed deaths, hunter behaviour) of one night under `roles`, by
/// enumerating every hidden choice; `potions` (antidote, poison) -> weight
/// is advanced in place.
fn brute_night(
    roles: &[Role],
    living: u64,
    deaths: u64,
    shooter: Option<Player>,
    model: &RoleModel,
    potions: &mut Vec<((bool, bool), f64)>,
) {
    let seats: Vec<usize> = (0..roles.len()).filter(|&i| living >> i & 1 == 1).collect();
    let find = |r: Role| seats.iter().copied().find(|&i| roles[i] == r);
    let (witch, guard, hunter) = (find(Role::Witch), find(Role::Guard), find(Role::Hunter));
    let victims: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&i| roles[i] != Role::Wolf)
        .collect();
    let wolves_alive = seats.iter().any(|&i| roles[i] == Role::Wolf);
    let mut next: Vec<((bool, bool), f64)> = Vec::new();
    let push = |state: (bool, bool), w: f64, next: &mut Vec<((bool, bool), f64)>| {
        if let Some(entry) = next.iter_mut().find(|(s, _)| *s == state) {
            entry.1 += w;
        } else {
            next.push((state, w));
        }
    };
    for &((antidote, poison), weight) in potions.iter() {
        if victims.is_empty() || !wolves_alive {
            continue;
        }
        for &v in &victims {
            let pv = weight / victims.len() as f64;
            let guards: Vec<(Option<usize>, f64)> = match guard {
                Some(_) => seats
                    .iter()
                    .map(|&g| (Some(g), 1.0 / seats.len() as f64))
                    .collect(),
                None => vec![(None, 1.0)],
            };
            for (g, pg) in guards {
                // (saved, poisoned target, probability, potions after)
                let mut branches: Vec<Branch> = Vec::new();
                let told = witch.is_some() && antidote && Some(v) != witch;
                let save_p = if told { model.witch_save } else { 0.0 };
                if save_p > 0.0 {
                    branches.push((true, None, save_p, (false, poison)));
                }
                let rest = 1.0 - save_p;
                let targets: Vec<usize> = seats
                    .iter()
                    .copied()
                    .filter(|&t| Some(t) != witch && t != v)
                    .collect();
                if witch.is_some() && poison && !targets.is_empty() {
                    for &t in &targets {
                        branches.push((
                            false,
                            Some(t),
                            rest * model.witch_poison / targets.len() as f64,
                            (antidote, false),
                        ));
                    }
                    branches.push((
                        false,
                        None,
                        rest * (1.0 - model.witch_poison),
                        (antidote, poison),
                    ));
                } else {
                    branches.push((false, None, rest, (antidote, poison)));
                }
                for (saved, target, pb, after) in branches {
                    let victim_dies = !saved && g != Some(v);
                    let mut died = 0u64;
                    if victim_dies {
                        died |= 1 << v;
                    }
                    if let Some(t) = target {
                        died |= 1 << t;
                    }
                    if died != deaths {
                        continue;
                    }
                    let mut hunter_w = 1.0;
                    for d in 0..roles.len() {
                        if died >> d & 1 == 0 {
                            continue;
                        }
                        let shot = shooter.map(|s| s.index()) == Some(d);
                        let normal = victim_dies && d == v;
                        hunter_w *= if Some(d) == hunter && normal {
                            if shot {
                                model.hunter_shoots
                            } else {
                                1.0 - model.hunter_shoots
                            }
                        } else if shot {
                            0.0
                        } else {
                            1.0
                        };
                    }
                    push(after, pv * pg * pb * hunter_w, &mut next);
                }
            }
        }
    }
    *potions = next;
}

fn hunter_alone(role: Role, shot: bool, model: &RoleModel) -> f64 {
    match (role == Role::Hunter, shot) {
        (true, true) => model.hunter_shoots,
        (true, false) => 1.0 - model.hunter_shoots,
        (false, true) => 0.0,
        (false, false) => 1.0,
    }
}

/// The likelihood of every event of `game` under `roles` and `pair`.
fn likelihood(game: &RoleGame, roles: &[Role], pair: Option<(usize, usize)>) -> f64 {
    let model = game.model();
    let events: Vec<RoleEvent> = game.events().cloned().collect();
    let n = roles.len();
    let mut living: u64 = (1u64 << n) - 1;
    let is_wolf = |i: usize| roles[i] == Role::Wolf;
    let mut weight = 1.0;
    let mut potions = vec![((true, true), 1.0)];
    // Bookkeeping for the lovers: the step of every death by a step's own
    // cause (night, night kill, vote), and who died at all.
    let mut step = 0usize;
    let mut primary_in = vec![usize::MAX; n];
    let mut dead = vec![false; n];
    let mut named_pair = false;
    if let Some((viewer, known)) = game.viewer() {
        let ok = match known {
            Known::Side(side) => roles[viewer.index()].side() == side,
            Known::Role(r) => roles[viewer.index()] == r,
        };
        if !ok {
            return 0.0;
        }
    }
    for (index, event) in events.iter().enumerate() {
        // The shot following a death step, if any.
        let shooter_after = || {
            events[index + 1..]
                .iter()
                .take_while(|e| {
                    !matches!(
                        e,
                        RoleEvent::Night { .. }
                            | RoleEvent::NightKill { .. }
                            | RoleEvent::Eliminated { .. }
                    )
                })
                .find_map(|e| match e {
                    RoleEvent::HunterShot { hunter, .. } => Some(*hunter),
                    _ => None,
                })
        };
        match event {
            RoleEvent::Night { deaths } => {
                step += 1;
                let mask = deaths.iter().fold(0u64, |m, &p| m | bit(p));
                brute_night(roles, living, mask, shooter_after(), model, &mut potions);
                for d in deaths {
                    primary_in[d.index()] = step;
                    dead[d.index()] = true;
                }
                living &= !mask;
            }
            RoleEvent::NightKill { victim } => {
                step += 1;
                if is_wolf(victim.index()) {
                    return 0.0;
                }
                let non_wolves = (0..n)
                    .filter(|&i| living >> i & 1 == 1 && !is_wolf(i))
                    .count();
                weight /= non_wolves as f64;
                weight *= hunter_alone(
                    roles[victim.index()],
                    shooter_after() == Some(*victim),
                    model,
                );
                primary_in[victim.index()] = step;
                dead[victim.index()] = true;
                living &= !bit(*victim);
            }
            RoleEvent::SeerCheck { target, result } => {
                let truth = if is_wolf(target.index()) {
                    Side::Wolf
                } else {
                    Side::Village
                };
                let acc = model.sides.seer_accuracy;
                weight *= if truth == *result { acc } else { 1.0 - acc };
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
                    return 0.0;
                }
                let w = |t: usize| {
                    let side = |i: usize| {
                        if is_wolf(i) {
                            Side::Wolf
                        } else {
                            Side::Village
                        }
                    };
                    model.sides.votes.weight(side(j), side(t))
                };
                let total: f64 = (0..n)
                    .filter(|&t| t != j && living >> t & 1 == 1 && Some(t) != partner)
                    .map(w)
                    .sum();
                weight *= w(k) / total;
            }
            RoleEvent::Behaviour { player, score } => {
                if is_wolf(player.index()) {
                    weight *= score.exp();
                }
            }
            RoleEvent::Eliminated { player, shown } => {
                step += 1;
                let role = roles[player.index()];
                if let Some(known) = shown {
                    let ok = match known {
                        Known::Side(side) => role.side() == *side,
                        Known::Role(r) => role == *r,
                    };
                    if !ok {
                        return 0.0;
                    }
                }
                weight *= hunter_alone(role, shooter_after() == Some(*player), model);
                primary_in[player.index()] = step;
                dead[player.index()] = true;
                living &= !bit(*player);
            }
            RoleEvent::Revealed { player, known } => {
                let role = roles[player.index()];
                let ok = match known {
                    Known::Side(side) => role.side() == *side,
                    Known::Role(r) => role == *r,
                };
                if !ok {
                    return 0.0;
                }
            }
            RoleEvent::HunterShot { hunter, target } => {
                if roles[hunter.index()] != Role::Hunter {
                    return 0.0;
                }
                dead[target.index()] = true;
                living &= !bit(*target);
            }
            RoleEvent::LoverDeath { player, lover } => {
                let named = (player.index(), lover.index());
                if pair != Some((named.0.min(named.1), named.0.max(named.1))) {
                    return 0.0;
                }
                named_pair = true;
                dead[player.index()] = true;
                living &= !bit(*player);
            }
            RoleEvent::Claim {
                player,
                role,
                check,
            } => {
                let actual = roles[player.index()];
                let truthful = actual == *role;
                weight *= if truthful {
                    1.0
                } else if actual == Role::Wolf {
                    model.fake_claim
                } else {
                    model.village_fake_claim
                };
                if let Some((target, side)) = check {
                    let truth = if is_wolf(target.index()) {
                        Side::Wolf
                    } else {
                        Side::Village
                    };
                    let says_wolf = *side == Side::Wolf;
                    weight *= match (truthful, says_wolf) {
                        (true, _) => f64::from(u8::from(truth == *side)),
                        (false, true) => model.fake_says_wolf,
                        (false, false) => 1.0 - model.fake_says_wolf,
                    };
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
            return 0.0;
        }
    }
    weight * potions.iter().map(|(_, w)| w).sum::<f64>()
}

/// The brute-force posterior of `game`.
pub fn brute(game: &RoleGame) -> Brute {
    let setup = game.setup();
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
            let w = likelihood(game, &roles, pair);
            if w > 0.0 {
                weights.push((roles.clone(), pair, w));
            }
        }
    }
    let z: f64 = weights.iter().map(|(_, _, w)| w).sum();
    let mut roles_p = vec![[0.0; 7]; n];
    let mut lovers = vec![0.0; n];
    let mut entropy = 0.0;
    for (roles, pair, w) in &weights {
        let q = w / z;
        entropy -= q * q.log2();
        for (i, r) in roles.iter().enumerate() {
            roles_p[i][r.index()] += q;
        }
        if let Some((a, b)) = pair {
            lovers[*a] += q;
            lovers[*b] += q;
        }
    }
    Brute {
        roles: roles_p,
        lovers,
        entropy_bits: entropy,
    }
}
