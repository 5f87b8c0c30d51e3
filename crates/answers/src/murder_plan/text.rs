//! The Murder Plan answers as text for the terminal (`gametab lookup`
//! without `--json`): the numbers of the documents [`super::query::document`]
//! builds, with fewer moves shown. The documents are the interface; this
//! is only their reading for a person.

use std::fmt::Write as _;

use gametab_lookup::murder_plan::MoveJson;

use crate::murder_plan::documents::SupportEntry;
use crate::murder_plan::query::Answer;

/// How many moves per side the text of a state shows (`--json` has them
/// all), and of a side's moves.
const MOVES_SHOWN: usize = 5;
const SIDE_MOVES_SHOWN: usize = 12;

/// A side's name as a possessive.
fn possessive(side: &str) -> String {
    if side.ends_with('s') {
        format!("{side}'")
    } else {
        format!("{side}'s")
    }
}

fn cards_text(key_person: &str, brain: &str, killer: &str) -> String {
    format!("{key_person} / {brain} / {killer}")
}

fn strategy_lines(out: &mut String, title: &str, strategy: &[SupportEntry]) {
    let _ = writeln!(out, "{title} (key person / brain / killer):");
    for entry in strategy {
        let c = &entry.cards;
        let _ = writeln!(
            out,
            "  {:.4}  {}",
            entry.probability,
            cards_text(c.card_on_key_person, c.card_on_brain, c.card_on_killer)
        );
    }
}

fn move_lines(out: &mut String, title: &str, moves: &[MoveJson], shown: usize) {
    let _ = writeln!(
        out,
        "{title}, best first (value, loss, equilibrium probability):"
    );
    for m in moves.iter().take(shown) {
        let _ = writeln!(
            out,
            "  {:.6}  {:.6}  {:.4}  {}",
            m.value,
            // A loss of -1e-16 is a rounding of 0.
            if m.loss.abs() < 5e-7 { 0.0 } else { m.loss },
            m.probability,
            cards_text(m.card_on_key_person, m.card_on_brain, m.card_on_killer)
        );
    }
    if moves.len() > shown {
        let _ = writeln!(
            out,
            "  ... and {} more (--json lists every move)",
            moves.len() - shown
        );
    }
}

/// The answer as text for the terminal (`gametab lookup` without
/// `--json`): the same numbers as the document, fewer moves.
pub fn render(answer: &Answer) -> String {
    let mut out = String::new();
    match answer {
        Answer::State(doc) => {
            let s = &doc.state;
            let _ = writeln!(
                out,
                "{} days left; brain {},{} killer {},{}; killer intrigue {}, key-person intrigue {}; \
                 diagonal left {}, intrigue+2 left {}, forbid-movement uses left {}",
                doc.days_left,
                s.brain[0],
                s.brain[1],
                s.killer[0],
                s.killer[1],
                s.killer_intrigue,
                s.key_person_intrigue,
                s.diagonal_left,
                s.intrigue2_left,
                s.forbid_movement_left
            );
            let won = if doc.mastermind_won {
                "; the mastermind has already won"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "mastermind wins with probability {:.6} (certificate gap {:.1e}; {}){won}",
                doc.value,
                doc.gap,
                if doc.reachable {
                    "reachable"
                } else {
                    "not reachable from a start"
                }
            );
            if !doc.mastermind_strategy.is_empty() {
                strategy_lines(&mut out, "mastermind's strategy", &doc.mastermind_strategy);
                strategy_lines(
                    &mut out,
                    "protagonists' strategy",
                    &doc.protagonists_strategy,
                );
                move_lines(
                    &mut out,
                    "mastermind's moves",
                    &doc.moves.mastermind,
                    MOVES_SHOWN,
                );
                move_lines(
                    &mut out,
                    "protagonists' moves",
                    &doc.moves.protagonists,
                    MOVES_SHOWN,
                );
            }
        }
        Answer::Moves(doc) => {
            let _ = writeln!(
                out,
                "{} days left: value {:.6} (certificate gap {:.1e})",
                doc.days_left, doc.value, doc.gap
            );
            move_lines(
                &mut out,
                &format!("{} moves", possessive(doc.side)),
                &doc.moves,
                SIDE_MOVES_SHOWN,
            );
        }
        Answer::Value(doc) => {
            let _ = writeln!(
                out,
                "{} days left: mastermind wins with probability {:.6} (certificate gap {:.1e}; {}{})",
                doc.days_left,
                doc.value,
                doc.gap,
                if doc.reachable {
                    "reachable"
                } else {
                    "not reachable from a start"
                },
                if doc.mastermind_won {
                    "; already won"
                } else {
                    ""
                }
            );
        }
        Answer::Strategy(doc) => {
            let _ = writeln!(out, "{} days left: value {:.6}", doc.days_left, doc.value);
            strategy_lines(
                &mut out,
                &format!("{} strategy", possessive(doc.side)),
                &doc.strategy,
            );
        }
        Answer::Sample(doc) => {
            let a = &doc.action;
            let _ = writeln!(
                out,
                "{} plays {} (key person / brain / killer; u = {}, {} days left)",
                doc.side,
                cards_text(a.card_on_key_person, a.card_on_brain, a.card_on_killer),
                doc.u,
                doc.days_left
            );
        }
        Answer::Brain(doc) => {
            let _ = writeln!(
                out,
                "the brain targets {} ({} days left): value {:.6}",
                doc.target, doc.days_left, doc.value
            );
        }
        Answer::WinRate(doc) => {
            let start = match (doc.brain, doc.killer) {
                (Some(b), Some(k)) => {
                    format!("from brain {},{} killer {},{}", b[0], b[1], k[0], k[1])
                }
                _ => "on average over the 16 starts".to_string(),
            };
            let _ = writeln!(
                out,
                "horizon {}: the mastermind wins with probability {:.6} {start}",
                doc.horizon, doc.value
            );
        }
        Answer::WinRates(doc) => {
            let _ = writeln!(out, "horizon  average   best start  worst start");
            for h in &doc.win_rates {
                let best = h.starts.iter().map(|s| s.value).fold(f64::MIN, f64::max);
                let worst = h.starts.iter().map(|s| s.value).fold(f64::MAX, f64::min);
                let _ = writeln!(
                    out,
                    "{:>7}  {:.6}  {:.6}    {:.6}",
                    h.horizon, h.average, best, worst
                );
            }
        }
    }
    out
}
