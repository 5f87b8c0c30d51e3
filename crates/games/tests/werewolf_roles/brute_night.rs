//! The brute force's nights: every hidden choice of one night (the
//! wolves' victim, the guard's target given the one before, the witch's
//! save, poison and target, shown the victim only while she holds the
//! antidote) enumerated one by one, straight from the model's description
//! on `RoleModel`, for `brute.rs`.

use gametab_games::werewolf::roles::{Role, RoleModel};
use gametab_games::werewolf::Player;

/// The witch viewer's night: the victim shown, saved, poisoned (seats).
pub type WitchView = (Option<usize>, bool, Option<usize>);

/// The hidden state a night carries on: (antidote, poison, guard's last
/// target).
pub type NightState = (bool, bool, Option<usize>);

/// One way the witch's night can go: saved or not, whom she poisoned, its
/// probability, and the potions (antidote, poison) left after it.
type Branch = (bool, Option<usize>, f64, (bool, bool));

/// P(observed deaths, hunter behaviour) of one night under `roles`, by
/// enumerating every hidden choice; the states and their weights are
/// advanced in place.
#[allow(clippy::too_many_arguments)]
pub fn brute_night(
    roles: &[Role],
    living: u64,
    deaths: u64,
    guarded: Option<usize>,
    shooter: Option<Player>,
    can_shoot: bool,
    witch_view: Option<WitchView>,
    model: &RoleModel,
    states: &mut Vec<(NightState, f64)>,
) {
    let seats: Vec<usize> = (0..roles.len()).filter(|&i| living >> i & 1 == 1).collect();
    let find = |r: Role| seats.iter().copied().find(|&i| roles[i] == r);
    let (witch, guard, hunter) = (find(Role::Witch), find(Role::Guard), find(Role::Hunter));
    let wolves: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&i| roles[i] == Role::Wolf)
        .collect();
    let others: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&i| roles[i] != Role::Wolf)
        .collect();
    let mut next: Vec<(NightState, f64)> = Vec::new();
    let mut push = |state: NightState, w: f64| {
        if let Some(entry) = next.iter_mut().find(|(s, _)| *s == state) {
            entry.1 += w;
        } else {
            next.push((state, w));
        }
    };
    if wolves.is_empty() || others.is_empty() {
        *states = next;
        return;
    }
    // The wolves' victim: one of their own with wolves_knife_wolf.
    let mut victims: Vec<(usize, f64)> = Vec::new();
    for &v in &wolves {
        victims.push((v, model.wolves_knife_wolf / wolves.len() as f64));
    }
    for &v in &others {
        victims.push((v, (1.0 - model.wolves_knife_wolf) / others.len() as f64));
    }
    for &((antidote, poison, last), weight) in states.iter() {
        for &(v, pv) in &victims {
            let guards: Vec<(Option<usize>, f64)> = match guard {
                Some(_) => {
                    let allowed: Vec<usize> =
                        seats.iter().copied().filter(|&g| Some(g) != last).collect();
                    allowed
                        .iter()
                        .map(|&g| (Some(g), 1.0 / allowed.len() as f64))
                        .filter(|(g, _)| guarded.is_none() || *g == guarded)
                        .collect()
                }
                None => vec![(None, 1.0)],
            };
            for (g, pg) in guards {
                let mut branches: Vec<Branch> = Vec::new();
                // She is shown the victim while she holds the antidote;
                // without it her poison is blind.
                let shown = witch.is_some() && antidote;
                let save_p = if shown && Some(v) != witch {
                    model.witch_save
                } else {
                    0.0
                };
                if save_p > 0.0 {
                    branches.push((true, None, save_p, (false, poison)));
                }
                let rest = 1.0 - save_p;
                if let (Some(w), true) = (witch, poison) {
                    let targets: Vec<usize> = seats
                        .iter()
                        .copied()
                        .filter(|&t| t != w && (!shown || t != v))
                        .collect();
                    let herself = if shown && v == w {
                        0.0
                    } else {
                        model.witch_poisons_herself
                    };
                    let mut used = 0.0;
                    if herself > 0.0 {
                        let p = model.witch_poison * herself;
                        used += p;
                        branches.push((false, Some(w), rest * p, (antidote, false)));
                    }
                    if !targets.is_empty() {
                        let p = model.witch_poison * (1.0 - herself);
                        used += p;
                        for &t in &targets {
                            branches.push((
                                false,
                                Some(t),
                                rest * p / targets.len() as f64,
                                (antidote, false),
                            ));
                        }
                    }
                    branches.push((false, None, rest * (1.0 - used), (antidote, poison)));
                } else {
                    branches.push((false, None, rest, (antidote, poison)));
                }
                for (saved, target, pb, after) in branches {
                    // The witch viewer's own night: shown the victim while
                    // she held the antidote, and what she did.
                    if let Some((shown, did_save, poisoned)) = witch_view {
                        let was_shown = if antidote { Some(v) } else { None };
                        if shown != was_shown || did_save != saved || poisoned != target {
                            continue;
                        }
                    }
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
                        let normal = victim_dies && d == v && target != Some(v);
                        hunter_w *= if Some(d) == hunter && normal {
                            if shot {
                                model.hunter_shoots
                            } else if can_shoot {
                                1.0 - model.hunter_shoots
                            } else {
                                1.0
                            }
                        } else if shot {
                            0.0
                        } else {
                            1.0
                        };
                    }
                    let last = if guard.is_some() { g } else { None };
                    push((after.0, after.1, last), weight * pv * pg * pb * hunter_w);
                }
            }
        }
    }
    *states = next;
}
