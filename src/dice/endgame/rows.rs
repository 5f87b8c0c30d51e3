//! The rows of the three endgame tables from solved games: values with their
//! certificates and LP sizes, the strategies (every information set, its
//! actions of positive probability), and the equilibrium posteriors of the
//! histories that equilibrium play reaches.
//!
//! Rows follow the schemas' key order. Text keys sort as their bid sequences
//! do: a bid is written `COUNTxFACE` with one-digit counts and faces, so
//! string order is bid order, a history's text orders like the sequence of
//! its bids (prefixes first), and `call` sorts after every bid. Histories
//! are therefore visited depth first, each before its extensions.

use anyhow::Result;
use std::collections::BTreeMap;

use gametab_games::dice::endgame::{Action, Endgame, History, Player, Posterior, Strategy};
use gametab_lookup::dice::schema::{ENDGAME_POSTERIORS, ENDGAME_STRATEGY, ENDGAME_VALUES};
use gametab_lookup::io::{Column, Strings, TableData};

use super::SolvedEndgame;

/// Every history of `game` in table order: depth first, a history before
/// its extensions, extensions by rising bid.
pub fn histories_in_table_order(game: Endgame) -> Vec<History> {
    let mut order = Vec::with_capacity(game.history_count());
    let mut stack = vec![History::EMPTY];
    while let Some(h) = stack.pop() {
        order.push(h);
        let first = h.last().map_or(0, |l| l + 1);
        for b in (first..game.bid_count() as u8).rev() {
            stack.push(h.then(b));
        }
    }
    order
}

/// The actions at `history` in table order (bids rising, then the call).
pub fn actions_in_table_order(game: Endgame, history: History) -> Vec<Action> {
    let mut actions: Vec<Action> = game.actions(history).collect();
    actions.rotate_left(usize::from(!history.is_empty()));
    actions
}

/// The text of an action in the tables: `call` or the bid, `2x5`.
pub fn action_text(game: Endgame, action: Action) -> String {
    match action {
        Action::Call => "call".to_owned(),
        Action::Bid(b) => game.bid(b).to_string(),
    }
}

/// Own reach of every history for every hand of `strategy`'s player, dense
/// `[hand * H + history]`.
pub fn own_reaches(strategy: &Strategy) -> Vec<f64> {
    let game = strategy.game();
    let histories = game.history_count();
    let hands = game.hands(strategy.player()).len();
    let mut reach = Vec::with_capacity(hands * histories);
    for i in 0..hands {
        reach.extend((0..histories as u32).map(|h| strategy.reach(i, History(h))));
    }
    reach
}

/// `sum over hands of chance * own reach` of every history.
fn weighted_reach(strategy: &Strategy, own: &[f64]) -> Vec<f64> {
    let game = strategy.game();
    let hands = game.hands(strategy.player());
    let histories = game.history_count();
    let mut total = vec![0.0; histories];
    for i in 0..hands.len() {
        for (h, slot) in total.iter_mut().enumerate() {
            *slot += hands.probability(i) * own[i * histories + h];
        }
    }
    total
}

/// The four game-key columns, repeated `rows` times per game.
struct GameKeys {
    dice_one: Vec<i32>,
    dice_two: Vec<i32>,
    sides: Vec<i32>,
    rules: Strings,
}

impl GameKeys {
    fn new() -> GameKeys {
        GameKeys {
            dice_one: Vec::new(),
            dice_two: Vec::new(),
            sides: Vec::new(),
            rules: Strings::new(),
        }
    }

    fn push(&mut self, game: Endgame, rows: usize) {
        let dice = |p| i32::from(game.dice(p));
        self.dice_one
            .extend(std::iter::repeat_n(dice(Player::One), rows));
        self.dice_two
            .extend(std::iter::repeat_n(dice(Player::Two), rows));
        self.sides
            .extend(std::iter::repeat_n(i32::from(game.sides()), rows));
        self.rules.push_repeated(game.rules_name(), rows);
    }

