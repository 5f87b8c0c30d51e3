//! The pyo3 module `gametab._gametab`: the native half of the Python
//! package. Every function takes its arguments as Python objects and
//! checks them itself, so a wrong type or value is a gametab exception
//! naming the parameter (never pyo3's own `TypeError`), and every answer
//! is the answers crate's document converted to plain Python values
//! (`gametab/_answers.py` gives them attributes). The exception classes
//! are the Python package's (`gametab/_errors.py`), handed over once at
//! import by `_register`.
//!
//! Engine work (the Cluedo notebook and advice, the Werewolf report) runs
//! with the GIL released, on a thread of its own under a
//! `gametab_games::budget::Budget` (a time or a step limit, as the
//! server's engine pool), while the calling thread waits and checks for
//! signals: Ctrl-C cancels the budget and raises `KeyboardInterrupt`.
//!
//! This file holds the module and its free functions; the parts are
//! `errors` (the exception classes and raising), `args` (argument checks),
//! `convert` (documents to Python values), `engine` (the released,
//! budgeted engine calls), `tables` (`NativeTables`, `NativeEndgame`) and
//! `arrow_table` (`ArrowTable`).

use std::path::PathBuf;
use std::sync::Arc;

use args::{bool_arg, int, labels_arg, log_arg, state_arg, str_arg, u8_arg};
use arrow_table::ArrowTable;
use convert::answer;
use engine::{budget, engine_answer};
use errors::{_register, query_error, tables_error};
use pyo3::prelude::*;
use tables::{bid_input, NativeEndgame, NativeTables};

use gametab_games::murder_plan::Offset;

use crate::adapter::dice::{self as dice};
use crate::adapter::error::Error;
use crate::adapter::logs;
use crate::adapter::murder_plan::{self as mp, StateInput};

mod args;
mod arrow_table;
mod convert;
mod engine;
mod errors;
mod tables;

/// Open the table set in `path` (reads its manifest only).
#[pyfunction]
fn open(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<NativeTables> {
    let dir = PathBuf::from(str_arg(py, path, "path")?);
    let tables = py
        .detach(|| gametab_answers::table_set::open(&dir))
        .map_err(|e| tables_error(py, &Error::from(e)))?;
    Ok(NativeTables {
        tables: Arc::new(tables),
        dir,
    })
}

/// `gametab dice --json`: a standing bid's odds and advice (the engine).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn dice_odds<'py>(
    py: Python<'py>,
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
    answer(py, dice::odds(&input))
}

/// Every legal action of a side with these limited cards left.
#[pyfunction]
fn murder_plan_legal_actions<'py>(
    py: Python<'py>,
    side: &Bound<'py, PyAny>,
    diagonal_left: &Bound<'py, PyAny>,
    intrigue2_left: &Bound<'py, PyAny>,
    forbid_movement_left: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let side = mp::side(&str_arg(py, side, "side")?).map_err(|e| query_error(py, &e))?;
    let state = StateInput {
        brain: Offset::ZERO,
        killer: Offset::ZERO,
        killer_intrigue: 0,
        key_person_intrigue: 0,
        diagonal_left: bool_arg(py, diagonal_left, "diagonal_left")?,
        intrigue2_left: bool_arg(py, intrigue2_left, "intrigue2_left")?,
        forbid_movement_left: u8_arg(py, forbid_movement_left, "forbid_movement_left")?,
    };
    answer(py, mp::legal_actions(side, &state))
}

/// One turn of the rules.
#[pyfunction]
#[pyo3(signature = (mastermind, protagonists, brain_target, brain, killer, killer_intrigue, key_person_intrigue, diagonal_left, intrigue2_left, forbid_movement_left))]
#[allow(clippy::too_many_arguments)]
fn murder_plan_turn<'py>(
    py: Python<'py>,
    mastermind: &Bound<'py, PyAny>,
    protagonists: &Bound<'py, PyAny>,
    brain_target: &Bound<'py, PyAny>,
    brain: &Bound<'py, PyAny>,
    killer: &Bound<'py, PyAny>,
    killer_intrigue: &Bound<'py, PyAny>,
    key_person_intrigue: &Bound<'py, PyAny>,
    diagonal_left: &Bound<'py, PyAny>,
    intrigue2_left: &Bound<'py, PyAny>,
    forbid_movement_left: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
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
    let a = labels_arg(py, mastermind, "mastermind")?;
    let b = labels_arg(py, protagonists, "protagonists")?;
    let target = if brain_target.is_none() {
        None
    } else {
        Some(str_arg(py, brain_target, "brain_target")?)
    };
    answer(py, mp::turn(&state, &a, &b, target.as_deref()))
}

/// `gametab cluedo --json`, or with `advise` `gametab cluedo --advise
/// --json`.
#[pyfunction]
#[pyo3(signature = (log, is_path, model, advise, room, top, time_limit=None, step_limit=None))]
#[allow(clippy::too_many_arguments)]
fn cluedo<'py>(
    py: Python<'py>,
    log: &Bound<'py, PyAny>,
    is_path: bool,
    model: &Bound<'py, PyAny>,
    advise: bool,
    room: &Bound<'py, PyAny>,
    top: &Bound<'py, PyAny>,
    time_limit: Option<&Bound<'py, PyAny>>,
    step_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = log_arg(py, log, is_path)?;
    let model = logs::model(&str_arg(py, model, "model")?).map_err(|e| query_error(py, &e))?;
    let room = if room.is_none() {
        None
    } else {
        Some(str_arg(py, room, "room")?)
    };
    let top = int(py, top, "top", 1, 1000)? as u64;
    let budget = budget(py, time_limit, step_limit)?;
    engine_answer(py, budget, move || {
        if advise {
            logs::cluedo_advice(&input, model, room.as_deref(), top)
        } else {
            logs::cluedo_notebook(&input, model)
        }
    })
}

/// `gametab werewolf --json`.
#[pyfunction]
#[pyo3(signature = (log, is_path, rule, time_limit=None, step_limit=None))]
fn werewolf<'py>(
    py: Python<'py>,
    log: &Bound<'py, PyAny>,
    is_path: bool,
    rule: &Bound<'py, PyAny>,
    time_limit: Option<&Bound<'py, PyAny>>,
    step_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = log_arg(py, log, is_path)?;
    let rule = logs::rule(&str_arg(py, rule, "rule")?).map_err(|e| query_error(py, &e))?;
    let budget = budget(py, time_limit, step_limit)?;
    engine_answer(py, budget, move || logs::werewolf_report(&input, rule))
}

/// Every table's name.
#[pyfunction]
fn table_names() -> Vec<&'static str> {
    crate::arrow::table_names()
}

/// The module `gametab._gametab`.
#[pymodule]
#[pyo3(name = "_gametab")]
fn gametab_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_register, m)?)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(dice_odds, m)?)?;
    m.add_function(wrap_pyfunction!(murder_plan_legal_actions, m)?)?;
    m.add_function(wrap_pyfunction!(murder_plan_turn, m)?)?;
    m.add_function(wrap_pyfunction!(cluedo, m)?)?;
    m.add_function(wrap_pyfunction!(werewolf, m)?)?;
    m.add_function(wrap_pyfunction!(table_names, m)?)?;
    m.add_class::<NativeTables>()?;
    m.add_class::<NativeEndgame>()?;
    m.add_class::<ArrowTable>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
