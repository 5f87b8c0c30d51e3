//! `GET /v1/dice/endgame`: the exact equilibrium of a stored two-player
//! Liar's Dice endgame at one point, the same document as `gametab dice
//! endgame --json` ([`dice::endgame::document`]).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;

use super::handlers::{table_answer, to_json};
use super::params::{ApiError, Params};
use super::App;
use dice::endgame::{document, parse_history, stored_game, EndgameQuery};
use gametab_answers::dice;

/// `GET /v1/dice/endgame?dice=2,1&sides=6&wild=false&hand=3,5&history=1x5,1x6`
///
/// A history in the old run-together form (`15,16`) is refused with a 400
/// naming the bids to write instead.
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
        let read = parse_history(history);
        if read.old_form {
            return Err(ApiError::bad(
                "history",
                format!(
                    "history '{history}': bids run together are the old form; write them as \
                     COUNTxFACE: history={}",
                    read.bids
                ),
            ));
        }
        let query = EndgameQuery::new(dice, sides as u8, wild, params.get("hand"), history)?;
        set.answers
            .get_or_compute(format!("endgame {query:?}"), || {
                let stored = stored_game(&set.tables, query.game)?;
                to_json(&document(stored, &query)?)
            })
    })
}
