//! The table set (`NativeTables`): every query the tables answer, each game
//! loaded on first use; and one endgame's points (`NativeEndgame`).

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyString;

use gametab_lookup::dice::StoredEndgame;

use crate::adapter::dice::{self as dice, BidInput};
use crate::adapter::error::{chain, classify, python_parameter, Error, Kind};
use crate::adapter::murder_plan as mp;

use super::args::{
    bool_arg, f64_arg, offset_arg, state_arg, str_arg, text_or_ints, u32_arg, u8_arg,
};
use super::arrow_table::ArrowTable;
use super::convert::{answer, to_py};
use super::errors::{exception, query_error, raise, tables_error};

/// An open table set (`gametab.open_tables`): the manifest read, every
/// game loaded on first use with its digests checked.
#[pyclass(frozen, module = "gametab._gametab")]
pub(super) struct NativeTables {
    pub(super) tables: Arc<gametab_lookup::Tables>,
    pub(super) dir: PathBuf,
}

impl NativeTables {
    fn murder_plan(
        &self,
        py: Python<'_>,
    ) -> PyResult<&gametab_lookup::murder_plan::MurderPlanTables> {
        self.tables
            .murder_plan()
            .map_err(|e| tables_error(py, &Error::from(e)))
    }

    fn dice(&self, py: Python<'_>) -> PyResult<&gametab_lookup::dice::DiceTables> {
        self.tables
            .dice()
            .map_err(|e| tables_error(py, &Error::from(e)))
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn bid_input(
    py: Python<'_>,
    players: &Bound<'_, PyAny>,
    bid: &Bound<'_, PyAny>,
    hand: &Bound<'_, PyAny>,
    reliability: &Bound<'_, PyAny>,
    wild: &Bound<'_, PyAny>,
    total_dice: &Bound<'_, PyAny>,
    bidder_dice: &Bound<'_, PyAny>,
) -> PyResult<BidInput> {
    Ok(BidInput {
        players: u32_arg(py, players, "players")?,
        bid: if bid.is_instance_of::<PyString>() {
            str_arg(py, bid, "bid")?
        } else {
            text_or_ints(py, bid, "bid", "x", "'COUNTxFACE' or (count, face)")?
        },
        hand: text_or_ints(
            py,
            hand,
            "hand",
            ",",
            "faces like '1,5,5,2,3' or [1, 5, 5, 2, 3]",
        )?,
        reliability: f64_arg(py, reliability, "reliability")?,
        wild: bool_arg(py, wild, "wild")?,
        total_dice: if total_dice.is_none() {
            None
        } else {
            Some(u32_arg(py, total_dice, "total_dice")?)
        },
        bidder_dice: u32_arg(py, bidder_dice, "bidder_dice")?,
    })
}

#[pymethods]
impl NativeTables {
    /// The directory of the set.
    #[getter]
    fn path(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The manifest as a dict.
    fn manifest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        answer(
            py,
            serde_json::to_value(self.tables.manifest()).map_err(Into::into),
        )
    }

    /// Load one game now (`murder_plan`, `dice`, `dice_endgame`, `cluedo`,
    /// `werewolf`), checking its digests.
    fn load(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<()> {
        let game = str_arg(py, game, "game")?;
        let tables = &self.tables;
        let loaded = py.detach(|| match game.as_str() {
            "murder_plan" => Some(tables.murder_plan().map(|_| ())),
            "dice" => Some(tables.dice().map(|_| ())),
            "dice_endgame" => Some(tables.dice_endgame().map(|_| ())),
            "cluedo" => Some(tables.cluedo().map(|_| ())),
            "werewolf" => Some(tables.werewolf().map(|_| ())),
            _ => None,
        });
        match loaded {
            None => Err(exception(
                py,
                Kind::Query,
                Some("game"),
                &format!(
                    "game: {game:?} is none of murder_plan, dice, dice_endgame, cluedo, werewolf"
                ),
            )),
            Some(result) => result.map_err(|e| tables_error(py, &Error::from(e))),
        }
    }

    /// A Murder Plan state query: `value`, `state`, `strategy`, `moves`,
    /// `sample`, `brain`.
    #[pyo3(signature = (query, days, brain, killer, killer_intrigue, key_person_intrigue, diagonal_left, intrigue2_left, forbid_movement_left, side=None, u=None))]
    #[allow(clippy::too_many_arguments)]
    fn murder_plan_query<'py>(
        &self,
        py: Python<'py>,
        query: &str,
        days: &Bound<'py, PyAny>,
        brain: &Bound<'py, PyAny>,
        killer: &Bound<'py, PyAny>,
        killer_intrigue: &Bound<'py, PyAny>,
        key_person_intrigue: &Bound<'py, PyAny>,
        diagonal_left: &Bound<'py, PyAny>,
        intrigue2_left: &Bound<'py, PyAny>,
        forbid_movement_left: &Bound<'py, PyAny>,
        side: Option<&Bound<'py, PyAny>>,
        u: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let days = u8_arg(py, days, "days")?;
        let state = state_arg(
            py,
            brain,
            killer,
            killer_intrigue,
            key_person_intrigue,
            diagonal_left,
            intrigue2_left,
            forbid_movement_left,
        )?;
        let side = match side {
            Some(side) => {
                let name = str_arg(py, side, "side")?;
                Some(mp::side(&name).map_err(|e| query_error(py, &e))?)
            }
            None => None,
        };
        let tables = self.murder_plan(py)?;
        let need_side =
            || side.ok_or_else(|| exception(py, Kind::Query, Some("side"), "side: missing"));
        let result = match query {
            "value" => mp::value(tables, days, &state),
            "state" => mp::state(tables, days, &state),
            "strategy" => mp::strategy(tables, need_side()?, days, &state),
            "moves" => mp::moves(tables, need_side()?, days, &state),
            "brain" => mp::brain(tables, days, &state),
            "sample" => {
                let u = match u {
                    Some(u) => f64_arg(py, u, "u")?,
                    None => return Err(exception(py, Kind::Query, Some("u"), "u: missing")),
                };
                mp::sample(tables, need_side()?, days, u, &state)
            }
            other => {
                return Err(exception(
                    py,
                    Kind::Query,
                    Some("query"),
                    &format!("no Murder Plan query {other:?}"),
                ))
            }
        };
        answer(py, result)
    }

    /// `lookup win-rate`.
    #[pyo3(signature = (horizon, brain=None, killer=None))]
    fn murder_plan_win_rate<'py>(
        &self,
        py: Python<'py>,
        horizon: &Bound<'py, PyAny>,
        brain: Option<&Bound<'py, PyAny>>,
        killer: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let horizon = u8_arg(py, horizon, "horizon")?;
        let brain = brain.filter(|b| !b.is_none());
        let killer = killer.filter(|k| !k.is_none());
        let start = match (brain, killer) {
            (None, None) => None,
            (Some(b), Some(k)) => Some((offset_arg(py, b, "brain")?, offset_arg(py, k, "killer")?)),
            (Some(_), None) => {
                return Err(exception(
                    py,
                    Kind::Query,
                    Some("killer"),
                    "killer: give both brain and killer, or neither (the average)",
                ))
            }
            (None, Some(_)) => {
                return Err(exception(
                    py,
                    Kind::Query,
                    Some("brain"),
                    "brain: give both brain and killer, or neither (the average)",
                ))
            }
        };
        let tables = self.murder_plan(py)?;
        match mp::win_rate(tables, horizon, start) {
            Ok(value) => to_py(py, &value),
            Err(error) => Err(raise(
                py,
                classify(&error, false, |what| match what {
                    gametab_games::Argument::DaysLeft => "horizon",
                    other => python_parameter(other),
                }),
            )),
        }
    }

    /// `lookup win-rates`.
    fn murder_plan_win_rates<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let tables = self.murder_plan(py)?;
        answer(py, mp::win_rates(tables))
    }

