//! The enumeration of the special roles' seats for one wolf set: the
//! weight of every role assignment and the sums the posterior needs, with
//! the interchangeable villagers never enumerated.
//!
//! The special roles are placed depth first (witch, guard, hunter first,
//! so the nights, which depend on those three alone, are computed once per
//! placement of them; seer and cupid below). The nights are also shared
//! between placements the public facts cannot tell apart: two unmarked
//! players (never dead, never a logged guard target) holding the same
//! night role give the same night likelihood by symmetry, so the nights are
//! memoised by which marked player, if any, holds each night role.
//!
//! Each node returns the sum of the weights below it, and the sums by
//! (seat, role) and by pairs of (seat, role) are added once per node, not
//! once per leaf. Weights are kept as [`Scaled`] numbers so that no long
//! product of claims and nights underflows.

use super::super::model::{Player, PlayerSet};
use super::game::RoleGame;
use super::model::RoleModel;
use super::night::{NightPass, NightRoles, Scaled, SCALE_LN};
use super::setup::Role;
use super::terms::Compiled;

/// A sum of weights `u` (and of `weight * ln weight`, `v`), both scaled by
/// the same power of `2^300` (see [`Scaled`]); the logs are of the true
/// weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sum {
    pub(crate) u: f64,
    pub(crate) v: f64,
    pub(crate) exponent: i32,
}

impl Sum {
    pub(crate) const ZERO: Sum = Sum {
        u: 0.0,
        v: 0.0,
        exponent: i32::MIN,
    };

    #[inline]
    fn add(&mut self, other: Sum) {
        if other.u == 0.0 {
            return;
        }
        if self.u == 0.0 {
            *self = other;
            return;
        }
        if other.exponent == self.exponent {
            self.u += other.u;
            self.v += other.v;
            return;
        }
        let (mut high, low) = if other.exponent > self.exponent {
            (other, *self)
        } else {
            (*self, other)
        };
        let factor = Scaled {
            mantissa: 1.0,
            exponent: low.exponent,
        }
        .at(high.exponent);
        high.u += low.u * factor;
        high.v += low.v * factor;
        *self = high;
    }
}

/// The memoised nights of one wolf set.
struct NightMemo {
    /// Per key: the wolf set it was computed for (its stamp), the night
    /// likelihood and its log.
    slots: Vec<(u32, Scaled, f64)>,
    /// Index + 1 of each seat among the marked players (0: unmarked).
    marked: Vec<usize>,
    base: usize,
}

/// The placement of the special roles for one wolf set, and its sums.
pub(crate) struct Placer<'a> {
    game: &'a RoleGame,
    model: &'a RoleModel,
    compiled: &'a Compiled,
    specials: Vec<Role>,
    /// Seats allowed each role of `specials`, as bitmasks.
    candidates: Vec<u64>,
    night_roles: usize,
    everyone: u64,
    /// Players who may not be plain villagers.
    not_villager: u64,
    /// Whether to add the sums by pairs of (seat, special role).
    pairs_wanted: bool,
    pass: NightPass,
    memo: NightMemo,
    // The current wolf set and assignment.
    stamp: u32,
    wolves: u64,
    holders: [Option<Player>; 7],
    seats: Vec<usize>,
    role_of: [Role; 64],
    /// Per-wolf-set sums, scaled like a [`Scaled`] of `exponent`: by seat
    /// and special role (seat-major, 7 per seat), then, when wanted, by
    /// pairs of (seat, index in `specials`).
    pub(crate) sums: Vec<f64>,
    pub(crate) exponent: i32,
    /// Assignments with a positive weight.
    pub(crate) count: u64,
}

