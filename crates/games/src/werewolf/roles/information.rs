//! The information gain of an elimination, by its definition: the expected
//! drop of the joint entropy of (roles, lovers' pair) over everything the
//! elimination makes public.
//!
//! Eliminating `x` shows, under the reveal rule, `x`'s card (or side);
//! with cupid, whether a lover dies of grief with them, who, and that
//! lover's card (or side); and whether `x`, if the hunter, shoots. With
//! `O` that outcome and `S` the hidden state, the expected drop is
//! `I(S; O) = H(O) - H(O | S)`, and `H(O | S)` is the shot's own chance
//! (`P(x is the hunter) h(hunter_shoots)`, since everything else is a
//! function of `S`). So the gain needs the joint distribution of (`x`'s
//! role, `x`'s lover, the lover's role) for every candidate, which
//! [`Shows`] accumulates per wolf set from the enumeration's sums by pairs
//! of (seat, special role) and the pair weights. Whom the hunter shoots
//! and what that shows are left out: the model has no distribution for his
//! choice (it cancels from the posterior), and the game may end with the
//! step.

use super::super::model::{Player, PlayerSet, Side};
use super::super::scoring::binary_entropy_bits;
use super::enumerate::Placer;
use super::setup::{RevealRule, Role, RoleSetup};
use super::terms::{Compiled, WolfSetWeight};

/// The joint masses of (candidate's role, lover, lover's role), summed
/// over wolf sets (empty without cupid).
pub(crate) struct Shows {
    players: usize,
    cupid: bool,
    /// Index `((x * 7 + rx) * players + y) * 7 + ry`: x's lover is y.
    with_lover: Vec<f64>,
    /// Index `x * 7 + rx`: x is no lover.
    alone: Vec<f64>,
}

/// `-p log2 p` summed over `masses / z`.
fn entropy(masses: impl Iterator<Item = f64>, z: f64) -> f64 {
    masses
        .map(|m| m / z)
        .filter(|&p| p > 0.0)
        .fold(0.0, |sum, p| sum - p * p.log2())
        .max(0.0)
}

impl Shows {
    pub(crate) fn new(players: usize, cupid: bool) -> Shows {
        let (with_lover, alone) = if cupid {
            (vec![0.0; players * 7 * players * 7], vec![0.0; players * 7])
        } else {
            (Vec::new(), Vec::new())
        };
        Shows {
            players,
            cupid,
            with_lover,
            alone,
        }
    }

    /// Multiply every mass by `factor` (the posterior's sums moved their
    /// reference).
    pub(crate) fn scale(&mut self, factor: f64) {
        self.with_lover.iter_mut().for_each(|x| *x *= factor);
        self.alone.iter_mut().for_each(|x| *x *= factor);
    }

    /// Add one wolf set: `placer` holds its sums by (seat, role) and by
    /// pairs, `u` its total and `c` its scale.
    pub(crate) fn add(
        &mut self,
        placer: &Placer<'_>,
        compiled: &Compiled,
        set: &WolfSetWeight,
        c: f64,
        u: f64,
    ) {
        if !self.cupid {
            return;
        }
        let n = self.players;
        let wolves = set.wolves;
        let specials = placer.specials();
        // Each seat's roles in this wolf set, as masses.
        let full: Vec<[f64; 7]> = (0..n)
            .map(|x| {
                let mut line = [0.0; 7];
                if wolves.contains(Player::from_index(x)) {
                    line[Role::Wolf.index()] = u;
                } else {
                    let mut special = 0.0;
                    for role in specials {
                        let m = placer.sums[x * 7 + role.index()];
                        line[role.index()] = m;
                        special += m;
                    }
                    line[Role::Villager.index()] = (u - special).max(0.0);
                }
                line
            })
            .collect();
        let mut partnered = vec![0.0; n];
        for (&(a, b), &g) in compiled.pairs.iter().zip(&set.pair_weights) {
            if g == 0.0 {
                continue;
            }
            let (a, b) = (a.index(), b.index());
            partnered[a] += g;
            partnered[b] += g;
            let joint = self.pair_roles(placer, wolves, &full, a, b, u);
            let weight = c * g;
            for (ra, row) in joint.iter().enumerate() {
                for (rb, &m) in row.iter().enumerate() {
                    if m > 0.0 {
                        self.with_lover[((a * 7 + ra) * n + b) * 7 + rb] += weight * m;
                        self.with_lover[((b * 7 + rb) * n + a) * 7 + ra] += weight * m;
                    }
                }
            }
        }
        for (x, line) in full.iter().enumerate() {
            let single = (set.pair_sum - partnered[x]).max(0.0);
            for (r, &m) in line.iter().enumerate() {
                self.alone[x * 7 + r] += c * single * m;
            }
        }
    }

