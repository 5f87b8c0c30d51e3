//! The Werewolf endpoints: `POST /v1/werewolf/posterior` (the report of
//! `gametab werewolf --json`, with its role section for a role log) and
//! `POST /v1/werewolf/roles` (the same report with the role section always
//! there: a side-only log is read as a game with no special roles, which
//! the role engine answers as the side engine does, the end of the game
//! aside: the role engine gives probability 0 to an assignment in which
//! the game had ended before a later event).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::response::Response;
use gametab_games::werewolf::{GameLog as WerewolfLog, ScoringRule};

use super::body::PostBody;
use super::handlers::{engine_answer, json_body, to_json};
use super::params::{log_error, ApiError, Params};
use super::App;
use gametab_answers::werewolf;
use gametab_answers::Error as QueryError;

/// Parse the rule and the log, and answer with the report; `roles`: read a
/// side-only log as a role log without special roles.
async fn answer(
    app: Arc<App>,
    query: Option<String>,
    body: Result<Bytes, ApiError>,
    roles: bool,
) -> Response {
    let set = app.current.get();
    let prepared = (|| {
        let params = Params::parse(query.as_deref(), &["rule"])?;
        let rule = params.parsed("rule", ScoringRule::Published, |t| match t {
            "published" => Ok(ScoringRule::Published),
            "probability" => Ok(ScoringRule::Probability),
            "information" => Ok(ScoringRule::Information),
            other => Err(format!(
                "'{other}' is not one of published, probability, information"
            )),
        })?;
        Ok((rule, body?))
    })();
    engine_answer(&app, Arc::clone(&set), prepared, move |(rule, body)| {
        let text = json_body(&body)?;
        let log: WerewolfLog = serde_json::from_str(text).map_err(|e| {
            log_error(QueryError::Refused {
                event: None,
                message: format!("invalid log: {e}"),
            })
        })?;
        gametab_answers::logs::check_werewolf_events(&log).map_err(log_error)?;
        // Everything wrong with a log that parsed is in the log: 422.
        let report = if roles {
            werewolf::posterior::document_with_roles(&log, rule)
        } else {
            werewolf::posterior::document(&log, rule)
        }
        .map_err(log_error)?;
        to_json(&report)
    })
    .await
}

/// `POST /v1/werewolf/posterior`
pub async fn werewolf_posterior(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    PostBody(body): PostBody,
) -> Response {
    answer(app, q, body, false).await
}

/// `POST /v1/werewolf/roles`
pub async fn werewolf_roles(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    PostBody(body): PostBody,
) -> Response {
    answer(app, q, body, true).await
}
