//! The published numbers the project reproduces, from one known-answer file,
//! `data/published.csv`, compiled into the crate (`include_str!`, so no
//! reader depends on the working directory).
//!
//! The file is the single copy of the published numbers: the plots
//! draw their "published" crosses from it, `tests/published.rs` checks every
//! row against the built tables and the engines, and
//! `scripts/notebook/explore.py` checks the rows the tables hold. Adding a
//! published number means adding a row (and, for a new quantity, its check).
//!
//! # Format
//!
//! CSV (RFC 4180 as Python's `csv` module writes it: comma-separated, a
//! field holding a comma or a quote is quoted, `""` is a quote inside a
//! quoted field, no line breaks inside fields), UTF-8, one header line and
//! one row per published number:
//!
//! | column       | content                                                   |
//! |--------------|-----------------------------------------------------------|
//! | `game`       | `murder_plan`, `dice`, `cluedo` or `werewolf`             |
//! | `quantity`   | what the number is: the column's name where a table column holds it (`raw_probability`), else a name of its own (`win_rate`, `deals`) |
//! | `parameters` | the case, as `name=value` pairs joined by `;` (names in `[a-z0-9_]`, a value holds no `;`); the names are the tables' key columns where a table holds the number |
//! | `value`      | the number as published, in `unit`                        |
//! | `tolerance`  | the largest accepted `abs(computed - value)`: half a unit in the last published digit, the spec's own bound (`1e-12`), or `0` for counts |
//! | `unit`       | `percent`, `probability`, `payoff` (expected payoff in [-1, 1]), `dice` (a number of dice) or `count` (an exact integer below 2^53) |
//! | `source`     | where the number was published, and what it is there      |
//!
//! `(game, quantity, parameters)` is unique. Rows keep the spec's order,
//! which is the order the plots draw their crosses in. Published numbers
//! the project does not compute (the two-player endgame values of
//! `docs/liars-dice.md`) are not listed: every row must be
//! checked.

use std::str::FromStr;

/// The file's path in the repository, for messages.
pub const FILE: &str = "data/published.csv";

/// The file's text, as compiled into the crate.
pub const CSV: &str = include_str!("../../../data/published.csv");

/// The header line's columns, in order.
pub const COLUMNS: [&str; 7] = [
    "game",
    "quantity",
    "parameters",
    "value",
    "tolerance",
    "unit",
    "source",
];

/// What can be wrong with the known-answer file or a question to it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublishedError {
    /// A line breaks the format, or a row lacks what its reader needs.
    #[error("{FILE} line {line}: {problem}")]
    Row {
        /// 1-based line of the file (1 is the header).
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// No row has the game, quantity and parameters asked for.
    #[error("{FILE} has no row {game} {quantity} {parameters}")]
    Missing {
        /// The game asked for.
        game: String,
        /// The quantity asked for.
        quantity: String,
        /// The parameters asked for, as written in the file.
        parameters: String,
    },
}

/// The unit a published number is given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Percent (a probability times 100).
    Percent,
    /// A probability in [0, 1].
    Probability,
    /// An expected payoff in [-1, 1].
    Payoff,
    /// A (mean) number of dice.
    Dice,
    /// An exact count.
    Count,
}

impl Unit {
    /// Every unit, in the order of the format's table.
    pub const ALL: [Unit; 5] = [
        Unit::Percent,
        Unit::Probability,
        Unit::Payoff,
        Unit::Dice,
        Unit::Count,
    ];

    /// The name used in the file.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Percent => "percent",
            Unit::Probability => "probability",
            Unit::Payoff => "payoff",
            Unit::Dice => "dice",
            Unit::Count => "count",
        }
    }
}

/// One published number: one row of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedNumber {
    /// 1-based line in the file.
    pub line: usize,
    /// The game (`murder_plan`, `dice`, `cluedo`, `werewolf`).
    pub game: String,
    /// What the number is.
    pub quantity: String,
    /// The case: `(name, value)` pairs in file order.
    pub parameters: Vec<(String, String)>,
    /// The number, in [`PublishedNumber::unit`].
    pub value: f64,
    /// The number exactly as published (`40.60`, not `40.6`).
    pub value_text: String,
    /// The largest accepted distance of a computed value.
    pub tolerance: f64,
    /// The unit of `value` and `tolerance`.
    pub unit: Unit,
    /// Where it is published.
    pub source: String,
}

