//! The charts of the build, each drawn from a table set loaded and checked
//! by the lookup crate (the one `gametab build` has just verified; values
//! are read, never recomputed): Murder Plan win rates, Liar's Dice raw vs
//! corrected probabilities and Cluedo exact vs heuristic envelope
//! probabilities. The published numbers drawn beside them as crosses come
//! from the known-answer file (`data/published.csv`, [`crate::known_answers`]),
//! the copy the tests check against the tables.

use crate::error::{check, fail, Context, Result};
use gametab_games::cluedo::{FewCandidates, Opponents};
use gametab_games::dice::{BidQuestion, BidRow, DiceInPlay, FaceClass, Reliability, Variant};
use gametab_games::murder_plan::Offset;
use gametab_lookup::cluedo::schema::FEW_CANDIDATES;
use gametab_lookup::cluedo::Source;
use gametab_lookup::dice::schema::BID_PROBABILITIES;
use gametab_lookup::dice::Source as DiceSource;
use gametab_lookup::murder_plan::schema::{AVERAGE_START_INDEX, MAX_DAYS};
use gametab_lookup::Tables;

use super::chart::{LegendCorner, LineChart, Series, Stroke};
use crate::known_answers::{self, Unit};

const BLUE: (u8, u8, u8) = (31, 119, 180);
const RED: (u8, u8, u8) = (214, 39, 40);
const GREEN: (u8, u8, u8) = (44, 160, 44);
const PURPLE: (u8, u8, u8) = (148, 103, 189);
const GREY: (u8, u8, u8) = (110, 110, 110);
const BLACK: (u8, u8, u8) = (20, 20, 20);

/// Legend entry of the average curve of the Murder Plan charts.
const AVERAGE_LABEL: &str = "average over the 16 starts";

/// The `start` of the average over the 16 starts in the win-rate table and
/// in the published rows.
const AVERAGE_START: &str = "average";

/// The published Liar's Dice case (`docs/liars-dice.md`): 4 players
/// with 5 dice (N = 20, m = n_b = 5), no wilds, a bid on fives.
pub const DICE_CASE: (i32, i32, i32) = (20, 5, 5);

/// My fives k of the drawn Liar's Dice curves, with their colours.
const DICE_MY_FIVES: [(i32, (u8, u8, u8)); 2] = [(1, BLUE), (2, RED)];

/// The reliability of the light corrected curves (a bluffer).
const LOOSE_RELIABILITY: f64 = 0.5;

/// The reliability of the bold corrected curves (a bidder who bids what he
/// holds).
const FIRM_RELIABILITY: f64 = 2.0;

/// The published Murder Plan win rates (`data/published.csv`): (horizon D,
/// start as the win-rate table names it, percent), in file order, which is
/// the spec's table read row by row.
fn published_win_rates() -> Result<Vec<(u8, String, f64)>> {
    let rows = known_answers::select("murder_plan", "win_rate")?;
    check!(
        Check,
        !rows.is_empty(),
        "{} has no Murder Plan win rates",
        known_answers::FILE
    );
    rows.iter()
        .map(|row| {
            row.expect_parameters(&["horizon", "start"])?;
            if row.unit != Unit::Percent {
                return Err(row.error("a win rate in percent expected").into());
            }
            let start = row.parse_parameter::<String>("start")?;
            Ok((row.parse_parameter("horizon")?, start, row.value))
        })
        .collect()
}

