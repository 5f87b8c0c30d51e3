//! The rows of the three endgame tables from solved games: values with their
//! certificates and LP sizes, the strategies (every information set, its
//! actions of positive probability), and the equilibrium posteriors of the
//! histories that equilibrium play reaches.
//!
//! Rows follow the schemas' key order, all integers: a history is the bit
//! set of its bid indices (bids only rise, so the set is the history), a
//! hand its faces as decimal digits, an action 0 for the call or `10 *
//! count + face` for a bid. Within a game and player the strategy rows go
//! by rising history, then hand, then action; the strategy table's row
//! groups ([`StrategyTable::group_starts`]) each hold one (game, player)
//! and a run of whole histories, so that a query decodes only the groups
//! of the histories it asks about.
//!
//! The posterior rows are in `posteriors.rs`, the strategy columns in
//! `strategy_columns.rs`.
//!
//! A game whose dense strategy fits ([`fits`]) is written with every
//! information set of both players. A larger one ([`SparseGame`]) is
//! written from its stored support alone: the rows of the (hand, history)
//! entries the solver stored, and none for any other (hand, history) of
//! the player, which plays the default action there (the call, or at the
//! opening the lowest bid: `gametab_lookup::dice::default_action`), as in
//! the sparse certificate that certified the game. Its reaches and
//! posteriors are computed by walking the bids of each history (and the
//! histories equilibrium play reaches, depth first), never over all
//! `2^bids` histories, so memory stays that of its entries.

use crate::error::Result;

use gametab_games::dice::endgame::{Action, Endgame, History, Player, Strategy};
use gametab_lookup::io::{Column, Strings, TableData};

use gametab_solve::endgame::SolvedEndgame;

pub(super) use super::posteriors::{posterior_rows, sparse_posterior_rows, PosteriorColumns};
pub use super::sparse_game::SparseGame;
pub(super) use super::strategy_columns::{StrategyColumns, StrategySlices};
pub use super::values::{values_of, ValueRecord};
pub use gametab_lookup::dice::fits;

/// Rows a strategy row group holds at most before the next whole history
/// starts a new one: small enough that a query decodes a few of them in
/// well under a millisecond each.
pub const STRATEGY_GROUP_ROWS: usize = 1 << 16;

/// The actions at `history` in table order (the call, then the bids
/// rising: the order of their codes, [`Endgame::action_code`]).
pub fn actions_in_table_order(game: Endgame, history: History) -> Vec<Action> {
    game.actions(history).collect()
}

/// Own reach of every history for every hand of `strategy`'s player, dense
/// `[hand * H + history]`.
pub fn own_reaches(strategy: &Strategy) -> Vec<f64> {
    let game = strategy.game();
    let histories = game.history_count();
    let hands = game.hands(strategy.player()).len();
    let mut reach = Vec::with_capacity(hands * histories);
    for i in 0..hands {
        reach.extend(strategy.reaches(i));
    }
    reach
}

