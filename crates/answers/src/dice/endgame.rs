//! `gametab dice endgame`: the exact equilibrium of a stored two-player
//! endgame at one point (the bids so far, my hand): the game value, my
//! equilibrium action probabilities and the posterior over the opponent's
//! hand, as text or JSON. `GET /v1/dice/endgame` answers with the same
//! document ([`document`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;

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
    /// The bids so far, e.g. 15,16 or 1x5,1x6 (none: the opening).
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
    /// Print JSON instead of text.
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
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [a, b] => Ok((
            a.parse()
                .with_context(|| format!("dice '{text}': '{a}' is not a number"))?,
            b.parse()
                .with_context(|| format!("dice '{text}': '{b}' is not a number"))?,
        )),
        _ => bail!("dice '{text}': write the two players' dice as A,B (e.g. 2,1)"),
    }
}

/// Parse a hand, faces separated by commas.
///
/// # Errors
/// A face that is not a number.
pub fn parse_hand(text: &str) -> Result<Vec<u8>> {
    text.split(',')
        .map(|f| {
            f.trim()
                .parse()
                .with_context(|| format!("hand '{text}': '{}' is not a face", f.trim()))
        })
        .collect()
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
        let game = Endgame::new(a, b, sides, wild)?;
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
    let point = stored.at(&query.history, query.hand.as_deref())?;
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
pub fn run(args: EndgameArgs, out: &mut dyn Write) -> Result<()> {
    let query = EndgameQuery::new(
        &args.dice,
        args.sides,
        args.wild,
        args.hand.as_deref(),
        &args.history,
    )
    .context("invalid endgame")?;
    let tables = crate::table_set::open(&args.tables)?;
    let stored = tables.dice_endgame()?.game(query.game).with_context(|| {
        format!(
            "the tables hold no {} endgame ({})",
            query.game,
            super::solved::where_solved(query.game)
        )
    })?;
    let doc = document(stored, &query)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        out.write_all(describe(&doc).as_bytes())?;
    }
    Ok(())
}

fn describe(doc: &EndgameDocument) -> String {
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
