//! The likelihood of one night's public outcome, the witch's potions summed
//! out exactly.
//!
//! The generative model is the one documented on
//! [`RoleModel`](super::RoleModel): the wolves' victim uniform among the
//! living non-wolves, the guard's protection uniform among the living, the
//! witch saving with `witch_save` when told, else poisoning with
//! `witch_poison` someone uniform among the living other than herself and
//! the victim. The potions left are a hidden state with four values
//! (antidote held or not, poison held or not); a night maps the probability
//! of each state before it to the joint probability of the observed deaths
//! and each state after it (a forward pass). Each sum over the victim is
//! written in closed form: victims outside the deaths behave alike except
//! the witch herself, so a night costs a handful of operations per
//! hypothesis instead of one pass over the players.

use super::super::model::{Player, PlayerSet};
use super::game::Step;
use super::setup::RoleModel;

/// The potions the witch holds: index `2 * antidote + poison`.
pub(crate) type Potions = [f64; 4];

/// Both potions held (the state before the first night).
pub(crate) const FULL: Potions = [0.0, 0.0, 0.0, 1.0];

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
/// `hunter_shoots`, never when poisoned; anyone else never shoots.
#[inline]
pub(crate) fn hunter_factor(
    dead: Player,
    normal: bool,
    hunter: Option<Player>,
    shooter: Option<Player>,
    hunter_shoots: f64,
) -> f64 {
    let shot = shooter == Some(dead);
    match (hunter == Some(dead) && normal, shot) {
        (true, true) => hunter_shoots,
        (true, false) => 1.0 - hunter_shoots,
        (false, true) => 0.0,
        (false, false) => 1.0,
    }
}

/// One `night` step: the probabilities of the potion states before it
/// become the joint probabilities of its deaths and the states after it.
pub(crate) fn night(
    step: &Step,
    roles: &NightRoles,
    model: &RoleModel,
    before: &Potions,
) -> Potions {
    let mut after = [0.0; 4];
    let living = step.living_before;
    let non_wolves = PlayerSet(living.0 & !roles.wolves);
    let nv = non_wolves.len();
    if nv == 0 || living.0 & roles.wolves == 0 {
        return after;
    }
    let nv = f64::from(nv);
    let nl = living.len();
    let alive = |p: Option<Player>| p.filter(|&p| living.contains(p));
    let guarded = if alive(roles.guard).is_some() {
        1.0 / f64::from(nl)
    } else {
        0.0
    };
    let witch = alive(roles.witch);
    // The witch alive is a non-wolf: she is one of the victims in `nv`.
    let witch_victims = f64::from(u8::from(witch.is_some()));
    let hunter = |dead: Player, normal: bool| {
        hunter_factor(
            dead,
            normal,
            roles.hunter,
            step.shooter,
            model.hunter_shoots,
        )
    };
    let (first, second) = two_lowest(step.primary);
    for (state, &weight) in before.iter().enumerate() {
        if weight == 0.0 {
            continue;
        }
        let (antidote, poison) = (state >> 1 == 1, state & 1 == 1);
        let can_save = witch.is_some() && antidote;
        let can_poison = witch.is_some() && poison;
        // Chances for a victim who is not the witch (she never saves herself).
        let save = if can_save { model.witch_save } else { 0.0 };
        // Poison candidates: the living but the witch and the victim.
        let targets = |victim_is_witch: bool| nl - 1 - u32::from(!victim_is_witch);
        let poisons = |victim_is_witch: bool| {
            if can_poison && targets(victim_is_witch) > 0 {
                model.witch_poison
            } else {
                0.0
            }
        };
        let one_target = |victim_is_witch: bool| {
            let n = targets(victim_is_witch);
            if n == 0 {
                0.0
            } else {
                1.0 / f64::from(n)
            }
        };
        let is_witch = |p: Player| witch == Some(p);
        let others = |excluded: f64| nv - witch_victims - excluded;
        let unsaved = |v: Player| if is_witch(v) { 1.0 } else { 1.0 - save };
        let mut add = |next: usize, p: f64| after[next] += weight * p / nv;
        match (first, second) {
            (None, _) => {
                // Saved (not the witch): antidote spent.
                add(poison as usize, others(0.0) * save);
                // Not saved, guarded, no poison.
                let stay = others(0.0) * (1.0 - save) * (1.0 - poisons(false))
                    + witch_victims * (1.0 - poisons(true));
                add(state, stay * guarded);
            }
            (Some(dead), None) => {
                if non_wolves.contains(dead) {
                    let p = unsaved(dead) * (1.0 - guarded) * (1.0 - poisons(is_witch(dead)));
                    add(state, p * hunter(dead, true));
                }
                if can_poison && !is_witch(dead) {
                    // The victim (someone else) guarded and not saved; `dead`
                    // poisoned.
                    let excluded = f64::from(u8::from(non_wolves.contains(dead)));
                    let by_witch_victim = witch_victims * one_target(true);
                    let by_other = others(excluded) * (1.0 - save) * one_target(false);
                    let p = (by_witch_victim + by_other)
                        * guarded
                        * model.witch_poison
                        * hunter(dead, false);
                    add(state & 2, p);
                }
            }
            (Some(x), Some(y)) => {
                for (victim, poisoned) in [(x, y), (y, x)] {
                    if non_wolves.contains(victim) && can_poison && !is_witch(poisoned) {
                        let p = unsaved(victim)
                            * (1.0 - guarded)
                            * model.witch_poison
                            * one_target(is_witch(victim))
                            * hunter(victim, true)
                            * hunter(poisoned, false);
                        add(state & 2, p);
                    }
                }
            }
        }
    }
    after
}

/// The two lowest seats of a set (a night has at most two deaths), without
/// iterating over the 64 bits.
#[inline]
pub(crate) fn two_lowest(set: PlayerSet) -> (Option<Player>, Option<Player>) {
    let lowest =
        |bits: u64| (bits != 0).then(|| Player::from_index(bits.trailing_zeros() as usize));
    (lowest(set.0), lowest(set.0 & set.0.wrapping_sub(1)))
}
