//! Schemas of the Murder Plan tables. Column meanings are documented in
//! `tables/README.md`; the state columns are the fields of
//! `State`, the key columns come first.

use crate::schema::{col, ColumnDef, ColumnType::*, TableSchema};

/// Version of every Murder Plan table schema.
pub const VERSION: u32 = 1;

macro_rules! state_columns {
    ($($rest:expr),* $(,)?) => {
        &[
            col("days_left", Int32),
            col("brain_x", Int32),
            col("brain_y", Int32),
            col("killer_x", Int32),
            col("killer_y", Int32),
            col("killer_intrigue", Int32),
            col("key_person_intrigue", Int32),
            col("diagonal_left", Bool),
            col("intrigue2_left", Bool),
            col("forbid_movement_left", Int32),
            $($rest),*
        ]
    };
}

/// Number of leading columns shared by every state-keyed table: days_left
/// and the nine state fields.
pub const STATE_KEY_COLUMNS: usize = 10;

const VALUE_COLUMNS: &[ColumnDef] = state_columns!(
    col("value", Float64),
    col("gap", Float64),
    col("reachable", Bool),
    col("canonical", Bool),
    col("mastermind_won", Bool),
);

const STRATEGY_COLUMNS: &[ColumnDef] = state_columns!(
    col("card_on_key_person", Utf8),
    col("card_on_brain", Utf8),
    col("card_on_killer", Utf8),
    col("probability", Float64),
);

const BRAIN_COLUMNS: &[ColumnDef] = state_columns!(col("target", Utf8), col("value", Float64));

/// `V_d(S)` for every state and every days_left in 0..=8.
pub const VALUES: TableSchema = TableSchema {
    name: "murder_plan_values",
    file: "murder_plan_values.parquet",
    version: VERSION,
    columns: VALUE_COLUMNS,
    key_columns: STATE_KEY_COLUMNS,
};

/// Support of the mastermind's optimal mixed strategy sigma*.
pub const MASTERMIND_STRATEGY: TableSchema = TableSchema {
    name: "murder_plan_mastermind_strategy",
    file: "murder_plan_mastermind_strategy.parquet",
    version: VERSION,
    columns: STRATEGY_COLUMNS,
    key_columns: STATE_KEY_COLUMNS + 3,
};

/// Support of the protagonists' optimal mixed strategy tau*.
pub const PROTAGONISTS_STRATEGY: TableSchema = TableSchema {
    name: "murder_plan_protagonists_strategy",
    file: "murder_plan_protagonists_strategy.parquet",
    version: VERSION,
    columns: STRATEGY_COLUMNS,
    key_columns: STATE_KEY_COLUMNS + 3,
};

/// The brain's choice in every post-card state.
pub const BRAIN_CHOICE: TableSchema = TableSchema {
    name: "murder_plan_brain_choice",
    file: "murder_plan_brain_choice.parquet",
    version: VERSION,
    columns: BRAIN_COLUMNS,
    key_columns: STATE_KEY_COLUMNS,
};

/// Optimal mastermind win rate for every horizon and start.
pub const WIN_RATES: TableSchema = TableSchema {
    name: "murder_plan_win_rates",
    file: "murder_plan_win_rates.parquet",
    version: VERSION,
    columns: &[
        col("horizon", Int32),
        col("start_index", Int32),
        col("start", Utf8),
        col("value", Float64),
    ],
    key_columns: 2,
};

/// Every Murder Plan table.
pub const ALL: [TableSchema; 5] = [
    VALUES,
    MASTERMIND_STRATEGY,
    PROTAGONISTS_STRATEGY,
    BRAIN_CHOICE,
    WIN_RATES,
];

/// The `start_index` of the row holding the average over the 16 starts.
pub const AVERAGE_START_INDEX: i32 = 16;
/// Largest horizon (and days_left) the tables cover.
pub const MAX_DAYS: u8 = 8;
