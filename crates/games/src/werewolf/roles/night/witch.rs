//! A night seen by the witch viewer: she knows the victim she was shown
//! (while she holds the antidote) and what she did, so the night's
//! likelihood sums only over what she does not know: the victim when she
//! was shown nobody, and the guard's target.
//!
//! Her own choices have the model's probabilities (the same under every
//! hypothesis, since she is the viewer, but kept so that the weights are
//! the model's). The potion states that disagree with her night (shown a
//! victim without the antidote, a potion she no longer holds) drop out.
//! The cost is one pass over (victim, guard's target) pairs per potion
//! state, paid only for the witch viewer's logged nights.

use super::super::super::model::Player;
use super::super::events::WitchView;
use super::{Night, NightPass, POTION_STATES};

impl NightPass {
    /// One `night` step with the witch viewer's own night `view`: `next`
    /// gets the new state (the caller swaps it in).
    pub(super) fn witch_viewer_night(&mut self, night: &Night, view: WitchView, guard_alive: bool) {
        let stride = self.stride;
        let none = stride - 1;
        let living = night.living;
        let deaths = night.step.primary;
        for s in 0..POTION_STATES {
            let row = &self.state[s * stride..(s + 1) * stride];
            let mass: f64 = row.iter().sum();
            if mass == 0.0 {
                continue;
            }
            let (antidote, poison) = (s >> 1 == 1, s & 1 == 1);
            // She is shown the victim exactly while she holds the antidote.
            if view.shown.is_some() != antidote || (view.poisoned.is_some() && !poison) {
                continue;
            }
            let chances = night.chances(antidote, poison);
            let after = s & !(usize::from(view.saved) << 1) & !usize::from(view.poisoned.is_some());
            // P(her choices, the deaths | victim v, guard's target g).
            let outcome = |v: Player, g: Option<Player>| -> f64 {
                let choice = if view.saved {
                    night.saved(v, &chances)
                } else {
                    (1.0 - night.saved(v, &chances))
                        * match view.poisoned {
                            Some(t) => night.poisons(t, v, &chances),
                            None => night.poisons_nobody(v, &chances),
                        }
                };
                if choice == 0.0 {
                    return 0.0;
                }
                let victim_dies = !view.saved && g != Some(v);
                let mut died = view.poisoned.map_or(0, |t| 1u64 << t.index());
                if victim_dies {
                    died |= 1u64 << v.index();
                }
                if died != deaths.0 {
                    return 0.0;
                }
                let mut hunter = 1.0;
                for dead in deaths.players() {
                    let normal = victim_dies && dead == v && view.poisoned != Some(v);
                    hunter *= night.hunter(dead, normal);
                }
                choice * hunter
            };
            let victims: Vec<Player> = match view.shown {
                Some(v) => vec![v],
                None => living.players().collect(),
            };
            if !guard_alive {
                let p: f64 = victims
                    .iter()
                    .map(|&v| night.victim(v) * outcome(v, None))
                    .sum();
                self.next[after * stride + none] += mass * p;
                continue;
            }
            // The guard's choice: uniform over the living but his last
            // target, summed over that target (as in the general night).
            let share = |last: usize| {
                let excluded = last != none && living.0 >> last & 1 == 1;
                1.0 / f64::from(living.len() - u32::from(excluded))
            };
            let total: f64 = row
                .iter()
                .enumerate()
                .filter(|(_, &x)| x != 0.0)
                .map(|(last, &x)| x * share(last))
                .sum();
            let mut targets = living.0;
            if let Some(logged) = night.step.guarded {
                targets = 1u64 << logged.index();
            }
            while targets != 0 {
                let g = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let pick = total - row[g] * share(g);
                if pick == 0.0 {
                    continue;
                }
                let guarded = Some(Player::from_index(g));
                let p: f64 = victims
                    .iter()
                    .map(|&v| night.victim(v) * outcome(v, guarded))
                    .sum();
                if p != 0.0 {
                    self.next[after * stride + g] += pick * p;
                }
            }
        }
    }
}
