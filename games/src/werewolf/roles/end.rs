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
use super::game::RoleGame;
use super::setup::Role;

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

/// Why no event can follow now, when the hard facts alone say the game is
/// over: every wolf is known dead, or the wolves known alive (or that must
/// be alive, since too few of the dead can be wolves) reach parity.
pub(crate) fn public_end(game: &RoleGame) -> Option<String> {
    let setup = game.setup();
    let living = game.living();
    let (mut known_dead, mut maybe_dead, mut known_alive, mut maybe_alive) = (0, 0, 0, 0);
    for player in setup.sides().all_players() {
        let roles = game.allowed()[player.index()];
        let known = roles == super::setup::RoleSet::only(Role::Wolf);
        let maybe = roles.contains(Role::Wolf);
        match (living.contains(player), known, maybe) {
            (true, true, _) => known_alive += 1,
            (true, false, true) => maybe_alive += 1,
            (false, true, _) => known_dead += 1,
            (false, false, true) => maybe_dead += 1,
            _ => {}
        }
    }
    let wolves = setup.wolves();
    let most_alive = (wolves - known_dead.min(wolves)).min(known_alive + maybe_alive);
    let least_alive = known_alive.max(wolves.saturating_sub(known_dead + maybe_dead));
    let when = match game.last_step_event() {
        Some(index) => format!("after event {}", index + 1),
        None => "before the first event".to_string(),
    };
    if most_alive == 0 {
        return Some(format!(
            "the game is over {when}: every wolf is dead, the village has won; no event follows"
        ));
    }
    if over(least_alive, living.len()) == Some(Winner::Wolves) {
        return Some(format!(
            "the game is over {when}: at least {least_alive} wolves alive among {} players, \
             the wolves (or a wolf-villager pair of lovers) have won; no event follows",
            living.len()
        ));
    }
    None
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
