//! The Liar's Dice endgame tables, loaded: every stored game's value and
//! certificate, and both players' behaviour strategies, read from the
//! strategy table only where a question needs them. A query (my hand, the
//! bids so far) is answered with my equilibrium action probabilities and
//! the posterior over the opponent's hand ([`Posterior::from_reaches`], the
//! function the build wrote the posterior table with), from the row groups
//! of the history and of its prefixes alone (the dice module's `endgame_groups`): a
//! process asking one question decodes a few thousand rows, not millions.
//! [`StoredEndgame::strategies`] decodes a whole game (for `gametab verify`
//! and for clients that walk the strategy).
//!
//! A (hand, history) of the mover without rows plays the default action
//! ([`default_action`]: the call, or at the opening the lowest bid). The
//! build writes every information set of the games whose dense strategy
//! fits ([`fits`]), so nothing of theirs is absent; of the larger games it
//! writes the stored support of the certified strategy alone, and the
//! default stands everywhere else, as in the sparse certificate that
//! certified them. [`StoredEndgame::at`] says when it answers with the
//! default ([`EndgamePoint::note`]); [`StoredEndgame::strategies`] decodes
//! the games that fit, [`StoredEndgame::rows`] the rows of any game.

use std::sync::Arc;

use serde::Serialize;

use gametab_games::dice::endgame::{
    Action, Endgame, History, Player, Posterior, Strategy, MAX_STRATEGY_SLOTS,
};

/// Most strategy rows one (game, player) may have in a file the loader
/// accepts: a player has at most one row per (hand, history) slot for his
/// bids and one for his call, so a dense game within
/// [`MAX_STRATEGY_SLOTS`] has fewer than twice that; the larger games,
/// stored by their support, have well under a million. The loader counts
/// the rows from the file's footer and refuses a game above this before
/// decoding any row, so a forged file cannot make a reader allocate more.
pub const MAX_STRATEGY_ROWS: usize = 2 * MAX_STRATEGY_SLOTS;

/// Whether both of `game`'s strategies fit the dense layout of
/// [`Strategy`] (at most [`MAX_STRATEGY_SLOTS`] slots each): the games the
/// build stores with every information set and [`StoredEndgame::strategies`]
/// decodes.
pub fn fits(game: Endgame) -> bool {
    Player::BOTH
        .iter()
        .all(|&p| Strategy::slots(game, p) <= MAX_STRATEGY_SLOTS)
}

/// The action a player takes at a (hand, history) of his without rows: the
/// call, or at the opening (where no call is legal) the lowest bid. It is
/// the solver's default (`gametab_solve::endgame::restricted::default_action`),
/// the play the sparse certificate certified there.
pub fn default_action(history: History) -> Action {
    if history.is_empty() {
        Action::Bid(0)
    } else {
        Action::Call
    }
}

/// The rows of one (hand, history): `(action, probability)` in action
/// order.
type InformationSet = Vec<(Action, f64)>;

/// One stored strategy row, decoded: (hand index in [`Endgame::hands`]
/// order, history, action, probability).
pub type StrategyRow = (u8, History, Action, f64);

use super::endgame_groups::{Group, Segment, StrategyFile};
use super::schema::ENDGAME_STRATEGY;
use crate::error::{Error, Result};

pub use super::endgame_tables::EndgameTables;

/// One stored game: its value row, and a handle on its strategy rows.
#[derive(Debug, Clone)]
pub struct StoredEndgame {
    /// The game.
    pub game: Endgame,
    /// Player 1's expected payoff at the equilibrium.
    pub value: f64,
    /// The value as a fraction (`p/q`), empty if none was recovered.
    pub value_exact: String,
    /// Exploitability of the stored pair (certificate).
    pub exploitability: f64,
    /// Player 1's best-response value against player 2's strategy, and
    /// player 1's payoff when player 2 best-responds.
    pub best_responses: [f64; 2],
    /// How it was solved: `full_lp` or `double_oracle`.
    pub method: String,
    /// LPs solved (the double oracle's rounds).
    pub lp_solves: i32,
    /// Rows, columns and nonzeros of the LP solved (the double oracle's
    /// final restricted LP).
    pub lp_size: [i64; 3],
    /// Rows, columns and nonzeros of the full game's sequence-form LP.
    pub full_lp_size: [i64; 3],
    pub(super) file: Arc<StrategyFile>,
}

