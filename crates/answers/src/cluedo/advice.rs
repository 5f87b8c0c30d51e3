//! `gametab cluedo --log game.json --advise [--room R] [--top N] [--json]`:
//! every suggestion the logged player (the `viewer`) can make, ranked by the
//! default objective (the chance that the envelope is certain after the
//! answer; the document names the objective and its tie keys), with
//! P(nobody can answer), the information gain and the chance of being
//! shown a card beside it, the suggestions naming dead cards apart, and the
//! accusation report with its race line (accuse now or wait one round:
//! [`super::race`]). Engine: `gametab_games::cluedo::advise`. The JSON
//! document is the one `POST /v1/cluedo/advice` answers.

use std::fmt::Write as _;

use serde::Serialize;

use crate::error::{Error, Parameter, Result};

use super::race::{race_odds, RaceOdds};
use gametab_games::cluedo::{
    advise, Advice, Category, GameLog, Knowledge, Model, Response, Scored,
};

/// Most suggestions a document lists (`--top`, and the endpoint's `top`).
pub const MAX_TOP: u64 = 1000;

/// One outcome of a suggestion in the JSON document.
#[derive(Debug, Serialize)]
pub struct OutcomeLine {
    /// Who shows a card (`null`: nobody can).
    pub shown_by: Option<String>,
    /// The card shown (`null` when nobody shows).
    pub card: Option<String>,
    /// Its exact probability.
    pub probability: f64,
    /// Envelope triples still possible after it (1: certain).
    pub live_triples_after: usize,
    /// Entropy of the envelope after it, bits.
    pub envelope_entropy_bits: f64,
}

/// One ranked suggestion.
#[derive(Debug, Serialize)]
pub struct SuggestionLine {
    /// Rank, from 1, in the whole ranking.
    pub rank: usize,
    /// The suspect named.
    pub suspect: String,
    /// The weapon named.
    pub weapon: String,
    /// The room named.
    pub room: String,
    /// The named cards that cannot be in the envelope (mine, or placed):
    /// empty for a suggestion of live cards.
    pub dead_cards: Vec<String>,
    /// The chance that the envelope is certain after the answer.
    pub p_certain_after: f64,
    /// The chance that nobody can answer.
    pub p_nobody: f64,
    /// The chance that the most likely triple after the answer is right
    /// (accusing it then wins).
    pub p_right_after: f64,
    /// The expected log2 of the envelope triples still possible after the
    /// answer.
    pub live_bits_after: f64,
    /// Expected information gain about the envelope, bits.
    pub expected_gain_bits: f64,
    /// The chance that somebody shows me a card.
    pub p_shown: f64,
    /// Every outcome of positive probability.
    pub outcomes: Vec<OutcomeLine>,
}

/// The objective that ordered the ranking.
#[derive(Debug, Serialize)]
pub struct ObjectiveLine {
    /// Its name (`gametab_games::cluedo::Objective::name`).
    pub name: &'static str,
    /// The ranking rule in words, tie-breaks included.
    pub rule: &'static str,
}

/// The suggestions naming a card that cannot be in the envelope, apart.
#[derive(Debug, Serialize)]
pub struct DeadCardSuggestions {
    /// How many of the suggestions considered name a dead card.
    pub count: usize,
    /// Why they are apart, and what they were measured to cost.
    pub note: &'static str,
    /// The best of them (as many as `top`), ranked by the same objective.
    pub best: Vec<SuggestionLine>,
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
    /// Accusing now against waiting one round, given the opponents'
    /// progress in the log.
    pub race: RaceOdds,
}

/// The advice document.
#[derive(Debug, Serialize)]
pub struct AdviceDocument {
    /// The weighting of the log's past answers.
    pub model: &'static str,
    /// The objective that ordered the suggestions.
    pub objective: ObjectiveLine,
    /// The player advised (the log's `viewer`).
    pub player: String,
    /// Envelope triples still possible now.
    pub live_triples: usize,
    /// Entropy of the envelope now, bits.
    pub envelope_entropy_bits: f64,
    /// Suggestions considered (324 in the standard game, 36 in one room).
    pub considered: usize,
    /// The best suggestions naming live cards only, best first.
    pub suggestions: Vec<SuggestionLine>,
    /// The suggestions naming a dead card.
    pub dead_card_suggestions: DeadCardSuggestions,
    /// The accusation report.
    pub accusation: Accusation,
}

/// What [`DeadCardSuggestions::note`] says.
pub const DEAD_CARD_NOTE: &str = "a dead card (mine, or placed) cannot be in the envelope, so \
    a suggestion naming one is never answered by a card that solves its category, and 'nobody' \
    cannot solve the game at once as it does for three live cards; the measured cost of such \
    suggestions is in docs/development.md (the Cluedo advice)";