/// The published Liar's Dice probabilities on the drawn curves
/// (`data/published.csv`): (bid count, percent) of every raw or corrected
/// probability of [`DICE_CASE`] whose my fives k and reliability is a curve
/// of the chart, in file order.
fn published_dice_points() -> Result<Vec<(i32, f64)>> {
    let (n, m, nb) = DICE_CASE;
    let mut points = Vec::new();
    for row in known_answers::all()? {
        let corrected = match (row.game.as_str(), row.quantity.as_str()) {
            ("dice", "raw_probability") => false,
            ("dice", "corrected_probability") => true,
            _ => continue,
        };
        let in_case = row.parse_parameter::<i32>("total_dice")? == n
            && row.parse_parameter::<i32>("my_dice")? == m
            && row.parse_parameter::<i32>("bidder_dice")? == nb
            && !row.parse_parameter::<bool>("wild_ones")?
            && row.parse_parameter::<String>("face_class")? == "other";
        let my_fives = row.parse_parameter::<i32>("my_matching")?;
        let drawn = DICE_MY_FIVES.iter().any(|&(k, _)| k == my_fives)
            && (!corrected
                || [LOOSE_RELIABILITY, FIRM_RELIABILITY]
                    .contains(&row.parse_parameter("reliability")?));
        if in_case && drawn {
            if row.unit != Unit::Probability {
                return Err(row.error("a probability expected").into());
            }
            points.push((row.parse_parameter("bid_count")?, 100.0 * row.value));
        }
    }
    check!(
        Check,
        !points.is_empty(),
        "{} has no probability of the charted Liar's Dice case",
        known_answers::FILE
    );
    Ok(points)
}

fn series(label: Option<String>, points: Vec<(f64, f64)>, color: (u8, u8, u8)) -> Series {
    Series {
        label,
        points,
        color,
        opacity: 1.0,
        width: 2,
        stroke: Stroke::Solid,
        dots: false,
    }
}

/// `n` with thousands separators (1,011,580).
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Murder Plan: the optimal mastermind win rate against the horizon D for
/// every start (light lines), the two published starts and the average (bold),
/// with the published values as crosses.
pub fn murder_plan_win_rates(tables: &Tables) -> Result<LineChart> {
    // Start index 4 * code(x) + code(y), or the average.
    let curve = |index: i32| -> Result<Vec<(f64, f64)>> {
        let start = if index == AVERAGE_START_INDEX {
            None
        } else {
            let offset = |code: i32| {
                Offset::from_code(code as u8).with_context(|| format!("no start index {index}"))
            };
            Some((offset(index / 4)?, offset(index % 4)?))
        };
        (1..=MAX_DAYS)
            .map(|horizon| {
                let rate = tables.murder_plan()?.win_rate(horizon, start)?;
                Ok((f64::from(horizon), 100.0 * rate))
            })
            .collect()
    };
    let mut all = Vec::new();
    for index in 0..AVERAGE_START_INDEX {
        let mut light = series(None, curve(index)?, GREY);
        light.opacity = 0.35;
        light.width = 1;
        if index == 0 {
            light.label = Some("each of the 16 starts".into());
        }
        all.push(light);
    }
    // Start index 4 * code(x) + code(y), code(a, b) = 2a + b.
    let bold = [
        ("x=(0,1), y=(1,0)", 6, BLUE),
        ("x=y=(0,0)", 0, RED),
        (AVERAGE_LABEL, AVERAGE_START_INDEX, BLACK),
    ];
    for (label, index, color) in bold {
        let mut line = series(Some(label.into()), curve(index)?, color);
        line.width = 3;
        line.dots = true;
        all.push(line);
    }
    let rates = published_win_rates()?;
    let horizons = || rates.iter().map(|&(d, _, _)| d);
    let (Some(first), Some(last)) = (horizons().min(), horizons().max()) else {
        fail!(
            Check,
            "{} has no Murder Plan win rates",
            known_answers::FILE
        );
    };
    let mut published = series(
        Some(format!("published (spec), D = {first}..{last}")),
        rates
            .iter()
            .map(|&(d, _, rate)| (f64::from(d), rate))
            .collect(),
        PURPLE,
    );
    published.stroke = Stroke::Markers;
    published.width = 4;
    all.push(published);
    Ok(LineChart {
        title: "Murder Plan: optimal mastermind win rate by horizon".into(),
        x_label: "horizon D (turns)".into(),
        y_label: "mastermind win rate (%)".into(),
        x_range: (1.0, f64::from(MAX_DAYS)),
        y_range: (0.0, 100.0),
        x_ticks: usize::from(MAX_DAYS),
        y_ticks: 11,
        tick_decimals: (0, 0),
        series: all,
        legend: LegendCorner::UpperLeft,
    })
}