/// One action's equilibrium probability at a point of the game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionProbability {
    /// `call` or the bid, `2x5`.
    pub action: String,
    /// Its probability.
    pub probability: f64,
}

/// The opponent's hand and its posterior probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandProbability {
    /// Faces, e.g. `3,5`.
    pub hand: String,
    /// Its probability given the bids.
    pub probability: f64,
}

/// The answer at one point of one game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EndgamePoint {
    /// The player to move after the history.
    pub to_move: u8,
    /// The bids so far, `COUNTxFACE` separated by commas.
    pub history: String,
    /// The mover's hand, when given.
    pub hand: Option<String>,
    /// The mover's equilibrium probability of each legal action (call
    /// first, then the bids upwards), when the hand is given.
    pub actions: Option<Vec<ActionProbability>>,
    /// The posterior over the opponent's hand; `None` off the equilibrium
    /// path (no hand of the opponent plays these bids).
    pub opponent_posterior: Option<Vec<HandProbability>>,
    /// Set when the tables hold no row for the mover's hand after these
    /// bids (a game stored by its support): the actions are then the
    /// default the certified strategy plays there ([`default_action`]).
    /// Absent from the JSON document otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl StoredEndgame {
    /// The decoded group of `player`'s rows that holds `history`, from
    /// `cache` if an earlier question of the same answer decoded it.
    fn group<'c>(
        &self,
        player: Player,
        history: History,
        cache: &'c mut Vec<(Segment, Group)>,
    ) -> Result<Option<&'c (Segment, Group)>> {
        let Some(key) = self.file.segment_of(self.game, player, history).cloned() else {
            return Ok(None);
        };
        let at = match cache.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let group = self.file.read(&key, false)?;
                cache.push((key, group));
                cache.len() - 1
            }
        };
        Ok(Some(&cache[at]))
    }

    /// `player`'s probabilities at `history` for every hand, `[hand]` of
    /// `(action, probability)` in action order, checked to be a
    /// distribution for every hand with rows; `None` for a hand without
    /// rows (it plays [`default_action`]).
    fn information_sets(
        &self,
        player: Player,
        history: History,
        cache: &mut Vec<(Segment, Group)>,
    ) -> Result<Vec<Option<InformationSet>>> {
        let hands = self.game.hands(player).len();
        let mut sets: Vec<Option<InformationSet>> = vec![None; hands];
        let Some((key, group)) = self.group(player, history, cache)? else {
            return Ok(sets);
        };
        for r in group.rows_of(history) {
            sets[usize::from(group.hand[r])]
                .get_or_insert_with(Vec::new)
                .push((group.action[r], group.probability[r]));
        }
        for (i, set) in sets.iter().enumerate() {
            let Some(set) = set else { continue };
            let sum: f64 = set.iter().map(|a| a.1).sum();
            if (sum - 1.0).abs() > 1e-9 {
                return Err(Error::BadRow {
                    table: ENDGAME_STRATEGY.name.to_owned(),
                    row: key.first_row + key.rows.start,
                    detail: format!(
                        "{}: player {}, hand {}, history '{}': probabilities sum to {sum}",
                        self.game,
                        player.number(),
                        self.game.hands(player).hand(i),
                        self.game.history_text(history)
                    ),
                });
            }
        }
        Ok(sets)
    }

    /// The answer after `history` (text, e.g. `15,16` or `1x5,1x6`) for the
    /// player to move, holding `hand` if given.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a history that does not parse or does not
    /// rise, or a hand that does not fit the player to move;
    /// [`Error::BadRow`] and [`Error::CorruptTable`] for rows of the
    /// strategy table it reads that fail their checks.
    pub fn at(&self, history: &str, hand: Option<&[u8]>) -> Result<EndgamePoint> {
        let game = self.game;
        let history = game.history_of(history)?;
        let mover = game.to_move(history);
        let mut cache = Vec::new();
        let mut note = None;
        let (hand_text, actions) = match hand {
            Some(faces) => {
                let hands = game.hands(mover);
                let index = hands.index_of(faces).map_err(|e| match e {
                    gametab_games::Error::OutOfRange { detail, .. } => Error::OutOfRange {
                        what: gametab_games::Argument::Hand,
                        detail: format!("{detail} (player {} is to move)", mover.number()),
                    },
                    other => other.into(),
                })?;
                let sets = self.information_sets(mover, history, &mut cache)?;
                if sets[index].is_none() {
                    note = Some(format!(
                        "the tables hold no row for this hand after these bids: the certified strategy plays its default here, {}",
                        match default_action(history) {
                            Action::Call => "the call".to_owned(),
                            Action::Bid(b) => format!("the lowest bid, {}", game.bid(b)),
                        }
                    ));
                }
                let probability = |a: Action| probability_in(&sets[index], history, a);
                let actions = game
                    .actions(history)
                    .map(|a| ActionProbability {
                        action: match a {
                            Action::Call => "call".to_owned(),
                            Action::Bid(b) => game.bid(b).to_string(),
                        },
                        probability: probability(a),
                    })
                    .collect();
                (Some(hands.hand(index).to_string()), Some(actions))
            }
            None => (None, None),
        };
        let opponent = mover.opponent();
        let opponent_hands = game.hands(opponent);
        // The opponent's own reach of the history with each hand: his
        // probabilities of his bids, in the order he made them.
        let mut reaches = vec![1.0; opponent_hands.len()];
        let mut prefix = History::EMPTY;
        for bid in history.bids() {
            if game.to_move(prefix) == opponent && reaches.iter().any(|&r| r != 0.0) {
                let sets = self.information_sets(opponent, prefix, &mut cache)?;
                for (reach, set) in reaches.iter_mut().zip(&sets) {
                    *reach *= probability_in(set, prefix, Action::Bid(bid));
                }
            }
            prefix = prefix.then(bid);
        }
        let posterior = Posterior::from_reaches(&opponent_hands, &reaches).map(|posterior| {
            posterior
                .probabilities
                .iter()
                .zip(opponent_hands.iter())
                .map(|(&probability, hand)| HandProbability {
                    hand: hand.to_string(),
                    probability,
                })
                .collect()
        });
        Ok(EndgamePoint {
            to_move: mover.number(),
            history: game.history_text(history),
            hand: hand_text,
            actions,
            opponent_posterior: posterior,
            note,
        })
    }

    /// Both behaviour strategies, player 1's first, decoded from every row
    /// of the game and checked: each information set with rows sums to 1,
    /// and every other one plays [`default_action`] (the build writes every
    /// information set of the games that fit, so none of theirs is
    /// absent).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a game whose dense strategy does not fit
    /// ([`fits`]: more than [`MAX_STRATEGY_SLOTS`] slots), refused before
    /// allocating: read its rows with [`StoredEndgame::rows`] instead. As
    /// [`StoredEndgame::at`] for every row of the game; [`Error::BadRow`]
    /// for an information set whose probabilities do not sum to 1.
    pub fn strategies(&self) -> Result<[Strategy; 2]> {
        if !fits(self.game) {
            return Err(Error::OutOfRange {
                what: gametab_games::Argument::Endgame,
                detail: format!(
                    "{} is stored by its support: its dense strategy would have more than {MAX_STRATEGY_SLOTS} (hand, history) slots; read its rows with StoredEndgame::rows (absent = the default action) or ask StoredEndgame::at",
                    self.game
                ),
            });
        }
        let mut strategies = Player::BOTH.map(|p| Strategy::zero(self.game, p));
        for strategy in &mut strategies {
            let player = strategy.player();
            let hands = self.game.hands(player).len();
            for h in (0..self.game.history_count() as u32).map(History) {
                if self.game.to_move(h) == player {
                    for i in 0..hands {
                        strategy.set(i, h, default_action(h), 1.0);
                    }
                }
            }
            let mut last_row = 0;
            let mut open = None;
            for key in self.file.segments_of(self.game, player) {
                let group = self.file.read(key, true)?;
                for r in 0..group.history.len() {
                    let (hand, history) = (usize::from(group.hand[r]), History(group.history[r]));
                    if open != Some((hand, history)) {
                        // The rows of this set replace the default.
                        strategy.set(hand, history, default_action(history), 0.0);
                        open = Some((hand, history));
                    }
                    strategy.set(hand, history, group.action[r], group.probability[r]);
                }
                last_row = key.first_row + key.rows.end;
            }
            strategy.check(1e-9).map_err(|e| Error::BadRow {
                table: ENDGAME_STRATEGY.name.to_owned(),
                row: last_row,
                detail: e.to_string(),
            })?;
        }
        Ok(strategies)
    }

    /// How many rows of the strategy table `player`'s strategy has (from
    /// the file's footer; none is decoded).
    pub fn stored_rows(&self, player: Player) -> usize {
        self.file
            .segments_of(self.game, player)
            .map(|k| k.rows.len())
            .sum()
    }

    /// Decode and check every row of the game: [`StoredEndgame::strategies`]
    /// for a game that fits a dense strategy, [`StoredEndgame::rows`] of
    /// both players for the others.
    ///
    /// # Errors
    /// As those two.
    pub fn check_rows(&self) -> Result<()> {
        if fits(self.game) {
            return self.strategies().map(|_| ());
        }
        for p in Player::BOTH {
            self.rows(p)?;
        }
        Ok(())
    }

    /// Every stored row of `player`'s strategy, decoded and checked (every
    /// key column, as [`StoredEndgame::strategies`] reads them), in key
    /// order: by history, then hand, then action. Every (hand, history)
    /// of the player without rows plays [`default_action`]. Memory is the
    /// rows, at most [`MAX_STRATEGY_ROWS`] (the loader refused more), so
    /// it serves every game, those too large for a dense strategy too.
    ///
    /// # Errors
    /// As [`StoredEndgame::at`] for every row of the player;
    /// [`Error::BadRow`] for an information set whose probabilities do not
    /// sum to 1.
    pub fn rows(&self, player: Player) -> Result<Vec<StrategyRow>> {
        // Grown as rows are decoded, not sized by the footer's claim.
        let mut rows: Vec<StrategyRow> = Vec::new();
        let mut sum = 0.0;
        let mut end_row = 0;
        for key in self.file.segments_of(self.game, player) {
            let group = self.file.read(key, true)?;
            for r in 0..group.history.len() {
                let row = (
                    group.hand[r],
                    History(group.history[r]),
                    group.action[r],
                    group.probability[r],
                );
                if rows
                    .last()
                    .is_some_and(|last| (last.0, last.1) != (row.0, row.1))
                {
                    self.check_sum(player, rows.last(), sum, end_row)?;
                    sum = 0.0;
                }
                sum += row.3;
                rows.push(row);
                end_row = key.first_row + key.rows.start + r;
            }
        }
        self.check_sum(player, rows.last(), sum, end_row)?;
        Ok(rows)
    }

    /// [`Error::BadRow`] unless `sum`, the probabilities of the information
    /// set of `last` (whose last row is `row`), is 1 within 1e-9.
    fn check_sum(
        &self,
        player: Player,
        last: Option<&StrategyRow>,
        sum: f64,
        row: usize,
    ) -> Result<()> {
        let Some(&(hand, history, _, _)) = last else {
            return Ok(());
        };
        if (sum - 1.0).abs() <= 1e-9 {
            return Ok(());
        }
        Err(Error::BadRow {
            table: ENDGAME_STRATEGY.name.to_owned(),
            row,
            detail: format!(
                "{}: player {}, hand {}, history '{}': probabilities sum to {sum}",
                self.game,
                player.number(),
                self.game.hands(player).hand(usize::from(hand)),
                self.game.history_text(history)
            ),
        })
    }
}

/// The probability of `action` at `history` in an information set's rows,
/// or by [`default_action`] when it has none.
fn probability_in(set: &Option<InformationSet>, history: History, action: Action) -> f64 {
    match set {
        Some(set) => set.iter().find(|x| x.0 == action).map_or(0.0, |x| x.1),
        None if action == default_action(history) => 1.0,
        None => 0.0,
    }
}
