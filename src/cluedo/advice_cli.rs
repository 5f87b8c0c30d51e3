//! `gametab cluedo --log game.json --advise [--room R] [--top N] [--json]`:
//! every suggestion the logged player (`me`) can make, ranked by its exact
//! expected information gain about the envelope, with the chance of being
//! shown a card, and the accusation report (engine:
//! `gametab_games::cluedo::advise`). The JSON document is the one
//! `POST /v1/cluedo/advice` answers.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use serde::Serialize;

use gametab_games::cluedo::{advise, Advice, Category, GameLog, Knowledge, Model, Response};

/// One outcome of a suggestion in the JSON document.
#[derive(Debug, Serialize)]
pub struct OutcomeLine {
    /// Who shows a card (`null`: nobody can).
    pub shown_by: Option<String>,
    /// The card shown (`null` when nobody shows).
    pub card: Option<String>,
    /// Its exact probability.
    pub probability: f64,
    /// Entropy of the envelope after it, bits.
    pub envelope_entropy_bits: f64,
}

/// One ranked suggestion.
#[derive(Debug, Serialize)]
pub struct SuggestionLine {
    /// Rank, from 1.
    pub rank: usize,
    /// The suspect named.
    pub suspect: String,
    /// The weapon named.
    pub weapon: String,
    /// The room named.
    pub room: String,
    /// Expected information gain about the envelope, bits.
    pub expected_gain_bits: f64,
    /// The chance that somebody shows me a card.
    pub p_shown: f64,
    /// Every outcome of positive probability.
    pub outcomes: Vec<OutcomeLine>,
}

/// The accusation report: the most likely envelope and its probability.
#[derive(Debug, Serialize)]
pub struct Accusation {
    /// Suspect of the most likely triple.
    pub suspect: String,
    /// Weapon of the most likely triple.
    pub weapon: String,
    /// Room of the most likely triple.
    pub room: String,
    /// The chance that accusing it now wins (1: certain).
    pub probability: f64,
}

/// The advice document.
#[derive(Debug, Serialize)]
pub struct AdviceDocument {
    /// The weighting of the log's past answers.
    pub model: &'static str,
    /// The player advised (the log's `me`).
    pub player: String,
    /// Entropy of the envelope now, bits.
    pub envelope_entropy_bits: f64,
    /// Suggestions considered (324 in the standard game, 36 in one room).
    pub considered: usize,
    /// The best suggestions, best first.
    pub suggestions: Vec<SuggestionLine>,
    /// The accusation report.
    pub accusation: Accusation,
}

/// Compute the advice document of a parsed log: every suggestion (or those
/// in `room`), the best `top` kept.
///
/// # Errors
/// An unknown room or a card that is not a room, contradictory facts, or
/// weights beyond 128 bits.
pub fn document(
    log: &GameLog,
    knowledge: &Knowledge,
    model: Model,
    room: Option<&str>,
    top: usize,
) -> Result<AdviceDocument> {
    let deck = knowledge.rules().deck();
    let room = match room {
        None => None,
        Some(name) => {
            let card = deck.parse_card(name)?;
            if deck.category(card) != Category::Room {
                bail!("--room {name}: {} is not a room", deck.card_name(card));
            }
            Some(card)
        }
    };
    let me = gametab_games::cluedo::Seat(log.me);
    let advice: Advice = advise(knowledge, model, me, room)?;
    let name = |c| deck.card_name(c);
    let suggestions = advice
        .ranking
        .iter()
        .take(top)
        .enumerate()
        .map(|(i, s)| SuggestionLine {
            rank: i + 1,
            suspect: name(s.cards[0]),
            weapon: name(s.cards[1]),
            room: name(s.cards[2]),
            expected_gain_bits: s.expected_gain,
            p_shown: s.p_shown,
            outcomes: s
                .outcomes
                .iter()
                .map(|o| OutcomeLine {
                    shown_by: match o.response {
                        Response::Shows { seat, .. } => Some(log.name(seat)),
                        Response::Nobody => None,
                    },
                    card: match o.response {
                        Response::Shows { card, .. } => Some(name(card)),
                        Response::Nobody => None,
                    },
                    probability: s.probability(o),
                    envelope_entropy_bits: o.envelope_entropy(),
                })
                .collect(),
        })
        .collect();
    Ok(AdviceDocument {
        model: model.name(),
        player: log.name(me),
        envelope_entropy_bits: advice.entropy_now,
        considered: advice.ranking.len(),
        suggestions,
        accusation: Accusation {
            suspect: name(advice.most_likely[0]),
            weapon: name(advice.most_likely[1]),
            room: name(advice.most_likely[2]),
            probability: advice.p_most_likely,
        },
    })
}

/// The advice as a text table.
pub fn render(doc: &AdviceDocument) -> String {
    let mut text = format!(
        "advice for {} ({} model): envelope entropy {:.3} bits, {} suggestions ranked\n",
        doc.player, doc.model, doc.envelope_entropy_bits, doc.considered
    );
    let _ = writeln!(
        text,
        "{:>4}  {:<44} {:>10} {:>9}",
        "rank", "suggestion", "gain bits", "P(shown)"
    );
    for s in &doc.suggestions {
        let _ = writeln!(
            text,
            "{:>4}  {:<44} {:>10.4} {:>9.3}",
            s.rank,
            format!("{}, {}, {}", s.suspect, s.weapon, s.room),
            s.expected_gain_bits,
            s.p_shown
        );
    }
    let a = &doc.accusation;
    let _ = writeln!(
        text,
        "accusation: {}, {}, {} wins with probability {:.4}{}",
        a.suspect,
        a.weapon,
        a.room,
        a.probability,
        if a.probability >= 1.0 {
            " (certain: accuse now)"
        } else {
            ""
        }
    );
    text
}
