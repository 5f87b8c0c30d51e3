//! When no role assignment explains a log: find the first event after
//! which none is left, and say why when the reason is one of the rules'
//! (the game was already over, no lovers' pair is left).
//!
//! Adding events never brings a hypothesis back (each one multiplies in a
//! likelihood, or adds a constraint), as long as the prefixes end where a
//! step is complete: a log cut between a death and the hunter's shot would
//! say the hunter did not shoot. So a binary search over the prefixes that
//! end at complete steps finds the first one that is empty, in about
//! log2(events) posterior computations, paid only on failure.

use crate::error::{Error, Result};

use super::end::Winner;
use super::game::RoleGame;
use super::posterior::{Empty, RolePosterior};

impl RolePosterior {
    /// Enumerate the role assignments (and lovers' pairs) consistent with
    /// the hard facts and weigh each by the likelihood of every event.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] above [`super::MAX_ROLE_ASSIGNMENTS`];
    /// [`Error::AtEvent`] when every hypothesis has probability 0 under
    /// the model, naming the first event after which none is left (a
    /// night no choice of the roles explains, a vote after the game's end
    /// in every assignment left, the last lovers' pair ruled out...).
    pub fn compute(game: &RoleGame) -> Result<RolePosterior> {
        match Self::enumerate(game)? {
            Ok(posterior) => Ok(posterior),
            Err(_) => Err(no_assignment(game)),
        }
    }
}

/// The error for a game no role assignment explains (or the budget's, if
/// it ran out while looking).
pub(crate) fn no_assignment(game: &RoleGame) -> Error {
    match first_empty(game) {
        Ok(error) | Err(error) => error,
    }
}

/// The error naming the first event after which no assignment is left.
fn first_empty(game: &RoleGame) -> Result<Error> {
    let generic = Error::Inconsistent(
        "no role assignment explains the events: every hypothesis has probability 0 under \
         the model (check the nights, shots and claims against the setup)"
            .into(),
    );
    // The prefix lengths that end at a complete step.
    let events: Vec<_> = game.events().collect();
    let cuts: Vec<usize> = (0..=events.len())
        .filter(|&k| k == events.len() || !events[k].is_consequence())
        .collect();
    // A probe that cannot be computed (a prefix above the enumeration
    // limit) leaves the generic message; a budget's stop is that error.
    let probe = |k: usize| -> Result<Option<std::result::Result<RolePosterior, Empty>>> {
        match game
            .prefix(k)
            .and_then(|prefix| RolePosterior::enumerate(&prefix))
        {
            Ok(answer) => Ok(Some(answer)),
            Err(error @ Error::Budget(_)) => Err(error),
            Err(_) => Ok(None),
        }
    };
    // cuts[lo] explained, cuts[hi] not.
    let (mut lo, mut hi) = (0usize, cuts.len() - 1);
    match probe(cuts[0])? {
        Some(Ok(_)) => {}
        Some(Err(_)) => {
            return Ok(Error::Inconsistent(
                "no role assignment fits the setup and the viewer's role before any event".into(),
            ))
        }
        None => return Ok(generic),
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        match probe(cuts[mid])? {
            Some(Ok(_)) => lo = mid,
            Some(Err(_)) => hi = mid,
            None => return Ok(generic),
        }
    }
    let (before, after) = (cuts[lo], cuts[hi]);
    let last = after - 1;
    let Some(Err(reason)) = probe(after)? else {
        return Ok(generic);
    };
    let Some(Ok(left)) = probe(before)? else {
        return Ok(generic);
    };
    let step = if after - before > 1 {
        format!(" (the step of events {} to {})", before + 1, after)
    } else {
        String::new()
    };
    let detail = if left.p_ongoing() == 0.0 {
        let chances: Vec<String> = Winner::ALL
            .into_iter()
            .filter(|&w| left.p_won(w) > 0.0)
            .map(|w| format!("the {} won with probability {:.4}", w.name(), left.p_won(w)))
            .collect();
        let when = if before == 0 {
            "before the first event".to_string()
        } else {
            format!("after event {before}")
        };
        format!(
            "the game was already over {when} in every role assignment left ({}); no event \
             can follow",
            chances.join(", ")
        )
    } else if reason == Empty::NoPair {
        "no lovers' pair is left: lovers never vote for each other, and every pair who could \
         still be the lovers now has a vote between them"
            .to_string()
    } else {
        "no role assignment explains the events up to this one: every hypothesis left before \
         it has probability 0 with it under the model (check it against the setup and the \
         earlier events)"
            .to_string()
    };
    Ok(Error::Inconsistent(format!("{detail}{step}"))
        .at_event(last, Some(events[last].to_string())))
}
