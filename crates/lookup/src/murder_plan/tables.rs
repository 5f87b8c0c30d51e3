//! [`MurderPlanTables`]: the Murder Plan tables indexed in memory, and the
//! queries answered from them.
//!
//! Every table is indexed by the dense key
//! `days_left * STATE_COUNT + State::index()`, so a query is an array
//! access. Two loaders fill the same structure: the Parquet files of a
//! table set (`load.rs`, every state of every day) and the browser bundle
//! (`bundle/`, the states a game from the 16 starts can reach). Both are
//! answered by the code below and in `moves.rs`, so the WebAssembly module
//! answers exactly what the native lookup answers; a state the bundle does
//! not hold is [`Error::NotInTable`], never a guess. This file needs no
//! Parquet (it builds for `wasm32-unknown-unknown`).

use super::schema::{AVERAGE_START_INDEX, MAX_DAYS};
use crate::error::{Error, Result};
use gametab_games::murder_plan::model::{
    BrainTarget, MastermindAction, MastermindCard, Offset, Placement, ProtagonistAction,
    ProtagonistCard, State, STATE_COUNT,
};
use gametab_games::murder_plan::DaysLeft;

/// Probabilities of one state's strategy support must sum to 1 within this.
pub(super) const SUM_TOLERANCE: f64 = 1e-9;

/// Number of dense keys: days_left 0..=8 times every state.
pub(super) const KEYS: usize = (MAX_DAYS as usize + 1) * STATE_COUNT;

/// One side's strategy table: the support of every (days_left, state),
/// in the stored row order.
#[derive(Debug, Clone)]
pub(super) struct Supports<Card> {
    /// `start[key]..start[key + 1]` indexes `entries`.
    start: Vec<u32>,
    entries: Vec<(Placement<Card>, f64)>,
}

impl<Card> Supports<Card> {
    /// From the offsets of every key's support (`KEYS + 1` of them, non
    /// decreasing, the last one `entries.len()`) and the entries; the
    /// loaders build both and check them.
    pub(super) fn from_parts(start: Vec<u32>, entries: Vec<(Placement<Card>, f64)>) -> Self {
        debug_assert_eq!(start.len(), KEYS + 1);
        debug_assert_eq!(start.last().map(|&s| s as usize), Some(entries.len()));
        Supports { start, entries }
    }

    pub(super) fn get(&self, key: usize) -> &[(Placement<Card>, f64)] {
        &self.entries[self.start[key] as usize..self.start[key + 1] as usize]
    }
}

/// Which (days_left, state) keys a [`MurderPlanTables`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Every key: loaded from the Parquet tables of a set.
    Everything,
    /// The keys a game from the 16 starts can reach (loaded from the
    /// browser bundle): the values, strategies and brain choices of every
    /// reachable (days_left, state), and the values that hold by the rules
    /// alone (days_left 0, states the mastermind has won). Whether a key is
    /// reachable is known for every key.
    Reachable,
}

/// The Murder Plan tables, loaded and indexed.
#[derive(Debug, Clone)]
pub struct MurderPlanTables {
    pub(super) values: Vec<f64>,
    pub(super) gaps: Vec<f64>,
    pub(super) reachable: Vec<bool>,
    pub(super) mastermind: Supports<MastermindCard>,
    pub(super) protagonists: Supports<ProtagonistCard>,
    pub(super) brain: Vec<(BrainTarget, f64)>,
    pub(super) win_rates: Vec<f64>,
    pub(super) coverage: Coverage,
}

/// Whether a [`Coverage::Reachable`] set of tables holds the brain's
/// choice at `key` (days_left d >= 1, a post-card state P): P is
/// reachable with d - 1 days left, and so is every state a legal ability
/// leads to from it (or it is won, or d - 1 = 0: the rules fix its
/// value), so that the choice's value is known. Every post-card state of a
/// turn from a reachable state is held: the reachable layers contain every
/// legal ability's result of every turn.
pub(super) fn brain_held(reachable: &[bool], key: usize) -> bool {
    let before = key - STATE_COUNT;
    let post = State::from_index(before % STATE_COUNT).expect("a key below KEYS");
    let day_start = before - post.index();
    reachable[before]
        && BrainTarget::legal(post).all(|target| {
            let after = target.apply(post);
            day_start == 0 || after.is_win() || reachable[day_start + after.index()]
        })
}

