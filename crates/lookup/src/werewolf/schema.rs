//! The schema of the Werewolf early-game table, shared by the builder in the
//! pipeline and [`EarlyGameTable`](super::EarlyGameTable). Documented for
//! people in `tables/README.md`.

use crate::schema::{col, ColumnDef, ColumnType::*, TableSchema};

const EARLY_COLUMNS: &[ColumnDef] = &[
    col("players", Int32),
    col("wolves", Int32),
    col("checked_is_wolf", Bool),
    col("votes_for_seer", Int32),
    col("votes_for_checked", Int32),
    col("votes_for_suspect", Int32),
    col("checked_votes", Utf8),
    col("suspect_votes", Utf8),
    col("first_player", Int32),
    col("role", Utf8),
    col("members", Int32),
    col("wolf_sets", Int64),
    col("joint_entropy_bits", Float64),
    col("p_wolf", Float64),
    col("information_gain_bits", Float64),
    col("published_score", Float64),
    col("recommended_published", Bool),
    col("recommended_probability", Bool),
    col("recommended_information", Bool),
    col("baseline_p_wolf", Float64),
    col("baseline_recommended", Bool),
];

/// One row per (early situation, non-empty candidate role): the exact
/// P(wolf), information gain and published score of the role, the
/// situation's wolf-set count and joint entropy, which role each rule
/// recommends, and the published approximate method's belief for
/// comparison. Key: the eight situation columns and `first_player` (the
/// role's first canonical seat, so the rows of a situation come in seat order).
pub const WEREWOLF_EARLY: TableSchema = TableSchema {
    name: "werewolf_early",
    file: "werewolf_early.parquet",
    version: 1,
    columns: EARLY_COLUMNS,
    key_columns: 9,
};
