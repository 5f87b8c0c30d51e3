//! [`DaysLeft`]: the one name and type for a count of turns in Murder Plan.
//!
//! The tables key states by `days_left` (turns still to play, the coming
//! one included) and the win rates by the horizon D of a game; a game of
//! horizon D starts with D days left, so the two are one quantity. Every
//! query of the lookup crate takes it as a `DaysLeft` (an integer converts
//! into one), and the range a table covers is checked where it is used.

use std::fmt;

use serde::Serialize;

/// Turns left to play, counting the one about to be played: the
/// `days_left` of a state, and the horizon D of a game that starts now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
#[serde(transparent)]
pub struct DaysLeft(u8);

impl DaysLeft {
    /// `days` turns left.
    pub const fn new(days: u8) -> DaysLeft {
        DaysLeft(days)
    }

    /// The number of turns.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number of turns as an index (row blocks of the tables).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// One turn fewer: the days left after the coming turn (`None` at 0).
    pub const fn after_turn(self) -> Option<DaysLeft> {
        match self.0.checked_sub(1) {
            Some(days) => Some(DaysLeft(days)),
            None => None,
        }
    }

    /// Every count from 1 to `self` (the horizons of a build up to `self`).
    pub fn horizons(self) -> impl Iterator<Item = DaysLeft> {
        (1..=self.0).map(DaysLeft)
    }
}

impl From<u8> for DaysLeft {
    fn from(days: u8) -> DaysLeft {
        DaysLeft(days)
    }
}

impl From<DaysLeft> for u8 {
    fn from(days: DaysLeft) -> u8 {
        days.0
    }
}

impl fmt::Display for DaysLeft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_turn_fewer_stops_at_zero_and_horizons_count_up() {
        assert_eq!(DaysLeft::new(3).after_turn(), Some(DaysLeft::new(2)));
        assert_eq!(DaysLeft::new(0).after_turn(), None);
        let horizons: Vec<u8> = DaysLeft::new(3).horizons().map(DaysLeft::get).collect();
        assert_eq!(horizons, [1, 2, 3]);
        assert_eq!(DaysLeft::from(8).index(), 8);
        assert_eq!(DaysLeft::new(5).to_string(), "5");
        assert_eq!(serde_json::to_string(&DaysLeft::new(7)).unwrap(), "7");
    }
}
