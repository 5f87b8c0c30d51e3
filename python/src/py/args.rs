//! Python arguments checked one by one, so that a wrong type or value is a
//! gametab exception naming the parameter (never pyo3's own `TypeError`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyString};

use gametab_games::murder_plan::Offset;

use crate::adapter::error::Kind;
use crate::adapter::logs::LogInput;
use crate::adapter::murder_plan::{self as mp, StateInput};

use super::errors::{exception, query_error, type_error};

pub(super) fn int(
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

pub(super) fn u8_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<u8> {
    Ok(int(py, obj, parameter, 0, 255)? as u8)
}

pub(super) fn u32_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<u32> {
    Ok(int(py, obj, parameter, 0, i64::from(u32::MAX))? as u32)
}

pub(super) fn bool_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<bool> {
    obj.cast::<PyBool>()
        .map(|b| b.is_true())
        .map_err(|_| type_error(py, parameter, "a bool", obj))
}

pub(super) fn f64_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBool>() {
        return Err(type_error(py, parameter, "a number", obj));
    }
    obj.extract::<f64>()
        .map_err(|_| type_error(py, parameter, "a number", obj))
}

pub(super) fn str_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, parameter: &str) -> PyResult<String> {
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
pub(super) fn text_or_ints(
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

pub(super) fn offset_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    parameter: &'static str,
) -> PyResult<Offset> {
    let text = text_or_ints(py, obj, parameter, ",", "a pair like (0, 1) or '0,1'")?;
    mp::offset(parameter, &text).map_err(|e| query_error(py, &e))
}

#[allow(clippy::too_many_arguments)]
pub(super) fn state_arg(
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

pub(super) fn labels_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    parameter: &str,
) -> PyResult<Vec<String>> {
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

pub(super) fn log_arg(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    is_path: bool,
) -> PyResult<LogInput> {
    let text = str_arg(py, text, "log")?;
    Ok(if is_path {
        LogInput::Path(PathBuf::from(text))
    } else {
        LogInput::Text(text)
    })
}
