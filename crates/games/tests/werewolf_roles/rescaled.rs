//! A second reference for long logs, in rescaled arithmetic instead of
//! logs: every hypothesis's likelihood is a product of its events'
//! probabilities kept as a mantissa in [1/2, 1) and a binary exponent
//! (renormalised after every factor), and the posterior divides by the
//! largest exponent at the end. It reads votes (and revotes), behaviour
//! scores and claims, the events a log of thousands of events is made of,
//! and enumerates full assignments and lovers' pairs like the brute force.

use gametab_games::werewolf::roles::{Known, Role, RoleEvent, RoleGame, RoleSetup};
use gametab_games::werewolf::Side;

/// A positive number as `mantissa * 2^exponent`.
#[derive(Clone, Copy, Debug)]
pub struct Big {
    mantissa: f64,
    exponent: i64,
}

impl Big {
    pub const ONE: Big = Big {
        mantissa: 1.0,
        exponent: 0,
    };

    fn normalise(mut self) -> Big {
        if self.mantissa == 0.0 {
            return self;
        }
        while self.mantissa >= 1.0 {
            self.mantissa /= 2.0;
            self.exponent += 1;
        }
        while self.mantissa < 0.5 {
            self.mantissa *= 2.0;
            self.exponent -= 1;
        }
        self
    }

    pub fn times(self, factor: f64) -> Big {
        Big {
            mantissa: self.mantissa * factor,
            exponent: self.exponent,
        }
        .normalise()
    }

    /// Times `e^score`, split as `2^k * 2^f` so that no `exp` overflows.
    pub fn times_exp(self, score: f64) -> Big {
        let bits = score / std::f64::consts::LN_2;
        let whole = bits.floor();
        Big {
            mantissa: self.mantissa * (bits - whole).exp2(),
            exponent: self.exponent + whole as i64,
        }
        .normalise()
    }

    fn is_zero(self) -> bool {
        self.mantissa == 0.0
    }
}

fn side(role: Role) -> Side {
    if role == Role::Wolf {
        Side::Wolf
    } else {
        Side::Village
    }
}

/// Every full assignment of the setup's roles to the seats.
pub fn assignments(setup: &RoleSetup) -> Vec<Vec<Role>> {
    let mut out: Vec<Vec<Role>> = vec![Vec::new()];
    let cards: Vec<Role> = Role::ALL
        .iter()
        .flat_map(|&r| std::iter::repeat_n(r, setup.count(r) as usize))
        .collect();
    for _ in 0..cards.len() {
        let mut next = Vec::new();
        for partial in &out {
            for role in Role::ALL {
                let used = partial.iter().filter(|&&r| r == role).count() as u32;
                if used < setup.count(role) {
                    let mut longer = partial.clone();
                    longer.push(role);
                    next.push(longer);
                }
            }
        }
        out = next;
    }
    out
}

/// The likelihood of `game`'s events under `roles` and `pair`, rescaled.
/// Only votes, ties, behaviour scores and claims without checks.
fn likelihood(game: &RoleGame, roles: &[Role], pair: Option<(usize, usize)>) -> Big {
    let model = game.model();
    let n = roles.len();
    let mut weight = Big::ONE;
    let mut tie: Option<Vec<usize>> = None;
    for event in game.events() {
        match event {
            RoleEvent::Vote { voter, target } => {
                let (j, k) = (voter.index(), target.index());
                let partner = pair.and_then(|(a, b)| match (a == j, b == j) {
                    (true, _) => Some(b),
                    (_, true) => Some(a),
                    _ => None,
                });
                if partner == Some(k) {
                    return Big {
                        mantissa: 0.0,
                        exponent: 0,
                    };
                }
                let w = |t: usize| model.sides.votes.weight(side(roles[j]), side(roles[t]));
                let pool: Vec<usize> = tie.clone().unwrap_or_else(|| (0..n).collect());
                let total: f64 = pool
                    .iter()
                    .copied()
                    .filter(|&t| t != j && Some(t) != partner)
                    .map(w)
                    .sum();
                weight = weight.times(w(k) / total);
            }
            RoleEvent::Tie { players } => tie = Some(players.iter().map(|p| p.index()).collect()),
            RoleEvent::NoElimination => tie = None,
            RoleEvent::Behaviour { player, score } => {
                if roles[player.index()] == Role::Wolf {
                    weight = weight.times_exp(*score);
                }
            }
            RoleEvent::Claim {
                player,
                role,
                check,
            } => {
                assert!(
                    check.is_none(),
                    "the rescaled reference reads claims without checks"
                );
                let actual = roles[player.index()];
                if actual != *role {
                    weight = weight.times(if actual == Role::Wolf {
                        model.fake_claim
                    } else {
                        model.village_fake_claim
                    });
                }
            }
            RoleEvent::Revealed { player, known } => {
                let ok = match known {
                    Known::Side(s) => side(roles[player.index()]) == *s,
                    Known::Role(r) => roles[player.index()] == *r,
                };
                if !ok {
                    return Big {
                        mantissa: 0.0,
                        exponent: 0,
                    };
                }
            }
            other => panic!("the rescaled reference does not read {other}"),
        }
    }
    weight
}

