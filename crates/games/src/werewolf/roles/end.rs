//! The end of the game: when it is over and who has won, under one
//! hypothesis (for the posterior) or by the public facts alone (to refuse
//! an event that comes after a public end).
//!
//! The rules seed ends the game when the wolves are all dead (the village
//! wins), when the living wolves are as many as the other living players
//! (the wolves win), or when the last two alive are a wolf-villager pair of
//! lovers (their own side wins: the parity the wolves reach then is theirs).
//! The check runs after each step, once its shot and lovers' deaths are in.

use super::super::model::PlayerSet;

/// Who has won a game that is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    /// Every wolf is dead.
    Village,
    /// The living wolves are at least as many as the other living players.
    Wolves,
    /// The last two alive are the lovers, a wolf and a village-side player.
    Lovers,
}

impl Winner {
    /// Every winner, in output order.
    pub const ALL: [Winner; 3] = [Winner::Village, Winner::Wolves, Winner::Lovers];

    /// Lowercase name, as in the report.
    pub const fn name(self) -> &'static str {
        match self {
            Winner::Village => "village",
            Winner::Wolves => "wolves",
            Winner::Lovers => "lovers",
        }
    }
}

/// Whether a game with `living_wolves` wolves among `living` players is
/// over, by cards alone (the lovers' win is decided by the caller, who
/// knows the pair).
pub(crate) const fn over(living_wolves: u32, living: u32) -> Option<Winner> {
    if living_wolves == 0 {
        Some(Winner::Village)
    } else if 2 * living_wolves >= living {
        Some(Winner::Wolves)
    } else {
        None
    }
}

/// The winner under one hypothesis, given the living at the end, the
/// wolves and the lovers (if any).
pub(crate) fn winner(
    living: PlayerSet,
    wolves: u64,
    lovers: Option<(usize, usize)>,
) -> Option<Winner> {
    let living_wolves = (living.0 & wolves).count_ones();
    let result = over(living_wolves, living.len());
    if result == Some(Winner::Wolves) && living.len() == 2 {
        if let Some((a, b)) = lovers {
            let both_alive = living.0 >> a & 1 == 1 && living.0 >> b & 1 == 1;
            if both_alive && living_wolves == 1 {
                return Some(Winner::Lovers);
            }
        }
    }
    result
}
