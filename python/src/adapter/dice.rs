//! Liar's Dice: a standing bid's odds and advice
//! (`gametab_answers::dice::bid::document`, what `gametab dice --json`
//! prints), the three tables' rows (bid probability, the bidder's
//! posterior, the published rule's decision) and the stored endgames
//! (`gametab_answers::dice::endgame::document`, what `gametab dice
//! endgame --json` prints).

use super::error::{chain, param, Context, ParamError, Result};
use serde::Serialize;
use serde_json::{json, Value};

use gametab_answers::dice::bid::{document, DiceArgs};
use gametab_answers::dice::endgame::{self, EndgameQuery};
use gametab_games::dice::endgame::Endgame;
use gametab_games::dice::{Bid, DecisionKey, Hand, Reliability, Situation, Variant};
use gametab_lookup::dice::{DiceTables, StoredEndgame};

/// A standing bid from my seat, as the Python API takes it.
#[derive(Debug, Clone)]
pub struct BidInput {
    /// Players at the table.
    pub players: u32,
    /// The standing bid, `COUNTxFACE`.
    pub bid: String,
    /// My dice, `1,5,5,2,3`.
    pub hand: String,
    /// The bidder's reliability.
    pub reliability: f64,
    /// Ones are wild.
    pub wild: bool,
    /// All dice on the table (default: 5 per other player plus mine).
    pub total_dice: Option<u32>,
    /// The bidder's dice.
    pub bidder_dice: u32,
}

fn named<T, E: std::fmt::Display>(parameter: &'static str, result: Result<T, E>) -> Result<T> {
    result.map_err(|e| {
        ParamError {
            parameter,
            message: format!("{parameter}: {e}"),
        }
        .into()
    })
}

impl BidInput {
    fn args(&self) -> Result<DiceArgs> {
        Ok(DiceArgs {
            players: self.players,
            bid: named("bid", self.bid.parse::<Bid>())?,
            hand: Some(named("hand", self.hand.parse::<Hand>())?),
            mine: None,
            rel: named("reliability", Reliability::new(self.reliability))?,
            wild: self.wild,
            total_dice: self.total_dice,
            bidder_dice: self.bidder_dice,
            json: true,
        })
    }

    fn situation(&self) -> Result<(DiceArgs, Situation)> {
        let args = self.args()?;
        if args.players < 2 {
            return param(
                "players",
                format!("players {} is out of range (at least 2)", args.players),
            );
        }
        let situation = args.situation()?;
        Ok((args, situation))
    }
}

fn to_value(value: impl Serialize) -> Result<Value> {
    Ok(serde_json::to_value(value)?)
}

/// `gametab dice --json`: the situation, the odds, the posterior and the
/// advice, computed by the engine.
///
/// # Errors
/// As `gametab dice`.
pub fn odds(input: &BidInput) -> Result<Value> {
    let (args, situation) = input.situation()?;
    Ok(serde_json::to_value(document(args.players, &situation))?)
}

/// The bid-probability row of the standing bid (the stored row, or the
/// engine's off the grid), with its source.
///
/// # Errors
/// As [`odds`].
pub fn probability(tables: &DiceTables, input: &BidInput) -> Result<Value> {
    let (_, situation) = input.situation()?;
    to_value(tables.bid(&situation.standing_question())?)
}

/// The bidder's posterior over his matching dice.
///
/// # Errors
/// As [`odds`].
pub fn posterior(tables: &DiceTables, input: &BidInput) -> Result<Value> {
    let (_, situation) = input.situation()?;
    to_value(tables.posterior(&situation.standing_question().posterior_question())?)
}

/// The published rule's decision in the standard game (every player with
/// as many dice as my hand).
///
/// # Errors
/// As [`odds`], and a key that is no legal situation.
pub fn decision(tables: &DiceTables, input: &BidInput) -> Result<Value> {
    let args = input.args()?;
    let key = DecisionKey {
        players: args.players,
        variant: Variant::from_wild_ones(args.wild),
        reliability: args.rel,
        hand: args.my_hand()?.clone(),
        standing: args.bid,
    };
    let answer = tables.decision(&key)?;
    Ok(json!({ "key": key, "value": answer.value, "source": answer.source }))
}

/// The endgame of `dice` (`a,b`), `sides`, wild or not.
///
/// # Errors
/// Dice or sides the rules refuse.
pub fn endgame_game(dice: (u8, u8), sides: u8, wild: bool) -> Result<Endgame> {
    Ok(Endgame::new(dice.0, dice.1, sides, wild)?)
}

/// Why a set lacks `game`.
pub fn missing_game(game: Endgame) -> String {
    format!(
        "the tables hold no {game} endgame ({})",
        gametab_answers::dice::solved::where_solved(game)
    )
}

/// `gametab dice endgame --json` at one point.
///
/// # Errors
/// A history or hand that does not fit the game.
pub fn endgame_at(stored: &StoredEndgame, history: &str, hand: Option<&str>) -> Result<Value> {
    let hand = match hand {
        None => None,
        Some(text) => Some(
            endgame::parse_hand(text)
                .map_err(|e| ParamError {
                    parameter: "hand",
                    message: chain(&e),
                })
                .with_context(|| "invalid endgame")?,
        ),
    };
    let query = EndgameQuery {
        game: stored.game,
        history: history.to_owned(),
        hand,
    };
    to_value(endgame::document(stored, &query)?)
}
