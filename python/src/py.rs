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

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyCapsule, PyDict, PyFloat, PyList, PyString, PyType};
use serde_json::Value;

use gametab_games::budget::Budget;
use gametab_games::murder_plan::Offset;
use gametab_lookup::dice::StoredEndgame;

use crate::adapter::dice::{self as dice, BidInput};
use crate::adapter::error::{chain, classify, python_parameter, Classified, Error, Kind};
use crate::adapter::logs::{self, LogInput};
use crate::adapter::murder_plan::{self as mp, StateInput};

/// The exception classes of `gametab/_errors.py`.
struct Classes {
    error: Py<PyType>,
    query: Py<PyType>,
    query_type: Py<PyType>,
    log: Py<PyType>,
    missing_key: Py<PyType>,
    tables: Py<PyType>,
    budget: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// Hand the package's exception classes to the module (once, at import).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn _register(
    py: Python<'_>,
    error: Py<PyType>,
    query: Py<PyType>,
    query_type: Py<PyType>,
    log: Py<PyType>,
    missing_key: Py<PyType>,
    tables: Py<PyType>,
    budget: Py<PyType>,
) {
    let _ = CLASSES.set(
        py,
        Classes {
            error,
            query,
            query_type,
            log,
            missing_key,
            tables,
            budget,
        },
    );
}

/// The exception of `kind` with `message`, its `parameter` attribute set.
fn exception(py: Python<'_>, kind: Kind, parameter: Option<&str>, message: &str) -> PyErr {
    exception_of(py, Some(kind), parameter, message)
}

fn exception_of(
    py: Python<'_>,
    kind: Option<Kind>,
    parameter: Option<&str>,
    message: &str,
) -> PyErr {
    let Some(classes) = CLASSES.get(py) else {
        return pyo3::exceptions::PyRuntimeError::new_err(message.to_owned());
    };
    let class = match kind {
        None => &classes.error,
        Some(Kind::Query) => &classes.query,
        Some(Kind::Log) => &classes.log,
        Some(Kind::MissingKey) => &classes.missing_key,
        Some(Kind::Tables) => &classes.tables,
        Some(Kind::Budget) => &classes.budget,
    };
    let made = class.bind(py).call1((message,)).and_then(|instance| {
        instance.setattr("parameter", parameter)?;
        Ok(instance)
    });
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(error) => error,
    }
}

/// A wrong type for `parameter`.
fn type_error(py: Python<'_>, parameter: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let type_name = got
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    let message = format!("{parameter}: expected {expected}, got {type_name}");
    let Some(classes) = CLASSES.get(py) else {
        return pyo3::exceptions::PyTypeError::new_err(message);
    };
    match classes
        .query_type
        .bind(py)
        .call1((message,))
        .and_then(|instance| {
            instance.setattr("parameter", parameter)?;
            Ok(instance)
        }) {
        Ok(instance) => PyErr::from_value(instance),
        Err(error) => error,
    }
}

fn raise(py: Python<'_>, classified: Classified) -> PyErr {
    exception(
        py,
        classified.kind,
        classified.parameter.as_deref(),
        &classified.message,
    )
}

/// A query's error as its exception.
fn query_error(py: Python<'_>, error: &Error) -> PyErr {
    raise(py, classify(error, false, python_parameter))
}

/// A log query's error as its exception.
fn log_error(py: Python<'_>, error: &Error) -> PyErr {
    raise(py, classify(error, true, python_parameter))
}

/// Loading a table set: every failure is the set's.
fn tables_error(py: Python<'_>, error: &Error) -> PyErr {
    let message = chain(error);
    exception(py, Kind::Tables, None, &message)
}

// ---- arguments ----

fn int(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    parameter: &str,
    min: i64,
    max: i64,
) -> PyResult<i64> {
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyString>() {
        return Err(type_error(py, parameter, "an int", obj));
    }
    let value: i64 = obj
        .extract()
        .map_err(|_| type_error(py, parameter, "an int", obj))?;
    if value < min || value > max {
        return Err(exception(
            py,
            Kind::Query,
            Some(parameter),
            &format!("{parameter} {value} is out of range ({min}..={max})"),
        ));
    }
    Ok(value)
}

fn u8_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<u8> {
    Ok(int(py, obj, parameter, 0, 255)? as u8)
}

fn u32_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<u32> {
    Ok(int(py, obj, parameter, 0, i64::from(u32::MAX))? as u32)
}

