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

/// Endgame values: one row per endgame (player 1's dice, player 2's dice,
/// sides, rules), solved exactly (a sequence-form LP, or the double oracle
/// over restricted LPs) and certified.
pub const ENDGAME_VALUES: TableSchema = TableSchema {
    name: "dice_endgame_values",
    file: "dice_endgame_values.parquet",
    version: 2,
    columns: &[
        col("dice_one", Int32),
        col("dice_two", Int32),
        col("sides", Int32),
        col("rules", Utf8),
        col("value", Float64),
        col("value_exact", Utf8),
        col("exploitability", Float64),
        col("best_response_one", Float64),
        col("best_response_two", Float64),
        col("method", Utf8),
        col("lp_solves", Int32),
        col("lp_rows", Int64),
        col("lp_columns", Int64),
        col("lp_nonzeros", Int64),
        col("full_lp_rows", Int64),
        col("full_lp_columns", Int64),
        col("full_lp_nonzeros", Int64),
    ],
    key_columns: 4,
};

/// Endgame strategies: one row per (game, player, bid history, hand,
/// action) with a positive equilibrium probability; every information set
/// of every player has at least one row, and an action without a row has
/// probability 0. Histories are bit sets of bid indices, hands and actions
/// small integers (`tables/README.md`). Row groups hold one (game, player)
/// and a range of histories each, so a reader decodes only those of the
/// histories it asks about.
pub const ENDGAME_STRATEGY: TableSchema = TableSchema {
    name: "dice_endgame_strategy",
    file: "dice_endgame_strategy.parquet",
    version: 2,
    columns: &[
        col("dice_one", Int32),
        col("dice_two", Int32),
        col("sides", Int32),
        col("rules", Utf8),
        col("player", Int32),
        col("history", Int32),
        col("hand", Int32),
        col("action", Int32),
        col("probability", Float64),
        col("reach", Float64),
        col("on_path", Bool),
    ],
    key_columns: 8,
};

/// Endgame posteriors: one row per (game, viewer, bid history, opponent's
/// hand) for every history that equilibrium play reaches, zeros included.
pub const ENDGAME_POSTERIORS: TableSchema = TableSchema {
    name: "dice_endgame_posteriors",
    file: "dice_endgame_posteriors.parquet",
    version: 2,
    columns: &[
        col("dice_one", Int32),
        col("dice_two", Int32),
        col("sides", Int32),
        col("rules", Utf8),
        col("viewer", Int32),
        col("history", Int32),
        col("opponent_hand", Int32),
        col("probability", Float64),
    ],
    key_columns: 7,
};

/// The three endgame tables, in build order.
pub const ENDGAME: [TableSchema; 3] = [ENDGAME_VALUES, ENDGAME_STRATEGY, ENDGAME_POSTERIORS];

/// Every Liar's Dice table, in build order: the three of the reliability
/// model, then the endgame's.
pub const EVERY: [TableSchema; 6] = [
    BID_PROBABILITIES,
    BIDDER_POSTERIORS,
    DECISIONS,
    ENDGAME_VALUES,
    ENDGAME_STRATEGY,
    ENDGAME_POSTERIORS,
];
