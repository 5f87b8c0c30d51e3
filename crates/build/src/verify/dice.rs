//! Liar's Dice checks of `gametab verify`: each table is loaded by its
//! lookup-crate loader (ranges, key order, complete blocks, the grid in the
//! metadata), then a deterministic sample of rows (or every row) is
//! recomputed with the lookup crate's engine (`bid_odds`,
//! `bidder_posterior`, the published rule) and compared: integers and
//! labels exactly, probabilities and values within [`FLOAT_TOLERANCE`].

use gametab_games::dice::{
    bidder_posterior, Action, Bid, BidQuestion, BidRow, DecisionKey, DecisionRow, DiceGrid,
    DiceInPlay, Face, FaceClass, Hand, PosteriorQuestion, Reliability, Variant,
};
use gametab_lookup::dice::schema::{BIDDER_POSTERIORS, BID_PROBABILITIES, DECISIONS};
use gametab_lookup::dice::{grid_from_params, BidTable, DecisionTable, PosteriorTable};
use gametab_lookup::io::TableData;
use gametab_lookup::schema::TableSchema;

use super::files::LoadedFiles;
use super::report::{key_text, TableCheck};
use super::sample::sample_rows;
use super::Sampling;

/// Largest accepted difference between a stored float and the engine's (on
/// the machine that built the tables they agree bit for bit; the margin
/// covers another platform's `exp`/`ln`).
pub const FLOAT_TOLERANCE: f64 = 1e-12;

fn count(value: i32, column: &str) -> Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("{column} = {value} is negative"))
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The bid question of a row of the bid-probability table.
fn bid_question(data: &TableData, row: usize) -> Result<BidQuestion, String> {
    let int = |name: &str| {
        let column = data.i32s(name).map_err(err)?;
        count(column[row], name)
    };
    let dice = DiceInPlay::new(int("total_dice")?, int("my_dice")?, int("bidder_dice")?);
    let variant = Variant::from_wild_ones(data.bools("wild_ones").map_err(err)?[row]);
    let class = FaceClass::from_name(&data.strings("face_class").map_err(err)?[row]);
    let rel = Reliability::new(data.f64s("reliability").map_err(err)?[row]);
    BidQuestion::new(
        dice.map_err(err)?,
        variant,
        class.map_err(err)?,
        int("bid_count")?,
        int("my_matching")?,
        rel.map_err(err)?,
    )
    .map_err(err)
}

fn check_bid_row(data: &TableData, row: usize, check: &mut TableCheck) -> Result<(), String> {
    let expected = BidRow::compute(&bid_question(data, row)?);
    let key = || key_text(data, row);
    for (column, value) in [
        ("raw_probability", expected.raw_probability),
        ("corrected_probability", expected.corrected_probability),
        ("ev_open", expected.ev_open),
        ("normal_approximation", expected.normal_approximation),
    ] {
        let found = data.f64s(column).map_err(err)?[row];
        check.float(row, key, column, value, found, FLOAT_TOLERANCE);
    }
    Ok(())
}

fn check_posterior_row(data: &TableData, row: usize, check: &mut TableCheck) -> Result<(), String> {
    let int = |name: &str| {
        let column = data.i32s(name).map_err(err)?;
        count(column[row], name)
    };
    let question = PosteriorQuestion::new(
        int("total_dice")?,
        int("bidder_dice")?,
        Variant::from_wild_ones(data.bools("wild_ones").map_err(err)?[row]),
        FaceClass::from_name(&data.strings("face_class").map_err(err)?[row]).map_err(err)?,
        int("bid_count")?,
        Reliability::new(data.f64s("reliability").map_err(err)?[row]).map_err(err)?,
    )
    .map_err(err)?;
    let y = int("bidder_matching")?;
    if y > question.bidder_dice {
        return Err(format!("bidder_matching {y} exceeds the bidder's dice"));
    }
    let expected = bidder_posterior(&question).probability(y);
    let found = data.f64s("posterior_probability").map_err(err)?[row];
    let key = || key_text(data, row);
    check.float(
        row,
        key,
        "posterior_probability",
        expected,
        found,
        FLOAT_TOLERANCE,
    );
    Ok(())
}