/// Murder Plan: every start's win rate minus the average over the 16 starts
/// (percentage points) against the horizon, the published starts bold, the
/// published values as crosses: the spread the first chart compresses.
pub fn murder_plan_win_rate_spread(tables: &Tables) -> Result<LineChart> {
    let mut chart = murder_plan_win_rates(tables)?;
    let average = chart
        .series
        .iter()
        .find(|s| s.label.as_deref() == Some(AVERAGE_LABEL))
        .map(|s| s.points.clone())
        .context("the win-rate chart has no average")?;
    // The published crosses are measured from the published average.
    let published_average: Vec<(f64, f64)> = published_win_rates()?
        .into_iter()
        .filter(|(_, start, _)| start == AVERAGE_START)
        .map(|(d, _, rate)| (f64::from(d), rate))
        .collect();
    for series in &mut chart.series {
        if series.stroke == Stroke::Markers {
            for point in &mut series.points {
                let base = published_average
                    .iter()
                    .find(|base| base.0 == point.0)
                    .with_context(|| {
                        format!(
                            "{}: no published average for D = {}",
                            known_answers::FILE,
                            point.0
                        )
                    })?;
                point.1 -= base.1;
            }
        } else {
            for (point, base) in series.points.iter_mut().zip(&average) {
                point.1 -= base.1;
            }
        }
    }
    let widest = chart
        .series
        .iter()
        .flat_map(|s| &s.points)
        .map(|p| p.1.abs())
        .fold(0.0, f64::max);
    let half = (widest * 1.6).ceil().max(1.0);
    chart.title = "Murder Plan: win rate of each start minus the average".into();
    chart.y_label = "win rate minus the 16-start average (percentage points)".into();
    chart.y_range = (-half, half);
    chart.y_ticks = 9;
    chart.tick_decimals = (0, 1);
    Ok(chart)
}

/// Liar's Dice, the published case: P(at least q fives) against q, raw (from
/// my dice alone) and corrected for the bidder's bid at two reliabilities,
/// for k = 1 and 2 fives in my hand, with the published values as crosses.
pub fn dice_raw_vs_corrected(tables: &Tables) -> Result<LineChart> {
    const MAX_BID: i32 = 14;
    let (n, m, nb) = DICE_CASE;
    let bids = tables.dice()?;
    let in_play = DiceInPlay::new(n as u32, m as u32, nb as u32)?;
    let curve =
        |my_fives: i32, reliability: f64, column: fn(&BidRow) -> f64| -> Result<Vec<(f64, f64)>> {
            (1..=MAX_BID)
                .map(|bid| {
                    let question = BidQuestion::new(
                        in_play,
                        Variant::Plain,
                        FaceClass::Other,
                        bid as u32,
                        my_fives as u32,
                        Reliability::new(reliability)?,
                    )?;
                    let answer = bids.bid(&question)?;
                    if answer.source != DiceSource::Table {
                        fail!(
                        Check,
                        "{}: no row for N={n}, m={m}, n_b={nb}, k={my_fives}, rel={reliability}, \
                         q={bid}",
                        BID_PROBABILITIES.file
                    );
                    }
                    Ok((f64::from(bid), 100.0 * column(&answer.value)))
                })
                .collect()
        };
    let raw = |row: &BidRow| row.raw_probability;
    let corrected = |row: &BidRow| row.corrected_probability;
    let mut all = Vec::new();
    for (my_fives, color) in DICE_MY_FIVES {
        // The raw probability ignores the reliability: read it from rel = 0.
        let mut raw_line = series(
            Some(format!("k = {my_fives}: raw")),
            curve(my_fives, 0.0, raw)?,
            color,
        );
        raw_line.stroke = Stroke::Dashed;
        all.push(raw_line);
        let mut loose = series(
            Some(format!(
                "k = {my_fives}: corrected, rel = {LOOSE_RELIABILITY}"
            )),
            curve(my_fives, LOOSE_RELIABILITY, corrected)?,
            color,
        );
        loose.opacity = 0.55;
        all.push(loose);
        let mut firm = series(
            Some(format!(
                "k = {my_fives}: corrected, rel = {FIRM_RELIABILITY}"
            )),
            curve(my_fives, FIRM_RELIABILITY, corrected)?,
            color,
        );
        firm.width = 3;
        firm.dots = true;
        all.push(firm);
    }
    let points = published_dice_points()?;
    let bid = points.first().map(|p| p.0);
    let label = match bid {
        Some(bid) if points.iter().all(|p| p.0 == bid) => {
            format!("published values (bid {bid} fives)")
        }
        _ => "published values".to_string(),
    };
    let mut published = series(
        Some(label),
        points.iter().map(|&(bid, p)| (f64::from(bid), p)).collect(),
        PURPLE,
    );
    published.stroke = Stroke::Markers;
    published.width = 4;
    all.push(published);
    Ok(LineChart {
        title: format!(
            "Liar's Dice: P(at least q fives), N = {n} dice, {m} mine, {nb} the bidder's"
        ),
        x_label: "bid count q (dice showing five)".into(),
        y_label: "probability the bid holds (%)".into(),
        x_range: (1.0, f64::from(MAX_BID)),
        y_range: (0.0, 100.0),
        x_ticks: MAX_BID as usize,
        y_ticks: 11,
        tick_decimals: (0, 0),
        series: all,
        legend: LegendCorner::UpperRight,
    })
}