/// The name of what a [`Coverage::Reachable`] set of tables came from, in
/// its errors.
const BUNDLE: &str = "murder_plan browser bundle";

fn check_days(days_left: u8, min: u8) -> Result<()> {
    if days_left < min || days_left > MAX_DAYS {
        return Err(Error::OutOfRange {
            what: gametab_games::Argument::DaysLeft,
            detail: format!("{days_left} (the tables hold {min}..={MAX_DAYS})"),
        });
    }
    Ok(())
}

/// Pick the action at cumulative probability `u` over a support in stored
/// order: the first action whose running sum exceeds `u` (the last one if
/// rounding leaves `u` at or beyond the total).
fn sample<A: Copy>(support: &[(A, f64)], u: f64) -> Result<A> {
    if !(0.0..1.0).contains(&u) {
        return Err(Error::OutOfRange {
            what: gametab_games::Argument::U,
            detail: format!("{u} (must be in [0, 1))"),
        });
    }
    let mut running = 0.0;
    for &(action, p) in support {
        running += p;
        if u < running {
            return Ok(action);
        }
    }
    Ok(support.last().expect("supports are never empty").0)
}

/// The error of a (days_left, state) the bundle does not hold.
fn not_held(days_left: DaysLeft, state: State) -> Error {
    Error::NotInTable {
        table: BUNDLE,
        key: format!(
            "days_left {days_left}, {state:?}: not reachable from the 16 starts (the bundle holds \
             only those; the Parquet tables hold every state)"
        ),
    }
}

