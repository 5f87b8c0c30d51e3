//! The end of the game: when it is over and who has won, under one
//! hypothesis (for the posterior) or by the public facts alone (to refuse
//! an event that comes after a public end).
//!
//! The rules seed ends the game when the wolves are all dead (the village
//! wins), when the wolves equal the village side in number (the wolves
//! win), or when a wolf-villager pair of lovers are the last two alive
//! (the lovers win). Such a pair is a third side: while both are alive
//! the wolf lover plays for the lovers, not for the pack, so the wolves'
//! parity counts the pack alone (the living wolves but him) against
//! everyone else alive, the lovers included; and the village still has
//! to kill him (the village wins only with no wolf alive). A pair of one
//! side plays for that side. The check runs after each step, once its
//! shot and lovers' deaths are in.

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
/// over, by cards alone, with no wolf-villager pair of lovers alive (the
/// caller, who knows the pair, decides that case).
pub(crate) const fn over(living_wolves: u32, living: u32) -> Option<Winner> {
    if living_wolves == 0 {
        Some(Winner::Village)
    } else if 2 * living_wolves >= living {
        Some(Winner::Wolves)
    } else {
        None
    }
}

/// Whether a game with a wolf-villager pair of lovers alive, `living_wolves`
/// wolves (the wolf lover among them) among `living` players, is over:
/// the lovers win as the last two, the pack (the wolves but the lover) at
/// parity with everyone else.
pub(crate) const fn over_with_mixed_lovers(living_wolves: u32, living: u32) -> Option<Winner> {
    let pack = living_wolves.saturating_sub(1);
    if living == 2 {
        Some(Winner::Lovers)
    } else if pack > 0 && 2 * pack >= living {
        Some(Winner::Wolves)
    } else {
        None
    }
}

/// Whether the wolves' win (or the lovers') is certain with at least
/// `least_wolves` wolves among `living` players, when a wolf-villager pair
/// of lovers may be alive (`mixed_lovers_possible`).
pub(crate) const fn surely_over(
    least_wolves: u32,
    living: u32,
    mixed_lovers_possible: bool,
) -> bool {
    if !mixed_lovers_possible {
        return least_wolves > 0 && 2 * least_wolves >= living;
    }
    (least_wolves > 0 && living <= 2) || (least_wolves > 1 && 2 * (least_wolves - 1) >= living)
}

/// The winner under one hypothesis, given the living at the end, the
/// wolves and the lovers (if any).
pub(crate) fn winner(
    living: PlayerSet,
    wolves: u64,
    lovers: Option<(usize, usize)>,
) -> Option<Winner> {
    let living_wolves = (living.0 & wolves).count_ones();
    if let Some((a, b)) = lovers {
        let both_alive = living.0 >> a & 1 == 1 && living.0 >> b & 1 == 1;
        let lover_wolves = (wolves >> a & 1) + (wolves >> b & 1);
        if both_alive && lover_wolves == 1 {
            return over_with_mixed_lovers(living_wolves, living.len());
        }
    }
    over(living_wolves, living.len())
}