/// Unknown cards of opponent B in the Cluedo sweep.
pub const CLUEDO_B_UNKNOWN: u8 = 2;

/// Cluedo: one category left with three candidates, X (only opponent A may
/// hold it), Y (only B) and Z (A or B), the other two categories solved;
/// B has `CLUEDO_B_UNKNOWN` unknown cards and A 1..=6. Exact P(in envelope)
/// from the few-candidate table against the published heuristic's.
pub fn cluedo_exact_vs_heuristic(tables: &Tables) -> Result<LineChart> {
    let table = tables.cluedo()?;
    let (a, b, both) = (Opponents(1), Opponents(2), Opponents(3));
    let names = [
        ("X (A only)", BLUE),
        ("Y (B only)", RED),
        ("Z (A or B)", GREEN),
    ];
    let mut exact = vec![Vec::new(); 3];
    let mut heuristic = vec![Vec::new(); 3];
    for a_unknown in 1..=6u8 {
        // Unknown cards = non-envelope candidates (2) + other cards.
        let other = a_unknown + CLUEDO_B_UNKNOWN - 2;
        let config = FewCandidates::new(
            [vec![Opponents(0)], vec![Opponents(0)], vec![a, b, both]],
            vec![a_unknown, CLUEDO_B_UNKNOWN],
            other,
        )?;
        let (answer, source) = table.answer(&config)?;
        if source != Source::Table {
            fail!(
                Check,
                "{}: configuration {config} is not in the table",
                FEW_CANDIDATES.file
            );
        }
        for (i, candidate) in answer.candidates[2].iter().enumerate() {
            let x = f64::from(a_unknown);
            exact[i].push((x, 100.0 * candidate.p_envelope));
            heuristic[i].push((x, 100.0 * candidate.p_heuristic));
        }
    }
    // Room above the highest curve for the legend, in steps of 10 %.
    let highest = exact
        .iter()
        .chain(&heuristic)
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max);
    let top = ((highest / 10.0).ceil() * 10.0 + 20.0).min(100.0);
    let mut all = Vec::new();
    let same_heuristic = heuristic.iter().all(|h| h == &heuristic[0]);
    for (i, (name, color)) in names.into_iter().enumerate() {
        if !same_heuristic || i == 0 {
            let (label, color) = if same_heuristic {
                ("published heuristic (X, Y and Z alike)".to_string(), GREY)
            } else {
                (format!("{name}: published heuristic"), color)
            };
            let mut line = series(Some(label), heuristic[i].clone(), color);
            line.stroke = Stroke::Dashed;
            all.push(line);
        }
    }
    for (i, (name, color)) in names.into_iter().enumerate() {
        let mut line = series(Some(format!("{name}: exact")), exact[i].clone(), color);
        line.width = 3;
        line.dots = true;
        all.push(line);
    }
    Ok(LineChart {
        title: "Cluedo: last three candidates, exact vs published heuristic".into(),
        x_label: format!(
            "unknown cards of opponent A (cards; B holds {CLUEDO_B_UNKNOWN}, other categories solved)"
        ),
        y_label: "P(candidate in envelope) (%)".into(),
        x_range: (1.0, 6.0),
        y_range: (0.0, top),
        x_ticks: 6,
        y_ticks: (top / 10.0) as usize + 1,
        tick_decimals: (0, 0),
        series: all,
        legend: LegendCorner::UpperRight,
    })
}

