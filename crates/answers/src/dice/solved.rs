//! Which two-player Liar's Dice endgames a table build solves: the default
//! build's games and those `gametab build --endgame-frontier` adds. The
//! build iterates these lists; a query for a game a table set lacks names
//! the build that would hold it ([`where_solved`]). The one thing a query
//! takes from the solving side, kept here so that answering never links
//! the solver.

use gametab_games::dice::endgame::Endgame;

/// The games of the default build: every game of three dice or fewer, 1v1,
/// 2v1 and 1v2 with 1 to 6 sides under normal rules and 2 to 6 with wild
/// ones (33 games; the published table's 29 and the four six-sided
/// three-dice games it left blank or never had).
pub fn default_games() -> Vec<Endgame> {
    let mut games = Vec::new();
    for (a, b) in [(1, 1), (2, 1), (1, 2)] {
        for sides in 1..=6 {
            games.extend(Endgame::new(a, b, sides, false));
        }
        for sides in 2..=6 {
            games.extend(Endgame::new(a, b, sides, true));
        }
    }
    games
}

/// The games `--endgame-frontier` adds: every four-dice game (two dice
/// each, three against one and one against three, with 2 to 6 sides,
/// normal and wild), then the five-dice normal games of two dice against
/// three and three against two with 2 to [`FIVE_DICE_MAX_SIDES`] sides
/// (36 games). Those whose dense strategy fits ([`fits`]) are stored with
/// every information set, the others (the five- and six-sided four-dice
/// games but 2v2 with five sides, the four-sided five-dice games) by
/// their support, every other information set playing the
/// default action (`docs/tables.md`).
pub fn frontier_games() -> Vec<Endgame> {
    let mut games = Vec::new();
    for (a, b) in [(2, 2), (3, 1), (1, 3)] {
        for sides in 2..=6 {
            games.extend(Endgame::new(a, b, sides, false));
            games.extend(Endgame::new(a, b, sides, true));
        }
    }
    for (a, b) in [(2, 3), (3, 2)] {
        for sides in 2..=FIVE_DICE_MAX_SIDES {
            games.extend(Endgame::new(a, b, sides, false));
        }
    }
    games
}

/// The most sides of the five-dice games `--endgame-frontier` lists (two
/// dice against three and three against two, normal rules), each solved
/// within two minutes on one core of a loaded 2-core machine (the
/// four-sided ones, the largest, from scratch: 2v3 107 s, 3v2 63 s).
/// Five sides would be 25 bids, more than a history holds
/// ([`gametab_games::dice::endgame::MAX_BIDS`]).
pub const FIVE_DICE_MAX_SIDES: u8 = 4;

pub use gametab_lookup::dice::fits;

/// Why a table set may lack `game`, for an error message: the default
/// build solves it, `--endgame-frontier` does (a game its budget cut off
/// is resumed by the next build), or no build lists it.
pub fn where_solved(game: Endgame) -> &'static str {
    if default_games().contains(&game) {
        "the default build solves it; rebuild the tables"
    } else if frontier_games().contains(&game) {
        "`gametab build --endgame-frontier` solves it (`gametab dice endgame solve` solves it into the cache first, a budget at a time)"
    } else {
        "no table holds it: no build lists it (`gametab dice endgame solve` solves and certifies it into the cache)"
    }
}