/// Compute the advice document of a parsed log: every suggestion (or those
/// in `room`), the best `top` of the live and of the dead-card ones kept.
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
            let not_a_room = |why: String| {
                Error::invalid(
                    Parameter::Room,
                    format!("room: '{name}' is not a room of this deck{why}"),
                )
            };
            let card = deck
                .parse_card(name)
                .map_err(|e| not_a_room(format!(": {e}")))?;
            if deck.category(card) != Category::Room {
                return Err(not_a_room(format!(
                    " ({} is a {})",
                    deck.card_name(card),
                    deck.category(card).name()
                )));
            }
            Some(card)
        }
    };
    let me = gametab_games::cluedo::Seat(log.viewer);
    let advice: Advice = advise(knowledge, model, me, room).map_err(Error::from_log)?;
    let name = |c| deck.card_name(c);
    let line = |rank: usize, s: &Scored| SuggestionLine {
        rank,
        suspect: name(s.cards[0]),
        weapon: name(s.cards[1]),
        room: name(s.cards[2]),
        dead_cards: s.dead.cards().map(name).collect(),
        p_certain_after: s.p_certain_after,
        p_nobody: s.p_nobody,
        p_right_after: s.p_right_after,
        live_bits_after: s.live_bits_after,
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
                live_triples_after: o.live_triples(),
                envelope_entropy_bits: o.envelope_entropy(),
            })
            .collect(),
    };
    // R of the race line: the best chance, over the suggestions
    // considered, that the most likely triple after the answer is right.
    let p_right_after_next = advice
        .ranking
        .iter()
        .map(|s| s.p_right_after)
        .fold(advice.p_most_likely, f64::max);
    let ranked = advice.ranking.iter().enumerate().map(|(i, s)| (i + 1, s));
    let suggestions = ranked
        .clone()
        .filter(|(_, s)| s.dead.is_empty())
        .take(top)
        .map(|(rank, s)| line(rank, s))
        .collect();
    let dead = ranked.filter(|(_, s)| !s.dead.is_empty());
    let dead_card_suggestions = DeadCardSuggestions {
        count: dead.clone().count(),
        note: DEAD_CARD_NOTE,
        best: dead.take(top).map(|(rank, s)| line(rank, s)).collect(),
    };
    Ok(AdviceDocument {
        model: model.name(),
        objective: ObjectiveLine {
            name: advice.objective.name(),
            rule: advice.objective.rule(),
        },
        player: log.name(me),
        live_triples: advice.live_triples,
        envelope_entropy_bits: advice.entropy_now,
        considered: advice.ranking.len(),
        suggestions,
        dead_card_suggestions,
        accusation: Accusation {
            suspect: name(advice.most_likely[0]),
            weapon: name(advice.most_likely[1]),
            room: name(advice.most_likely[2]),
            probability: advice.p_most_likely,
            race: race_odds(log, advice.p_most_likely, p_right_after_next),
        },
    })
}

/// The advice as a text table.
pub fn render(doc: &AdviceDocument) -> String {
    let mut text = format!(
        "advice for {} ({} model): {} envelope triples possible ({:.3} bits of entropy), {} \
         suggestions ranked by {}\n",
        doc.player,
        doc.model,
        doc.live_triples,
        doc.envelope_entropy_bits,
        doc.considered,
        doc.objective.name
    );
    let _ = writeln!(
        text,
        "{:>4}  {:<44} {:>10} {:>9} {:>9} {:>9}",
        "rank", "suggestion", "P(certain)", "P(nobody)", "gain bits", "P(shown)"
    );
    let row = |text: &mut String, s: &SuggestionLine| {
        let _ = writeln!(
            text,
            "{:>4}  {:<44} {:>10.4} {:>9.4} {:>9.4} {:>9.3}",
            s.rank,
            format!("{}, {}, {}", s.suspect, s.weapon, s.room),
            s.p_certain_after,
            s.p_nobody,
            s.expected_gain_bits,
            s.p_shown
        );
    };
    for s in &doc.suggestions {
        row(&mut text, s);
    }
    let dead = &doc.dead_card_suggestions;
    if dead.count > 0 {
        let _ = writeln!(
            text,
            "{} suggestions name a dead card (mine, or placed); the best of them:",
            dead.count
        );
        for s in dead.best.iter().take(3) {
            row(&mut text, s);
        }
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
    let r = &a.race;
    if a.probability < 1.0 {
        let opponents: Vec<String> = r
            .opponents
            .iter()
            .map(|o| {
                format!(
                    "{} {:.3} after {}",
                    o.player, o.p_certain_next_turn, o.suggestions
                )
            })
            .collect();
        let _ = writeln!(
            text,
            "race: accusing now wins {:.4}; waiting one round about {:.4} (no opponent wins first \
             {:.4} x best next {:.4}; opponents' chance at their next turn: {}): {} (break-even: \
             no opponent first below {:.4})",
            r.p_win_accusing_now,
            r.p_win_waiting,
            r.p_no_opponent_first,
            r.p_right_after_next,
            if opponents.is_empty() {
                "none left".to_string()
            } else {
                opponents.join(", ")
            },
            if r.accuse_now { "accuse now" } else { "wait" },
            r.break_even_p_no_opponent_first
        );
    }
    text
}