/// Both players' own reaches ([`own_reaches`]) and their chance-weighted
/// sums ([`weighted_reach`]) in a game's strategy pair, in player order.
pub(super) fn reaches_of(strategies: &[Strategy; 2]) -> ([Vec<f64>; 2], [Vec<f64>; 2]) {
    let own = strategies.each_ref().map(own_reaches);
    let weighted = [0, 1].map(|p| weighted_reach(&strategies[p], &own[p]));
    (own, weighted)
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
pub(super) struct GameKeys {
    dice_one: Vec<i32>,
    dice_two: Vec<i32>,
    sides: Vec<i32>,
    rules: Strings,
}

impl GameKeys {
    pub(super) fn new() -> GameKeys {
        GameKeys {
            dice_one: Vec::new(),
            dice_two: Vec::new(),
            sides: Vec::new(),
            rules: Strings::new(),
        }
    }

    pub(super) fn push(&mut self, game: Endgame, rows: usize) {
        let dice = |p| i32::from(game.dice(p));
        self.dice_one
            .extend(std::iter::repeat_n(dice(Player::One), rows));
        self.dice_two
            .extend(std::iter::repeat_n(dice(Player::Two), rows));
        self.sides
            .extend(std::iter::repeat_n(i32::from(game.sides()), rows));
        self.rules.push_repeated(game.rules_name(), rows);
    }

    pub(super) fn columns(self) -> [(&'static str, Column); 4] {
        [
            ("dice_one", Column::Int32(self.dice_one)),
            ("dice_two", Column::Int32(self.dice_two)),
            ("sides", Column::Int32(self.sides)),
            ("rules", Column::Utf8(self.rules)),
        ]
    }
}

/// A game to tabulate: with its dense strategies, or from its support.
#[derive(Debug, Clone, Copy)]
enum Source<'a> {
    Dense(&'a SolvedEndgame),
    Sparse(&'a SparseGame),
}

impl Source<'_> {
    fn game(self) -> Endgame {
        match self {
            Source::Dense(s) => s.game,
            Source::Sparse(s) => s.solved.game,
        }
    }

    /// The game's row of the values table: the same fields of a dense
    /// game's solution and of a sparse one's.
    fn record(self) -> ValueRecord {
        macro_rules! record_of {
            ($s:expr) => {{
                let s = $s;
                ValueRecord {
                    game: s.game,
                    value: s.value,
                    exact: s.exact,
                    certificate: s.certificate,
                    method: s.method,
                    lps: s.lps,
                    size: s.size,
                    full_size: s.full_size,
                }
            }};
        }
        match self {
            Source::Dense(s) => record_of!(s),
            Source::Sparse(g) => record_of!(&g.solved),
        }
    }
}

/// The key a game's rows are sorted by in every endgame table: dice of
/// player 1, of player 2, sides, rules.
pub fn key_order(game: Endgame) -> (u8, u8, u8, &'static str) {
    (
        game.dice(Player::One),
        game.dice(Player::Two),
        game.sides(),
        game.rules_name(),
    )
}

/// The games in key order ([`key_order`]).
fn in_key_order<'a>(games: &'a [SolvedEndgame], sparse: &'a [SparseGame]) -> Vec<Source<'a>> {
    let mut sorted: Vec<Source<'a>> = games
        .iter()
        .map(Source::Dense)
        .chain(sparse.iter().map(Source::Sparse))
        .collect();
    sorted.sort_by_key(|s| key_order(s.game()));
    sorted
}

/// The values table of the dense `games` and the `sparse` ones.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn values(games: &[SolvedEndgame], sparse: &[SparseGame]) -> Result<TableData> {
    values_of(in_key_order(games, sparse).into_iter().map(Source::record))
}

/// The strategy table and where its row groups start.
#[derive(Debug, Clone)]
pub struct StrategyTable {
    /// The rows.
    pub data: TableData,
    /// The first row of every row group: each (game, player) starts one,
    /// and within it a new one starts at the first whole history after
    /// [`STRATEGY_GROUP_ROWS`] rows.
    pub group_starts: Vec<usize>,
}

/// The three endgame tables of a set of solved games.
#[derive(Debug, Clone)]
pub struct EndgameRows {
    /// `dice_endgame_values`: one row per game.
    pub values: TableData,
    /// `dice_endgame_strategy`, with its row groups.
    pub strategy: StrategyTable,
    /// `dice_endgame_posteriors`.
    pub posteriors: TableData,
}

/// The rows of all three tables, in the schemas' key order: the dense
/// `games` with every information set, the `sparse` ones by their support
/// (the module doc).
///
/// The strategy table (millions of rows) is written in place: each (game,
/// player)'s rows are counted first, the columns allocated once at their
/// full length, and every (game, player) then fills its own stretch of
/// them, in parallel. Each game's reaches are computed once, for both its
/// strategy stretches and its posterior rows. The rows depend only on the
/// games, so the tables are the same bytes whatever the thread count.
///
/// # Errors
/// The columns do not fit the schema (a bug).
pub fn tables(games: &[SolvedEndgame], sparse: &[SparseGame]) -> Result<EndgameRows> {
    use rayon::prelude::*;
    let sorted = in_key_order(games, sparse);
    let parts: Vec<StrategyPart> = sorted
        .par_iter()
        .flat_map_iter(|&s| Player::BOTH.map(|p| StrategyPart::count(s, p)))
        .collect();
    let total = parts.iter().map(|p| p.rows).sum();
    // The rules column is dictionary-coded: each game's code is its rules
    // name's place among the names in order of first appearance, which is
    // the coding `Strings::push` would give.
    let mut names: Vec<&'static str> = Vec::new();
    let code_of = |name: &'static str, names: &mut Vec<&'static str>| match names
        .iter()
        .position(|&n| n == name)
    {
        Some(i) => i as u32,
        None => {
            names.push(name);
            (names.len() - 1) as u32
        }
    };
    let rule_codes: Vec<u32> = sorted
        .iter()
        .map(|s| code_of(s.game().rules_name(), &mut names))
        .collect();
    let mut columns = StrategyColumns::zeroed(total);
    let mut group_starts = Vec::new();
    let mut jobs: Vec<Vec<(&StrategyPart, StrategySlices<'_>)>> = Vec::new();
    let mut rest = columns.slices();
    let mut offset = 0;
    for (game, pair) in parts.chunks(2).enumerate() {
        let mut job = Vec::new();
        for part in pair {
            group_starts.extend(part.group_starts.iter().map(|g| g + offset));
            offset += part.rows;
            let (head, tail) = rest.split_at(part.rows);
            head.rules.fill(rule_codes[game]);
            job.push((part, head));
            rest = tail;
        }
        jobs.push(job);
    }
    let posteriors: Vec<PosteriorColumns> = jobs
        .into_par_iter()
        .zip(sorted.par_iter())
        .map(|(job, source)| match *source {
            Source::Dense(solved) => {
                let pair = &solved.strategies;
                let (own, weighted) = reaches_of(pair);
                job.into_par_iter()
                    .for_each(|(part, slices)| part.fill(pair, &own, &weighted, slices));
                posterior_rows(pair, &weighted)
            }
            Source::Sparse(game) => {
                job.into_par_iter()
                    .for_each(|(part, slices)| part.fill_sparse(game, slices));
                sparse_posterior_rows(game)
            }
        })
        .collect();
    let mut posterior_keys = GameKeys::new();
    let mut posterior = PosteriorColumns::default();
    for (source, rows) in sorted.iter().zip(posteriors) {
        posterior_keys.push(source.game(), rows.rows());
        posterior.append(rows);
    }
    if group_starts.is_empty() {
        group_starts.push(0);
    }
    Ok(EndgameRows {
        values: values(games, sparse)?,
        strategy: StrategyTable {
            data: columns.into_table(&names)?,
            group_starts,
        },
        posteriors: posterior.into_table(posterior_keys)?,
    })
}

/// One (game, player)'s stretch of the strategy table: every information
/// set of the player (of a sparse game, every one with entries), its
/// actions of positive probability, by (history, hand, action); counted
/// before it is filled.
pub(super) struct StrategyPart {
    player: Player,
    /// Its rows.
    pub(super) rows: usize,
    /// Where its row groups start, counted from its first row: one at the
    /// start, then one at each first whole history after
    /// [`STRATEGY_GROUP_ROWS`] rows.
    group_starts: Vec<usize>,
}

impl StrategyPart {
    /// Count the rows of `player` in `source`.
    fn count(source: Source<'_>, player: Player) -> StrategyPart {
        match source {
            Source::Dense(solved) => StrategyPart::count_dense(&solved.strategies, player),
            Source::Sparse(game) => StrategyPart::count_sparse(game, player),
        }
    }

    /// [`StrategyPart::count`] of a game's dense strategy pair: every
    /// information set's actions of positive probability.
    pub(super) fn count_dense(strategies: &[Strategy; 2], player: Player) -> StrategyPart {
        let mine = &strategies[player.index()];
        let game = mine.game();
        let hands = game.hands(player).len();
        let (mut rows, mut group, mut group_starts) = (0, usize::MAX, Vec::new());
        for h in (0..game.history_count() as u32).map(History) {
            if game.to_move(h) != player {
                continue;
            }
            if group >= STRATEGY_GROUP_ROWS {
                group_starts.push(rows);
                group = 0;
            }
            for i in 0..hands {
                let here = game
                    .actions(h)
                    .filter(|&a| mine.probability(i, h, a) > 0.0)
                    .count();
                rows += here;
                group += here;
            }
        }
        StrategyPart {
            player,
            rows,
            group_starts,
        }
    }

    /// [`StrategyPart::count`] of a sparse game: its entries, a row group
    /// started as for a dense game.
    pub(super) fn count_sparse(sparse: &SparseGame, player: Player) -> StrategyPart {
        let entries = sparse.entries(player);
        let (mut group, mut group_starts) = (usize::MAX, Vec::new());
        for (k, entry) in entries.iter().enumerate() {
            let new_history = k == 0 || entries[k - 1].1 != entry.1;
            if new_history && group >= STRATEGY_GROUP_ROWS {
                group_starts.push(k);
                group = 0;
            }
            group += 1;
        }
        StrategyPart {
            player,
            rows: entries.len(),
            group_starts,
        }
    }

    /// Fill the rows of a sparse game's player: his entries, each with its
    /// reach (chance, his own reach, the opponent's weighted reach: the
    /// factors and order of the dense [`StrategyPart::fill`]).
    pub(super) fn fill_sparse(&self, sparse: &SparseGame, out: StrategySlices<'_>) {
        let (game, p) = (sparse.game(), self.player);
        let hands = &sparse.hands[p.index()];
        out.dice_one.fill(i32::from(game.dice(Player::One)));
        out.dice_two.fill(i32::from(game.dice(Player::Two)));
        out.sides.fill(i32::from(game.sides()));
        out.player.fill(i32::from(p.number()));
        let mut opponent: Option<(u32, f64)> = None;
        for (row, &(hand, h, code, prob)) in sparse.entries(p).iter().enumerate() {
            let history = History(h);
            let weighted = match opponent {
                Some((at, w)) if at == h => w,
                _ => {
                    let w = sparse.weighted(p.opponent(), history);
                    opponent = Some((h, w));
                    w
                }
            };
            let i = usize::from(hand);
            let at = hands.probability(i) * sparse.own_reach(p, i, history) * weighted;
            let action = match code {
                0 => Action::Call,
                b => Action::Bid(b - 1),
            };
            out.history[row] = h as i32;
            out.hand[row] = hands.hand(i).code();
            out.action[row] = game.action_code(action);
            out.probability[row] = prob;
            out.reach[row] = at;
            out.on_path[row] = at > 0.0;
        }
    }

    /// Fill every column of `out` (exactly [`StrategyPart::rows`] rows)
    /// but the rules, which the caller codes, from both players' own
    /// reaches and chance-weighted reaches ([`reaches_of`]) in the game's
    /// `strategies`.
    pub(super) fn fill(
        &self,
        strategies: &[Strategy; 2],
        own: &[Vec<f64>; 2],
        weighted: &[Vec<f64>; 2],
        out: StrategySlices<'_>,
    ) {
        let p = self.player;
        let mine = &strategies[p.index()];
        let game = mine.game();
        let histories = game.history_count();
        let own = &own[p.index()];
        let opponent = &weighted[p.opponent().index()];
        let hands = game.hands(p);
        let codes: Vec<i32> = hands.iter().map(|h| h.code()).collect();
        out.dice_one.fill(i32::from(game.dice(Player::One)));
        out.dice_two.fill(i32::from(game.dice(Player::Two)));
        out.sides.fill(i32::from(game.sides()));
        out.player.fill(i32::from(p.number()));
        let mut row = 0;
        for h in (0..histories as u32).map(History) {
            if game.to_move(h) != p {
                continue;
            }
            let actions = actions_in_table_order(game, h);
            for (i, &code) in codes.iter().enumerate() {
                let at = hands.probability(i)
                    * own[i * histories + h.0 as usize]
                    * opponent[h.0 as usize];
                for &a in &actions {
                    let prob = mine.probability(i, h, a);
                    if prob > 0.0 {
                        out.history[row] = h.0 as i32;
                        out.hand[row] = code;
                        out.action[row] = game.action_code(a);
                        out.probability[row] = prob;
                        out.reach[row] = at;
                        out.on_path[row] = at > 0.0;
                        row += 1;
                    }
                }
            }
        }
        debug_assert_eq!(row, self.rows, "{game}: rows counted and filled differ");
    }
}
