//! Cluedo and Werewolf: a game log in, the documents of `gametab cluedo
//! --json` (the notebook, or with `--advise` the advice) and `gametab
//! werewolf --json` out, through the answers crate's builders and its
//! log limits (`gametab_answers::logs`).

use std::path::{Path, PathBuf};

use super::error::{chain, param, Context, ParamError, Result};
use serde_json::Value;

use gametab_answers::cluedo::{advice as advice_cli, notebook as cluedo_cli};
use gametab_answers::logs;
use gametab_answers::werewolf::posterior::{self as werewolf_cli, RuleArg};
use gametab_games::cluedo::{analyse, Category, Model};

/// Where a log comes from: JSON text (a dict is dumped by the Python
/// layer) or a file.
#[derive(Debug, Clone)]
pub enum LogInput {
    /// The log's JSON text.
    Text(String),
    /// A file holding it (read with the CLI's byte limit).
    Path(PathBuf),
}

/// How the log is named in messages.
const GIVEN: &str = "the log given";

impl LogInput {
    fn read<T: serde::de::DeserializeOwned>(&self, game: &str) -> Result<T> {
        let (path, text) = match self {
            LogInput::Text(text) => (Path::new(GIVEN), text.clone()),
            LogInput::Path(path) => (
                path.as_path(),
                logs::read_log(path).map_err(|e| ParamError {
                    parameter: "log",
                    message: chain(&e),
                })?,
            ),
        };
        logs::parse_log(path, &text, game).map_err(|e| {
            ParamError {
                parameter: "log",
                message: chain(&e),
            }
            .into()
        })
    }

    fn name(&self) -> String {
        match self {
            LogInput::Text(_) => GIVEN.to_owned(),
            LogInput::Path(path) => path.display().to_string(),
        }
    }
}

/// A Cluedo weighting by name.
///
/// # Errors
/// An unknown name.
pub fn model(name: &str) -> Result<Model> {
    Model::parse(name).map_err(|e| {
        ParamError {
            parameter: "model",
            message: format!("model: {e}"),
        }
        .into()
    })
}

/// A Werewolf scoring rule by name.
///
/// # Errors
/// An unknown name.
pub fn rule(name: &str) -> Result<RuleArg> {
    match name {
        "published" => Ok(RuleArg::Published),
        "probability" => Ok(RuleArg::Probability),
        "information" => Ok(RuleArg::Information),
        other => param(
            "rule",
            format!("rule: {other:?} is none of published, probability, information"),
        ),
    }
}

/// The parsed and bounded Cluedo log and its knowledge.
struct CluedoLog {
    log: gametab_games::cluedo::GameLog,
    knowledge: gametab_games::cluedo::Knowledge,
}

fn cluedo_log(input: &LogInput) -> Result<CluedoLog> {
    let log: gametab_games::cluedo::GameLog = input.read("Cluedo")?;
    let name = input.name();
    logs::check_cluedo_events(&log).with_context(|| format!("in {name}"))?;
    let knowledge = log.knowledge().with_context(|| format!("in {name}"))?;
    Ok(CluedoLog { log, knowledge })
}

/// `gametab cluedo --json`: the exact notebook.
///
/// # Errors
/// As `gametab cluedo`.
pub fn cluedo_notebook(input: &LogInput, model: Model) -> Result<Value> {
    let parsed = cluedo_log(input)?;
    let notebook = analyse(&parsed.knowledge, model)?;
    Ok(serde_json::to_value(cluedo_cli::document(
        &parsed.log,
        &notebook,
    ))?)
}

/// `gametab cluedo --advise --json`: the suggestions ranked and the
/// accusation.
///
/// # Errors
/// As `gametab cluedo --advise`; `top` outside 1..=1000.
pub fn cluedo_advice(
    input: &LogInput,
    model: Model,
    room: Option<&str>,
    top: u64,
) -> Result<Value> {
    if !(1..=advice_cli::MAX_TOP).contains(&top) {
        return param(
            "top",
            format!("top {top} is out of range (1..={})", advice_cli::MAX_TOP),
        );
    }
    let parsed = cluedo_log(input)?;
    if let Some(name) = room {
        let deck = parsed.knowledge.rules().deck();
        let is_room = deck
            .parse_card(name)
            .is_ok_and(|card| deck.category(card) == Category::Room);
        if !is_room {
            return param("room", format!("room: {name:?} is not a room of this game"));
        }
    }
    let top = usize::try_from(top).unwrap_or(usize::MAX);
    let doc = advice_cli::document(&parsed.log, &parsed.knowledge, model, room, top)?;
    Ok(serde_json::to_value(doc)?)
}

/// `gametab werewolf --json`: P(wolf) (and P(role) for a role log) per
/// player and the vote ranking.
///
/// # Errors
/// As `gametab werewolf`.
pub fn werewolf_report(input: &LogInput, rule: RuleArg) -> Result<Value> {
    let log: gametab_games::werewolf::GameLog = input.read("Werewolf")?;
    let name = input.name();
    logs::check_werewolf_events(&log).with_context(|| format!("in {name}"))?;
    let report = werewolf_cli::document(&log, rule.into())
        .with_context(|| format!("cannot analyse {name}"))?;
    Ok(serde_json::to_value(report)?)
}
