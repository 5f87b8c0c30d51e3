//! The known-answer file, row by row: every published number of
//! `data/published.csv` is computed again, from a table set built by the
//! real pipeline where the tables hold it (read through the lookup crate)
//! and from the engines otherwise, and must agree within the row's
//! tolerance; one unit more or less in its last published digit must not
//! (so a mistyped row fails, and no tolerance is looser than the digits
//! published). A row this file has no check for is a failure, never skipped.

use crate::common;

use std::collections::HashMap;

use gametab_build::known_answers::{self, PublishedNumber, Unit};
use gametab_build::murder_plan::layers::Layers;
use gametab_build::murder_plan::successors::Successors;
use gametab_build::murder_plan::tables::start_label;
use gametab_build::murder_plan::turns::TurnTables;
use gametab_games::cluedo::{count_deals, Knowledge, Observer, Rules};
use gametab_games::dice::{
    BidQuestion, DiceInPlay, FaceClass, PosteriorQuestion, Reliability, Variant,
};
use gametab_games::murder_plan::model::{mastermind_actions, protagonist_actions};
use gametab_games::murder_plan::{LimitedCards, State};
use gametab_games::werewolf::{GameLog, Posterior};
use gametab_lookup::dice::{DiceTables, Source as DiceSource};
use gametab_lookup::Tables;

type Checked = Result<f64, String>;

/// Computes the published quantities: from the tables of one build, and
/// from the engines for what no table holds.
struct Checker {
    tables: Tables,
    /// Reachable layer sizes by horizon, enumerated on first use.
    layers: HashMap<u8, Vec<usize>>,
}

impl Checker {
    fn new() -> Checker {
        let tables = Tables::open(common::built_tables()).expect("the built tables open");
        Checker {
            tables,
            layers: HashMap::new(),
        }
    }

    /// The row's quantity computed again, in the row's unit.
    fn reproduce(&mut self, row: &PublishedNumber) -> Checked {
        match (row.game.as_str(), row.quantity.as_str()) {
            ("murder_plan", "win_rate") => self.win_rate(row),
            ("murder_plan", "value") => self.start_value(row),
            ("murder_plan", "non_winning_states") => self.layer_size(row),
            ("murder_plan", "legal_actions") => legal_actions(row),
            ("dice", quantity) => self.dice(row, quantity),
            ("cluedo", "deals") => cluedo_deals(row),
            ("werewolf", "wolf_sets") => werewolf_sets(row),
            (game, quantity) => Err(format!("no check for {game} {quantity}")),
        }
    }

    fn win_rate(&self, row: &PublishedNumber) -> Checked {
        row.expect_parameters(&["horizon", "start"]).map_err(text)?;
        let horizon: u8 = row.parse_parameter("horizon").map_err(text)?;
        let start = row.parse_parameter::<String>("start").map_err(text)?;
        let offsets = if start == "average" {
            None
        } else {
            let state = start_state(&start)?;
            Some((state.brain, state.killer))
        };
        let tables = self.tables.murder_plan().map_err(text)?;
        let rate = tables.win_rate(horizon, offsets);
        probability_in(row, rate.map_err(text)?)
    }

    fn start_value(&self, row: &PublishedNumber) -> Checked {
        row.expect_parameters(&["horizon", "start"]).map_err(text)?;
        let horizon: u8 = row.parse_parameter("horizon").map_err(text)?;
        let start = start_state(&row.parse_parameter::<String>("start").map_err(text)?)?;
        probability_in(
            row,
            self.tables
                .murder_plan()
                .and_then(|tables| tables.value(horizon, start))
                .map_err(text)?,
        )
    }

