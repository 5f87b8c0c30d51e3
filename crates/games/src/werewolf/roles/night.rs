//! The likelihood of the nights' public outcomes, the witch's potions and
//! the guard's last target summed out exactly.
//!
//! The generative model is the one documented on [`RoleModel`]. Two hidden
//! states carry from night to night: the potions left (antidote held or
//! not, poison held or not) and the player the guard protected the night
//! before (he may not protect them again). [`NightPass`] keeps the joint
//! probability of the observed deaths so far and each value of that state
//! (a forward pass), and each night maps it forward.
//!
//! The sum over a night's hidden choices is in closed form. The wolves'
//! victim `v`, the guard's target `g` and the witch's branches interact
//! only through whether `g == v`, so for every potion change the sum over
//! `v` is a constant `A` plus a correction `P(v = g) dPhi(g)` for the
//! guarded victim; and the guard's choice, uniform over the living but
//! his last target, sums over that target as a total minus one term. A
//! night costs one pass over the living per potion state, instead of one
//! per (victim, target, last target) triple.
//!
//! Long games multiply many small factors, so the pass keeps its
//! probabilities scaled by powers of two (exact) whenever they fall below
//! `2^-300`, and reports the result as a mantissa and an exponent (see
//! [`Scaled`]).

mod witch;

use super::super::model::{Player, PlayerSet};
use super::game::{Cause, Step};
use super::model::RoleModel;

/// The scaling step of long products, `2^300`: a value is `mantissa *
/// SCALE_UP^exponent` with the mantissa kept above `1 / SCALE_UP` (or 0).
/// A power of two, so scaling by it is exact; far from both ends of the
/// `f64` range, so a product of two mantissas still fits.
pub(crate) const SCALE_UP: f64 = 2.037_035_976_334_486e90;

/// `ln SCALE_UP`.
pub(crate) const SCALE_LN: f64 = 207.944_154_167_983_58;

/// A non-negative number as a mantissa and a power of [`SCALE_UP`], for
/// products that would underflow an `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scaled {
    pub(crate) mantissa: f64,
    pub(crate) exponent: i32,
}

impl Scaled {
    /// One.
    pub(crate) const ONE: Scaled = Scaled {
        mantissa: 1.0,
        exponent: 0,
    };

    /// `mantissa * SCALE_UP^exponent` with the mantissa brought back above
    /// `1 / SCALE_UP` (multiplying by a power of two is exact).
    #[inline]
    pub(crate) fn normalised(mut mantissa: f64, mut exponent: i32) -> Scaled {
        while mantissa > 0.0 && mantissa < 1.0 / SCALE_UP {
            mantissa *= SCALE_UP;
            exponent -= 1;
        }
        Scaled { mantissa, exponent }
    }

    /// The product.
    #[inline]
    pub(crate) fn times(self, other: Scaled) -> Scaled {
        Scaled::normalised(
            self.mantissa * other.mantissa,
            self.exponent + other.exponent,
        )
    }

    /// The natural log (`-inf` for 0).
    pub(crate) fn ln(self) -> f64 {
        self.mantissa.ln() + f64::from(self.exponent) * SCALE_LN
    }

    /// The mantissa as it reads at exponent `exponent` (at most this one's:
    /// a value far below it is 0 there, negligible against what is there).
    #[inline]
    pub(crate) fn at(self, exponent: i32) -> f64 {
        let mut m = self.mantissa;
        let mut e = self.exponent;
        while e < exponent && m > 0.0 {
            m /= SCALE_UP;
            e += 1;
        }
        m
    }
}

/// The potions the witch holds: index `2 * antidote + poison`.
const POTION_STATES: usize = 4;
/// Both potions held (the state before the first night).
const FULL: usize = 3;

/// Who holds the night roles in one hypothesis (`None` when the setup has
/// no such role).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NightRoles {
    pub(crate) wolves: u64,
    pub(crate) witch: Option<Player>,
    pub(crate) guard: Option<Player>,
    pub(crate) hunter: Option<Player>,
}

