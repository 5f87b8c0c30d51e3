//! One game's rows of the strategy and posterior tables, alone: the rows
//! [`rows::tables`] writes for the game, built from its strategies without
//! the other games'. `gametab verify` rebuilds and compares the strategy
//! table game by game with these (a set's strategy table has tens of
//! millions of rows: one rebuilt copy of it, with every game's dense
//! strategies, would double the memory of the check), and assembles the
//! small posterior table from the games' [`GamePosteriors`].
//!
//! The rows are those of [`rows::tables`] to the bit: the same counting,
//! filling and posterior functions, on the same strategies.

use crate::error::Result;

use gametab_games::dice::endgame::{Endgame, Player, Strategy};
use gametab_lookup::io::TableData;

use super::rows::{
    self, posterior_rows, reaches_of, sparse_posterior_rows, GameKeys, PosteriorColumns,
    SparseGame, StrategyColumns, StrategyPart,
};

/// One game's posterior rows, to be put into a posterior table with the
/// other games' ([`posteriors_table`]).
#[derive(Debug)]
pub struct GamePosteriors {
    game: Endgame,
    rows: PosteriorColumns,
}

impl GamePosteriors {
    /// The game.
    pub fn game(&self) -> Endgame {
        self.game
    }
}

/// One game's rows: its stretch of the strategy table (player 1's rows,
/// then player 2's) and its posterior rows.
#[derive(Debug)]
pub struct GameRows {
    /// The game's strategy rows, a table of the strategy schema.
    pub strategy: TableData,
    /// The game's posterior rows.
    pub posteriors: GamePosteriors,
}

/// The rows of a game whose dense strategy fits ([`rows::fits`]), from its
/// strategy pair (player 1's first): every information set.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn dense(strategies: &[Strategy; 2]) -> Result<GameRows> {
    let game = strategies[0].game();
    let (own, weighted) = reaches_of(strategies);
    let parts = Player::BOTH.map(|p| StrategyPart::count_dense(strategies, p));
    let strategy = strategy_rows(game, &parts, |part, slices| {
        part.fill(strategies, &own, &weighted, slices)
    })?;
    Ok(GameRows {
        strategy,
        posteriors: GamePosteriors {
            game,
            rows: posterior_rows(strategies, &weighted),
        },
    })
}

/// The rows of a game stored by its support ([`SparseGame`]): its entries.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn sparse(sparse: &SparseGame) -> Result<GameRows> {
    let game = sparse.game();
    let parts = Player::BOTH.map(|p| StrategyPart::count_sparse(sparse, p));
    let strategy = strategy_rows(game, &parts, |part, slices| {
        part.fill_sparse(sparse, slices)
    })?;
    Ok(GameRows {
        strategy,
        posteriors: GamePosteriors {
            game,
            rows: sparse_posterior_rows(sparse),
        },
    })
}

/// The strategy rows of `game`'s two `parts`, each filled by `fill` (the
/// rules column coded here).
fn strategy_rows(
    game: Endgame,
    parts: &[StrategyPart; 2],
    fill: impl Fn(&StrategyPart, rows::StrategySlices<'_>),
) -> Result<TableData> {
    let mut columns = StrategyColumns::zeroed(parts.iter().map(|p| p.rows).sum());
    let mut rest = columns.slices();
    for part in parts {
        let (head, tail) = rest.split_at(part.rows);
        head.rules.fill(0);
        fill(part, head);
        rest = tail;
    }
    columns.into_table(&[game.rules_name()])
}

/// The posterior table of `games`' posterior rows, in key order
/// ([`rows::key_order`]; games of the same key keep their order in
/// `games`), as [`rows::tables`] writes it.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn posteriors_table<'a>(
    games: impl IntoIterator<Item = &'a GamePosteriors>,
) -> Result<TableData> {
    let mut games: Vec<&GamePosteriors> = games.into_iter().collect();
    games.sort_by_key(|g| rows::key_order(g.game));
    let mut keys = GameKeys::new();
    let mut all = PosteriorColumns::default();
    for g in games {
        keys.push(g.game, g.rows.rows());
        all.extend_from(&g.rows);
    }
    all.into_table(keys)
}
