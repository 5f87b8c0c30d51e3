//! `GET /v1/dice/endgame`: the exact equilibrium of a stored two-player
//! Liar's Dice endgame at one point, the same document as `gametab dice
//! endgame --json` ([`dice::endgame::document`]).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::handlers::{query_error, table_answer, to_json};
use super::params::{ApiError, Params};
use super::App;
use dice::endgame::{document, EndgameQuery};
use gametab_answers::dice;
use gametab_games::dice::endgame::Endgame;

/// The parameter a rules error of the endgame is about.
fn parameter_of(what: &str) -> &str {
    match what {
        "player 1's dice" | "player 2's dice" | "endgame" => "dice",
        "bid" | "history" => "history",
        other => other,
    }
}

/// The error answer of a failed endgame query, naming its parameter.
fn endgame_error(error: anyhow::Error) -> ApiError {
    let mut answer = query_error(&error);
    for cause in error.chain() {
        let what = match cause.downcast_ref::<gametab_games::Error>() {
            Some(gametab_games::Error::OutOfRange { what, .. }) => Some(*what),
            _ => match cause.downcast_ref::<gametab_lookup::Error>() {
                Some(gametab_lookup::Error::OutOfRange { what, .. }) => Some(*what),
                _ => None,
            },
        };
        if let Some(what) = what {
            answer.parameter = Some(parameter_of(what).to_owned());
            break;
        }
    }
    answer
}

/// `GET /v1/dice/endgame?dice=2,1&sides=6&wild=false&hand=3,5&history=15,16`
pub async fn dice_endgame(
    State(app): State<Arc<App>>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    let set = app.current.get();
    table_answer(&set, &headers, || {
        let params = Params::parse(q.as_deref(), &["dice", "sides", "wild", "hand", "history"])?;
        let dice = params.required("dice")?;
        let sides = params.integer("sides", 6, 1..=6)?;
        let wild = params.boolean("wild", false)?;
        let history = params.get("history").unwrap_or("");
        let (a, b) =
            dice::endgame::parse_dice(dice).map_err(|e| ApiError::bad("dice", format!("{e:#}")))?;
        let hand = params
            .get("hand")
            .map(dice::endgame::parse_hand)
            .transpose()
            .map_err(|e| ApiError::bad("hand", format!("{e:#}")))?;
        let game = Endgame::new(a, b, sides as u8, wild).map_err(|e| endgame_error(e.into()))?;
        let query = EndgameQuery {
            game,
            history: history.to_owned(),
            hand,
        };
        set.answers
            .get_or_compute(format!("endgame {query:?}"), || {
                let tables = set
                    .tables
                    .dice_endgame()
                    .map_err(|e| query_error(&e.into()))?;
                let stored = tables.game(query.game).map_err(|e| {
                    ApiError::status(
                        StatusCode::NOT_FOUND,
                        format!("{e} ({})", dice::solved::where_solved(query.game)),
                    )
                })?;
                to_json(&document(stored, &query).map_err(endgame_error)?)
            })
    })
}
