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
use super::night::{NightPass, NightRoles, Scaled, SCALE_LN, SCALE_UP};
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
    /// Seats and specials (the strides of the pair sums).
    players: usize,
    ns: usize,
    /// The seats where holding the last special instead of being a
    /// villager changes a claim's or a check's weight.
    named: u64,
    pass: NightPass,
    memo: NightMemo,
    // The current wolf set and assignment.
    stamp: u32,
    wolves: u64,
    holders: [Option<Player>; 7],
    /// Per depth: where the pair sums of the special placed there start.
    pair_rows: Vec<usize>,
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
        // logged guard targets, the victims shown to the witch viewer).
        let mut marked_set = PlayerSet(setup.sides().everyone().0 & !game.living().0);
        for step in game.steps() {
            if let Some(target) = step.guarded {
                marked_set = marked_set.with(target);
            }
            if let Some(victim) = step.witch.and_then(|view| view.shown) {
                marked_set = marked_set.with(victim);
            }
        }
        let mut marked = vec![0; players];
        for (i, player) in marked_set.players().enumerate() {
            marked[player.index()] = i + 1;
        }
        let base = marked_set.len() as usize + 1;
        let slots = vec![(0, Scaled::ONE, 0.0); base.pow(night_roles as u32)];
        // A seat whose weight changes when it holds the last special
        // instead of being a villager: a claim of that role or of
        // villager by it, or a card report of either about it. (Any other
        // claim is as false, and any other report as right or wrong, for
        // both.)
        let mut named = 0u64;
        if let Some(&last) = specials.last() {
            let changes = |role: Role| role == last || role == Role::Villager;
            let reported = |vision: &super::terms::Vision| match vision.report() {
                super::events::Known::Role(role) => changes(role),
                super::events::Known::Side(_) => false,
            };
            for claim in &compiled.claims {
                if changes(claim.role) {
                    named |= 1u64 << claim.player.index();
                }
                if let Some(vision) = claim.vision.filter(reported) {
                    named |= 1u64 << vision.target.index();
                }
            }
            for vision in compiled.visions.iter().filter(|v| reported(v)) {
                named |= 1u64 << vision.target.index();
            }
        }
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
            players,
            ns,
            named,
            pass: NightPass::new(players, setup.has(Role::Guard)),
            memo: NightMemo {
                slots,
                marked,
                base,
            },
            stamp: 0,
            wolves: 0,
            holders: [None; 7],
            pair_rows: vec![0; ns],
            role_of: [Role::Villager; 64],
            sums: vec![0.0; players * 7 + pair_len],
            exponent: 0,
            count: 0,
            specials,
        }
    }

    /// The index in `sums` of the pair (seat `a`, special `i`), (seat `b`,
    /// special `j`) with `i < j`.
    #[inline]
    pub(crate) fn pair_index(&self, a: usize, i: usize, b: usize, j: usize) -> usize {
        self.pair_row(a, i) + b * self.ns + j
    }

    #[inline]
    fn pair_row(&self, a: usize, i: usize) -> usize {
        self.players * 7 + (a * self.ns + i) * self.players * self.ns
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
        // The budget is sticky: a stopped enumeration returns partial sums,
        // which the caller's next tick turns into the budget's error.
        if crate::budget::tick().is_err() {
            return Sum::ZERO;
        }
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
        // The last special, when no night depends on its holder (the
        // nights came above): every leaf at once.
        if depth + 1 == self.specials.len() && depth >= self.night_roles {
            return self.last(depth, used, night);
        }
        let role = self.specials[depth];
        let mut total = Sum::ZERO;
        let mut free = self.candidates[depth] & !(self.wolves | used);
        while free != 0 {
            let seat = free.trailing_zeros() as usize;
            free &= free - 1;
            self.holders[role.index()] = Some(Player::from_index(seat));
            self.pair_rows[depth] = self.pair_row(seat, depth);
            self.role_of[seat] = role;
            let below = self.place(depth + 1, used | 1u64 << seat, night);
            self.role_of[seat] = Role::Villager;
            if below.u != 0.0 {
                let u = self.at_sums(below);
                self.add_held(seat, depth, u);
                total.add(below);
            }
        }
        self.holders[role.index()] = None;
        total
    }

    /// The last special's seats: every leaf below one node. The seats no
    /// claim names all give the same weight, computed once.
    fn last(&mut self, depth: usize, used: u64, night: (Scaled, f64)) -> Sum {
        let role = self.specials[depth];
        let mut free = self.candidates[depth] & !(self.wolves | used);
        // The last special's holder is the only seat that stops being a
        // villager: when a seat may not be one, it must be that seat.
        let must = self.everyone & !self.wolves & !used & self.not_villager;
        if must != 0 {
            if must.count_ones() > 1 {
                return Sum::ZERO;
            }
            free &= must;
        }
        let mut total = Sum::ZERO;
        let mut named = free & self.named;
        while named != 0 {
            let seat = named.trailing_zeros() as usize;
            named &= named - 1;
            self.role_of[seat] = role;
            let claims = self.claims();
            self.role_of[seat] = Role::Villager;
            let below = leaf_sum(night, claims);
            if below.u != 0.0 {
                self.count += 1;
                let u = self.at_sums(below);
                self.add_held(seat, depth, u);
                total.add(below);
            }
        }
        let mut unnamed = free & !self.named;
        if unnamed != 0 {
            let below = leaf_sum(night, self.claims());
            if below.u != 0.0 {
                let k = unnamed.count_ones();
                self.count += u64::from(k);
                let u = self.at_sums(below);
                while unnamed != 0 {
                    let seat = unnamed.trailing_zeros() as usize;
                    unnamed &= unnamed - 1;
                    self.add_held(seat, depth, u);
                }
                let k = f64::from(k);
                total.add(Sum {
                    u: below.u * k,
                    v: below.v * k,
                    exponent: below.exponent,
                });
            }
        }
        total
    }

    /// Add `u` (at the sums' exponent) to the sums of the special at
    /// `depth` held by `seat`, alone and with each special above it.
    #[inline]
    fn add_held(&mut self, seat: usize, depth: usize, u: f64) {
        let role = self.specials[depth];
        self.sums[seat * 7 + role.index()] += u;
        if self.pairs_wanted {
            let column = seat * self.ns + depth;
            let (rows, sums) = (&self.pair_rows[..depth], &mut self.sums);
            for &row in rows {
                sums[row + column] += u;
            }
        }
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
        let (mut mantissa, mut exponent, mut ln_weight) = (1.0, 0, 0.0);
        let mut times = |factor: f64, ln: f64| {
            mantissa *= factor;
            ln_weight += ln;
            if mantissa < 1.0 / SCALE_UP {
                mantissa *= SCALE_UP;
                exponent -= 1;
            }
        };
        for claim in &self.compiled.claims {
            let role = self.role_of[claim.player.index()];
            if role == claim.role {
                if let Some(vision) = claim.vision {
                    let factor = vision.given(self.role_of[vision.target.index()]);
                    if factor == 0.0 {
                        return ZERO_CLAIMS;
                    }
                    times(factor, factor.ln());
                }
            } else if role == Role::Wolf {
                times(claim.by_wolf, claim.ln_by_wolf);
            } else {
                times(claim.by_village, claim.ln_by_village);
            }
        }
        for vision in &self.compiled.visions {
            let factor = vision.given(self.role_of[vision.target.index()]);
            if factor == 0.0 {
                return ZERO_CLAIMS;
            }
            times(factor, factor.ln());
        }
        if mantissa == 0.0 {
            return ZERO_CLAIMS;
        }
        (Scaled { mantissa, exponent }, ln_weight)
    }

    /// One assignment, when the last special is a night role (or there is
    /// none): the nights were computed for it just above.
    fn leaf(&mut self, used: u64, night: (Scaled, f64)) -> Sum {
        let villagers = self.everyone & !self.wolves & !used;
        if villagers & self.not_villager != 0 {
            return Sum::ZERO;
        }
        let claims = self.claims();
        self.count += u64::from(claims.0.mantissa > 0.0);
        leaf_sum(night, claims)
    }
}

/// A zero weight.
const ZERO_CLAIMS: (Scaled, f64) = (
    Scaled {
        mantissa: 0.0,
        exponent: 0,
    },
    f64::NEG_INFINITY,
);

/// One assignment's weight, the nights' times the claims'.
#[inline]
fn leaf_sum(night: (Scaled, f64), claims: (Scaled, f64)) -> Sum {
    if claims.0.mantissa == 0.0 {
        return Sum::ZERO;
    }
    let weight = night.0.times(claims.0);
    Sum {
        u: weight.mantissa,
        v: weight.mantissa * (night.1 + claims.1),
        exponent: weight.exponent,
    }
}

/// The log of the scale of a [`Scaled`] exponent.
pub(crate) fn scale_ln(exponent: i32) -> f64 {
    f64::from(exponent) * SCALE_LN
}