/// The hunter's factor for `dead`: a hunter killed normally shoots with
/// `hunter_shoots`, never when poisoned; anyone else never shoots. When
/// the step left nobody alive to shoot (`can_shoot` false) his silence is
/// no choice and weighs 1.
#[inline]
pub(crate) fn hunter_factor(
    dead: Player,
    normal: bool,
    roles: &NightRoles,
    step: &Step,
    hunter_shoots: f64,
) -> f64 {
    let shot = step.shooter == Some(dead);
    match (roles.hunter == Some(dead) && normal, shot) {
        (true, true) => hunter_shoots,
        (true, false) if step.leaves_a_target() => 1.0 - hunter_shoots,
        (true, false) | (false, false) => 1.0,
        (false, true) => 0.0,
    }
}

/// The forward pass over every step of one hypothesis: the joint
/// probability of the deaths so far and each (potions, guard's last
/// target) state, scaled by `SCALE_UP^exponent`.
pub(crate) struct NightPass {
    /// Entries per potion state: one per seat and one for "nobody" (the
    /// guard protected nobody last night, or there is no guard).
    stride: usize,
    state: Vec<f64>,
    next: Vec<f64>,
    exponent: i32,
}

impl NightPass {
    /// The state before the first night: both potions held, no last
    /// target; `players` seats, `guard`: whether the setup has a guard.
    pub(crate) fn new(players: usize, guard: bool) -> NightPass {
        let stride = if guard { players + 1 } else { 1 };
        NightPass {
            stride,
            state: vec![0.0; POTION_STATES * stride],
            next: vec![0.0; POTION_STATES * stride],
            exponent: 0,
        }
    }

    /// Back to the state before the first night.
    pub(crate) fn reset(&mut self) {
        self.state.iter_mut().for_each(|x| *x = 0.0);
        self.state[FULL * self.stride + self.stride - 1] = 1.0;
        self.exponent = 0;
    }

    /// Run every step of a game under `roles` and return the likelihood of
    /// its deaths (nights, shots, night kills, eliminations).
    pub(crate) fn run(&mut self, steps: &[Step], roles: &NightRoles, model: &RoleModel) -> Scaled {
        self.reset();
        for step in steps {
            match step.cause {
                Cause::Night => self.night(step, roles, model),
                Cause::NightKill => {
                    // A night without guard: he protected nobody.
                    self.forget_guard();
                    self.hunter_only(step, roles, model);
                }
                Cause::Vote => self.hunter_only(step, roles, model),
            }
            if self.rescale() {
                return Scaled {
                    mantissa: 0.0,
                    exponent: 0,
                };
            }
        }
        Scaled::normalised(self.state.iter().sum(), self.exponent)
    }

    /// Keep the state above `1 / SCALE_UP`; true when it is all 0.
    fn rescale(&mut self) -> bool {
        let total: f64 = self.state.iter().sum();
        if total == 0.0 {
            return true;
        }
        if total < 1.0 / SCALE_UP {
            self.state.iter_mut().for_each(|x| *x *= SCALE_UP);
            self.exponent -= 1;
        }
        false
    }

    /// Every last target becomes "nobody".
    fn forget_guard(&mut self) {
        let stride = self.stride;
        for s in 0..POTION_STATES {
            let row = &mut self.state[s * stride..(s + 1) * stride];
            let total: f64 = row.iter().sum();
            row.iter_mut().for_each(|x| *x = 0.0);
            row[stride - 1] = total;
        }
    }

    /// An old-style night kill or an elimination: one death by a normal
    /// cause, the hunter's factor only.
    fn hunter_only(&mut self, step: &Step, roles: &NightRoles, model: &RoleModel) {
        let dead = step.primary.players().next();
        if let Some(dead) = dead {
            let factor = hunter_factor(dead, true, roles, step, model.hunter_shoots);
            if factor != 1.0 {
                self.state.iter_mut().for_each(|x| *x *= factor);
            }
        }
    }