/// Cluedo over the whole few-candidate table: for every probability the
/// published heuristic gives, the smallest, mean and largest exact
/// probability of the table rows (candidates of configurations) it gives it
/// to, against the diagonal where the two agree.
pub fn cluedo_heuristic_error(tables: &Tables) -> Result<LineChart> {
    let table = tables.cluedo()?;
    // The rows in file order: configurations by key, candidates by category
    // and index.
    let rows = table
        .answers()
        .flat_map(|answer| answer.candidates.iter().flatten());
    // Per heuristic value (ordered by the bits of a non-negative double):
    // smallest, sum and largest exact value, and the row count.
    let mut groups: std::collections::BTreeMap<u64, (f64, f64, f64, u64)> = Default::default();
    for row in rows {
        let (h, p) = (row.p_heuristic, row.p_envelope);
        check!(
            Check,
            (0.0..=1.0).contains(&h) && (0.0..=1.0).contains(&p),
            "{}: probability outside [0, 1]",
            FEW_CANDIDATES.file
        );
        let group = groups
            .entry(h.to_bits())
            .or_insert((f64::INFINITY, 0.0, f64::NEG_INFINITY, 0));
        group.0 = group.0.min(p);
        group.1 += p;
        group.2 = group.2.max(p);
        group.3 += 1;
    }
    check!(
        Check,
        !groups.is_empty(),
        "{} has no rows",
        FEW_CANDIDATES.file
    );
    let mut diagonal = series(
        Some("exact = heuristic".into()),
        vec![(0.0, 0.0), (100.0, 100.0)],
        GREY,
    );
    diagonal.stroke = Stroke::Dashed;
    let mut all = vec![diagonal];
    for (i, (&h, &(low, _, high, _))) in groups.iter().enumerate() {
        let x = 100.0 * f64::from_bits(h);
        let mut range = series(None, vec![(x, 100.0 * low), (x, 100.0 * high)], BLUE);
        range.opacity = 0.7;
        range.width = 3;
        if i == 0 {
            range.label = Some("exact: smallest to largest".into());
        }
        all.push(range);
    }
    let mut mean = series(
        Some("exact: mean over the rows".into()),
        groups
            .iter()
            .map(|(&h, g)| (100.0 * f64::from_bits(h), 100.0 * g.1 / g.3 as f64))
            .collect(),
        RED,
    );
    mean.stroke = Stroke::Markers;
    mean.width = 3;
    all.push(mean);
    Ok(LineChart {
        title: format!(
            "Cluedo: exact probability per heuristic value, {} table rows",
            thousands(table.rows())
        ),
        x_label: "published heuristic's P(candidate in envelope) (%)".into(),
        y_label: "exact P(candidate in envelope) (%)".into(),
        // A margin, so the marks at 0 % and 100 % are not cut by the frame.
        x_range: (-2.0, 102.0),
        y_range: (-2.0, 102.0),
        x_ticks: 11,
        y_ticks: 11,
        tick_decimals: (0, 0),
        series: all,
        legend: LegendCorner::LowerRight,
    })
}