    fn layer_size(&mut self, row: &PublishedNumber) -> Checked {
        row.expect_parameters(&["horizon", "layer"]).map_err(text)?;
        let horizon: u8 = row.parse_parameter("horizon").map_err(text)?;
        let layer: usize = row.parse_parameter("layer").map_err(text)?;
        let sizes = self.layers.entry(horizon).or_insert_with(|| {
            // Layers 0..horizon: the states with 1..=horizon days left.
            let successors = Successors::new(&TurnTables::new());
            Layers::enumerate(&successors, horizon.saturating_sub(1)).sizes()
        });
        let size = sizes
            .get(layer)
            .ok_or_else(|| format!("no layer {layer} with horizon {horizon}"))?;
        count_in(row, *size as u128)
    }

    fn dice(&self, row: &PublishedNumber, quantity: &str) -> Checked {
        let dice = self.tables.dice().map_err(text)?;
        let value = match quantity {
            "raw_probability" | "normal_approximation" => {
                // Neither depends on the reliability: every stored one agrees.
                row.expect_parameters(&BID_CASE).map_err(text)?;
                let mut values = Vec::new();
                for &reliability in &dice.grid().reliabilities {
                    let stored = bid_row(dice, row, reliability)?;
                    values.push(match quantity {
                        "raw_probability" => stored.raw_probability,
                        _ => stored.normal_approximation,
                    });
                }
                if values.windows(2).any(|w| w[0] != w[1]) {
                    return Err(format!("{quantity} depends on the reliability: {values:?}"));
                }
                *values.first().ok_or("the dice grid has no reliability")?
            }
            "corrected_probability" | "ev_open" => {
                let mut names = BID_CASE.to_vec();
                names.push("reliability");
                row.expect_parameters(&names).map_err(text)?;
                let reliability = parse_reliability(row)?;
                let stored = bid_row(dice, row, reliability)?;
                match quantity {
                    "corrected_probability" => stored.corrected_probability,
                    _ => stored.ev_open,
                }
            }
            "bidder_posterior_mean" => {
                row.expect_parameters(&POSTERIOR_CASE).map_err(text)?;
                let question = PosteriorQuestion::new(
                    row.parse_parameter("total_dice").map_err(text)?,
                    row.parse_parameter("bidder_dice").map_err(text)?,
                    variant(row)?,
                    face_class(row)?,
                    row.parse_parameter("bid_count").map_err(text)?,
                    parse_reliability(row)?,
                )
                .map_err(text)?;
                let answer = dice.posterior(&question).map_err(text)?;
                if answer.source != DiceSource::Table {
                    return Err("the posterior is not in the table".into());
                }
                answer.value.mean()
            }
            _ => return Err(format!("no check for dice {quantity}")),
        };
        match (quantity, row.unit) {
            ("bidder_posterior_mean", Unit::Dice) => Ok(value),
            ("ev_open", Unit::Payoff) => Ok(value),
            ("bidder_posterior_mean" | "ev_open", unit) => Err(unit_error(unit)),
            _ => probability_in(row, value),
        }
    }
}

/// The key columns of a bid-probability row, without the reliability.
const BID_CASE: [&str; 7] = [
    "total_dice",
    "my_dice",
    "bidder_dice",
    "wild_ones",
    "face_class",
    "bid_count",
    "my_matching",
];

/// The key columns of a bidder-posterior question.
const POSTERIOR_CASE: [&str; 6] = [
    "total_dice",
    "bidder_dice",
    "wild_ones",
    "face_class",
    "bid_count",
    "reliability",
];

fn text(error: impl std::fmt::Display) -> String {
    error.to_string()
}

fn unit_error(unit: Unit) -> String {
    format!("unit {} does not fit the quantity", unit.name())
}

/// A probability in the row's unit (percent or probability).
fn probability_in(row: &PublishedNumber, probability: f64) -> Checked {
    match row.unit {
        Unit::Percent => Ok(100.0 * probability),
        Unit::Probability => Ok(probability),
        unit => Err(unit_error(unit)),
    }
}

/// A count, which only a `count` row may hold.
fn count_in(row: &PublishedNumber, count: u128) -> Checked {
    match row.unit {
        // Counts of the file are below 2^53 (the parser checks): exact.
        Unit::Count => Ok(count as f64),
        unit => Err(unit_error(unit)),
    }
}

