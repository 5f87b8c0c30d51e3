//! Turning a [`Solution`] into the Murder Plan tables (schemas in
//! `gametab_lookup::murder_plan::schema`, documented in tables/README.md).
//! Rows are emitted in key order: days_left, then the state in
//! [`State::index`] order (which is the order of the state columns), then,
//! for strategies, the card labels as strings.

use std::collections::BTreeMap;

use gametab_lookup::io::{Column, Strings, TableData};
use gametab_lookup::murder_plan::model::{Placement, State, STATE_COUNT};
use gametab_lookup::murder_plan::schema::{self, AVERAGE_START_INDEX};
use gametab_lookup::schema::TableSchema;

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
            format!("{:e}", crate::matrix_game::GAP_TOLERANCE),
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

    fn into_columns(self) -> Vec<Column> {
        vec![
            Column::Int32(self.days_left),
            Column::Int32(self.brain_x),
            Column::Int32(self.brain_y),
            Column::Int32(self.killer_x),
            Column::Int32(self.killer_y),
            Column::Int32(self.killer_intrigue),
            Column::Int32(self.key_person_intrigue),
            Column::Bool(self.diagonal_left),
            Column::Bool(self.intrigue2_left),
            Column::Int32(self.forbid_movement_left),
        ]
    }
}

fn table(schema: TableSchema, columns: Vec<Column>, max_days: u8) -> TableData {
    TableData {
        schema,
        columns,
        params: rule_params(max_days),
    }
}

/// The values table: every state for every days_left in 0..=max_days.
pub fn values(solution: &Solution, layers: &Layers) -> TableData {
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
        Column::Float64(value),
        Column::Float64(gap),
        Column::Bool(reachable),
        Column::Bool(canonical),
        Column::Bool(won),
    ]);
    table(schema::VALUES, columns, solution.max_days)
}

/// One side's strategy table: the support of its optimal mixed strategy in
/// every non-winning state with days_left >= 1.
fn strategy_table<Card: Copy>(
    solution: &Solution,
    schema: TableSchema,
    pick: impl Fn(&Solution, State, &[f64], &[f64]) -> Vec<(Placement<Card>, f64)>,
    label: impl Fn(Card) -> &'static str,
) -> TableData {
    let mut keys = StateKeys::default();
    let (mut on_key_person, mut on_brain, mut on_killer, mut probability) =
        (Strings::new(), Strings::new(), Strings::new(), Vec::new());
    for d in 1..=solution.max_days {
        for state in State::all().filter(|s| !s.is_win()) {
            let Some((row, col)) = solution.strategies(d, state) else {
                continue;
            };
            let mut support: Vec<_> = pick(solution, state, &row, &col)
                .into_iter()
                .filter(|&(_, p)| p > 0.0)
                .map(|(a, p)| ([label(a.key_person), label(a.brain), label(a.killer)], p))
                .collect();
            support.sort_by(|a, b| a.0.cmp(&b.0));
            for (labels, p) in support {
                keys.push(d, state);
                on_key_person.push(labels[0]);
                on_brain.push(labels[1]);
                on_killer.push(labels[2]);
                probability.push(p);
            }
        }
    }
    let mut columns = keys.into_columns();
    columns.extend([
        Column::Utf8(on_key_person),
        Column::Utf8(on_brain),
        Column::Utf8(on_killer),
        Column::Float64(probability),
    ]);
    table(schema, columns, solution.max_days)
}

/// The mastermind's strategy table (sigma*).
pub fn mastermind_strategy(solution: &Solution) -> TableData {
    strategy_table(
        solution,
        schema::MASTERMIND_STRATEGY,
        |s, state, row, _| {
            let actions = &s.turns.get(state.limited).mastermind;
            actions.iter().copied().zip(row.iter().copied()).collect()
        },
        |card| card.label(),
    )
}

/// The protagonists' strategy table (tau*).
pub fn protagonists_strategy(solution: &Solution) -> TableData {
    strategy_table(
        solution,
        schema::PROTAGONISTS_STRATEGY,
        |s, state, _, col| {
            let actions = &s.turns.get(state.limited).protagonists;
            actions.iter().copied().zip(col.iter().copied()).collect()
        },
        |card| card.label(),
    )
}

/// The brain-choice table: every post-card state for days_left >= 1.
pub fn brain_choice(solution: &Solution) -> TableData {
    let mut keys = StateKeys::default();
    let (mut target, mut value) = (Vec::new(), Vec::new());
    for d in 1..=solution.max_days {
        for post in State::all() {
            let choice = solution.brain[usize::from(d)][post.index()];
            keys.push(d, post);
            target.push(choice.target.label().to_string());
            value.push(choice.value);
        }
    }
    let mut columns = keys.into_columns();
    columns.extend([Column::Utf8(target.into()), Column::Float64(value)]);
    table(schema::BRAIN_CHOICE, columns, solution.max_days)
}

/// Label of a start state in the win-rate table.
pub fn start_label(start: State) -> String {
    format!("x={} y={}", start.brain, start.killer)
}

/// The win-rate table: every horizon 1..=max_days and start, plus the
/// average over the 16 starts (start_index 16).
pub fn win_rates(solution: &Solution) -> TableData {
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
            Column::Int32(horizon),
            Column::Int32(start_index),
            Column::Utf8(start.into()),
            Column::Float64(value),
        ],
        solution.max_days,
    )
}

/// Every Murder Plan table, in [`schema::ALL`] order (built in parallel).
pub fn all(solution: &Solution, layers: &Layers) -> Vec<TableData> {
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
    vec![values, sigma, tau, brain, rates]
}
