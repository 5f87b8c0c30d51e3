//! The exception classes handed over by the Python half (`_register`), and
//! every error of the adapter raised as the gametab exception its kind
//! names ([`crate::adapter::error::classify`]).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::adapter::error::{chain, classify, python_parameter, Classified, Error, Kind};

/// The exception classes of `gametab/_errors.py`.
pub(super) struct Classes {
    error: Py<PyType>,
    query: Py<PyType>,
    query_type: Py<PyType>,
    log: Py<PyType>,
    missing_key: Py<PyType>,
    tables: Py<PyType>,
    budget: Py<PyType>,
}

pub(super) static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// Hand the package's exception classes to the module (once, at import).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub(super) fn _register(
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
pub(super) fn exception(
    py: Python<'_>,
    kind: Kind,
    parameter: Option<&str>,
    message: &str,
) -> PyErr {
    exception_of(py, Some(kind), parameter, message)
}

pub(super) fn exception_of(
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
pub(super) fn type_error(
    py: Python<'_>,
    parameter: &str,
    expected: &str,
    got: &Bound<'_, PyAny>,
) -> PyErr {
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

pub(super) fn raise(py: Python<'_>, classified: Classified) -> PyErr {
    exception(
        py,
        classified.kind,
        classified.parameter.as_deref(),
        &classified.message,
    )
}

/// A query's error as its exception.
pub(super) fn query_error(py: Python<'_>, error: &Error) -> PyErr {
    raise(py, classify(error, false, python_parameter))
}

/// A log query's error as its exception.
pub(super) fn log_error(py: Python<'_>, error: &Error) -> PyErr {
    raise(py, classify(error, true, python_parameter))
}

/// Loading a table set: every failure is the set's.
pub(super) fn tables_error(py: Python<'_>, error: &Error) -> PyErr {
    let message = chain(error);
    exception(py, Kind::Tables, None, &message)
}
