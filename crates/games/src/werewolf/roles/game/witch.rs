//! The witch viewer's own night: what she was shown and what she did,
//! checked against the rules (the victim shown only while she holds the
//! antidote, each potion once, at most one a night, never saving herself)
//! and against the deaths the next `night` announces.

use crate::error::{Error, Result};

use super::super::super::model::Player;
use super::super::events::{Known, WitchView};
use super::super::setup::Role;
use super::RoleGame;

/// Index of the antidote and of the poison in `potions_used`.
const ANTIDOTE: usize = 0;
const POISON: usize = 1;

impl RoleGame {
    /// Record the witch viewer's night `view` (event `index`), waiting for
    /// the `night` it belongs to.
    pub(super) fn witch_night(&mut self, view: WitchView, index: usize) -> Result<()> {
        let witch = match self.viewer {
            Some((viewer, Known::Role(Role::Witch))) if self.living.contains(viewer) => viewer,
            Some((_, Known::Role(Role::Witch))) => {
                return Err(Error::Inconsistent(
                    "the witch is dead: she has no night".into(),
                ))
            }
            _ => {
                return Err(Error::Inconsistent(
                    "a `witch` event is the witch viewer's own night (`viewer_role`: witch)".into(),
                ))
            }
        };
        if let Some((_, at)) = self.pending_witch {
            return Err(Error::Inconsistent(format!(
                "the witch's night of event {} has not had its `night` yet",
                at + 1
            )));
        }
        let spent = self.potions_used;
        let used = |potion: usize, name: &str| match spent[potion] {
            Some(at) => Err(Error::Inconsistent(format!(
                "the witch spent her {name} at event {}: each potion once a game",
                at + 1
            ))),
            None => Ok(()),
        };
        if let Some(victim) = view.shown {
            self.check_alive(victim)?;
            used(ANTIDOTE, "antidote").map_err(|_| {
                Error::Inconsistent(
                    "once her antidote is spent the witch is shown nobody".to_string(),
                )
            })?;
        } else if self.potions_used[ANTIDOTE].is_none() && !self.witch_unlogged {
            return Err(Error::Inconsistent(
                "while she holds the antidote the witch is shown the wolves' victim: log it \
                 (`shown`)"
                    .into(),
            ));
        }
        if view.saved {
            match view.shown {
                None => {
                    return Err(Error::Inconsistent(
                        "the witch saves the victim she was shown: `saved` needs `shown`".into(),
                    ))
                }
                Some(victim) if victim == witch => {
                    return Err(Error::Inconsistent("the witch never saves herself".into()))
                }
                Some(_) => {}
            }
            if view.poisoned.is_some() {
                return Err(Error::Inconsistent(
                    "the witch uses at most one potion a night".into(),
                ));
            }
            self.potions_used[ANTIDOTE] = Some(index);
        }
        if let Some(target) = view.poisoned {
            self.check_alive(target)?;
            if view.shown == Some(target) {
                return Err(Error::Inconsistent(format!(
                    "the witch was shown {target} as the victim: the model has her poison \
                     someone else"
                )));
            }
            used(POISON, "poison")?;
            self.potions_used[POISON] = Some(index);
        }
        self.pending_witch = Some((view, index));
        Ok(())
    }

    /// The night's `deaths` against the witch's own night: her poison
    /// kills, a victim she saved lives.
    pub(super) fn witch_deaths(&self, view: WitchView, deaths: &[Player]) -> Result<()> {
        if let Some(target) = view.poisoned {
            if !deaths.contains(&target) {
                return Err(Error::Inconsistent(format!(
                    "the witch poisoned {target}, who is not among the night's deaths"
                )));
            }
        }
        if let (true, Some(victim)) = (view.saved, view.shown) {
            if deaths.contains(&victim) {
                return Err(Error::Inconsistent(format!(
                    "the witch saved {victim}, who is among the night's deaths"
                )));
            }
        }
        Ok(())
    }
}
