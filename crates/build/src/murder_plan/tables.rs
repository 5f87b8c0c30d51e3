//! Turning a [`Solution`] into the Murder Plan tables (schemas in
//! `gametab_lookup::murder_plan::schema`, documented in tables/README.md).
//! Rows are emitted in key order: days_left, then the state in
//! [`State::index`] order (which is the order of the state columns), then,
//! for strategies, the card labels as strings.

use std::collections::BTreeMap;

use gametab_games::murder_plan::model::{LimitedCards, Placement, State, STATE_COUNT};
use gametab_lookup::io::{Column, Strings, TableData};
use gametab_lookup::murder_plan::schema::{self, AVERAGE_START_INDEX};
use gametab_lookup::schema::TableSchema;
use gametab_lookup::Result;

use super::layers::Layers;
use super::solver::Solution;

/// Rule parameters recorded in every Murder Plan table's metadata.
pub fn rule_params(max_days: u8) -> BTreeMap<String, String> {
    [
        ("max_days_left", max_days.to_string()),
        ("killer_intrigue_cap", "4".into()),
        ("key_person_intrigue_cap", "2".into()),
        ("forbid_movement_uses", "3".into()),
        (
            "starts",
            "16 uniform (x, y), no intrigue, all limited cards".into(),
        ),
        ("brain_tie_break", "killer > key_person > nobody".into()),
        (
            "gap_tolerance",
            format!("{:e}", gametab_solve::matrix_game::GAP_TOLERANCE),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Column builders for the ten leading state-key columns.
#[derive(Default)]
struct StateKeys {
    days_left: Vec<i32>,
    brain_x: Vec<i32>,
    brain_y: Vec<i32>,
    killer_x: Vec<i32>,
    killer_y: Vec<i32>,
    killer_intrigue: Vec<i32>,
    key_person_intrigue: Vec<i32>,
    diagonal_left: Vec<bool>,
    intrigue2_left: Vec<bool>,
    forbid_movement_left: Vec<i32>,
}

impl StateKeys {
    fn with_capacity(rows: usize) -> StateKeys {
        StateKeys {
            days_left: Vec::with_capacity(rows),
            brain_x: Vec::with_capacity(rows),
            brain_y: Vec::with_capacity(rows),
            killer_x: Vec::with_capacity(rows),
            killer_y: Vec::with_capacity(rows),
            killer_intrigue: Vec::with_capacity(rows),
            key_person_intrigue: Vec::with_capacity(rows),
            diagonal_left: Vec::with_capacity(rows),
            intrigue2_left: Vec::with_capacity(rows),
            forbid_movement_left: Vec::with_capacity(rows),
        }
    }

    fn push(&mut self, days_left: u8, s: State) {
        self.days_left.push(i32::from(days_left));
        self.brain_x.push(i32::from(s.brain.first()));
        self.brain_y.push(i32::from(s.brain.second()));
        self.killer_x.push(i32::from(s.killer.first()));
        self.killer_y.push(i32::from(s.killer.second()));
        self.killer_intrigue.push(i32::from(s.killer_intrigue));
        self.key_person_intrigue
            .push(i32::from(s.key_person_intrigue));
        self.diagonal_left.push(s.limited.diagonal);
        self.intrigue2_left.push(s.limited.intrigue_plus_two);
        self.forbid_movement_left
            .push(i32::from(s.limited.forbid_movement));
    }

    fn into_columns(self) -> Vec<(&'static str, Column)> {
        vec![
            ("days_left", Column::Int32(self.days_left)),
            ("brain_x", Column::Int32(self.brain_x)),
            ("brain_y", Column::Int32(self.brain_y)),
            ("killer_x", Column::Int32(self.killer_x)),
            ("killer_y", Column::Int32(self.killer_y)),
            ("killer_intrigue", Column::Int32(self.killer_intrigue)),
            (
                "key_person_intrigue",
                Column::Int32(self.key_person_intrigue),
            ),
            ("diagonal_left", Column::Bool(self.diagonal_left)),
            ("intrigue2_left", Column::Bool(self.intrigue2_left)),
            (
                "forbid_movement_left",
                Column::Int32(self.forbid_movement_left),
            ),
        ]
    }
}

/// The table of `schema` from its columns by name, with the rule
/// parameters of a build up to `max_days`.
fn table(
    schema: TableSchema,
    columns: Vec<(&'static str, Column)>,
    max_days: u8,
) -> Result<TableData> {
    TableData::from_named(schema, columns, rule_params(max_days))
}

/// The values table: every state for every days_left in 0..=max_days.
pub fn values(solution: &Solution, layers: &Layers) -> Result<TableData> {
    let mut keys = StateKeys::default();
    let (mut value, mut gap, mut reachable, mut canonical, mut won) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for d in 0..=solution.max_days {
        for state in State::all() {
            keys.push(d, state);
            value.push(solution.values[usize::from(d)][state.index()]);
            gap.push(solution.gaps[usize::from(d)][state.index()]);
            reachable.push(layers.reachable(solution.max_days, d, state));
            canonical.push(state.is_canonical());
            won.push(state.is_win());
        }
    }
    let mut columns = keys.into_columns();
    columns.extend([
        ("value", Column::Float64(value)),
        ("gap", Column::Float64(gap)),
        ("reachable", Column::Bool(reachable)),
        ("canonical", Column::Bool(canonical)),
        ("mastermind_won", Column::Bool(won)),
    ]);
    table(schema::VALUES, columns, solution.max_days)
}

/// One side's actions in one inventory: the three card labels of each and
/// its rank in label order (the row order of the strategy tables).
struct ActionLabels {
    labels: Vec<[&'static str; 3]>,
    rank: Vec<u32>,
}

impl ActionLabels {
    fn new<Card: Copy>(actions: &[Placement<Card>], label: impl Fn(Card) -> &'static str) -> Self {
        let labels: Vec<[&'static str; 3]> = actions
            .iter()
            .map(|a| [label(a.key_person), label(a.brain), label(a.killer)])
            .collect();
        let mut order: Vec<usize> = (0..labels.len()).collect();
        order.sort_by(|&a, &b| labels[a].cmp(&labels[b]));
        let mut rank = vec![0; labels.len()];
        for (position, &action) in order.iter().enumerate() {
            rank[action] = position as u32;
        }
        ActionLabels { labels, rank }
    }
}

/// Which side a strategy table is for.
#[derive(Clone, Copy)]
enum Side {
    Mastermind,
    Protagonists,
}

/// One side's strategy table: the support of its optimal mixed strategy in
/// every non-winning state with days_left >= 1, read straight from the
/// solved games (an axis-swapped state maps each action through the swap,
/// an involution, as [`Solution::strategies`] does).
fn strategy_table(solution: &Solution, schema: TableSchema, side: Side) -> Result<TableData> {
    let inventories: Vec<ActionLabels> = (0..16)
        .map(|i| {
            let limited = LimitedCards::from_index(i).expect("index < 16");
            let table = solution.turns.get(limited);
            match side {
                Side::Mastermind => ActionLabels::new(&table.mastermind, |c| c.label()),
                Side::Protagonists => ActionLabels::new(&table.protagonists, |c| c.label()),
            }
        })
        .collect();
    // Each solved game's support on this side, once: (action, probability).
    let supports: Vec<Vec<(usize, f64)>> = solution
        .games
        .iter()
        .map(|game| {
            let probabilities = match side {
                Side::Mastermind => &game.strategies.row,
                Side::Protagonists => &game.strategies.col,
            };
            (0..probabilities.len())
                .filter(|&j| probabilities[j] > 0.0)
                .map(|j| (j, probabilities[j]))
                .collect()
        })
        .collect();
    let rows: usize = solution.game_refs[1..]
        .iter()
        .flatten()
        .flatten()
        .map(|reference| supports[reference.game].len())
        .sum();
    let mut keys = StateKeys::with_capacity(rows);
    let (mut on_key_person, mut on_brain, mut on_killer, mut probability) = (
        Strings::with_capacity(rows),
        Strings::with_capacity(rows),
        Strings::with_capacity(rows),
        Vec::with_capacity(rows),
    );
    let mut support: Vec<(u32, usize, f64)> = Vec::new();
    for d in 1..=solution.max_days {
        let refs = &solution.game_refs[usize::from(d)];
        for state in State::all().filter(|s| !s.is_win()) {
            let Some(reference) = refs[state.index()] else {
                continue;
            };
            let table = solution.turns.get(state.limited);
            let swap = match side {
                Side::Mastermind => &table.mastermind_swap,
                Side::Protagonists => &table.protagonists_swap,
            };
            let labels = &inventories[state.limited.index()];
            support.clear();
            for &(j, p) in &supports[reference.game] {
                let action = if reference.swapped { swap[j] } else { j };
                support.push((labels.rank[action], action, p));
            }
            support.sort_unstable_by_key(|&(rank, ..)| rank);
            for &(_, action, p) in &support {
                let [key_person, brain, killer] = labels.labels[action];
                keys.push(d, state);
                on_key_person.push(key_person);
                on_brain.push(brain);
                on_killer.push(killer);
                probability.push(p);
            }
        }
    }
    let mut columns = keys.into_columns();
    columns.extend([
        ("card_on_key_person", Column::Utf8(on_key_person)),
        ("card_on_brain", Column::Utf8(on_brain)),
        ("card_on_killer", Column::Utf8(on_killer)),
        ("probability", Column::Float64(probability)),
    ]);
    table(schema, columns, solution.max_days)
}

/// The mastermind's strategy table (sigma*).
pub fn mastermind_strategy(solution: &Solution) -> Result<TableData> {
    strategy_table(solution, schema::MASTERMIND_STRATEGY, Side::Mastermind)
}

/// The protagonists' strategy table (tau*).
pub fn protagonists_strategy(solution: &Solution) -> Result<TableData> {
    strategy_table(solution, schema::PROTAGONISTS_STRATEGY, Side::Protagonists)
}

/// The brain-choice table: every post-card state for days_left >= 1.
pub fn brain_choice(solution: &Solution) -> Result<TableData> {
    let mut keys = StateKeys::default();
    let (mut target, mut value) = (Strings::new(), Vec::new());
    for d in 1..=solution.max_days {
        for post in State::all() {
            let choice = solution.brain[usize::from(d)][post.index()];
            keys.push(d, post);
            target.push(choice.target.label());
            value.push(choice.value);
        }
    }
    let mut columns = keys.into_columns();
    columns.extend([
        ("target", Column::Utf8(target)),
        ("value", Column::Float64(value)),
    ]);
    table(schema::BRAIN_CHOICE, columns, solution.max_days)
}

/// Label of a start state in the win-rate table.
pub fn start_label(start: State) -> String {
    format!("x={} y={}", start.brain, start.killer)
}

/// The win-rate table: every horizon 1..=max_days and start, plus the
/// average over the 16 starts (start_index 16).
pub fn win_rates(solution: &Solution) -> Result<TableData> {
    let (mut horizon, mut start_index, mut start, mut value) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for d in 1..=solution.max_days {
        let mut total = 0.0;
        for (i, s) in State::starts().enumerate() {
            let v = solution.values[usize::from(d)][s.index()];
            total += v;
            horizon.push(i32::from(d));
            start_index.push(i as i32);
            start.push(start_label(s));
            value.push(v);
        }
        horizon.push(i32::from(d));
        start_index.push(AVERAGE_START_INDEX);
        start.push("average".to_string());
        value.push(total / 16.0);
    }
    table(
        schema::WIN_RATES,
        vec![
            ("horizon", Column::Int32(horizon)),
            ("start_index", Column::Int32(start_index)),
            ("start", Column::Utf8(start.into())),
            ("value", Column::Float64(value)),
        ],
        solution.max_days,
    )
}

/// Every Murder Plan table, in [`schema::ALL`] order (built in parallel).
pub fn all(solution: &Solution, layers: &Layers) -> Result<Vec<TableData>> {
    debug_assert_eq!(solution.values[0].len(), STATE_COUNT);
    let ((values, sigma), (tau, (brain, rates))) = rayon::join(
        || {
            rayon::join(
                || values(solution, layers),
                || mastermind_strategy(solution),
            )
        },
        || {
            rayon::join(
                || protagonists_strategy(solution),
                || rayon::join(|| brain_choice(solution), || win_rates(solution)),
            )
        },
    );
    Ok(vec![values?, sigma?, tau?, brain?, rates?])
}