    /// One `night` step.
    fn night(&mut self, step: &Step, roles: &NightRoles, model: &RoleModel) {
        let stride = self.stride;
        let none = stride - 1;
        self.next.iter_mut().for_each(|x| *x = 0.0);
        let living = step.living_before;
        let nl = living.len();
        let nw = (living.0 & roles.wolves).count_ones();
        let nv = nl - nw;
        if nw == 0 || nv == 0 {
            // The game was over before this night.
            std::mem::swap(&mut self.state, &mut self.next);
            return;
        }
        let night = Night::new(step, roles, model, living, nw, nv);
        let guard_alive = roles.guard.is_some_and(|g| living.contains(g)) && stride > 1;
        if let Some(view) = step.witch {
            self.witch_viewer_night(&night, view, guard_alive);
            std::mem::swap(&mut self.state, &mut self.next);
            return;
        }
        for s in 0..POTION_STATES {
            let row = &self.state[s * stride..(s + 1) * stride];
            let mass: f64 = row.iter().sum();
            if mass == 0.0 {
                continue;
            }
            let (antidote, poison) = (s >> 1 == 1, s & 1 == 1);
            let chances = night.chances(antidote, poison);
            let saved_state = s & 1;
            let poisoned_state = s & 2;
            let constant = night.constant(&chances);
            if !guard_alive {
                // Nobody protected: only the constant parts, and the guard
                // (dead or absent) has no last target any more.
                for (next_state, a) in [
                    (s, constant.stay),
                    (saved_state, constant.saved),
                    (poisoned_state, constant.poisoned),
                ] {
                    if a != 0.0 {
                        self.next[next_state * stride + none] += mass * a;
                    }
                }
                continue;
            }
            // The guard's choice: uniform over the living but the last
            // target; `share` is 1 / (number of choices) by last target.
            let share = |last: usize| {
                let excluded = last != none && living.0 >> last & 1 == 1;
                1.0 / f64::from(nl - u32::from(excluded))
            };
            let total: f64 = row
                .iter()
                .enumerate()
                .filter(|(_, &x)| x != 0.0)
                .map(|(last, &x)| x * share(last))
                .sum();
            let mut targets = living.0;
            if let Some(logged) = step.guarded {
                targets = 1u64 << logged.index();
            }
            while targets != 0 {
                let g = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                // P(the guard picks g) summed over his last target.
                let pick = total - row[g] * share(g);
                if pick == 0.0 {
                    continue;
                }
                let guarded = night.guarded(Player::from_index(g), &chances);
                let out = [
                    (s, constant.stay + guarded.stay),
                    (saved_state, constant.saved),
                    (poisoned_state, constant.poisoned + guarded.poisoned),
                ];
                for (next_state, a) in out {
                    if a != 0.0 {
                        self.next[next_state * stride + g] += pick * a;
                    }
                }
            }
        }
        std::mem::swap(&mut self.state, &mut self.next);
    }
}

/// The witch's chances in one potion state.
struct Chances {
    /// P(she saves a victim other than herself).
    save: f64,
    /// Whether she can poison at all.
    can_poison: bool,
    /// Whether she is shown the victim (she still holds the antidote);
    /// without it her poison is blind and may land on the victim.
    shown: bool,
}

/// What a night adds to each next potion state: "stay" keeps the potions,
/// "saved" spends the antidote, "poisoned" spends the poison.
#[derive(Default)]
struct Contribution {
    stay: f64,
    saved: f64,
    poisoned: f64,
}

/// One night's observed deaths under one hypothesis, and the chances of
/// the model.
struct Night {
    living: PlayerSet,
    nl: u32,
    wolves: u64,
    /// P(victim = a given living wolf), P(victim = a given living non-wolf).
    on_wolf: f64,
    on_village: f64,
    witch: Option<Player>,
    /// The night roles and the step, for the hunter's factor.
    roles: NightRoles,
    step: Step,
    deaths: (Option<Player>, Option<Player>),
    model: RoleModel,
}