/// The start state the win-rate table names `label` (`x=(0,1) y=(1,0)`).
fn start_state(label: &str) -> Result<State, String> {
    State::starts()
        .find(|&start| start_label(start) == label)
        .ok_or_else(|| format!("no start {label:?}"))
}

fn legal_actions(row: &PublishedNumber) -> Checked {
    row.expect_parameters(&[
        "side",
        "diagonal_left",
        "intrigue2_left",
        "forbid_movement_left",
    ])
    .map_err(text)?;
    let limited = LimitedCards {
        diagonal: row.parse_parameter("diagonal_left").map_err(text)?,
        intrigue_plus_two: row.parse_parameter("intrigue2_left").map_err(text)?,
        forbid_movement: row.parse_parameter("forbid_movement_left").map_err(text)?,
    };
    let actions = match row.parameter("side") {
        Some("mastermind") => mastermind_actions(limited).len(),
        Some("protagonists") => protagonist_actions(limited).len(),
        side => return Err(format!("no side {side:?}")),
    };
    count_in(row, actions as u128)
}

fn variant(row: &PublishedNumber) -> Result<Variant, String> {
    Ok(
        match row.parse_parameter::<bool>("wild_ones").map_err(text)? {
            true => Variant::WildOnes,
            false => Variant::Plain,
        },
    )
}

fn face_class(row: &PublishedNumber) -> Result<FaceClass, String> {
    let name = row.parse_parameter::<String>("face_class").map_err(text)?;
    FaceClass::ALL
        .into_iter()
        .find(|class| class.name() == name)
        .ok_or_else(|| format!("no face class {name:?}"))
}

fn parse_reliability(row: &PublishedNumber) -> Result<Reliability, String> {
    Reliability::new(row.parse_parameter("reliability").map_err(text)?).map_err(text)
}

/// The stored bid-probability row of the row's case at `reliability`.
fn bid_row(
    dice: &DiceTables,
    row: &PublishedNumber,
    reliability: Reliability,
) -> Result<gametab_games::dice::BidRow, String> {
    let in_play = DiceInPlay::new(
        row.parse_parameter("total_dice").map_err(text)?,
        row.parse_parameter("my_dice").map_err(text)?,
        row.parse_parameter("bidder_dice").map_err(text)?,
    )
    .map_err(text)?;
    let question = BidQuestion::new(
        in_play,
        variant(row)?,
        face_class(row)?,
        row.parse_parameter("bid_count").map_err(text)?,
        row.parse_parameter("my_matching").map_err(text)?,
        reliability,
    )
    .map_err(text)?;
    let answer = dice.bid(&question).map_err(text)?;
    if answer.source != DiceSource::Table {
        return Err(format!("rel={} is not in the table", reliability.value()));
    }
    Ok(answer.value)
}

fn cluedo_deals(row: &PublishedNumber) -> Checked {
    row.expect_parameters(&["players", "observer"])
        .map_err(text)?;
    if row.parameter("observer") != Some("spectator") {
        return Err("only a spectator's count is checked".into());
    }
    let rules = Rules::standard(row.parse_parameter("players").map_err(text)?).map_err(text)?;
    let knowledge = Knowledge::new(rules, Observer::Spectator).map_err(text)?;
    count_in(row, count_deals(&knowledge))
}

fn werewolf_sets(row: &PublishedNumber) -> Checked {
    row.expect_parameters(&["players", "wolves"])
        .map_err(text)?;
    let log: GameLog = serde_json::from_value(serde_json::json!({
        "players": row.parse_parameter::<u32>("players").map_err(text)?,
        "wolves": row.parse_parameter::<u32>("wolves").map_err(text)?,
        "events": [],
    }))
    .map_err(text)?;
    let posterior = Posterior::compute(&log.to_game().map_err(text)?).map_err(text)?;
    count_in(row, posterior.wolf_set_count() as u128)
}