/// The hand of a decisions-table code: its decimal digits, one face each.
fn hand_of_code(code: i32) -> Result<Hand, String> {
    let digits = code.to_string();
    let faces = digits
        .chars()
        .map(|c| {
            c.to_digit(10)
                .ok_or_else(|| format!("hand {code} is not a digit string"))
                .and_then(|pips| Face::new(pips).map_err(err))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Hand::new(faces).map_err(err)
}

fn check_decision_row(data: &TableData, row: usize, check: &mut TableCheck) -> Result<(), String> {
    let int = |name: &str| {
        let column = data.i32s(name).map_err(err)?;
        count(column[row], name)
    };
    let key = DecisionKey {
        players: int("players")?,
        variant: Variant::from_wild_ones(data.bools("wild_ones").map_err(err)?[row]),
        reliability: Reliability::new(data.f64s("reliability").map_err(err)?[row]).map_err(err)?,
        hand: hand_of_code(data.i32s("hand").map_err(err)?[row])?,
        standing: Bid::new(int("bid_count")?, Face::new(int("bid_face")?).map_err(err)?)
            .map_err(err)?,
    };
    let expected = DecisionRow::compute(&key).map_err(err)?;
    let (raise_count, raise_face) = match expected.action {
        Action::Open => (0, 0),
        Action::Raise(bid) => (
            i32::try_from(bid.count).unwrap_or(i32::MAX),
            i32::from(bid.face.pips()),
        ),
    };
    let text = || key_text(data, row);
    let action = &data.strings("action").map_err(err)?[row];
    check.exact(row, text, "action", expected.action.name(), action);
    let found_count = data.i32s("raise_count").map_err(err)?[row];
    check.exact(row, text, "raise_count", raise_count, found_count);
    let found_face = data.i32s("raise_face").map_err(err)?[row];
    check.exact(row, text, "raise_face", raise_face, found_face);
    let found_value = data.f64s("expected_value").map_err(err)?[row];
    check.float(
        row,
        text,
        "expected_value",
        expected.expected_value,
        found_value,
        FLOAT_TOLERANCE,
    );
    Ok(())
}

type RowCheck = fn(&TableData, usize, &mut TableCheck) -> Result<(), String>;

/// Load one table with its lookup loader and compare the sampled rows.
fn check_table(
    loaded: &LoadedFiles,
    schema: &TableSchema,
    loader: fn(bytes::Bytes) -> gametab_lookup::Result<()>,
    row_check: RowCheck,
    sampling: &Sampling,
) -> (TableCheck, Option<DiceGrid>) {
    let mut check = TableCheck::new(schema.file);
    let (Some(data), Some(bytes)) = (loaded.table(schema), loaded.bytes.get(schema.file)) else {
        return (check, None);
    };
    check.rows_total = data.rows();
    if let Err(e) = loader(bytes.clone()) {
        check.file_mismatch("file", "a table the lookup loader accepts", e);
    }
    let grid = grid_from_params(schema.name, &data.params).ok();
    for row in sample_rows(
        schema.name,
        data.rows(),
        sampling.rows(data.rows()),
        sampling.seed,
    ) {
        match row_check(data, row, &mut check) {
            Ok(()) => check.rows_checked += 1,
            Err(e) => check.mismatch(Some(row), key_text(data, row), "key", "a valid key", e),
        }
    }
    check.notes.push(format!(
        "recomputed by the lookup engine; integers and labels exact, floats within {FLOAT_TOLERANCE:e}"
    ));
    (check, grid)
}

/// Check the three Liar's Dice tables.
pub fn check(loaded: &LoadedFiles, sampling: &Sampling) -> Vec<TableCheck> {
    let (mut bids, bid_grid) = check_table(
        loaded,
        &BID_PROBABILITIES,
        |b| BidTable::from_bytes(b).map(drop),
        check_bid_row,
        sampling,
    );
    let (posteriors, posterior_grid) = check_table(
        loaded,
        &BIDDER_POSTERIORS,
        |b| PosteriorTable::from_bytes(b).map(drop),
        check_posterior_row,
        sampling,
    );
    let (decisions, decision_grid) = check_table(
        loaded,
        &DECISIONS,
        |b| DecisionTable::from_bytes(b).map(drop),
        check_decision_row,
        sampling,
    );
    if let Some(grid) = &bid_grid {
        for (other, file) in [
            (&posterior_grid, BIDDER_POSTERIORS.file),
            (&decision_grid, DECISIONS.file),
        ] {
            if other.as_ref().is_some_and(|g| g != grid) {
                bids.file_mismatch("params", format!("the grid of {file}"), "another grid");
            }
        }
    }
    let mut checks = vec![bids, posteriors, decisions];
    checks.extend(super::dice_endgame::check(loaded));
    checks
}
