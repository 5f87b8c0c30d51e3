//! `gametab dice endgame`: the exact equilibrium of a stored two-player
//! endgame at one point (the bids so far, my hand): the game value, my
//! equilibrium action probabilities and the posterior over the opponent's
//! hand, as text or JSON. `GET /v1/dice/endgame` answers with the same
//! document ([`document`]; [`render`] writes it for the terminal).
//!
//! A history is written as bids, `COUNTxFACE` separated by commas
//! (`1x5,2x3`), as everywhere else. The run-together form of older
//! versions (`15,23`, the tables' action codes) is read by
//! [`parse_history`], which says so: the command line accepts it with a
//! warning, the server refuses it naming the bids to write instead.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::error::{Error, Parameter, Result};
use gametab_games::Argument;

use gametab_games::dice::endgame::{Endgame, Player};
use gametab_lookup::dice::{EndgamePoint, StoredEndgame};

/// Arguments of `gametab dice endgame`.
#[derive(Debug, Clone, Args)]
pub struct EndgameArgs {
    /// Dice of player 1 and player 2 (player 1 opens), e.g. 2,1.
    #[arg(long)]
    pub dice: String,
    /// Sides of every die.
    #[arg(long, default_value_t = 6)]
    pub sides: u8,
    /// Ones are wild (and bids are on faces 2 and up).
    #[arg(long)]
    pub wild: bool,
    /// The hand of the player to move, e.g. 3,5.
    #[arg(long)]
    pub hand: Option<String>,
    /// The bids so far as COUNTxFACE, e.g. 1x5,2x3 (none: the opening).
    #[arg(long, default_value = "")]
    pub history: String,
    /// The table set: a directory `gametab build` wrote.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "tables",
        env = "GAMETAB_TABLES"
    )]
    pub tables: PathBuf,
    /// Print the answer's JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A parsed query: the game, the history text and the mover's hand.
#[derive(Debug, Clone)]
pub struct EndgameQuery {
    /// The game.
    pub game: Endgame,
    /// The bids so far.
    pub history: String,
    /// The faces of the mover's hand.
    pub hand: Option<Vec<u8>>,
}

/// Parse `a,b` (the dice of the two players).
///
/// # Errors
/// Anything but two numbers separated by a comma.
pub fn parse_dice(text: &str) -> Result<(u8, u8)> {
    let number = |part: &str| {
        part.parse::<u8>().map_err(|e| {
            Error::invalid(
                Parameter::Dice,
                format!("dice '{text}': '{part}' is not a number: {e}"),
            )
        })
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [a, b] => Ok((number(a)?, number(b)?)),
        _ => Err(Error::invalid(
            Parameter::Dice,
            format!("dice '{text}': write the two players' dice as A,B (e.g. 2,1)"),
        )),
    }
}

/// Parse a hand, faces separated by commas.
///
/// # Errors
/// A face that is not a number.
pub fn parse_hand(text: &str) -> Result<Vec<u8>> {
    text.split(',')
        .map(|f| {
            f.trim().parse().map_err(|e| {
                Error::invalid(
                    Parameter::Hand,
                    format!("hand '{text}': '{}' is not a face: {e}", f.trim()),
                )
            })
        })
        .collect()
}

/// A history as the command line or the server got it: the bids written
/// `COUNTxFACE`, and whether the old run-together form (`15` for `1x5`)
/// was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryText {
    /// The bids, `COUNTxFACE` separated by commas.
    pub bids: String,
    /// Some bid was written in the old run-together form.
    pub old_form: bool,
}

/// Read a history, rewriting bids in the old run-together form (two
/// digits, count then face: `15,23`) as `COUNTxFACE` (`1x5,2x3`). Other
/// text is left for the game to judge.
pub fn parse_history(text: &str) -> HistoryText {
    let mut old_form = false;
    let bids: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            let bytes = part.as_bytes();
            if bytes.len() == 2 && bytes.iter().all(u8::is_ascii_digit) {
                old_form = true;
                format!("{}x{}", char::from(bytes[0]), char::from(bytes[1]))
            } else {
                part.to_owned()
            }
        })
        .collect();
    HistoryText {
        bids: bids.join(","),
        old_form,
    }
}

/// The parameter an endgame query's refusal is about: a bid, a face or a
/// history is the `history`'s, a hand the `hand`'s, a player's dice, the
/// sides or the game the `dice`' or `sides`'.
fn endgame_parameter(argument: Argument) -> Option<Parameter> {
    match argument {
        Argument::Bid | Argument::BidCount | Argument::Face | Argument::History => {
            Some(Parameter::History)
        }
        other => Parameter::of_argument(other),
    }
}

impl EndgameQuery {
    /// Validate the parts of a query.
    ///
    /// # Errors
    /// Dice, sides or a hand the rules refuse (a bad history is reported by
    /// [`document`], which knows the game).
    pub fn new(
        dice: &str,
        sides: u8,
        wild: bool,
        hand: Option<&str>,
        history: &str,
    ) -> Result<EndgameQuery> {
        let (a, b) = parse_dice(dice)?;
        let game =
            Endgame::new(a, b, sides, wild).map_err(|e| Error::from_games(e, endgame_parameter))?;
        let hand = hand.map(parse_hand).transpose()?;
        Ok(EndgameQuery {
            game,
            history: history.to_owned(),
            hand,
        })
    }
}