fn bool_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<bool> {
    obj.cast::<PyBool>()
        .map(|b| b.is_true())
        .map_err(|_| type_error(py, parameter, "a bool", obj))
}

fn f64_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBool>() {
        return Err(type_error(py, parameter, "a number", obj));
    }
    obj.extract::<f64>()
        .map_err(|_| type_error(py, parameter, "a number", obj))
}

fn str_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<String> {
    if !obj.is_instance_of::<PyString>() {
        return Err(type_error(py, parameter, "a str", obj));
    }
    obj.extract::<String>().map_err(|_| {
        exception(
            py,
            Kind::Query,
            Some(parameter),
            &format!("{parameter}: not valid text"),
        )
    })
}

/// Text, or a sequence of ints joined by `sep` (`(0, 1)` is `"0,1"`).
fn text_or_ints(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    parameter: &str,
    sep: &str,
    expected: &str,
) -> PyResult<String> {
    if obj.is_instance_of::<PyString>() {
        return str_arg(py, obj, parameter);
    }
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| type_error(py, parameter, expected, obj))?;
    if items.len() > 10_000 {
        return Err(exception(
            py,
            Kind::Query,
            Some(parameter),
            &format!("{parameter}: {} items is too many", items.len()),
        ));
    }
    let mut parts = Vec::with_capacity(items.len());
    for item in &items {
        parts.push(
            int(
                py,
                item,
                parameter,
                i64::from(i32::MIN),
                i64::from(i32::MAX),
            )?
            .to_string(),
        );
    }
    Ok(parts.join(sep))
}

fn offset_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &'static str) -> PyResult<Offset> {
    let text = text_or_ints(py, obj, parameter, ",", "a pair like (0, 1) or '0,1'")?;
    mp::offset(parameter, &text).map_err(|e| query_error(py, &e))
}

#[allow(clippy::too_many_arguments)]
fn state_arg(
    py: Python<'_>,
    brain: &Bound<'_, PyAny>,
    killer: &Bound<'_, PyAny>,
    killer_intrigue: &Bound<'_, PyAny>,
    key_person_intrigue: &Bound<'_, PyAny>,
    diagonal_left: &Bound<'_, PyAny>,
    intrigue2_left: &Bound<'_, PyAny>,
    forbid_movement_left: &Bound<'_, PyAny>,
) -> PyResult<StateInput> {
    Ok(StateInput {
        brain: offset_arg(py, brain, "brain")?,
        killer: offset_arg(py, killer, "killer")?,
        killer_intrigue: u8_arg(py, killer_intrigue, "killer_intrigue")?,
        key_person_intrigue: u8_arg(py, key_person_intrigue, "key_person_intrigue")?,
        diagonal_left: bool_arg(py, diagonal_left, "diagonal_left")?,
        intrigue2_left: bool_arg(py, intrigue2_left, "intrigue2_left")?,
        forbid_movement_left: u8_arg(py, forbid_movement_left, "forbid_movement_left")?,
    })
}

fn labels_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<Vec<String>> {
    let expected = "three card names";
    if obj.is_instance_of::<PyString>() {
        return Err(type_error(py, parameter, expected, obj));
    }
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .and_then(|it| it.take(4).collect::<PyResult<Vec<_>>>())
        .map_err(|_| type_error(py, parameter, expected, obj))?;
    items.iter().map(|i| str_arg(py, i, parameter)).collect()
}

fn log_arg(py: Python<'_>, text: &Bound<'_, PyAny>, is_path: bool) -> PyResult<LogInput> {
    let text = str_arg(py, text, "log")?;
    Ok(if is_path {
        LogInput::Path(PathBuf::from(text))
    } else {
        LogInput::Text(text)
    })
}

// ---- answers ----

/// A JSON value as plain Python values (dicts, lists, str, int, float,
/// bool, None).
fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

fn answer<'py>(py: Python<'py>, result: Result<Value, Error>) -> PyResult<Bound<'py, PyAny>> {
    match result {
        Ok(value) => to_py(py, &value),
        Err(error) => Err(query_error(py, &error)),
    }
}

// ---- engines: GIL released, budgeted, interruptible ----