impl<'a> Placer<'a> {
    pub(crate) fn new(
        game: &'a RoleGame,
        compiled: &'a Compiled,
        candidates: Vec<u64>,
        not_villager: u64,
        pairs_wanted: bool,
    ) -> Placer<'a> {
        let setup = game.setup();
        let specials = setup.specials();
        let night_roles = specials
            .iter()
            .filter(|r| matches!(r, Role::Witch | Role::Guard | Role::Hunter))
            .count();
        let players = setup.players() as usize;
        // Marked: every player the public facts name (the dead, the
        // logged guard targets).
        let mut marked_set = PlayerSet(setup.sides().everyone().0 & !game.living().0);
        for step in game.steps() {
            if let Some(target) = step.guarded {
                marked_set = marked_set.with(target);
            }
        }
        let mut marked = vec![0; players];
        for (i, player) in marked_set.players().enumerate() {
            marked[player.index()] = i + 1;
        }
        let base = marked_set.len() as usize + 1;
        let slots = vec![(0, Scaled::ONE, 0.0); base.pow(night_roles as u32)];
        let ns = specials.len();
        let pair_len = if pairs_wanted {
            (players * ns).pow(2)
        } else {
            0
        };
        Placer {
            game,
            model: game.model(),
            compiled,
            candidates,
            night_roles,
            everyone: setup.sides().everyone().0,
            not_villager,
            pairs_wanted,
            pass: NightPass::new(players, setup.has(Role::Guard)),
            memo: NightMemo {
                slots,
                marked,
                base,
            },
            stamp: 0,
            wolves: 0,
            holders: [None; 7],
            seats: vec![0; ns],
            role_of: [Role::Villager; 64],
            sums: vec![0.0; players * 7 + pair_len],
            exponent: 0,
            count: 0,
            specials,
        }
    }

    /// The index in `sums` of the pair (seat `a`, special `i`), (seat `b`,
    /// special `j`) with `i < j`.
    pub(crate) fn pair_index(&self, a: usize, i: usize, b: usize, j: usize) -> usize {
        let ns = self.specials.len();
        let players = self.game.setup().players() as usize;
        players * 7 + (a * ns + i) * players * ns + (b * ns + j)
    }

    /// The special roles in placement order.
    pub(crate) fn specials(&self) -> &[Role] {
        &self.specials
    }

    /// Enumerate the assignments of `wolves` and return their total, with
    /// `sums` brought to the total's exponent (the largest of any node).
    pub(crate) fn run(&mut self, wolves: PlayerSet) -> Sum {
        let total = self.enumerate(wolves);
        if total.u > 0.0 {
            self.at_sums(total);
        }
        total
    }

    fn enumerate(&mut self, wolves: PlayerSet) -> Sum {
        self.stamp += 1;
        self.wolves = wolves.0;
        self.role_of = [Role::Villager; 64];
        for wolf in wolves.players() {
            self.role_of[wolf.index()] = Role::Wolf;
        }
        self.sums.iter_mut().for_each(|x| *x = 0.0);
        self.exponent = i32::MIN;
        self.count = 0;
        self.place(0, 0, (Scaled::ONE, 0.0))
    }

    fn place(&mut self, depth: usize, used: u64, night: (Scaled, f64)) -> Sum {
        let night = if depth == self.night_roles {
            self.nights()
        } else {
            night
        };
        if night.0.mantissa == 0.0 {
            return Sum::ZERO;
        }
        if depth == self.specials.len() {
            return self.leaf(used, night);
        }
        let role = self.specials[depth];
        let mut total = Sum::ZERO;
        let mut free = self.candidates[depth] & !(self.wolves | used);
        while free != 0 {
            let seat = free.trailing_zeros() as usize;
            free &= free - 1;
            self.holders[role.index()] = Some(Player::from_index(seat));
            self.seats[depth] = seat;
            self.role_of[seat] = role;
            let below = self.place(depth + 1, used | 1u64 << seat, night);
            self.role_of[seat] = Role::Villager;
            if below.u == 0.0 {
                continue;
            }
            let u = self.at_sums(below);
            self.sums[seat * 7 + role.index()] += u;
            if self.pairs_wanted {
                for i in 0..depth {
                    let at = self.pair_index(self.seats[i], i, seat, depth);
                    self.sums[at] += u;
                }
            }
            total.add(below);
        }
        self.holders[role.index()] = None;
        total
    }

    /// `sum.u` at the exponent of `sums` (raising that exponent, and
    /// scaling `sums` down, when `sum` is above it).
    #[inline]
    fn at_sums(&mut self, sum: Sum) -> f64 {
        if sum.exponent == self.exponent {
            return sum.u;
        }
        if sum.exponent > self.exponent {
            if self.exponent != i32::MIN {
                let factor = Scaled {
                    mantissa: 1.0,
                    exponent: self.exponent,
                }
                .at(sum.exponent);
                self.sums.iter_mut().for_each(|x| *x *= factor);
            }
            self.exponent = sum.exponent;
            return sum.u;
        }
        Scaled {
            mantissa: sum.u,
            exponent: sum.exponent,
        }
        .at(self.exponent)
    }

    /// The nights, old-style night kills and eliminations: everything that
    /// depends on witch, guard and hunter; memoised by the marked holders.
    fn nights(&mut self) -> (Scaled, f64) {
        let mut key = 0;
        for role in [Role::Witch, Role::Guard, Role::Hunter] {
            if let Some(holder) = self.holders[role.index()] {
                key = key * self.memo.base + self.memo.marked[holder.index()];
            }
        }
        let slot = self.memo.slots[key];
        if slot.0 == self.stamp {
            return (slot.1, slot.2);
        }
        let roles = NightRoles {
            wolves: self.wolves,
            witch: self.holders[Role::Witch.index()],
            guard: self.holders[Role::Guard.index()],
            hunter: self.holders[Role::Hunter.index()],
        };
        let value = self.pass.run(self.game.steps(), &roles, self.model);
        let ln = value.ln();
        self.memo.slots[key] = (self.stamp, value, ln);
        (value, ln)
    }

    /// The claims' weight and its log (a zero weight when a true seer's
    /// trusted report is wrong).
    fn claims(&self) -> (Scaled, f64) {
        let mut weight = Scaled::ONE;
        let mut ln_weight = 0.0;
        for claim in &self.compiled.claims {
            let role = self.role_of[claim.player.index()];
            let factor = if role == claim.role {
                match claim.vision {
                    Some(vision) => vision.given(self.role_of[vision.target.index()]),
                    None => continue,
                }
            } else if role == Role::Wolf {
                ln_weight += claim.ln_by_wolf;
                claim.by_wolf
            } else {
                ln_weight += claim.ln_by_village;
                claim.by_village
            };
            if factor == 0.0 {
                return (
                    Scaled {
                        mantissa: 0.0,
                        exponent: 0,
                    },
                    f64::NEG_INFINITY,
                );
            }
            if role == claim.role {
                ln_weight += factor.ln();
            }
            weight = weight.times(Scaled {
                mantissa: factor,
                exponent: 0,
            });
        }
        for vision in &self.compiled.visions {
            let factor = vision.given(self.role_of[vision.target.index()]);
            if factor == 0.0 {
                return (
                    Scaled {
                        mantissa: 0.0,
                        exponent: 0,
                    },
                    f64::NEG_INFINITY,
                );
            }
            ln_weight += factor.ln();
            weight = weight.times(Scaled {
                mantissa: factor,
                exponent: 0,
            });
        }
        (weight, ln_weight)
    }

    fn leaf(&mut self, used: u64, night: (Scaled, f64)) -> Sum {
        let villagers = self.everyone & !self.wolves & !used;
        if villagers & self.not_villager != 0 {
            return Sum::ZERO;
        }
        let (claims, ln_claims) = self.claims();
        if claims.mantissa == 0.0 {
            return Sum::ZERO;
        }
        let weight = night.0.times(claims);
        self.count += 1;
        Sum {
            u: weight.mantissa,
            v: weight.mantissa * (night.1 + ln_claims),
            exponent: weight.exponent,
        }
    }
}

/// The log of the scale of a [`Scaled`] exponent.
pub(crate) fn scale_ln(exponent: i32) -> f64 {
    f64::from(exponent) * SCALE_LN
}
