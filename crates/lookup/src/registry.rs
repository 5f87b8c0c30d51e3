//! The one list of games in a table set. Every place that goes over "all
//! games" (loading a whole set in [`Tables`](crate::Tables), the pipeline,
//! `gametab verify`, the manifest's completeness check, the plots, the
//! documentation test) iterates [`GAMES`]; the build crate's registry (`gametab_build::registry`)
//! is keyed by the same [`GameId`]s in the same order.
//!
//! Adding a game: its folder (model in `gametab-games`, schemas and loader
//! here, builder in `gametab-build`), one line in [`GAMES`], one [`GameId`]
//! variant (the compiler then points at every `match` that must learn it).

use crate::schema::TableSchema;

/// A game of the table set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Murder Plan (Tragedy Looper).
    MurderPlan,
    /// Cluedo.
    Cluedo,
    /// Werewolf.
    Werewolf,
    /// Liar's Dice.
    LiarsDice,
}

/// A file of a table set that is not a Parquet table but derived from a
/// game's tables for another kind of reader (the Murder Plan browser
/// bundle). A build writes it, the manifest lists it (its `table` is
/// [`DerivedFile::name`], its `schema_version` [`DerivedFile::version`],
/// its `rows` what the file counts) with its digest, and `gametab verify`
/// checks it against the tables it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DerivedFile {
    /// Its name in the manifest and in reports.
    pub name: &'static str,
    /// File name inside a table directory.
    pub file: &'static str,
    /// Version of its format.
    pub version: u32,
}

/// What the lookup crate knows of a game: its name and its tables.
#[derive(Debug, Clone, Copy)]
pub struct GameTables {
    /// Which game.
    pub id: GameId,
    /// Its name in build summaries and reports (`murder plan`, ...).
    pub name: &'static str,
    /// Every table a build writes for it, in build order.
    pub schemas: &'static [TableSchema],
    /// The files a build derives from those tables, in build order.
    pub derived: &'static [DerivedFile],
}

/// The Murder Plan browser bundle ([`crate::murder_plan::bundle`]).
pub const MURDER_PLAN_BUNDLE: DerivedFile = DerivedFile {
    name: crate::murder_plan::bundle::NAME,
    file: crate::murder_plan::bundle::FILE,
    version: crate::murder_plan::bundle::VERSION,
};

/// Every game, in build order (the order of the build summary and of
/// `gametab verify`).
pub const GAMES: [GameTables; 4] = [
    GameTables {
        id: GameId::MurderPlan,
        name: "murder plan",
        schemas: &crate::murder_plan::schema::ALL,
        derived: &[MURDER_PLAN_BUNDLE],
    },
    GameTables {
        id: GameId::Cluedo,
        name: "cluedo",
        schemas: &[crate::cluedo::schema::FEW_CANDIDATES],
        derived: &[],
    },
    GameTables {
        id: GameId::Werewolf,
        name: "werewolf",
        schemas: &[crate::werewolf::schema::WEREWOLF_EARLY],
        derived: &[],
    },
    GameTables {
        id: GameId::LiarsDice,
        name: "liars dice",
        schemas: &crate::dice::schema::EVERY,
        derived: &[],
    },
];

impl GameId {
    /// The registry entry of this game (the variants are declared in the
    /// order of [`GAMES`], which a test checks).
    pub fn tables(self) -> &'static GameTables {
        &GAMES[self as usize]
    }
}

/// Every table of every game, in build order.
pub fn all_schemas() -> impl Iterator<Item = &'static TableSchema> {
    GAMES.iter().flat_map(|game| game.schemas.iter())
}

/// Every derived file of every game, in build order.
pub fn all_derived() -> impl Iterator<Item = &'static DerivedFile> {
    GAMES.iter().flat_map(|game| game.derived.iter())
}

/// The file name of every table and derived file of every game: what a
/// complete set's manifest lists.
pub fn all_files() -> impl Iterator<Item = &'static str> {
    all_schemas()
        .map(|s| s.file)
        .chain(all_derived().map(|d| d.file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_listed_once_and_finds_itself() {
        for (i, game) in GAMES.iter().enumerate() {
            assert_eq!(
                game.id as usize, i,
                "{} is declared in registry order",
                game.name
            );
            assert_eq!(game.id.tables().id, game.id);
            assert!(!game.schemas.is_empty(), "{} has tables", game.name);
        }
        let mut ids: Vec<GameId> = GAMES.iter().map(|g| g.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), GAMES.len());
    }

    #[test]
    fn table_names_and_files_are_unique_across_games() {
        let mut files: Vec<&str> = all_files().collect();
        let mut names: Vec<&str> = all_schemas()
            .map(|s| s.name)
            .chain(all_derived().map(|d| d.name))
            .collect();
        let count = files.len();
        files.sort_unstable();
        files.dedup();
        names.sort_unstable();
        names.dedup();
        assert_eq!((files.len(), names.len()), (count, count));
    }
}
