//! The endpoints. Each turns its parameters into the same query value the
//! CLI builds from its flags and sends the same document
//! ([`murder_plan::document`], [`dice::bid::document`],
//! [`cluedo::notebook::document`], [`cluedo::advice::document`],
//! [`gametab_answers::werewolf::posterior::document`]): one serialisation
//! for both. A query's refusal is its typed `gametab_answers::Error`,
//! answered through `From` into [`ApiError`].
//!
//! Table answers carry the set's ETag and `Cache-Control: no-cache` (a
//! client may keep them and revalidate; `If-None-Match` gives 304 until the
//! set changes, and only for a query that has an answer: the parameters
//! are checked and the answer found first, so a bad query is its error,
//! never a 304). Engine answers (the POSTs) are computed by the engine pool
//! (`engine.rs`: own threads, a queue, a time budget) and not cached. Every
//! answer, errors included, names the set in `X-Gametab-Version` and
//! `X-Gametab-Digest`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

use gametab_games::cluedo::{analyse, GameLog as CluedoLog, Model};
use gametab_games::dice::{Bid, Hand};
use gametab_games::murder_plan::model::{KEY_PERSON_INTRIGUE_CAP, KILLER_INTRIGUE_CAP};
use gametab_games::murder_plan::DaysLeft;

use super::body::PostBody;
use super::params::{log_error, ApiError, Params};
use super::set::LoadedSet;
use super::App;
use gametab_answers::murder_plan::documents::Side;
use gametab_answers::murder_plan::state::StateArgs;
use gametab_answers::murder_plan::{self, Query};
use gametab_answers::Error as QueryError;
use gametab_answers::{cluedo, dice};

/// The parameters of a Murder Plan state, with the start state's defaults
/// for everything but the positions.
const STATE_PARAMS: [&str; 7] = [
    "brain",
    "killer",
    "killer_intrigue",
    "key_person_intrigue",
    "diagonal_left",
    "intrigue2_left",
    "forbid_movement_left",
];

fn with_state_params(extra: &[&'static str]) -> Vec<&'static str> {
    extra.iter().chain(STATE_PARAMS.iter()).copied().collect()
}

fn state_args(params: &Params) -> Result<StateArgs, ApiError> {
    let small = |name: &str, default: u32, max: u8| {
        params
            .integer(name, default, 0..=u32::from(max))
            .map(|v| v as u8)
    };
    Ok(StateArgs {
        brain: params.offset("brain")?,
        killer: params.offset("killer")?,
        killer_intrigue: small("killer_intrigue", 0, KILLER_INTRIGUE_CAP)?,
        key_person_intrigue: small("key_person_intrigue", 0, KEY_PERSON_INTRIGUE_CAP)?,
        no_diagonal: !params.boolean("diagonal_left", true)?,
        no_intrigue2: !params.boolean("intrigue2_left", true)?,
        forbid_movement_left: small("forbid_movement_left", 3, 3)?,
    })
}

fn side(params: &Params) -> Result<Side, ApiError> {
    match params.required("side")? {
        "mastermind" => Ok(Side::Mastermind),
        "protagonists" => Ok(Side::Protagonists),
        other => Err(ApiError::bad(
            "side",
            format!("side: '{other}' is neither mastermind nor protagonists"),
        )),
    }
}

/// Name the answering set on a response.
pub fn identify(response: &mut Response, set: &LoadedSet) {
    let headers = response.headers_mut();
    for (name, value) in [
        ("x-gametab-version", &set.version),
        ("x-gametab-digest", &set.digest),
    ] {
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(name, value);
        }
    }
}

fn json_response(
    status: StatusCode,
    body: impl Into<Bytes>,
    content_type: &'static str,
) -> Response {
    let body: Bytes = body.into();
    let mut response = (status, body).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A table answer: the document with the set's ETag, or 304 when the
/// client holds this set's answer. The document is found first (from the
/// answer cache, mostly), so that a query with no answer gets its error
/// whatever `If-None-Match` says.
pub(super) fn table_answer(
    set: &LoadedSet,
    headers: &HeaderMap,
    document: impl FnOnce() -> Result<Bytes, ApiError>,
) -> Response {
    let fresh = || {
        headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag == set.etag || tag.strip_prefix("W/") == Some(set.etag.as_str())
            })
    };
    let mut response = match document() {
        Ok(_) if fresh() => StatusCode::NOT_MODIFIED.into_response(),
        Ok(body) => json_response(StatusCode::OK, body, "application/json"),
        Err(e) => e.into_response(),
    };
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        let h = response.headers_mut();
        if let Ok(etag) = HeaderValue::from_str(&set.etag) {
            h.insert(header::ETAG, etag);
        }
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    identify(&mut response, set);
    response
}