    fn columns(self) -> [(&'static str, Column); 4] {
        [
            ("dice_one", Column::Int32(self.dice_one)),
            ("dice_two", Column::Int32(self.dice_two)),
            ("sides", Column::Int32(self.sides)),
            ("rules", Column::Utf8(self.rules)),
        ]
    }
}

/// The games in key order (dice of player 1, of player 2, sides, rules).
fn in_key_order(games: &[SolvedEndgame]) -> Vec<&SolvedEndgame> {
    let mut sorted: Vec<&SolvedEndgame> = games.iter().collect();
    sorted.sort_by_key(|s| {
        let g = s.game;
        (
            g.dice(Player::One),
            g.dice(Player::Two),
            g.sides(),
            g.rules_name(),
        )
    });
    sorted
}

/// The values table.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn values(games: &[SolvedEndgame]) -> Result<TableData> {
    let mut keys = GameKeys::new();
    let (mut value, mut exact, mut gap, mut upper, mut lower) = (
        Vec::new(),
        Strings::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    let (mut rows, mut columns, mut nonzeros) = (Vec::new(), Vec::new(), Vec::new());
    for solved in in_key_order(games) {
        keys.push(solved.game, 1);
        value.push(solved.value);
        exact.push(&solved.exact.map(|f| f.to_string()).unwrap_or_default());
        gap.push(solved.certificate.exploitability());
        upper.push(solved.certificate.upper);
        lower.push(solved.certificate.lower);
        rows.push(solved.size.rows as i64);
        columns.push(solved.size.columns as i64);
        nonzeros.push(solved.size.nonzeros as i64);
    }
    let mut named: Vec<(&str, Column)> = keys.columns().into();
    named.extend([
        ("value", Column::Float64(value)),
        ("value_exact", Column::Utf8(exact)),
        ("exploitability", Column::Float64(gap)),
        ("best_response_one", Column::Float64(upper)),
        ("best_response_two", Column::Float64(lower)),
        ("lp_rows", Column::Int64(rows)),
        ("lp_columns", Column::Int64(columns)),
        ("lp_nonzeros", Column::Int64(nonzeros)),
    ]);
    Ok(TableData::from_named(
        ENDGAME_VALUES,
        named,
        BTreeMap::new(),
    )?)
}

/// The strategy table.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn strategies(games: &[SolvedEndgame]) -> Result<TableData> {
    let mut keys = GameKeys::new();
    let (mut player, mut hand, mut history, mut action) =
        (Vec::new(), Strings::new(), Strings::new(), Strings::new());
    let (mut probability, mut reach, mut on_path) = (Vec::new(), Vec::new(), Vec::new());
    for solved in in_key_order(games) {
        let game = solved.game;
        let order = histories_in_table_order(game);
        let histories = game.history_count();
        let texts: Vec<String> = (0..histories as u32)
            .map(|h| game.history_text(History(h)))
            .collect();
        let mut rows = 0;
        for p in Player::BOTH {
            let mine = &solved.strategies[p.index()];
            let theirs = &solved.strategies[p.opponent().index()];
            let own = own_reaches(mine);
            let opponent = weighted_reach(theirs, &own_reaches(theirs));
            let hands = game.hands(p);
            for (i, h_text) in hands.iter().map(|h| h.to_string()).enumerate() {
                for &h in order.iter().filter(|&&h| game.to_move(h) == p) {
                    let at = hands.probability(i)
                        * own[i * histories + h.0 as usize]
                        * opponent[h.0 as usize];
                    for a in actions_in_table_order(game, h) {
                        let prob = mine.probability(i, h, a);
                        if prob > 0.0 {
                            player.push(i32::from(p.number()));
                            hand.push(&h_text);
                            history.push(&texts[h.0 as usize]);
                            action.push(&action_text(game, a));
                            probability.push(prob);
                            reach.push(at);
                            on_path.push(at > 0.0);
                            rows += 1;
                        }
                    }
                }
            }
        }
        keys.push(game, rows);
    }
    let mut named: Vec<(&str, Column)> = keys.columns().into();
    named.extend([
        ("player", Column::Int32(player)),
        ("hand", Column::Utf8(hand)),
        ("history", Column::Utf8(history)),
        ("action", Column::Utf8(action)),
        ("probability", Column::Float64(probability)),
        ("reach", Column::Float64(reach)),
        ("on_path", Column::Bool(on_path)),
    ]);
    Ok(TableData::from_named(
        ENDGAME_STRATEGY,
        named,
        BTreeMap::new(),
    )?)
}

/// The posterior table: for each viewer and each history that equilibrium
/// play reaches (both players' reach positive for some hands), the
/// opponent's hand distribution ([`Posterior::of`]).
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn posteriors(games: &[SolvedEndgame]) -> Result<TableData> {
    let mut keys = GameKeys::new();
    let (mut viewer, mut history, mut opponent_hand, mut probability) =
        (Vec::new(), Strings::new(), Strings::new(), Vec::new());
    for solved in in_key_order(games) {
        let game = solved.game;
        let reach = Player::BOTH.map(|p| {
            let s = &solved.strategies[p.index()];
            weighted_reach(s, &own_reaches(s))
        });
        let order = histories_in_table_order(game);
        let mut rows = 0;
        for v in Player::BOTH {
            let opponent = v.opponent();
            let hands: Vec<String> = game.hands(opponent).iter().map(|h| h.to_string()).collect();
            for &h in &order {
                if reach[0][h.0 as usize] * reach[1][h.0 as usize] <= 0.0 {
                    continue;
                }
                let Some(posterior) = Posterior::of(&solved.strategies[opponent.index()], h) else {
                    continue;
                };
                let text = game.history_text(h);
                for (w, p) in posterior.probabilities.iter().enumerate() {
                    viewer.push(i32::from(v.number()));
                    history.push(&text);
                    opponent_hand.push(&hands[w]);
                    probability.push(*p);
                    rows += 1;
                }
            }
        }
        keys.push(game, rows);
    }
    let mut named: Vec<(&str, Column)> = keys.columns().into();
    named.extend([
        ("viewer", Column::Int32(viewer)),
        ("history", Column::Utf8(history)),
        ("opponent_hand", Column::Utf8(opponent_hand)),
        ("probability", Column::Float64(probability)),
    ]);
    Ok(TableData::from_named(
        ENDGAME_POSTERIORS,
        named,
        BTreeMap::new(),
    )?)
}