fn budget(
    py: Python<'_>,
    time_limit: Option<&Bound<'_, PyAny>>,
    step_limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Budget> {
    let time_limit = time_limit.filter(|t| !t.is_none());
    let step_limit = step_limit.filter(|s| !s.is_none());
    match (time_limit, step_limit) {
        (Some(_), Some(_)) => Err(exception(
            py,
            Kind::Query,
            Some("step_limit"),
            "give time_limit or step_limit, not both",
        )),
        (Some(t), None) => {
            let seconds = f64_arg(py, t, "time_limit")?;
            if !(seconds > 0.0 && seconds <= 1e9) {
                return Err(exception(
                    py,
                    Kind::Query,
                    Some("time_limit"),
                    &format!("time_limit {seconds} is out of range (seconds, > 0)"),
                ));
            }
            Ok(Budget::with_time(Duration::from_secs_f64(seconds)))
        }
        (None, Some(s)) => {
            let steps = int(py, s, "step_limit", 1, i64::MAX)?;
            Ok(Budget::with_steps(steps as u64))
        }
        (None, None) => Ok(Budget::unlimited()),
    }
}

/// Run `work` under `budget` on a thread of its own, the GIL released;
/// the caller's thread waits, checking for signals every 10 ms (a signal
/// cancels the budget, and its exception is raised once the work stops).
fn run_engine(
    py: Python<'_>,
    budget: Budget,
    work: impl FnOnce() -> Result<Value, Error> + Send,
) -> PyResult<Result<Value, Error>> {
    enum Ended {
        Done(Result<Value, Error>),
        Interrupted(PyErr),
        Panicked(String),
    }
    let ended = py.detach(|| {
        std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            let engine_budget = budget.clone();
            let spawned = std::thread::Builder::new()
                .name("gametab-engine".to_owned())
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let result =
                        std::panic::catch_unwind(AssertUnwindSafe(|| engine_budget.run(work)));
                    let _ = sender.send(result);
                });
            if let Err(error) = spawned {
                return Ended::Panicked(format!("cannot start the engine thread: {error}"));
            }
            let mut signal: Option<PyErr> = None;
            loop {
                match receiver.recv_timeout(Duration::from_millis(10)) {
                    Ok(Ok(result)) => {
                        return match signal {
                            Some(error) => Ended::Interrupted(error),
                            None => Ended::Done(result),
                        }
                    }
                    Ok(Err(panic)) => {
                        let detail = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                            .unwrap_or_else(|| "a panic".to_owned());
                        return Ended::Panicked(detail);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if signal.is_none() {
                            if let Err(error) = Python::attach(|py| py.check_signals()) {
                                budget.cancel();
                                signal = Some(error);
                            }
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Ended::Panicked("the engine thread ended unanswered".to_owned())
                    }
                }
            }
        })
    });
    match ended {
        Ended::Done(result) => Ok(result),
        Ended::Interrupted(error) => Err(error),
        Ended::Panicked(detail) => Err(exception_of(
            py,
            None,
            None,
            &format!("internal error in the engine (please report it): {detail}"),
        )),
    }
}

fn engine_answer<'py>(
    py: Python<'py>,
    budget: Budget,
    work: impl FnOnce() -> Result<Value, Error> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    match run_engine(py, budget, work)? {
        Ok(value) => to_py(py, &value),
        Err(error) => Err(log_error(py, &error)),
    }
}

// ---- the table set ----

/// An open table set (`gametab.open_tables`): the manifest read, every
/// game loaded on first use with its digests checked.
#[pyclass(frozen, module = "gametab._gametab")]
struct NativeTables {
    tables: Arc<gametab_lookup::Tables>,
    dir: PathBuf,
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
fn bid_input(
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
const ENDGAME_CACHE: usize = 4096;

/// One stored endgame (`Dice.endgame`). The lookup crate decodes the
/// strategy rows of a point from the Parquet file on every query (a few
/// milliseconds), so the answers already given are kept, up to
/// [`ENDGAME_CACHE`], keyed by the arguments as given: a bot that meets a
/// point again gets it in microseconds. The cached documents are never
/// handed out mutable (the Python wrapper copies lists and `to_dict()`).
#[pyclass(frozen, module = "gametab._gametab")]
struct NativeEndgame {
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

/// A whole table, exported through the Arrow PyCapsule interface.
#[pyclass(frozen, module = "gametab._gametab")]
struct ArrowTable {
    name: &'static str,
    batch: arrow_array::RecordBatch,
}

#[pymethods]
impl ArrowTable {
    /// The table's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    /// Its rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// Its column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.batch
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    /// The Arrow C stream of the table (one batch); `requested_schema` is
    /// ignored (the table's own schema is the only one offered).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let stream = crate::arrow::stream(self.batch.clone());
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    fn __repr__(&self) -> String {
        format!(
            "<gametab table {} ({} rows)>",
            self.name,
            self.batch.num_rows()
        )
    }
}

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