/// P(role) by seat and P(lover) by seat, in rescaled arithmetic.
pub fn posterior(game: &RoleGame) -> (Vec<[f64; 7]>, Vec<f64>) {
    let setup = game.setup();
    let n = setup.players() as usize;
    let pairs: Vec<Option<(usize, usize)>> = if setup.has(Role::Cupid) {
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| Some((a, b))))
            .collect()
    } else {
        vec![None]
    };
    let viewer = game.viewer();
    let mut weights = Vec::new();
    for roles in assignments(&setup) {
        if let Some((v, Known::Role(r))) = viewer {
            if roles[v.index()] != r {
                continue;
            }
        }
        for &pair in &pairs {
            let w = likelihood(game, &roles, pair);
            if !w.is_zero() {
                weights.push((roles.clone(), pair, w));
            }
        }
    }
    let top = weights.iter().map(|(_, _, w)| w.exponent).max().unwrap();
    let value = |w: &Big| w.mantissa * 2f64.powi((w.exponent - top).max(-1100) as i32);
    let z: f64 = weights.iter().map(|(_, _, w)| value(w)).sum();
    let mut roles_p = vec![[0.0; 7]; n];
    let mut lovers = vec![0.0; n];
    for (roles, pair, w) in &weights {
        let q = value(w) / z;
        for (i, r) in roles.iter().enumerate() {
            roles_p[i][r.index()] += q;
        }
        if let Some((a, b)) = pair {
            lovers[*a] += q;
            lovers[*b] += q;
        }
    }
    (roles_p, lovers)
}

/// P(wolf) by seat for a log of votes and scores only, over wolf sets (the
/// other roles then spread evenly over the non-wolves), rescaled.
pub fn wolf_posterior(game: &RoleGame) -> Vec<f64> {
    let setup = game.setup();
    let n = setup.players() as usize;
    let k = setup.wolves() as usize;
    let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
    for _ in 0..k {
        let mut next = Vec::new();
        for set in &sets {
            let start = set.last().map_or(0, |&l| l + 1);
            for i in start..n {
                let mut longer = set.clone();
                longer.push(i);
                next.push(longer);
            }
        }
        sets = next;
    }
    let mut weights = Vec::new();
    for set in sets {
        let mut roles = vec![Role::Villager; n];
        for &w in &set {
            roles[w] = Role::Wolf;
        }
        weights.push((set, likelihood(game, &roles, None)));
    }
    let top = weights.iter().map(|(_, w)| w.exponent).max().unwrap();
    let value = |w: &Big| w.mantissa * 2f64.powi((w.exponent - top).max(-1100) as i32);
    let z: f64 = weights.iter().map(|(_, w)| value(w)).sum();
    let mut p = vec![0.0; n];
    for (set, w) in &weights {
        for &i in set {
            p[i] += value(w) / z;
        }
    }
    p
}