pub(super) fn to_json(value: &impl Serialize) -> Result<Bytes, ApiError> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(|e| ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, format!("encoding: {e}")))
}

/// A Murder Plan query answered from the set: the query string checked
/// against `allowed` and turned into the CLI's query by `build`.
fn murder_plan(
    app: &App,
    query: Option<String>,
    headers: &HeaderMap,
    allowed: &[&str],
    build: impl FnOnce(&Params) -> Result<Query, ApiError>,
) -> Response {
    let set = app.current.get();
    let query = Params::parse(query.as_deref(), allowed).and_then(|params| build(&params));
    table_answer(&set, headers, || {
        let query = query?;
        set.answers
            .get_or_compute(format!("murder-plan {query:?}"), || {
                let mp = set
                    .tables
                    .murder_plan()
                    .map_err(gametab_answers::Error::from)?;
                to_json(&murder_plan::document(mp, &query)?)
            })
    })
}

/// `GET /health` (no parameters, like every endpoint refusing unknown ones)
pub async fn health(State(app): State<Arc<App>>, RawQuery(q): RawQuery) -> Response {
    let set = app.current.get();
    if let Err(e) = Params::parse(q.as_deref(), &[]) {
        let mut response = e.into_response();
        identify(&mut response, &set);
        return response;
    }
    let body = json!({
        "status": "ok",
        "generator_version": set.version,
        "digest": set.digest,
        "tables": app.tables_dir,
    });
    let mut response = json_response(
        StatusCode::OK,
        body.to_string().into_bytes(),
        "application/json",
    );
    identify(&mut response, &set);
    response
}

/// `GET /v1/openapi.json`: the OpenAPI 3.1 document of the API.
pub async fn openapi(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    let set = app.current.get();
    table_answer(&set, &headers, || {
        Params::parse(q.as_deref(), &[])?;
        Ok(Bytes::from_static(super::OPENAPI.as_bytes()))
    })
}

/// `GET /v1/manifest`
pub async fn manifest(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    let set = app.current.get();
    table_answer(&set, &headers, || {
        Params::parse(q.as_deref(), &[])?;
        Ok(set.manifest.clone())
    })
}

/// `GET /v1/murder-plan/state`
pub async fn mp_state(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    murder_plan(&app, q, &headers, &with_state_params(&["days"]), |params| {
        Ok(Query::State {
            days: params.days("days", 0..=8)?,
            state: state_args(params)?,
        })
    })
}

/// `GET /v1/murder-plan/moves`
pub async fn mp_moves(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    murder_plan(
        &app,
        q,
        &headers,
        &with_state_params(&["side", "days"]),
        |params| {
            Ok(Query::Moves {
                side: side(params)?,
                days: params.days("days", 1..=8)?,
                state: state_args(params)?,
            })
        },
    )
}

/// `GET /v1/murder-plan/sample`
pub async fn mp_sample(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    murder_plan(
        &app,
        q,
        &headers,
        &with_state_params(&["side", "days", "u"]),
        |params| {
            let u = params.parsed("u", 0.0, |text| {
                let u: f64 = text
                    .trim()
                    .parse()
                    .map_err(|_| format!("'{text}' is not a number"))?;
                if (0.0..1.0).contains(&u) {
                    Ok(u)
                } else {
                    Err(format!("{u} is outside [0, 1)"))
                }
            })?;
            params.required("u")?;
            Ok(Query::Sample {
                side: side(params)?,
                days: params.days("days", 1..=8)?,
                u,
                state: state_args(params)?,
            })
        },
    )
}