impl Night {
    fn new(
        step: &Step,
        roles: &NightRoles,
        model: &RoleModel,
        living: PlayerSet,
        nw: u32,
        nv: u32,
    ) -> Night {
        Night {
            living,
            nl: living.len(),
            wolves: roles.wolves,
            on_wolf: model.wolves_knife_wolf / f64::from(nw),
            on_village: (1.0 - model.wolves_knife_wolf) / f64::from(nv),
            witch: roles.witch.filter(|&w| living.contains(w)),
            roles: *roles,
            step: *step,
            deaths: two_lowest(step.primary),
            model: *model,
        }
    }

    fn chances(&self, antidote: bool, poison: bool) -> Chances {
        let alive = self.witch.is_some();
        Chances {
            save: if alive && antidote {
                self.model.witch_save
            } else {
                0.0
            },
            can_poison: alive && poison,
            shown: alive && antidote,
        }
    }

    /// The victim as the witch knows it: `v` when she is shown it.
    fn seen(v: Player, chances: &Chances) -> Option<Player> {
        chances.shown.then_some(v)
    }

    /// P(the wolves' victim is `v`).
    fn victim(&self, v: Player) -> f64 {
        if self.wolves >> v.index() & 1 == 1 {
            self.on_wolf
        } else {
            self.on_village
        }
    }

    /// P(saved) for victim `v`.
    fn saved(&self, v: Player, chances: &Chances) -> f64 {
        if self.witch == Some(v) {
            0.0
        } else {
            chances.save
        }
    }

    /// The living she may poison other than herself, knowing the victim
    /// `seen` (she spares a victim she was shown).
    fn others(&self, seen: Option<Player>) -> u32 {
        let excluded = if seen.is_some() && seen != self.witch {
            2
        } else {
            1
        };
        self.nl.saturating_sub(excluded)
    }

    /// P(she poisons `t` | not saved, victim `v`): herself with
    /// `witch_poisons_herself` unless she was shown herself as the victim,
    /// else uniformly among the living other than herself and the victim
    /// she was shown (a blind poison may land on the victim).
    fn poisons(&self, t: Player, v: Player, chances: &Chances) -> f64 {
        let seen = Self::seen(v, chances);
        if !chances.can_poison || seen == Some(t) || !self.living.contains(t) {
            return 0.0;
        }
        let q = self.model.witch_poison;
        let herself = self.model.witch_poisons_herself;
        let others = self.others(seen);
        if self.witch == Some(t) {
            q * herself
        } else if others == 0 {
            0.0
        } else if seen.is_some() && seen == self.witch {
            q / f64::from(others)
        } else {
            q * (1.0 - herself) / f64::from(others)
        }
    }

    /// P(she poisons nobody | not saved, victim `v`).
    fn poisons_nobody(&self, v: Player, chances: &Chances) -> f64 {
        if !chances.can_poison {
            return 1.0;
        }
        let seen = Self::seen(v, chances);
        let q = self.model.witch_poison;
        let others = self.others(seen);
        let shown_herself = seen.is_some() && seen == self.witch;
        let self_poison = if shown_herself {
            0.0
        } else {
            q * self.model.witch_poisons_herself
        };
        let on_others = if others == 0 {
            0.0
        } else if shown_herself {
            q
        } else {
            q * (1.0 - self.model.witch_poisons_herself)
        };
        1.0 - self_poison - on_others
    }

    fn hunter(&self, dead: Player, normal: bool) -> f64 {
        hunter_factor(
            dead,
            normal,
            &self.roles,
            &self.step,
            self.model.hunter_shoots,
        )
    }