impl MurderPlanTables {
    /// `V_d(S)`: the probability that the mastermind wins with `days_left`
    /// turns left from `state` under optimal play (intrigue clamped to the
    /// caps as the game does).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for days_left above 8 or a forbid-movement count
    /// above 3; [`Error::NotInTable`] for a state the tables do not hold
    /// (with [`Coverage::Reachable`]: one no game from the 16 starts
    /// reaches).
    pub fn value(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<f64> {
        Ok(self.values[self.value_key(days_left, state)?])
    }

    /// The certificate gap stored with the state's strategies.
    ///
    /// # Errors
    /// As [`MurderPlanTables::value`].
    pub fn gap(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<f64> {
        Ok(self.gaps[self.value_key(days_left, state)?])
    }

    /// Whether (days_left, state) occurs in some game of horizon <= 8 from
    /// the 16 starts (known for every key, whatever the coverage).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] as for [`MurderPlanTables::value`].
    pub fn reachable(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<bool> {
        Ok(self.reachable[self.key(days_left, 0, state)?])
    }

    fn key(&self, days_left: impl Into<DaysLeft>, min_days: u8, state: State) -> Result<usize> {
        let days_left = days_left.into().get();
        check_days(days_left, min_days)?;
        if state.limited.forbid_movement > 3 {
            return Err(Error::OutOfRange {
                what: gametab_games::Argument::ForbidMovementLeft,
                detail: format!("{} (0..=3)", state.limited.forbid_movement),
            });
        }
        Ok(usize::from(days_left) * STATE_COUNT + state.clamped().index())
    }

    /// The keys this set of tables holds.
    pub fn coverage(&self) -> Coverage {
        self.coverage
    }

    /// Whether the values of `key` (of `state`) are held: always with
    /// [`Coverage::Everything`]; with [`Coverage::Reachable`] for reachable
    /// keys and those whose value the rules fix (days_left 0, won states).
    fn holds_value(&self, key: usize, state: State) -> bool {
        self.coverage == Coverage::Everything
            || key < STATE_COUNT
            || state.clamped().is_win()
            || self.reachable[key]
    }

    /// The key of a value query, if the tables hold it.
    fn value_key(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<usize> {
        let days_left = days_left.into();
        let key = self.key(days_left, 0, state)?;
        if !self.holds_value(key, state) {
            return Err(not_held(days_left, state));
        }
        Ok(key)
    }

    fn support_key(&self, days_left: impl Into<DaysLeft>, state: State) -> Result<usize> {
        let days_left = days_left.into();
        let key = self.key(days_left, 1, state)?;
        if state.clamped().is_win() {
            return Err(Error::NotInTable {
                table: "murder_plan strategies",
                key: format!("days_left {days_left}, {state:?}: the mastermind has already won"),
            });
        }
        if self.coverage == Coverage::Reachable && !self.reachable[key] {
            return Err(not_held(days_left, state));
        }
        Ok(key)
    }

    /// The mastermind's optimal mixed strategy sigma* (its support, in the
    /// stored order; probabilities sum to 1).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for days_left outside 1..=8,
    /// [`Error::NotInTable`] for a state in which the mastermind has won.
    pub fn mastermind_strategy(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
    ) -> Result<&[(MastermindAction, f64)]> {
        Ok(self.mastermind.get(self.support_key(days_left, state)?))
    }

    /// The protagonists' optimal mixed strategy tau*.
    ///
    /// # Errors
    /// As [`MurderPlanTables::mastermind_strategy`].
    pub fn protagonists_strategy(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
    ) -> Result<&[(ProtagonistAction, f64)]> {
        Ok(self.protagonists.get(self.support_key(days_left, state)?))
    }

    /// Sample the mastermind's action from a uniform number `u` in [0, 1):
    /// the first action of the stored support whose cumulative probability
    /// exceeds `u`.
    ///
    /// # Errors
    /// As [`MurderPlanTables::mastermind_strategy`], and
    /// [`Error::OutOfRange`] for `u` outside [0, 1).
    pub fn sample_mastermind(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
        u: f64,
    ) -> Result<MastermindAction> {
        sample(self.mastermind_strategy(days_left, state)?, u)
    }

    /// Sample the protagonists' action from `u` in [0, 1), like
    /// [`MurderPlanTables::sample_mastermind`].
    ///
    /// # Errors
    /// As [`MurderPlanTables::sample_mastermind`].
    pub fn sample_protagonists(
        &self,
        days_left: impl Into<DaysLeft>,
        state: State,
        u: f64,
    ) -> Result<ProtagonistAction> {
        sample(self.protagonists_strategy(days_left, state)?, u)
    }

    /// The brain's choice in a post-card state of a turn played with
    /// `days_left` turns left (1..=8), and the value it yields.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for days_left outside 1..=8;
    /// [`Error::NotInTable`] with [`Coverage::Reachable`] for a post-card
    /// state the bundle does not hold (it holds every post-card state of a
    /// turn from a reachable state).
    pub fn brain_choice(
        &self,
        days_left: impl Into<DaysLeft>,
        post_cards: State,
    ) -> Result<(BrainTarget, f64)> {
        let days_left = days_left.into();
        let key = self.key(days_left, 1, post_cards)?;
        if self.coverage == Coverage::Reachable && !brain_held(&self.reachable, key) {
            return Err(Error::NotInTable {
                table: BUNDLE,
                key: format!(
                    "brain choice, days_left {days_left}, {post_cards:?}: no turn of a state \
                     reachable from the 16 starts leads there"
                ),
            });
        }
        Ok(self.brain[key - STATE_COUNT])
    }

    /// The optimal mastermind win rate for horizon D (1..=8: the days left
    /// at the start) from one start (`x`, `y`), or the average over the 16
    /// starts with `None`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a horizon outside 1..=8.
    pub fn win_rate(
        &self,
        horizon: impl Into<DaysLeft>,
        start: Option<(Offset, Offset)>,
    ) -> Result<f64> {
        let horizon = horizon.into().get();
        check_days(horizon, 1)?;
        let index = match start {
            Some((x, y)) => usize::from(x.code()) * 4 + usize::from(y.code()),
            None => AVERAGE_START_INDEX as usize,
        };
        Ok(self.win_rates[(usize::from(horizon) - 1) * (AVERAGE_START_INDEX as usize + 1) + index])
    }
}