/// The game part of the document.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// Player 1's dice.
    pub dice_one: u8,
    /// Player 2's dice.
    pub dice_two: u8,
    /// Sides.
    pub sides: u8,
    /// `normal` or `wild`.
    pub rules: &'static str,
    /// Player 1's expected payoff at the equilibrium.
    pub value: f64,
    /// The value as a fraction (empty if none was recovered).
    pub value_exact: String,
    /// Exploitability of the stored strategies (best-response certificate).
    pub exploitability: f64,
    /// How it was solved: `full_lp` or `double_oracle`.
    pub method: String,
    /// LPs solved (the double oracle's rounds).
    pub lp_solves: i32,
    /// Rows, columns and nonzeros of the LP solved (the double oracle's
    /// final restricted LP).
    pub lp_size: [i64; 3],
    /// Rows, columns and nonzeros of the full game's LP.
    pub full_lp_size: [i64; 3],
}

/// The whole answer: the game and the point.
#[derive(Debug, Clone, Serialize)]
pub struct EndgameDocument {
    /// The game and its value.
    pub game: GameSummary,
    /// The answer after the history.
    pub point: EndgamePoint,
}

/// The document of `query` from the stored game.
///
/// # Errors
/// The history or the hand does not fit the game.
pub fn document(stored: &StoredEndgame, query: &EndgameQuery) -> Result<EndgameDocument> {
    let game = stored.game;
    let point = stored
        .at(&query.history, query.hand.as_deref())
        .map_err(|e| Error::from_lookup(e, endgame_parameter))?;
    Ok(EndgameDocument {
        game: GameSummary {
            dice_one: game.dice(Player::One),
            dice_two: game.dice(Player::Two),
            sides: game.sides(),
            rules: game.rules_name(),
            value: stored.value,
            value_exact: stored.value_exact.clone(),
            exploitability: stored.exploitability,
            method: stored.method.clone(),
            lp_solves: stored.lp_solves,
            lp_size: stored.lp_size,
            full_lp_size: stored.full_lp_size,
        },
        point,
    })
}

/// Run `gametab dice endgame`.
///
/// # Errors
/// Invalid arguments, tables that cannot be opened or do not hold the game,
/// or `out` refusing the answer.
pub fn run(args: EndgameArgs, out: &mut dyn Write) -> crate::cli::Result<()> {
    let history = parse_history(&args.history);
    if history.old_form {
        crate::cli::warn(&format!(
            "--history {}: bids run together are the old form; write them as COUNTxFACE: --history {}",
            args.history, history.bids
        ));
    }
    let query = EndgameQuery::new(
        &args.dice,
        args.sides,
        args.wild,
        args.hand.as_deref(),
        &history.bids,
    )
    .map_err(|e| e.context("invalid endgame"))?;
    let tables = crate::table_set::open(&args.tables)?;
    let stored = stored_game(&tables, query.game)?;
    let doc = document(stored, &query)?;
    let text = if args.json {
        crate::cli::pretty(&doc)?
    } else {
        render(&doc)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The stored game of `game` in `tables`.
///
/// # Errors
/// [`Error::Tables`] when the endgame tables do not load;
/// [`Error::NotInTables`] when they do not hold the game, saying which
/// build solves it.
pub fn stored_game(tables: &gametab_lookup::Tables, game: Endgame) -> Result<&StoredEndgame> {
    tables
        .dice_endgame()?
        .game(game)
        .map_err(|e| Error::NotInTables {
            message: format!("{e} ({})", super::solved::where_solved(game)),
        })
}

/// The document as text for the terminal.
pub fn render(doc: &EndgameDocument) -> String {
    let g = &doc.game;
    let exact = if g.value_exact.is_empty() {
        String::new()
    } else {
        format!(" = {}", g.value_exact)
    };
    let lp = if g.method == "double_oracle" {
        format!(
            "double oracle, {} restricted LPs, the last {} x {} with {} nonzeros; full LP {} x {}, {} nonzeros",
            g.lp_solves,
            g.lp_size[0],
            g.lp_size[1],
            g.lp_size[2],
            g.full_lp_size[0],
            g.full_lp_size[1],
            g.full_lp_size[2]
        )
    } else {
        format!(
            "LP {} x {}, {} nonzeros",
            g.lp_size[0], g.lp_size[1], g.lp_size[2]
        )
    };
    let mut text = format!(
        "{}v{} {}-sided {}: value to player 1 {:+.6}{exact} (exploitability {:.1e}; {lp})\n",
        g.dice_one, g.dice_two, g.sides, g.rules, g.value, g.exploitability
    );
    let p = &doc.point;
    let bids = if p.history.is_empty() {
        "the opening".to_owned()
    } else {
        format!("bids {}", p.history)
    };
    text += &format!("after {bids}: player {} to move", p.to_move);
    match (&p.hand, &p.actions) {
        (Some(hand), Some(actions)) => {
            text += &format!(", holding {hand}\n");
            for a in actions {
                text += &format!("  {:<5} {:.6}\n", a.action, a.probability);
            }
        }
        _ => text += " (give --hand for the equilibrium moves)\n",
    }
    if let Some(note) = &p.note {
        text += &format!("  ({note})\n");
    }
    match &p.opponent_posterior {
        Some(posterior) => {
            text += "opponent's hand given the bids (equilibrium posterior):\n";
            for h in posterior.iter().filter(|h| h.probability > 0.0) {
                text += &format!("  {:<7} {:.6}\n", h.hand, h.probability);
            }
        }
        None => text += "no posterior: the opponent never makes these bids at the equilibrium\n",
    }
    text
}
