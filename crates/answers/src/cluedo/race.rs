//! The accusation line of the advice: whether accusing before the envelope
//! is certain wins more races than waiting, given the opponents' progress
//! the log shows.
//!
//! A wrong accusation loses, so the question is only worth asking when an
//! opponent may win first. The rule is the one-step look-ahead of an
//! optimal-stopping problem, decided at the end of my turn:
//! - accusing now wins with `p_now`, the chance of the most likely triple;
//! - waiting one round and accusing after my next suggestion wins with
//!   about `S * R`, where `S` is the chance that no opponent accuses
//!   rightly before my next turn and `R` the chance that the most likely
//!   triple after my next suggestion is right (the best
//!   [`gametab_games::cluedo::Scored::p_right_after`] of the suggestions
//!   considered).
//!
//! Accuse now when `p_now > S * R`. `S` is the product over the opponents
//! still in of `1 - h(k)`, `h(k)` the measured chance that an opponent who
//! has made `k` suggestions is certain at their next turn
//! ([`OPPONENT_HAZARD`]). That is a model of the opponents (players who
//! suggest the most likely triple and accuse when certain), not a fact of
//! the log: the document says so in [`OPPONENT_MODEL`], and gives the
//! break-even `p_now / R` so that a player who judges the opponents
//! otherwise can decide for themselves.

use gametab_games::cluedo::GameLog;
use serde::Serialize;

/// Suggestions made after which [`OPPONENT_HAZARD`] pools its rows.
pub const HAZARD_TURNS: usize = 10;

/// `OPPONENT_HAZARD[N - 3][k]` (k < [`HAZARD_TURNS`], the last entry for
/// every larger k): the measured chance that an opponent in an N-player
/// race who has made k suggestions is certain (and accuses rightly) at
/// their next turn, when every player suggests the most likely triple and
/// accuses when certain (seeded standard deals, uniform responders, hashed
/// answers). Copied from the rows "opponent hazard, N=…" that
/// `CLUEDO_PLAYERS=3,4,5 CLUEDO_POLICIES=most-likely CLUEDO_THRESHOLDS=
/// CLUEDO_GAMES=2000 cargo bench --features bench --bench cluedo_race`
/// prints (N = 3, 4, 5: 2000 races each; N = 6: the same with
/// `CLUEDO_PLAYERS=6 CLUEDO_GAMES=600`, 600 races). A turn fewer than 50 opponents reached in those races carries
/// the last hazard measured on more (the bench prints the counts).
pub const OPPONENT_HAZARD: [[f64; HAZARD_TURNS]; 4] = [
    [
        0.009, 0.041, 0.084, 0.165, 0.254, 0.349, 0.631, 0.631, 0.631, 0.631,
    ],
    [
        0.008, 0.038, 0.098, 0.195, 0.366, 0.634, 0.634, 0.634, 0.634, 0.634,
    ],
    [
        0.009, 0.045, 0.120, 0.259, 0.481, 0.481, 0.481, 0.481, 0.481, 0.481,
    ],
    [
        0.013, 0.050, 0.171, 0.349, 0.349, 0.349, 0.349, 0.349, 0.349, 0.349,
    ],
];

/// What the race odds assume, in the document.
pub const OPPONENT_MODEL: &str = "the opponents are modelled as players who suggest the most \
    likely triple and accuse when certain: the chance that one who has made k suggestions wins \
    at their next turn is measured in seeded races (cargo bench --features bench --bench \
    cluedo_race); accuse now when the chance of winning now exceeds the chance of winning by \
    waiting one round, or, judging the opponents otherwise, when the chance that none of them \
    wins before your next turn is below the break-even";

/// One opponent's progress and threat.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpponentOdds {
    /// The opponent's name.
    pub player: String,
    /// Suggestions the log shows them making.
    pub suggestions: usize,
    /// The modelled chance that they win at their next turn.
    pub p_certain_next_turn: f64,
}

/// The race odds of accusing now against waiting one round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RaceOdds {
    /// The opponents still in (none has accused wrongly), in seat order.
    pub opponents: Vec<OpponentOdds>,
    /// `S`: the modelled chance that no opponent wins before my next turn.
    pub p_no_opponent_first: f64,
    /// Accusing now wins with this chance.
    pub p_win_accusing_now: f64,
    /// `R`: the chance that the most likely triple after my best next
    /// suggestion is right.
    pub p_right_after_next: f64,
    /// `S * R`: waiting one round, then accusing, wins about this often.
    pub p_win_waiting: f64,
    /// `p_now / R`: accusing now is the better bet exactly when `S` is
    /// below this. At most 1 (the expected best chance after an answer is
    /// never below the best chance now), and 1 exactly when no suggestion
    /// can sharpen the accusation.
    pub break_even_p_no_opponent_first: f64,
    /// Whether accusing now wins more races than waiting one round.
    pub accuse_now: bool,
    /// What the odds assume ([`OPPONENT_MODEL`]).
    pub note: &'static str,
}