    /// `Phi0` summed over the victim: the night's probability when the
    /// victim is not guarded, by next potion state.
    fn constant(&self, chances: &Chances) -> Contribution {
        let mut out = Contribution::default();
        match self.deaths {
            (None, _) => {
                // Saved: every victim but the witch herself.
                let witch_share = self.witch.map_or(0.0, |w| self.victim(w));
                out.saved = chances.save * (1.0 - witch_share);
            }
            (Some(d), None) => {
                // The victim d died, no poison.
                out.stay = self.victim(d)
                    * (1.0 - self.saved(d, chances))
                    * self.poisons_nobody(d, chances)
                    * self.hunter(d, true);
                // The victim d also poisoned, blind (guarded or not: the
                // poison kills); a poisoned hunter never shoots.
                out.poisoned = self.victim(d)
                    * (1.0 - self.saved(d, chances))
                    * self.poisons(d, d, chances)
                    * self.hunter(d, false);
            }
            (Some(x), Some(y)) => {
                out.poisoned = self.victim(x) * self.unguarded_pair(x, y, chances)
                    + self.victim(y) * self.unguarded_pair(y, x, chances);
            }
        }
        out
    }

    /// Victim `v` died unsaved, `other` poisoned.
    fn unguarded_pair(&self, v: Player, other: Player, chances: &Chances) -> f64 {
        (1.0 - self.saved(v, chances))
            * self.poisons(other, v, chances)
            * self.hunter(v, true)
            * self.hunter(other, false)
    }

    /// `P(v = g) (Phi1(g) - Phi0(g))`: the correction when the guard
    /// protects `g`, by next potion state (never into "saved": a saved
    /// victim is saved guarded or not).
    fn guarded(&self, g: Player, chances: &Chances) -> Contribution {
        let mut out = Contribution::default();
        let p = self.victim(g);
        match self.deaths {
            (None, _) => {
                // A guarded victim lives unsaved if she poisons nobody.
                out.stay = p * (1.0 - self.saved(g, chances)) * self.poisons_nobody(g, chances);
            }
            (Some(d), None) => {
                if g == d {
                    // d guarded cannot have died as the victim.
                    out.stay = -p
                        * (1.0 - self.saved(d, chances))
                        * self.poisons_nobody(d, chances)
                        * self.hunter(d, true);
                } else {
                    // The victim g guarded, d poisoned.
                    out.poisoned = p
                        * (1.0 - self.saved(g, chances))
                        * self.poisons(d, g, chances)
                        * self.hunter(d, false);
                }
            }
            (Some(x), Some(y)) => {
                if g == x {
                    out.poisoned = -p * self.unguarded_pair(x, y, chances);
                } else if g == y {
                    out.poisoned = -p * self.unguarded_pair(y, x, chances);
                }
            }
        }
        out
    }
}

/// The two lowest seats of a set (a night has at most two deaths), without
/// iterating over the 64 bits.
#[inline]
pub(crate) fn two_lowest(set: PlayerSet) -> (Option<Player>, Option<Player>) {
    let lowest =
        |bits: u64| (bits != 0).then(|| Player::from_index(bits.trailing_zeros() as usize));
    (lowest(set.0), lowest(set.0 & set.0.wrapping_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_a_power_of_two_and_its_log() {
        assert_eq!(SCALE_UP, 2f64.powi(300));
        assert!((SCALE_LN - 300.0 * std::f64::consts::LN_2).abs() < 1e-12);
        // 1e-400 is below the f64 range; scaled, it is kept.
        let tiny = Scaled::normalised(1e-200, 0).times(Scaled::normalised(1e-200, 0));
        assert!(tiny.mantissa >= 1.0 / SCALE_UP && tiny.mantissa <= 1.0);
        assert!((tiny.ln() - (-400.0 * std::f64::consts::LN_10)).abs() < 1e-9);
        assert_eq!(
            Scaled {
                mantissa: 1.0,
                exponent: -1
            }
            .at(0),
            1.0 / SCALE_UP
        );
    }
}