/// `GET /v1/murder-plan/win-rates`: every stored win rate.
pub async fn mp_win_rates(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    murder_plan(&app, q, &headers, &[], |_| Ok(Query::WinRates))
}

/// `GET /v1/murder-plan/win-rate`: one horizon, from one start or on average.
pub async fn mp_win_rate(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    murder_plan(
        &app,
        q,
        &headers,
        &["horizon", "brain", "killer"],
        |params| {
            let horizon: DaysLeft = params.days("horizon", 1..=8)?;
            let start = match (params.get("brain"), params.get("killer")) {
                (None, None) => None,
                _ => Some((params.offset("brain")?, params.offset("killer")?)),
            };
            Ok(Query::WinRate {
                horizon,
                brain: start.map(|s| s.0),
                killer: start.map(|s| s.1),
            })
        },
    )
}

/// `GET /v1/dice/bid`
pub async fn dice_bid(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    let set = app.current.get();
    table_answer(&set, &headers, || {
        let params = Params::parse(
            q.as_deref(),
            &[
                "players",
                "bid",
                "hand",
                "rel",
                "wild",
                "total_dice",
                "bidder_dice",
            ],
        )?;
        let max = gametab_games::dice::MAX_TOTAL_DICE;
        let players = params
            .required("players")
            .and(params.integer("players", 0, 2..=max))?;
        let bid: Bid = params
            .required("bid")?
            .parse()
            .map_err(|e: gametab_games::Error| ApiError::bad("bid", format!("bid: {e}")))?;
        let hand: Hand = params
            .required("hand")?
            .parse()
            .map_err(|e: gametab_games::Error| ApiError::bad("hand", format!("hand: {e}")))?;
        let args = dice::bid::DiceArgs {
            players,
            bid,
            hand: Some(hand),
            mine: None,
            rel: dice::bid::parse_reliability(params.get("rel").unwrap_or("2"))
                .map_err(|e| ApiError::bad("rel", format!("rel: {e}")))?,
            wild: params.boolean("wild", false)?,
            total_dice: params
                .get("total_dice")
                .map(|_| params.integer("total_dice", 0, 2..=max))
                .transpose()?,
            bidder_dice: params.integer("bidder_dice", dice::bid::DICE_PER_PLAYER, 1..=max)?,
            json: true,
        };
        set.answers.get_or_compute(format!("dice {args:?}"), || {
            let situation = args.situation()?;
            to_json(&dice::bid::document(args.players, &situation))
        })
    })
}

/// Run an engine in the engine pool and answer its document (not cached).
/// `prepared` is what the handler checked first (parameters and body):
/// its error is answered at once, without the pool.
pub(super) async fn engine_answer<P: Send + 'static>(
    app: &App,
    set: Arc<LoadedSet>,
    prepared: Result<P, ApiError>,
    work: impl FnOnce(P) -> Result<Bytes, ApiError> + Send + 'static,
) -> Response {
    let result = match prepared {
        Ok(prepared) => app.engines.run(move || work(prepared)).await,
        Err(e) => Err(e),
    };
    let mut response = match result {
        Ok(body) => {
            let mut r = json_response(StatusCode::OK, body, "application/json");
            r.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            r
        }
        Err(e) => e.into_response(),
    };
    identify(&mut response, &set);
    response
}

pub(super) fn json_body(body: &[u8]) -> Result<&str, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad("body", "the body is not UTF-8 text"))?;
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map_err(|e| ApiError::bad("body", format!("the body is not JSON: {e}")))?;
    Ok(text)
}

/// Set, by the engine's work, to the warning about a POSTed Cluedo log in
/// the old format (`me`, seats numbered from 0), which the answer then
/// carries as its `Warning` header ([`warn_old_format`]).
type OldFormat = Arc<std::sync::OnceLock<String>>;

