//! Schema of the Cluedo few-candidate table. Column meanings are documented
//! in `tables/README.md`; the key columns come first.

use crate::schema::{col, ColumnType::*, TableSchema};

/// One row per (canonical few-candidate configuration, candidate).
pub const FEW_CANDIDATES: TableSchema = TableSchema {
    name: "cluedo_few_candidates",
    file: "cluedo_few_candidates.parquet",
    version: 1,
    columns: &[
        col("unknown_cards", Utf8),
        col("holders", Utf8),
        col("category", Int32),
        col("candidate", Int32),
        col("active_opponents", Int32),
        col("other_cards", Int32),
        col("deals", Int64),
        col("envelope_deals", Int64),
        col("p_envelope", Float64),
        col("p_heuristic", Float64),
    ],
    key_columns: 4,
};

/// Most opponents with unknown cards in a tabulated configuration.
pub const MAX_ACTIVE_OPPONENTS: usize = 3;
/// With exactly [`MAX_ACTIVE_OPPONENTS`] opponents holding unknown cards,
/// the most unknown cards they may hold in total.
pub const MAX_UNKNOWN_WITH_THREE_ACTIVE: usize = 4;
