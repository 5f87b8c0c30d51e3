//! The Liar's Dice endgame tables, loaded: every stored game's value and
//! certificate, and both players' behaviour strategies rebuilt densely from
//! the strategy table, so that a query (my hand, the bids so far) is
//! answered with my equilibrium action probabilities and the posterior over
//! the opponent's hand ([`Posterior::of`], the same function the build
//! wrote the posterior table with).

use std::collections::BTreeMap;

use bytes::Bytes;
use serde::Serialize;

use gametab_games::dice::endgame::{
    Action, Endgame, EndgameBid, History, Player, Posterior, Strategy, MAX_STRATEGY_SLOTS,
};

use super::schema::{ENDGAME_STRATEGY, ENDGAME_VALUES};
use crate::error::{Error, Result};
use crate::io::read_parquet;

/// One stored game.
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
    /// LP rows, columns and nonzeros.
    pub lp_size: [i64; 3],
    /// Both behaviour strategies, player 1's first.
    pub strategies: [Strategy; 2],
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
}

impl StoredEndgame {
    /// The answer after `history` (text, e.g. `15,16` or `1x5,1x6`) for the
    /// player to move, holding `hand` if given.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a history that does not parse or does not
    /// rise, or a hand that does not fit the player to move.
    pub fn at(&self, history: &str, hand: Option<&[u8]>) -> Result<EndgamePoint> {
        let game = self.game;
        let history = game.history_of(history)?;
        let mover = game.to_move(history);
        let (hand_text, actions) = match hand {
            Some(faces) => {
                let hands = game.hands(mover);
                let index = hands.index_of(faces).map_err(|e| match e {
                    gametab_games::Error::OutOfRange { detail, .. } => Error::OutOfRange {
                        what: "hand",
                        detail: format!("{detail} (player {} is to move)", mover.number()),
                    },
                    other => other.into(),
                })?;
                let strategy = &self.strategies[mover.index()];
                let actions = game
                    .actions(history)
                    .map(|a| ActionProbability {
                        action: match a {
                            Action::Call => "call".to_owned(),
                            Action::Bid(b) => game.bid(b).to_string(),
                        },
                        probability: strategy.probability(index, history, a),
                    })
                    .collect();
                (Some(hands.hand(index).to_string()), Some(actions))
            }
            None => (None, None),
        };
        let opponent = mover.opponent();
        let opponent_hands = game.hands(opponent);
        let posterior =
            Posterior::of(&self.strategies[opponent.index()], history).map(|posterior| {
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
        })
    }
}

/// Every stored endgame, by game.
#[derive(Debug, Clone, Default)]
pub struct EndgameTables {
    games: BTreeMap<Endgame, StoredEndgame>,
}

fn bad_row(table: &str, row: usize, detail: impl std::fmt::Display) -> Error {
    Error::BadRow {
        table: table.to_owned(),
        row,
        detail: detail.to_string(),
    }
}