impl PublishedNumber {
    /// The parameters as written in the file, `name=value;...`.
    pub fn parameters_text(&self) -> String {
        self.parameters
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// `game quantity parameters`: how messages name the row.
    pub fn name(&self) -> String {
        format!("{} {} {}", self.game, self.quantity, self.parameters_text())
    }

    /// The text of parameter `name`, if the row has it.
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Parameter `name` parsed as a `T`.
    ///
    /// # Errors
    /// The row has no such parameter, or its value does not parse.
    pub fn parse_parameter<T: FromStr>(&self, name: &str) -> Result<T, PublishedError> {
        let text = self
            .parameter(name)
            .ok_or_else(|| self.error(format!("no parameter {name:?}")))?;
        text.parse()
            .map_err(|_| self.error(format!("parameter {name}={text:?} does not parse")))
    }

    /// Check that the row's parameters are exactly `names` (in any order):
    /// a reader that would ignore an unknown parameter would check another
    /// case than the row states.
    ///
    /// # Errors
    /// A parameter missing or one more than `names`.
    pub fn expect_parameters(&self, names: &[&str]) -> Result<(), PublishedError> {
        for name in names {
            if self.parameter(name).is_none() {
                return Err(self.error(format!("no parameter {name:?}")));
            }
        }
        match self
            .parameters
            .iter()
            .find(|(n, _)| !names.contains(&n.as_str()))
        {
            Some((extra, _)) => Err(self.error(format!(
                "unexpected parameter {extra:?} (expected {})",
                names.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// Whether `computed` (in the row's unit) reproduces the number:
    /// `abs(computed - value) <= tolerance`. NaN never does.
    pub fn reproduced_by(&self, computed: f64) -> bool {
        (computed - self.value).abs() <= self.tolerance
    }

    /// An error about this row.
    pub fn error(&self, problem: impl Into<String>) -> PublishedError {
        PublishedError::Row {
            line: self.line,
            problem: format!("{}: {}", self.name(), problem.into()),
        }
    }
}

/// Every published number of the compiled-in file, in file order.
///
/// # Errors
/// A malformed line (see [`parse`]); `tests/published.rs` keeps the file
/// well-formed.
pub fn all() -> Result<Vec<PublishedNumber>, PublishedError> {
    parse(CSV)
}

/// The rows of one game's quantity, in file order.
///
/// # Errors
/// As [`all`].
pub fn select(game: &str, quantity: &str) -> Result<Vec<PublishedNumber>, PublishedError> {
    Ok(all()?
        .into_iter()
        .filter(|row| row.game == game && row.quantity == quantity)
        .collect())
}

/// The one row of `game`, `quantity` and `parameters` (written as in the
/// file, `name=value;...`).
///
/// # Errors
/// As [`all`], or [`PublishedError::Missing`].
pub fn find(
    game: &str,
    quantity: &str,
    parameters: &str,
) -> Result<PublishedNumber, PublishedError> {
    let rows = all()?;
    rows.into_iter()
        .find(|row| {
            row.game == game && row.quantity == quantity && row.parameters_text() == parameters
        })
        .ok_or_else(|| PublishedError::Missing {
            game: game.to_string(),
            quantity: quantity.to_string(),
            parameters: parameters.to_string(),
        })
}

/// Parse a known-answer file (see the module doc for the format).
///
/// # Errors
/// The first malformed line: a header other than [`COLUMNS`], a field count
/// other than seven, a bad quote, an empty or badly named game, quantity or
/// parameter, a value or tolerance that is not a finite number (a negative
/// tolerance, a count that is not an exact integer below 2^53), an unknown
/// unit, or a row that repeats another's `(game, quantity, parameters)`.
pub fn parse(text: &str) -> Result<Vec<PublishedNumber>, PublishedError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let header = lines.next().map(|(_, l)| l).unwrap_or_default();
    let header_fields =
        split_fields(header).map_err(|problem| PublishedError::Row { line: 1, problem })?;
    if header_fields != COLUMNS {
        return Err(PublishedError::Row {
            line: 1,
            problem: format!("header {header:?}, expected {:?}", COLUMNS.join(",")),
        });
    }
    let mut rows: Vec<PublishedNumber> = Vec::new();
    for (line, text) in lines {
        if text.is_empty() {
            continue;
        }
        let row = parse_row(line, text).map_err(|problem| PublishedError::Row { line, problem })?;
        if let Some(first) = rows.iter().find(|r| {
            r.game == row.game && r.quantity == row.quantity && r.parameters == row.parameters
        }) {
            return Err(PublishedError::Row {
                line,
                problem: format!("{} repeats line {}", row.name(), first.line),
            });
        }
        rows.push(row);
    }
    Ok(rows)
}

/// One data line.
fn parse_row(line: usize, text: &str) -> Result<PublishedNumber, String> {
    let fields = split_fields(text)?;
    let [game, quantity, parameters, value_text, tolerance, unit, source]: [String; 7] = fields
        .try_into()
        .map_err(|f: Vec<String>| format!("{} fields, expected {}", f.len(), COLUMNS.len()))?;
    for (column, name) in [("game", &game), ("quantity", &quantity)] {
        if !is_name(name) {
            return Err(format!("{column} {name:?} is not a name in [a-z0-9_]"));
        }
    }
    let unit = Unit::ALL
        .into_iter()
        .find(|u| u.name() == unit)
        .ok_or_else(|| format!("unknown unit {unit:?}"))?;
    let value = number("value", &value_text)?;
    if unit == Unit::Count
        && !(value_text.bytes().all(|b| b.is_ascii_digit()) && value < 2f64.powi(53))
    {
        return Err(format!("count {value_text:?} is not an integer below 2^53"));
    }
    let tolerance = number("tolerance", &tolerance)?;
    if tolerance < 0.0 {
        return Err(format!("negative tolerance {tolerance}"));
    }
    if source.is_empty() {
        return Err("empty source".into());
    }
    Ok(PublishedNumber {
        line,
        game,
        quantity,
        parameters: parse_parameters(&parameters)?,
        value,
        value_text,
        tolerance,
        unit,
        source,
    })
}

/// A finite number (Rust's float syntax, which takes every decimal and
/// exponent form the file uses).
fn number(column: &str, text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{column} {text:?} is not a finite number"))
}

/// `name=value;...` (empty: no parameters).
fn parse_parameters(text: &str) -> Result<Vec<(String, String)>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    for pair in text.split(';') {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("parameter {pair:?} is not name=value"))?;
        if !is_name(name) || value.is_empty() {
            return Err(format!("parameter {pair:?} is not name=value"));
        }
        if pairs.iter().any(|(n, _)| n == name) {
            return Err(format!("parameter {name:?} given twice"));
        }
        pairs.push((name.to_string(), value.to_string()));
    }
    Ok(pairs)
}

/// Non-empty, lower-case ASCII letters, digits and `_`.
fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The fields of one CSV line: plain fields hold no quote; a quoted field
/// runs to its closing quote, `""` standing for one quote, and is followed
/// by a comma or the end of the line.
fn split_fields(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => return Err(format!("field {} has no closing quote", fields.len() + 1)),
                }
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Ok(fields);
                }
                Some(',') => fields.push(field),
                Some(c) => {
                    return Err(format!(
                        "field {} has {c:?} after its closing quote",
                        fields.len() + 1
                    ))
                }
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Ok(fields);
                    }
                    Some(',') => break,
                    Some('"') => {
                        return Err(format!(
                            "field {} has a quote but is not quoted",
                            fields.len() + 1
                        ))
                    }
                    Some(c) => field.push(c),
                }
            }
            fields.push(field);
        }
    }
}

#[cfg(test)]
#[path = "known_answers_tests.rs"]
mod tests;
