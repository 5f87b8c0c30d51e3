//! Loading the Liar's Dice endgame tables ([`EndgameTables`]): the values
//! table decoded whole, the strategy table's row groups indexed by (game,
//! player) and checked against the values before any strategy row is
//! decoded, every bound a forged file could abuse ([`MAX_STRATEGY_ROWS`])
//! enforced from the footer. The games it holds answer as
//! [`StoredEndgame`].

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;

use super::endgame::{StoredEndgame, MAX_STRATEGY_ROWS};
use super::endgame_groups::StrategyFile;
use super::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
use crate::error::{Error, Result};
use crate::io::read_parquet;
use gametab_games::dice::endgame::{Endgame, Player};

/// Every stored endgame, by game.
#[derive(Debug, Clone, Default)]
pub struct EndgameTables {
    games: BTreeMap<Endgame, StoredEndgame>,
}

fn bad_row(table: &str, row: usize, detail: impl std::fmt::Display) -> Error {
    Error::BadRow {
        table: table.to_owned(),
        row,
        detail: detail.to_string(),
    }
}

impl EndgameTables {
    /// Decode the values table and index the strategy table's row groups
    /// (its rows are decoded when a question needs them).
    ///
    /// # Errors
    /// As [`read_parquet`] for either file; [`Error::BadRow`] for a game the
    /// rules refuse, a game listed twice, strategy rows of a game without a
    /// value row, a game without strategy rows or with more than
    /// [`MAX_STRATEGY_ROWS`] for a player, or row groups that do not hold
    /// one game and player each in key order.
    pub fn from_bytes(
        values: impl Into<Bytes>,
        strategy: impl Into<Bytes>,
    ) -> Result<EndgameTables> {
        Self::from_bytes_with_limit(values, strategy, MAX_STRATEGY_ROWS)
    }

    /// [`EndgameTables::from_bytes`] refusing a game with more than
    /// `max_rows` strategy rows for a player (at most
    /// [`MAX_STRATEGY_ROWS`] whatever is asked): a reader that wants a
    /// tighter bound on what one game may make it decode.
    ///
    /// # Errors
    /// As [`EndgameTables::from_bytes`].
    pub fn from_bytes_with_limit(
        values: impl Into<Bytes>,
        strategy: impl Into<Bytes>,
        max_rows: usize,
    ) -> Result<EndgameTables> {
        let max_rows = max_rows.min(MAX_STRATEGY_ROWS);
        let values = read_parquet(values.into(), &ENDGAME_VALUES)?;
        let file = Arc::new(StrategyFile::open(strategy.into())?);
        let table = ENDGAME_VALUES.name;
        let mut games = BTreeMap::new();
        for row in 0..values.rows() {
            let int = |name: &str| -> Result<u8> {
                let v = values.i32s(name)?[row];
                u8::try_from(v).map_err(|_| bad_row(table, row, format!("{name} = {v}")))
            };
            let wild = match &values.strings("rules")?[row] {
                "normal" => false,
                "wild" => true,
                other => return Err(bad_row(table, row, format!("rules '{other}'"))),
            };
            let game = Endgame::new(int("dice_one")?, int("dice_two")?, int("sides")?, wild)
                .map_err(|e| bad_row(table, row, e))?;
            for p in Player::BOTH {
                let rows: usize = file.segments_of(game, p).map(|k| k.rows.len()).sum();
                if rows > max_rows {
                    return Err(bad_row(
                        table,
                        row,
                        format!(
                            "{game}: player {} has {rows} strategy rows in {}, more than the {max_rows} a stored game may have; the file is damaged or forged: rebuild the tables",
                            p.number(),
                            ENDGAME_STRATEGY.name
                        ),
                    ));
                }
            }
            if Player::BOTH
                .iter()
                .any(|&p| file.segments_of(game, p).next().is_none())
            {
                return Err(bad_row(
                    table,
                    row,
                    format!("{game} has no rows in {}", ENDGAME_STRATEGY.name),
                ));
            }
            let f = |name: &str| -> Result<f64> { Ok(values.f64s(name)?[row]) };
            let i = |name: &str| -> Result<i64> { Ok(values.i64s(name)?[row]) };
            let stored = StoredEndgame {
                game,
                value: f("value")?,
                value_exact: values.strings("value_exact")?[row].to_owned(),
                exploitability: f("exploitability")?,
                best_responses: [f("best_response_one")?, f("best_response_two")?],
                method: values.strings("method")?[row].to_owned(),
                lp_solves: values.i32s("lp_solves")?[row],
                lp_size: [i("lp_rows")?, i("lp_columns")?, i("lp_nonzeros")?],
                full_lp_size: [
                    i("full_lp_rows")?,
                    i("full_lp_columns")?,
                    i("full_lp_nonzeros")?,
                ],
                file: Arc::clone(&file),
            };
            if games.insert(game, stored).is_some() {
                return Err(bad_row(table, row, format!("{game} listed twice")));
            }
        }
        if let Some(game) = file.games().find(|g| !games.contains_key(g)) {
            return Err(bad_row(
                ENDGAME_STRATEGY.name,
                0,
                format!("{game} has no row in {}", ENDGAME_VALUES.name),
            ));
        }
        Ok(EndgameTables { games })
    }

    /// Decode and check every row of the strategy table, as
    /// [`StoredEndgame::strategies`] does for each game that fits a dense
    /// strategy and [`StoredEndgame::rows`] for the others: a set that passes
    /// answers every question without a row error. (Questions themselves
    /// decode only the row groups they need.)
    ///
    /// # Errors
    /// As [`StoredEndgame::strategies`] and [`StoredEndgame::rows`].
    ///
    /// The games are checked on as many threads as the machine has cores
    /// (each decodes its own row groups); the error reported is that of the
    /// first failing game in key order, whatever the threads did.
    pub fn check_every_row(&self) -> Result<()> {
        let games: Vec<&StoredEndgame> = self.games.values().collect();
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(games.len())
            .max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut results: Vec<(usize, Result<()>)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut checked = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(stored) = games.get(i) else {
                                return checked;
                            };
                            checked.push((i, stored.check_rows()));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| {
                    w.join().unwrap_or_else(|_| {
                        vec![(
                            0,
                            Err(Error::Inconsistent("a strategy check panicked".to_string())),
                        )]
                    })
                })
                .collect()
        });
        results.sort_by_key(|(i, _)| *i);
        results.into_iter().try_for_each(|(_, r)| r)
    }

    /// The stored game `game`.
    ///
    /// # Errors
    /// [`Error::NotInTable`] when the tables do not hold it.
    pub fn game(&self, game: Endgame) -> Result<&StoredEndgame> {
        self.games.get(&game).ok_or_else(|| Error::NotInTable {
            table: ENDGAME_VALUES.name,
            key: game.to_string(),
        })
    }

    /// Every stored game, in key order.
    pub fn games(&self) -> impl Iterator<Item = &StoredEndgame> {
        self.games.values()
    }

    /// Number of stored games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is stored.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}
