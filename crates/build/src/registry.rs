//! The build side of the one list of games: for every game of the lookup
//! crate's registry ([`gametab_lookup::registry::GAMES`], same order), what the
//! pipeline runs to write its tables, what `gametab verify` runs to check
//! them, which charts the build draws from them, and which subcommands the
//! command line gains. The pipeline, `verify`, the plots and `main` iterate
//! [`BUILDS`] and list no game themselves.
//!
//! Adding a game: its folders (`crates/games/src/<game>`, `crates/lookup/src/<game>`,
//! `src/<game>`), one entry in [`gametab_lookup::registry::GAMES`] and one in
//! [`BUILDS`]; a test checks the two lists agree.

use gametab_lookup::GameId;

pub use crate::game::{GameBuild, GameCommand, Plot};
use crate::verify::GameVerifier;

/// Every game, in the order of [`gametab_lookup::registry::GAMES`].
pub const BUILDS: [GameBuild; 4] = [
    crate::murder_plan::GAME,
    crate::cluedo::GAME,
    crate::werewolf::GAME,
    crate::dice::GAME,
];

/// The build entry of `id`.
pub fn build_of(id: GameId) -> &'static GameBuild {
    &BUILDS[id as usize]
}

/// Every game's charts, in the order the build writes them (registry
/// order, each game's in its own order): what [`crate::plots::write_plots`]
/// draws.
pub fn plots() -> Vec<&'static Plot> {
    BUILDS.iter().flat_map(|game| game.plots).collect()
}

/// Every game's `gametab verify` check, in registry order: what
/// [`crate::verify::verify`] runs after the file-level checks.
pub fn verifiers() -> Vec<GameVerifier> {
    BUILDS.iter().map(|game| game.verify).collect()
}

/// The game subcommand called `name`, if any.
pub fn command_named(name: &str) -> Option<&'static GameCommand> {
    BUILDS
        .iter()
        .flat_map(|game| game.commands)
        .find(|command| command.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_registry_follows_the_lookup_registry() {
        assert_eq!(BUILDS.len(), gametab_lookup::registry::GAMES.len());
        for (build, tables) in BUILDS.iter().zip(&gametab_lookup::registry::GAMES) {
            assert_eq!(build.id, tables.id, "{}", tables.name);
            assert_eq!(build_of(build.id).id, build.id);
        }
    }

    #[test]
    fn command_and_plot_names_are_unique() {
        let mut names: Vec<&str> = BUILDS
            .iter()
            .flat_map(|g| g.commands)
            .map(|c| c.name)
            .collect();
        let mut plots: Vec<&str> = BUILDS
            .iter()
            .flat_map(|g| g.plots)
            .map(|p| p.file)
            .collect();
        let (n, p) = (names.len(), plots.len());
        names.sort_unstable();
        names.dedup();
        plots.sort_unstable();
        plots.dedup();
        assert_eq!((names.len(), plots.len()), (n, p));
        for command in BUILDS.iter().flat_map(|g| g.commands) {
            assert_eq!((command.command)().get_name(), command.name);
        }
    }
}