    /// A Liar's Dice table query: `probability`, `posterior`, `decision`.
    #[pyo3(signature = (query, players, bid, hand, reliability, wild, total_dice, bidder_dice))]
    #[allow(clippy::too_many_arguments)]
    fn dice_query<'py>(
        &self,
        py: Python<'py>,
        query: &str,
        players: &Bound<'py, PyAny>,
        bid: &Bound<'py, PyAny>,
        hand: &Bound<'py, PyAny>,
        reliability: &Bound<'py, PyAny>,
        wild: &Bound<'py, PyAny>,
        total_dice: &Bound<'py, PyAny>,
        bidder_dice: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = bid_input(
            py,
            players,
            bid,
            hand,
            reliability,
            wild,
            total_dice,
            bidder_dice,
        )?;
        let tables = self.dice(py)?;
        let result = match query {
            "probability" => dice::probability(tables, &input),
            "posterior" => dice::posterior(tables, &input),
            "decision" => dice::decision(tables, &input),
            other => {
                return Err(exception(
                    py,
                    Kind::Query,
                    Some("query"),
                    &format!("no Liar's Dice query {other:?}"),
                ))
            }
        };
        answer(py, result)
    }

    /// The stored endgame of `dice` (two counts), `sides`, `wild`.
    fn endgame(
        &self,
        py: Python<'_>,
        dice: &Bound<'_, PyAny>,
        sides: &Bound<'_, PyAny>,
        wild: &Bound<'_, PyAny>,
    ) -> PyResult<NativeEndgame> {
        let text = text_or_ints(py, dice, "dice", ",", "two counts like (2, 1) or '2,1'")?;
        let counts = gametab_answers::dice::endgame::parse_dice(&text)
            .map_err(|e| exception(py, Kind::Query, Some("dice"), &chain(&e)))?;
        let sides = u8_arg(py, sides, "sides")?;
        let wild = bool_arg(py, wild, "wild")?;
        let game = dice::endgame_game(counts, sides, wild).map_err(|e| query_error(py, &e))?;
        let tables = Arc::clone(&self.tables);
        // Loading the endgame tables (digests, decoding) without the GIL.
        let endgames = py
            .detach(|| tables.dice_endgame().map(|_| ()))
            .and_then(|()| self.tables.dice_endgame())
            .map_err(|e| tables_error(py, &Error::from(e)))?;
        if endgames.game(game).is_err() {
            return Err(exception(
                py,
                Kind::MissingKey,
                None,
                &dice::missing_game(game),
            ));
        }
        Ok(NativeEndgame {
            tables,
            game,
            cache: std::sync::Mutex::default(),
        })
    }

    /// A whole table as an Arrow stream holder.
    fn table(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<ArrowTable> {
        let name = str_arg(py, name, "name")?;
        let Some(schema) = crate::arrow::schema_of(&name) else {
            return Err(exception(
                py,
                Kind::MissingKey,
                Some("name"),
                &format!(
                    "no table {name:?} (tables: {})",
                    crate::arrow::table_names().join(", ")
                ),
            ));
        };
        let tables = &self.tables;
        let dir = &self.dir;
        let batch = py
            .detach(|| crate::arrow::batch(tables, dir, schema))
            .map_err(|e| tables_error(py, &e))?;
        Ok(ArrowTable {
            name: schema.name,
            batch,
        })
    }
}