/// One unit in the last digit of a published number (`0.01` for `77.37`,
/// `1` for a count).
fn last_digit_unit(value_text: &str) -> f64 {
    let decimals = value_text.split_once('.').map_or(0, |(_, d)| d.len());
    10f64.powi(-(decimals as i32))
}

/// A copy of `row` holding `value` instead.
fn with_value(row: &PublishedNumber, value: f64) -> PublishedNumber {
    PublishedNumber {
        value,
        ..row.clone()
    }
}

#[test]
fn every_published_number_reproduces_and_its_neighbours_do_not() {
    let rows = known_answers::all().unwrap();
    let mut checker = Checker::new();
    let mut failures = Vec::new();
    // Rows whose tolerance is a bound the spec gives rather than the digits.
    let mut spec_bounds = Vec::new();
    for row in &rows {
        let computed = match checker.reproduce(row) {
            Ok(computed) => computed,
            Err(problem) => {
                failures.push(format!("line {}: {}: {problem}", row.line, row.name()));
                continue;
            }
        };
        if !row.reproduced_by(computed) {
            failures.push(format!(
                "line {}: {}: computed {computed}, published {} (tolerance {})",
                row.line,
                row.name(),
                row.value_text,
                row.tolerance
            ));
        }
        let unit = last_digit_unit(&row.value_text);
        if row.tolerance >= unit {
            spec_bounds.push(row.name());
            continue;
        }
        for neighbour in [row.value - unit, row.value + unit] {
            if with_value(row, neighbour).reproduced_by(computed) {
                failures.push(format!(
                    "line {}: {}: computed {computed} also reproduces {neighbour}",
                    row.line,
                    row.name()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} published numbers fail:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
    // Only the value the spec gives "to 1e-12" is held to its bound instead.
    assert_eq!(
        spec_bounds,
        ["murder_plan value horizon=3;start=x=(0,0) y=(0,0)"]
    );
}

#[test]
fn rows_the_checks_do_not_understand_are_failures() {
    let mut checker = Checker::new();
    let rows = known_answers::parse(concat!(
        "game,quantity,parameters,value,tolerance,unit,source\n",
        "chess,wdl,fen=8/8,1,0,count,s\n",
        "murder_plan,win_rate,horizon=8;start=average;variant=x,77.16,0.005,percent,s\n",
        "murder_plan,win_rate,horizon=8,77.16,0.005,percent,s\n",
        "murder_plan,win_rate,horizon=8;start=average,77.16,0.005,dice,s\n",
        "murder_plan,win_rate,horizon=8;start=nowhere,77.16,0.005,percent,s\n",
        "murder_plan,legal_actions,side=brain;diagonal_left=true;intrigue2_left=true;\
         forbid_movement_left=3,136,0,count,s\n",
        "dice,corrected_probability,total_dice=20;my_dice=5;bidder_dice=5;wild_ones=false;\
         face_class=other;bid_count=5;my_matching=1;reliability=3,0.5,0.5,probability,s\n",
        "dice,ev_open,total_dice=20;my_dice=5;bidder_dice=5;wild_ones=false;\
         face_class=other;bid_count=5;my_matching=1;reliability=2,0.043,0.0005,probability,s\n",
        "cluedo,deals,players=3;observer=player,5557616064,0,count,s\n",
    ))
    .unwrap();
    let expected = [
        "no check for chess wdl",
        "unexpected parameter \"variant\"",
        "no parameter \"start\"",
        "unit dice does not fit",
        "no start \"nowhere\"",
        "no side Some(\"brain\")",
        // Off the table's reliabilities: answered by the engine, not the table.
        "rel=3 is not in the table",
        "unit probability does not fit",
        "only a spectator's count",
    ];
    assert_eq!(rows.len(), expected.len());
    for (row, expected) in rows.iter().zip(expected) {
        let problem = checker.reproduce(row).unwrap_err();
        assert!(problem.contains(expected), "{}: {problem}", row.name());
    }
}
