//! What the two endgame reports (`endgame_frontier`, `endgame_methods`)
//! share: the `a,b,sides,rules` text that names a game on their command
//! lines and between their parent and child processes, and the process's
//! peak memory that each child reports. Included by both with `#[path]`
//! (each bench is a crate of its own).

use gametab_games::dice::endgame::{Endgame, Player};

/// The process's peak resident memory so far, in MiB.
pub fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The game named `a,b,sides,rules` (`2,2,6,normal`), if the rules allow
/// it.
pub fn parse_game(text: &str) -> Option<Endgame> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [a, b, s, rules] = parts[..] else {
        return None;
    };
    Endgame::new(
        a.parse().ok()?,
        b.parse().ok()?,
        s.parse().ok()?,
        rules == "wild",
    )
    .ok()
}

/// `game` as [`parse_game`] reads it.
pub fn game_text(game: Endgame) -> String {
    format!(
        "{},{},{},{}",
        game.dice(Player::One),
        game.dice(Player::Two),
        game.sides(),
        game.rules_name()
    )
}
