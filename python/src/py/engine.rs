//! Engine work with the GIL released: a thread of its own under a
//! `Budget` (a time or a step limit), while the calling thread waits and
//! checks for signals, so that Ctrl-C cancels the budget and raises
//! `KeyboardInterrupt`.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;
use serde_json::Value;

use gametab_games::budget::Budget;

use crate::adapter::error::{Error, Kind};

use super::args::{f64_arg, int};
use super::convert::to_py;
use super::errors::{exception, exception_of, log_error};

pub(super) fn budget(
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
pub(super) fn run_engine(
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

pub(super) fn engine_answer<'py>(
    py: Python<'py>,
    budget: Budget,
    work: impl FnOnce() -> Result<Value, Error> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    match run_engine(py, budget, work)? {
        Ok(value) => to_py(py, &value),
        Err(error) => Err(log_error(py, &error)),
    }
}
