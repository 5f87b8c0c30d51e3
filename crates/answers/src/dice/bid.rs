//! `gametab dice`: the odds of a standing Liar's Dice bid from my seat (raw,
//! corrected by the bidder's reliability, normal approximation), the
//! bidder's posterior and the published rule's advice, as text or JSON
//! ([`document`] builds the document, [`render`] the text).

use std::io::Write;

use clap::Args;
use serde::Serialize;

use crate::error::{Error, Parameter, Result};

use gametab_games::dice::{
    published_rule, Action, Advice, Bid, Hand, Reliability, Situation, Variant,
};

/// Dice each player starts with.
pub const DICE_PER_PLAYER: u32 = 5;

/// Arguments of `gametab dice`.
#[derive(Debug, Args)]
pub struct DiceArgs {
    /// Players at the table (each with 5 dice unless --total-dice says otherwise).
    #[arg(long)]
    pub players: u32,
    /// The standing bid as COUNTxFACE, e.g. 5x5 for "five fives".
    #[arg(long)]
    pub bid: Bid,
    /// My dice, e.g. 1,5,5,2,3.
    #[arg(long, required_unless_present = "mine")]
    pub hand: Option<Hand>,
    /// The old name of --hand: accepted with a warning.
    #[arg(long, hide = true, conflicts_with = "hand")]
    pub mine: Option<Hand>,
    /// The bidder's reliability (>= 0; 0 ignores his bid).
    #[arg(long, default_value = "2", allow_negative_numbers = true, value_parser = parse_reliability)]
    pub rel: Reliability,
    /// Ones are wild (until somebody bids on ones).
    #[arg(long)]
    pub wild: bool,
    /// All dice on the table (default: 5 per other player plus mine).
    #[arg(long)]
    pub total_dice: Option<u32>,
    /// The bidder's dice.
    #[arg(long, default_value_t = DICE_PER_PLAYER)]
    pub bidder_dice: u32,
    /// Print the answer's JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parse a reliability, refusing negative and non-finite values.
pub fn parse_reliability(text: &str) -> Result<Reliability, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    Reliability::new(value).map_err(|e| e.to_string())
}

impl DiceArgs {
    /// My dice, given as `--hand` or by its old name `--mine`.
    ///
    /// # Errors
    /// Neither given (clap requires one, so only for arguments built in
    /// code).
    pub fn my_hand(&self) -> Result<&Hand> {
        self.hand.as_ref().or(self.mine.as_ref()).ok_or_else(|| {
            Error::invalid(
                Parameter::Hand,
                "my dice are required: --hand, e.g. 1,5,5,2,3",
            )
        })
    }

    /// The validated situation the arguments describe.
    ///
    /// # Errors
    /// Fewer than two players, and everything [`Situation::new`] refuses
    /// (more dice than exist, a bid on more dice than exist), naming the
    /// parameter: the total dice are the players' when `--total-dice` is
    /// not given.
    pub fn situation(&self) -> Result<Situation> {
        let players_out_of_range = || {
            Error::invalid(
                Parameter::Players,
                format!("--players {} is out of range (at least 2)", self.players),
            )
        };
        if self.players < 2 {
            return Err(players_out_of_range());
        }
        let hand = self.my_hand()?;
        let total = match self.total_dice {
            Some(total) => total,
            None => (self.players - 1)
                .checked_mul(DICE_PER_PLAYER)
                .and_then(|others| others.checked_add(hand.len()))
                .ok_or_else(players_out_of_range)?,
        };
        let given_total = self.total_dice.is_some();
        Situation::new(
            total,
            hand.clone(),
            self.bidder_dice,
            Variant::from_wild_ones(self.wild),
            self.bid,
            self.rel,
        )
        .map_err(|e| {
            Error::from_games(e, |argument| match argument {
                gametab_games::Argument::TotalDice if !given_total => Some(Parameter::Players),
                other => Parameter::of_argument(other),
            })
        })
    }
}

