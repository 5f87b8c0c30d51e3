//! The shape of a game on the build side ([`GameBuild`]): what the
//! pipeline runs to write its tables, what `gametab verify` runs to check
//! them, the charts the build draws from them and the subcommands it adds
//! to `gametab`. Each game's module defines one `GAME` of this shape; the
//! registry ([`crate::registry`]) lists them. This module knows no game,
//! so a game's module can use it without depending on the list.

use crate::error::Result;
use std::io::Write;

use clap::{ArgMatches, Args, FromArgMatches, Subcommand};
use gametab_lookup::registry::GameTables;
use gametab_lookup::GameId;

use crate::options::BuildOptions;
use crate::output::TableWriter;
pub use crate::plots::Plot;
pub use crate::verify::GameVerifier;

/// A game's table builder: writes its tables and returns summary lines.
pub type GameBuilder = fn(&BuildOptions, &mut TableWriter) -> Result<Vec<String>>;

/// A subcommand of `gametab` that belongs to a game.
#[derive(Debug, Clone, Copy)]
pub struct GameCommand {
    /// The subcommand's name (`murder-plan`, `dice`, ...).
    pub name: &'static str,
    /// Its clap definition (arguments, help).
    pub command: fn() -> clap::Command,
    /// Parses its matches and runs it, its answer written to the handle
    /// (standard output, buffered, in `gametab`).
    pub run: fn(&ArgMatches, &mut dyn Write) -> Result<()>,
}

/// Everything the build and the command line know of one game.
#[derive(Debug, Clone, Copy)]
pub struct GameBuild {
    /// The game (its name and tables in the lookup crate's registry).
    pub id: GameId,
    /// Writes the game's tables.
    pub build: GameBuilder,
    /// Checks the game's tables in `gametab verify`.
    pub verify: GameVerifier,
    /// The charts drawn from its tables, in the order they are written.
    pub plots: &'static [Plot],
    /// Its subcommands of `gametab`.
    pub commands: &'static [GameCommand],
}

impl GameBuild {
    /// The game's entry in the lookup crate's registry.
    pub fn tables(&self) -> &'static GameTables {
        self.id.tables()
    }

    /// The game's name in summaries and reports.
    pub fn name(&self) -> &'static str {
        self.tables().name
    }
}

/// A clap subcommand made of the derived arguments `A`, named `name`.
/// `about` is the one-line summary `gametab --help` lists (set after the
/// derived arguments, whose struct's own doc would otherwise take its
/// place) and `examples` the lines `--help` ends with.
pub fn command_of<A: Args>(
    name: &'static str,
    about: &'static str,
    examples: &'static str,
) -> clap::Command {
    A::augment_args(clap::Command::new(name))
        .about(about)
        .after_help(examples)
}

/// A clap subcommand made of the derived subcommand enum `S`.
pub fn command_group_of<S: Subcommand>(
    name: &'static str,
    about: &'static str,
    examples: &'static str,
) -> clap::Command {
    S::augment_subcommands(
        clap::Command::new(name)
            .subcommand_required(true)
            .arg_required_else_help(true),
    )
    .about(about)
    .after_help(examples)
}

/// Parse the derived arguments `T` (an [`Args`] or a [`Subcommand`]) from
/// a game command's matches.
pub fn parse<T: FromArgMatches>(matches: &ArgMatches) -> Result<T> {
    Ok(T::from_arg_matches(matches)?)
}