/// The odds for the log's viewer, whose most likely triple now has chance
/// `p_now` and whose best suggestion leaves a most likely triple right with
/// chance `p_right_after_next` (positive: some triple is possible, and
/// it is at least `p_now`). When certain (`p_now` = 1), accuse.
pub fn race_odds(log: &GameLog, p_now: f64, p_right_after_next: f64) -> RaceOdds {
    let row = &OPPONENT_HAZARD[log.players.clamp(3, 6) - 3];
    let opponents: Vec<OpponentOdds> = (0..log.players as u8)
        .filter(|&s| s != log.viewer && !log.accusations.iter().any(|a| a.by == s))
        .map(|seat| {
            let suggestions = log.suggestions.iter().filter(|s| s.by == seat).count();
            OpponentOdds {
                player: log.name(gametab_games::cluedo::Seat(seat)),
                suggestions,
                p_certain_next_turn: row[suggestions.min(HAZARD_TURNS - 1)],
            }
        })
        .collect();
    let none_first: f64 = opponents
        .iter()
        .map(|o| 1.0 - o.p_certain_next_turn)
        .product();
    let waiting = none_first * p_right_after_next;
    RaceOdds {
        opponents,
        p_no_opponent_first: none_first,
        p_win_accusing_now: p_now,
        p_right_after_next,
        p_win_waiting: waiting,
        break_even_p_no_opponent_first: p_now / p_right_after_next,
        accuse_now: p_now >= 1.0 || p_now > waiting,
        note: OPPONENT_MODEL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gametab_games::cluedo::{LoggedAccusation, LoggedSuggestion};

    /// A three-player log (me at seat 0) in which seat 1 has made `one`
    /// suggestions and seat 2 `two`.
    fn log(one: usize, two: usize) -> GameLog {
        let suggestion = |by: u8| LoggedSuggestion {
            by,
            cards: vec!["Mrs White".into(), "Spanner".into(), "Library".into()],
            shown_by: None,
            card: None,
        };
        let mut suggestions: Vec<LoggedSuggestion> = (0..one).map(|_| suggestion(1)).collect();
        suggestions.extend((0..two).map(|_| suggestion(2)));
        GameLog {
            players: 3,
            viewer: 0,
            numbering: gametab_games::cluedo::Numbering::FromOne,
            names: vec!["me".into(), "Ann".into(), "Bob".into()],
            hand: Vec::new(),
            suggestions,
            accusations: Vec::new(),
            facts: Vec::new(),
        }
    }

    #[test]
    fn early_on_waiting_wins_more_and_late_accusing_now_does() {
        // Early: each opponent wins at their next turn with 0.009, so
        // waiting for a 0.9 accusation beats a 0.6 one now.
        let early = race_odds(&log(0, 0), 0.6, 0.9);
        let s = (1.0 - 0.009) * (1.0 - 0.009);
        assert!((early.p_no_opponent_first - s).abs() < 1e-15);
        assert!((early.p_win_waiting - s * 0.9).abs() < 1e-15);
        assert!(!early.accuse_now);
        assert!((early.break_even_p_no_opponent_first - 0.6 / 0.9).abs() < 1e-15);
        // Late: both opponents have made 7 suggestions (0.631 each), so
        // S = 0.369^2 and accusing now is the better bet.
        let late = race_odds(&log(7, 7), 0.6, 0.9);
        assert_eq!(late.opponents[0].player, "Ann");
        assert_eq!(late.opponents[1].suggestions, 7);
        assert!((late.p_no_opponent_first - 0.369 * 0.369).abs() < 1e-12);
        assert!(late.accuse_now);
        // Past the table's last row the last entry holds.
        let later = race_odds(&log(30, 3), 0.6, 0.9);
        assert_eq!(
            later.opponents[0].p_certain_next_turn,
            OPPONENT_HAZARD[0][9]
        );
        assert_eq!(
            later.opponents[1].p_certain_next_turn,
            OPPONENT_HAZARD[0][3]
        );
    }

    #[test]
    fn an_opponent_out_is_no_threat_and_certainty_accuses() {
        let mut out = log(7, 7);
        out.accusations.push(LoggedAccusation {
            by: 2,
            cards: vec!["Mrs White".into(), "Spanner".into(), "Library".into()],
        });
        let odds = race_odds(&out, 0.6, 0.9);
        assert_eq!(odds.opponents.len(), 1);
        assert!((odds.p_no_opponent_first - 0.369).abs() < 1e-12);
        // 0.6 > 0.369 * 0.9 = 0.332: accuse.
        assert!(odds.accuse_now);
        assert!(race_odds(&log(0, 0), 1.0, 1.0).accuse_now);
    }

    #[test]
    fn the_hazard_rows_are_chances_that_do_not_fall() {
        // Later turns know more, so a most-likely opponent is no less
        // likely to finish at them (the measured rows rise).
        for row in OPPONENT_HAZARD {
            assert!(row.iter().all(|h| (0.0..1.0).contains(h)));
            assert!(row.windows(2).all(|w| w[0] <= w[1]), "{row:?}");
        }
    }
}