/// The answers an endgame has given, by (history, hand) as given.
type EndgameAnswers =
    std::sync::Mutex<std::collections::HashMap<(String, Option<String>), Py<PyAny>>>;

/// Most answers an endgame keeps (each a few kilobytes).
pub(super) const ENDGAME_CACHE: usize = 4096;

/// One stored endgame (`Dice.endgame`). The lookup crate decodes the
/// strategy rows of a point from the Parquet file on every query (a few
/// milliseconds), so the answers already given are kept, up to
/// [`ENDGAME_CACHE`], keyed by the arguments as given: a bot that meets a
/// point again gets it in microseconds. The cached documents are never
/// handed out mutable (the Python wrapper copies lists and `to_dict()`).
#[pyclass(frozen, module = "gametab._gametab")]
pub(super) struct NativeEndgame {
    tables: Arc<gametab_lookup::Tables>,
    game: gametab_games::dice::endgame::Endgame,
    cache: EndgameAnswers,
}

impl NativeEndgame {
    fn stored(&self) -> Option<&StoredEndgame> {
        self.tables.dice_endgame().ok()?.game(self.game).ok()
    }
}

#[pymethods]
impl NativeEndgame {
    /// The game's name (`2v1 6-sided normal`).
    #[getter]
    fn name(&self) -> String {
        self.game.to_string()
    }

    /// `dice endgame --json` after `history`, `hand` to move.
    #[pyo3(signature = (history, hand=None))]
    fn at<'py>(
        &self,
        py: Python<'py>,
        history: &Bound<'py, PyAny>,
        hand: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let history = str_arg(py, history, "history")?;
        let hand = match hand.filter(|h| !h.is_none()) {
            None => None,
            Some(hand) => Some(text_or_ints(
                py,
                hand,
                "hand",
                ",",
                "faces like '3,5' or [3, 5]",
            )?),
        };
        let key = (history, hand);
        let known = self
            .cache
            .lock()
            .ok()
            .and_then(|cache| cache.get(&key).map(|answer| answer.clone_ref(py)));
        if let Some(answer) = known {
            return Ok(answer.into_bound(py));
        }
        let Some(stored) = self.stored() else {
            return Err(exception(
                py,
                Kind::Tables,
                None,
                "the endgame tables are gone",
            ));
        };
        let (history, hand) = &key;
        match py.detach(|| dice::endgame_at(stored, history, hand.as_deref())) {
            Ok(value) => {
                let answer = to_py(py, &value)?;
                if let Ok(mut cache) = self.cache.lock() {
                    if cache.len() >= ENDGAME_CACHE {
                        cache.clear();
                    }
                    cache.insert(key, answer.clone().unbind());
                }
                Ok(answer)
            }
            Err(error) => Err(raise(
                py,
                classify(&error, false, |what| match what {
                    gametab_games::Argument::Bid | gametab_games::Argument::History => "history",
                    gametab_games::Argument::Hand
                    | gametab_games::Argument::MyDice
                    | gametab_games::Argument::Face => "hand",
                    other => python_parameter(other),
                }),
            )),
        }
    }
}