impl EndgameTables {
    /// Decode the values and strategy tables and rebuild the strategies.
    ///
    /// # Errors
    /// As [`read_parquet`]; [`Error::BadRow`] for a game the rules refuse, a
    /// game listed twice, a strategy row of a game without a value row, a
    /// hand, history or action that does not belong to its game, rows out of
    /// key order, or an information set whose probabilities do not sum to 1.
    pub fn from_bytes(
        values: impl Into<Bytes>,
        strategy: impl Into<Bytes>,
    ) -> Result<EndgameTables> {
        let values = read_parquet(values.into(), &ENDGAME_VALUES)?;
        let table = ENDGAME_VALUES.name;
        let key = |data: &crate::io::TableData, row: usize| -> Result<Endgame> {
            let int = |name: &str| -> Result<u8> {
                let v = data.i32s(name)?[row];
                u8::try_from(v).map_err(|_| bad_row(data.schema.name, row, format!("{name} = {v}")))
            };
            let rules = &data.strings("rules")?[row];
            let wild = match rules {
                "normal" => false,
                "wild" => true,
                other => return Err(bad_row(data.schema.name, row, format!("rules '{other}'"))),
            };
            Endgame::new(int("dice_one")?, int("dice_two")?, int("sides")?, wild)
                .map_err(|e| bad_row(data.schema.name, row, e))
        };
        let mut games = BTreeMap::new();
        for row in 0..values.rows() {
            let game = key(&values, row)?;
            if Player::BOTH
                .iter()
                .any(|&p| Strategy::slots(game, p) > MAX_STRATEGY_SLOTS)
            {
                return Err(bad_row(
                    table,
                    row,
                    format!("{game} is larger than any stored endgame can be (more than {MAX_STRATEGY_SLOTS} strategy slots)"),
                ));
            }
            let f = |name: &str| -> Result<f64> { Ok(values.f64s(name)?[row]) };
            let i = |name: &str| -> Result<i64> { Ok(values.i64s(name)?[row]) };
            let stored = StoredEndgame {
                game,
                value: f("value")?,
                value_exact: values.strings("value_exact")?[row].to_owned(),
                exploitability: f("exploitability")?,
                best_responses: [f("best_response_one")?, f("best_response_two")?],
                lp_size: [i("lp_rows")?, i("lp_columns")?, i("lp_nonzeros")?],
                strategies: Player::BOTH.map(|p| Strategy::zero(game, p)),
            };
            if games.insert(game, stored).is_some() {
                return Err(bad_row(table, row, format!("{game} listed twice")));
            }
        }
        let data = read_parquet(strategy.into(), &ENDGAME_STRATEGY)?;
        let table = ENDGAME_STRATEGY.name;
        let (players, hands, histories, actions, probabilities) = (
            data.i32s("player")?,
            data.strings("hand")?,
            data.strings("history")?,
            data.strings("action")?,
            data.f64s("probability")?,
        );
        // Histories as bid lists, parsed once per distinct text.
        let parsed: Vec<std::result::Result<Vec<EndgameBid>, String>> = histories
            .dictionary()
            .iter()
            .map(|text| {
                text.split(',')
                    .filter(|p| !p.is_empty())
                    .map(|p| EndgameBid::parse(p).map_err(|e| e.to_string()))
                    .collect()
            })
            .collect();
        let mut previous: Option<(Endgame, u8, usize, Vec<u8>, u8)> = None;
        // Hands as faces, parsed once per distinct text; the hands of both
        // players of the current game, enumerated once per game (rows come
        // grouped by game).
        let hand_faces: Vec<Option<Vec<u8>>> = hands
            .dictionary()
            .iter()
            .map(|text| text.split(',').map(|f| f.trim().parse().ok()).collect())
            .collect();
        let mut current: Option<(Endgame, [gametab_games::dice::endgame::Hands; 2])> = None;
        for row in 0..data.rows() {
            let game = key(&data, row)?;
            if current.as_ref().is_none_or(|(g, _)| *g != game) {
                current = Some((game, Player::BOTH.map(|p| game.hands(p))));
            }
            let game_hands = &current.as_ref().expect("set just above").1;
            let stored = games.get_mut(&game).ok_or_else(|| {
                bad_row(
                    table,
                    row,
                    format!("{game} has no row in {}", ENDGAME_VALUES.name),
                )
            })?;
            let player = Player::from_number(players[row].max(0) as u32)
                .map_err(|e| bad_row(table, row, e))?;
            let faces = hand_faces[hands.codes()[row] as usize]
                .as_ref()
                .ok_or_else(|| bad_row(table, row, format!("hand '{}'", &hands[row])))?;
            let hand = game_hands[player.index()]
                .index_of(faces)
                .map_err(|e| bad_row(table, row, e))?;
            let bids = parsed[histories.codes()[row] as usize]
                .as_ref()
                .map_err(|e| bad_row(table, row, e))?;
            let mut history = History::EMPTY;
            let mut indices = Vec::with_capacity(bids.len());
            for &bid in bids {
                let index = game.bid_index(bid).map_err(|e| bad_row(table, row, e))?;
                if history.last().is_some_and(|last| index <= last) {
                    return Err(bad_row(table, row, "bids of the history do not rise"));
                }
                indices.push(index);
                history = history.then(index);
            }
            if game.to_move(history) != player {
                return Err(bad_row(
                    table,
                    row,
                    format!(
                        "player {} does not move after '{}'",
                        player.number(),
                        &histories[row]
                    ),
                ));
            }
            let action = match &actions[row] {
                "call" => Action::Call,
                text => Action::Bid(
                    EndgameBid::parse(text)
                        .and_then(|b| game.bid_index(b))
                        .map_err(|e| bad_row(table, row, e))?,
                ),
            };
            if !game.actions(history).any(|a| a == action) {
                return Err(bad_row(
                    table,
                    row,
                    format!("{} is not legal after '{}'", &actions[row], &histories[row]),
                ));
            }
            // Key order: game, player, hand, history (as a bid list), action
            // (bids rising, then the call).
            let action_rank = match action {
                Action::Bid(b) => b,
                Action::Call => u8::MAX,
            };
            let this = (game, player.number(), hand, indices, action_rank);
            if previous.as_ref().is_some_and(|p| *p >= this) {
                return Err(bad_row(table, row, "rows out of key order or repeated"));
            }
            let p = probabilities[row];
            if !(p > 0.0 && p <= 1.0) {
                return Err(bad_row(table, row, format!("probability {p}")));
            }
            stored.strategies[player.index()].set(hand, history, action, p);
            previous = Some(this);
        }
        for stored in games.values() {
            for strategy in &stored.strategies {
                strategy
                    .check(1e-9)
                    .map_err(|e| bad_row(table, data.rows(), e))?;
            }
        }
        Ok(EndgameTables { games })
    }

    /// The stored game `game`.
    ///
    /// # Errors
    /// [`Error::NotInTable`] when the tables do not hold it.
    pub fn game(&self, game: Endgame) -> Result<&StoredEndgame> {
        self.games.get(&game).ok_or_else(|| Error::NotInTable {
            table: ENDGAME_VALUES.name,
            key: game.to_string(),
        })
    }

    /// Every stored game, in key order.
    pub fn games(&self) -> impl Iterator<Item = &StoredEndgame> {
        self.games.values()
    }

    /// Number of stored games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is stored.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}