/// The document of a situation (`gametab dice --json`, `GET
/// /v1/dice/bid`): the situation, my matching dice, the odds, the
/// bidder's posterior mean and the published rule's advice.
#[derive(Debug, Clone, Serialize)]
#[serde(remote = "Self")]
pub struct BidDocument {
    /// The advice: the action, its value, every raise considered.
    pub advice: Advice,
    /// My dice that count for the standing bid.
    pub my_matching: u32,
    /// The odds of the standing bid.
    pub odds: gametab_games::dice::BidOdds,
    /// Players at the table.
    pub players: u32,
    /// The mean of the bidder's matching dice, a posteriori.
    pub posterior_mean: f64,
    /// The situation as validated.
    pub situation: Situation,
}

crate::sorted::sorted_keys!(BidDocument);

/// The document of a situation at a table of `players`.
pub fn document(players: u32, situation: &Situation) -> BidDocument {
    let advice = published_rule(situation);
    BidDocument {
        my_matching: situation.standing_question().my_matching,
        odds: advice.standing.clone(),
        players,
        posterior_mean: advice.standing.posterior.mean(),
        situation: situation.clone(),
        advice,
    }
}

/// Run `gametab dice`, writing the odds and advice to `out`.
///
/// # Errors
/// Invalid arguments (see [`DiceArgs::situation`]), or `out` refusing the
/// answer.
pub fn run(args: DiceArgs, out: &mut impl Write) -> crate::cli::Result<()> {
    if args.mine.is_some() {
        crate::cli::warn("--mine is the old name of --hand; write --hand");
    }
    let situation = args
        .situation()
        .map_err(|e| e.context("invalid Liar's Dice situation"))?;
    let doc = document(args.players, &situation);
    let text = if args.json {
        crate::cli::pretty(&doc)?
    } else {
        render(&doc)
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// The document as text for the terminal.
pub fn render(doc: &BidDocument) -> String {
    describe(doc.players, &doc.situation, &doc.advice)
}

fn describe(players: u32, situation: &Situation, advice: &Advice) -> String {
    let question = situation.standing_question();
    let dice = situation.dice;
    let odds = &advice.standing;
    let rules = if situation.variant.wild_ones() {
        if question.variant.wild_ones() {
            "ones wild"
        } else {
            "ones wild, but ones were bid"
        }
    } else {
        "no wilds"
    };
    let mut text = format!(
        "{players} players, {} dice ({} mine, {} the bidder's); bid {} ({rules}); reliability {}\n",
        dice.total(),
        dice.mine(),
        dice.bidder(),
        situation.standing,
        situation.reliability.value()
    );
    text += &format!(
        "my dice {}: {} count for the bid, {} more needed among {} hidden dice\n",
        situation.hand,
        question.my_matching,
        question.still_needed().max(0),
        dice.hidden_from_me()
    );
    text += &format!(
        "raw probability        {:.4}  (exact {}/{}; normal approximation {:.4})\n",
        odds.raw_probability, odds.raw.favourable, odds.raw.outcomes, odds.normal_approximation
    );
    text += &format!("corrected probability  {:.4}\n", odds.corrected_probability);
    text += &format!(
        "ev of opening          {:+.4} on the raw, {:+.4} on the corrected probability\n",
        odds.ev_open_raw, odds.ev_open
    );
    text += "bidder's matching dice (posterior):";
    for (y, p) in odds.posterior.probabilities.iter().enumerate() {
        text += &format!(" {y}: {p:.4}");
    }
    text += &format!("  (mean {:.2})\n", odds.posterior.mean());
    let action = match advice.action {
        Action::Open => "open".to_string(),
        Action::Raise(bid) => format!("raise to {bid}"),
    };
    text += &format!(
        "advice ({} rule): {action}, expected value {:+.4}\n",
        advice.rule, advice.expected_value
    );
    let mut best: Vec<_> = advice.raises.iter().collect();
    best.sort_by(|a, b| b.expected_value.total_cmp(&a.expected_value));
    for raise in best.iter().take(3) {
        text += &format!(
            "  raise {}: probability {:.4}, value {:+.4}\n",
            raise.bid, raise.probability, raise.expected_value
        );
    }
    text
}