/// A POSTed Cluedo log and what it tells: 400 when the body is not JSON,
/// 422 when it is no valid log or has more than
/// [`gametab_answers::logs::MAX_CLUEDO_EVENTS`] events. A log in the old
/// format is read, and its warning left in `old`.
fn cluedo_log(
    body: &[u8],
    old: &OldFormat,
) -> Result<(CluedoLog, gametab_games::cluedo::Knowledge), ApiError> {
    let text = json_body(body)?;
    let log = CluedoLog::from_json(text)
        .map_err(|e| log_error(QueryError::from_log(e).context("invalid log")))?;
    if let Some(warning) = log.old_format_warning() {
        let _ = old.set(warning);
    }
    gametab_answers::logs::check_cluedo_events(&log).map_err(log_error)?;
    let knowledge = log
        .knowledge()
        .map_err(|e| log_error(QueryError::from_cluedo_log(e).context("invalid log")))?;
    Ok((log, knowledge))
}

/// `response` with the header `Warning: 299 gametab "..."` when the
/// Cluedo log answered was in the old format (docs/http-api.md): the
/// answer is the one the log in the new format gets.
fn warn_old_format(mut response: Response, old: &OldFormat) -> Response {
    if let Some(text) = old.get() {
        let quoted = text.replace('\\', "\\\\").replace('"', "\\\"");
        if let Ok(value) = HeaderValue::from_str(&format!("299 gametab \"{quoted}\"")) {
            response.headers_mut().insert(header::WARNING, value);
        }
    }
    response
}

/// `POST /v1/cluedo/notebook`
pub async fn cluedo_notebook(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    PostBody(body): PostBody,
) -> Response {
    let set = app.current.get();
    let prepared = (|| {
        let params = Params::parse(q.as_deref(), &["model"])?;
        let model = params.parsed("model", Model::EqualDeals, |t| {
            Model::parse(t).map_err(|e| e.to_string())
        })?;
        Ok((model, body?))
    })();
    let old = OldFormat::default();
    let warned = Arc::clone(&old);
    let response = engine_answer(&app, Arc::clone(&set), prepared, move |(model, body)| {
        let (log, knowledge) = cluedo_log(&body, &warned)?;
        let notebook =
            analyse(&knowledge, model).map_err(|e| log_error(QueryError::from_log(e)))?;
        to_json(&cluedo::notebook::document(&log, &notebook))
    })
    .await;
    warn_old_format(response, &old)
}

/// `POST /v1/cluedo/advice`: the `gametab cluedo --advise --json` document.
pub async fn cluedo_advice(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    PostBody(body): PostBody,
) -> Response {
    let set = app.current.get();
    let prepared = (|| {
        let params = Params::parse(q.as_deref(), &["model", "room", "top"])?;
        let model = params.parsed("model", Model::EqualDeals, |t| {
            Model::parse(t).map_err(|e| e.to_string())
        })?;
        let top = params.integer("top", 10, 1..=1000)? as usize;
        let room = params.get("room").map(str::to_string);
        Ok((model, room, top, body?))
    })();
    let old = OldFormat::default();
    let warned = Arc::clone(&old);
    let response = engine_answer(
        &app,
        Arc::clone(&set),
        prepared,
        move |(model, room, top, body)| {
            let (log, knowledge) = cluedo_log(&body, &warned)?;
            if let Some(name) = room.as_deref() {
                let deck = knowledge.rules().deck();
                let is_room = deck
                    .parse_card(name)
                    .is_ok_and(|c| deck.category(c) == gametab_games::cluedo::Category::Room);
                if !is_room {
                    return Err(ApiError::bad(
                        "room",
                        format!("room: '{name}' is not a room of this deck"),
                    ));
                }
            }
            let doc = cluedo::advice::document(&log, &knowledge, model, room.as_deref(), top)
                .map_err(log_error)?;
            to_json(&doc)
        },
    )
    .await;
    warn_old_format(response, &old)
}

/// `GET /`: the explorer page.
pub async fn explorer() -> Response {
    let mut response = include_str!("../explorer/explorer.html").into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// Any path no endpoint serves.
pub async fn not_found() -> Response {
    ApiError::status(
        StatusCode::NOT_FOUND,
        "no such endpoint (the endpoints: docs/http-api.md, or GET /v1/openapi.json)",
    )
    .into_response()
}
