//! The schemas of the three Liar's Dice tables, shared by the pipeline that
//! writes them and [`super::DiceTables`] that reads them. `tables/README.md`
//! documents the same columns.

use crate::schema::{col, ColumnType::*, TableSchema};

/// Bid probabilities: one row per (total dice, my dice, bidder's dice, wild
/// ones, face class, reliability, bid count, my matching dice).
pub const BID_PROBABILITIES: TableSchema = TableSchema {
    name: "dice_bid_probabilities",
    file: "dice_bid_probabilities.parquet",
    version: 1,
    columns: &[
        col("total_dice", Int32),
        col("my_dice", Int32),
        col("bidder_dice", Int32),
        col("wild_ones", Bool),
        col("face_class", Utf8),
        col("reliability", Float64),
        col("bid_count", Int32),
        col("my_matching", Int32),
        col("raw_probability", Float64),
        col("corrected_probability", Float64),
        col("ev_open", Float64),
        col("normal_approximation", Float64),
    ],
    key_columns: 8,
};

/// Bidder posteriors: one row per (total dice, bidder's dice, wild ones,
/// face class, reliability, bid count, bidder's matching dice).
pub const BIDDER_POSTERIORS: TableSchema = TableSchema {
    name: "dice_bidder_posteriors",
    file: "dice_bidder_posteriors.parquet",
    version: 1,
    columns: &[
        col("total_dice", Int32),
        col("bidder_dice", Int32),
        col("wild_ones", Bool),
        col("face_class", Utf8),
        col("reliability", Float64),
        col("bid_count", Int32),
        col("bidder_matching", Int32),
        col("posterior_probability", Float64),
    ],
    key_columns: 7,
};

/// Decisions of the published rule in the standard game: one row per
/// (players, wild ones, reliability, my hand, standing bid count, standing
/// bid face).
pub const DECISIONS: TableSchema = TableSchema {
    name: "dice_decisions",
    file: "dice_decisions.parquet",
    version: 1,
    columns: &[
        col("players", Int32),
        col("wild_ones", Bool),
        col("reliability", Float64),
        col("hand", Int32),
        col("bid_count", Int32),
        col("bid_face", Int32),
        col("action", Utf8),
        col("raise_count", Int32),
        col("raise_face", Int32),
        col("expected_value", Float64),
    ],
    key_columns: 6,
};

/// The three tables, in build order.
pub const ALL: [TableSchema; 3] = [BID_PROBABILITIES, BIDDER_POSTERIORS, DECISIONS];