    /// The joint masses of the roles of seats `a` and `b` in one wolf set.
    fn pair_roles(
        &self,
        placer: &Placer<'_>,
        wolves: PlayerSet,
        full: &[[f64; 7]],
        a: usize,
        b: usize,
        u: f64,
    ) -> [[f64; 7]; 7] {
        let mut joint = [[0.0; 7]; 7];
        let wolf = Role::Wolf.index();
        let villager = Role::Villager.index();
        let (a_wolf, b_wolf) = (
            wolves.contains(Player::from_index(a)),
            wolves.contains(Player::from_index(b)),
        );
        match (a_wolf, b_wolf) {
            (true, true) => joint[wolf][wolf] = u,
            (true, false) => joint[wolf] = full[b],
            (false, true) => {
                for (r, row) in joint.iter_mut().enumerate() {
                    row[wolf] = full[a][r];
                }
            }
            (false, false) => {
                let specials = placer.specials();
                let mut both_special = 0.0;
                for (i, ri) in specials.iter().enumerate() {
                    for (j, rj) in specials.iter().enumerate() {
                        if i == j {
                            continue;
                        }
                        let at = if i < j {
                            placer.pair_index(a, i, b, j)
                        } else {
                            placer.pair_index(b, j, a, i)
                        };
                        let m = placer.sums[at];
                        joint[ri.index()][rj.index()] = m;
                        both_special += m;
                    }
                }
                let mut a_special = 0.0;
                for ri in specials {
                    let with_special: f64 = specials
                        .iter()
                        .map(|rj| joint[ri.index()][rj.index()])
                        .sum();
                    joint[ri.index()][villager] = (full[a][ri.index()] - with_special).max(0.0);
                    a_special += full[a][ri.index()];
                }
                let mut b_special = 0.0;
                for rj in specials {
                    let with_special: f64 = specials
                        .iter()
                        .map(|ri| joint[ri.index()][rj.index()])
                        .sum();
                    joint[villager][rj.index()] = (full[b][rj.index()] - with_special).max(0.0);
                    b_special += full[b][rj.index()];
                }
                joint[villager][villager] = (u - a_special - b_special + both_special).max(0.0);
            }
        }
        joint
    }

    /// The gain of eliminating every living seat, by reveal rule (role,
    /// side), from the masses (total `z`), the role marginals and the
    /// hunter's chance of shooting.
    pub(crate) fn gains(
        &self,
        z: f64,
        roles: &[[f64; 7]],
        living: PlayerSet,
        hunter_shoots: f64,
        setup: RoleSetup,
    ) -> Vec<[f64; 2]> {
        let shot_noise = binary_entropy_bits(hunter_shoots);
        (0..self.players)
            .map(|x| {
                if !living.contains(Player::from_index(x)) {
                    return [0.0; 2];
                }
                let p_hunter = if setup.has(Role::Hunter) {
                    roles[x][Role::Hunter.index()]
                } else {
                    0.0
                };
                if self.cupid {
                    [
                        self.gain_with_lovers(x, z, RevealRule::Role, hunter_shoots),
                        self.gain_with_lovers(x, z, RevealRule::Side, hunter_shoots)
                            - p_hunter * shot_noise,
                    ]
                } else {
                    [
                        role_gain(&roles[x]),
                        side_gain(&roles[x], p_hunter, hunter_shoots),
                    ]
                }
                .map(|g| g.max(0.0))
            })
            .collect()
    }

    /// `H(O)` for seat `x` with cupid, `O` as shown under `reveal`.
    fn gain_with_lovers(&self, x: usize, z: f64, reveal: RevealRule, hunter_shoots: f64) -> f64 {
        let n = self.players;
        let hunter = Role::Hunter.index();
        match reveal {
            RevealRule::Role => {
                let with = &self.with_lover[x * 7 * n * 7..(x + 1) * 7 * n * 7];
                let alone = &self.alone[x * 7..(x + 1) * 7];
                entropy(with.iter().chain(alone).copied(), z)
            }
            RevealRule::Side => {
                // (x's side and shot, lover or none, the lover's side):
                // index ((3 * lover) + shown) with lover n for none.
                let shown_of = |r: usize, shot: bool| match (Role::ALL[r].side(), shot) {
                    (Side::Wolf, _) => 0,
                    (Side::Village, false) => 1,
                    (Side::Village, true) => 2,
                };
                let mut outcomes = vec![0.0; 3 * (n + 1) * 2];
                let mut put = |rx: usize, lover: usize, lover_wolf: usize, m: f64| {
                    let split: &[(bool, f64)] = if rx == hunter {
                        &[(true, hunter_shoots), (false, 1.0 - hunter_shoots)]
                    } else {
                        &[(false, 1.0)]
                    };
                    for &(shot, p) in split {
                        outcomes[(lover * 3 + shown_of(rx, shot)) * 2 + lover_wolf] += m * p;
                    }
                };
                for rx in 0..7 {
                    for y in 0..n {
                        for ry in 0..7 {
                            let m = self.with_lover[((x * 7 + rx) * n + y) * 7 + ry];
                            if m > 0.0 {
                                let lover_wolf = usize::from(ry == Role::Wolf.index());
                                put(rx, y, lover_wolf, m);
                            }
                        }
                    }
                    let m = self.alone[x * 7 + rx];
                    if m > 0.0 {
                        put(rx, n, 0, m);
                    }
                }
                entropy(outcomes.into_iter(), z)
            }
        }
    }
}

/// The gain of showing a card, without cupid: the entropy of the role.
fn role_gain(roles: &[f64; 7]) -> f64 {
    roles
        .iter()
        .filter(|&&p| p > 0.0)
        .fold(0.0, |sum, p| sum - p * p.log2())
        .max(0.0)
}

/// The gain of showing a side, without cupid: the side, and the shot that
/// shows a hunter.
fn side_gain(roles: &[f64; 7], p_hunter: f64, hunter_shoots: f64) -> f64 {
    let p_wolf = roles[Role::Wolf.index()];
    if p_hunter <= 0.0 {
        return binary_entropy_bits(p_wolf);
    }
    let shot = p_hunter * hunter_shoots;
    let quiet = (1.0 - p_wolf - shot).max(0.0);
    let term = |p: f64| if p > 0.0 { -p * p.log2() } else { 0.0 };
    term(p_wolf) + term(shot) + term(quiet) - p_hunter * binary_entropy_bits(hunter_shoots)
}
