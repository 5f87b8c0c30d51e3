//! The charts of the build, each read from the table files just written
//! (decoded and checked by the lookup crate's readers, never recomputed):
//! Murder Plan win rates, Liar's Dice raw vs corrected probabilities and
//! Cluedo exact vs heuristic envelope probabilities.

use std::path::Path;

use anyhow::{bail, ensure, Context, Result};
use bytes::Bytes;
use gametab_lookup::cluedo::schema::FEW_CANDIDATES;
use gametab_lookup::cluedo::{FewCandidates, FewCandidatesTable, Opponents, Source};
use gametab_lookup::dice::schema::BID_PROBABILITIES;
use gametab_lookup::io::{read_parquet, TableData};
use gametab_lookup::murder_plan::schema::{AVERAGE_START_INDEX, MAX_DAYS, WIN_RATES};

use super::chart::{LegendCorner, LineChart, Series, Stroke};

const BLUE: (u8, u8, u8) = (31, 119, 180);
const RED: (u8, u8, u8) = (214, 39, 40);
const GREEN: (u8, u8, u8) = (44, 160, 44);
const PURPLE: (u8, u8, u8) = (148, 103, 189);
const GREY: (u8, u8, u8) = (110, 110, 110);
const BLACK: (u8, u8, u8) = (20, 20, 20);

/// The published Murder Plan win rates (`shared/specs/murder-plan.md`), in
/// percent, per horizon D = 3..8: (D, x=(0,1) y=(1,0), x=y=(0,0), average).
pub const PUBLISHED_WIN_RATES: [(u8, f64, f64, f64); 6] = [
    (3, 14.51, 13.43, 13.39),
    (4, 26.74, 25.91, 26.01),
    (5, 41.34, 39.36, 40.60),
    (6, 55.42, 53.53, 55.13),
    (7, 67.67, 66.08, 67.43),
    (8, 77.37, 76.08, 77.16),
];

/// Legend entry of the average curve of the Murder Plan charts.
const AVERAGE_LABEL: &str = "average over the 16 starts";

/// The published Liar's Dice case (`shared/specs/liars-dice.md`): 4 players
/// with 5 dice (N = 20, m = n_b = 5), no wilds, a bid on fives.
pub const DICE_CASE: (i32, i32, i32) = (20, 5, 5);
/// The published bid count of that case ("5 fives").
pub const DICE_PUBLISHED_BID: i32 = 5;
/// The published probabilities of that bid: (my fives k, reliability or
/// `None` for the raw probability, probability).
pub const DICE_PUBLISHED: [(i32, Option<f64>, f64); 5] = [
    (1, None, 0.2315),
    (1, Some(2.0), 0.4785),
    (2, None, 0.4678),
    (2, Some(2.0), 0.7421),
    (2, Some(0.5), 0.5201),
];

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

fn read_table(dir: &Path, schema: &gametab_lookup::schema::TableSchema) -> Result<TableData> {
    let path = dir.join(schema.file);
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    read_parquet(Bytes::from(bytes), schema).with_context(|| format!("reading {}", path.display()))
}

/// Murder Plan: the optimal mastermind win rate against the horizon D for
/// every start (light lines), the two published starts and the average (bold),
/// with the published values as crosses.
pub fn murder_plan_win_rates(dir: &Path) -> Result<LineChart> {
    let table = read_table(dir, &WIN_RATES)?;
    let horizon = table.i32s("horizon")?;
    let start_index = table.i32s("start_index")?;
    let value = table.f64s("value")?;
    let curve = |index: i32| -> Result<Vec<(f64, f64)>> {
        let points: Vec<(f64, f64)> = (0..table.rows())
            .filter(|&r| start_index[r] == index)
            .map(|r| (f64::from(horizon[r]), 100.0 * value[r]))
            .collect();
        ensure!(
            points.len() == usize::from(MAX_DAYS),
            "{}: start {index} has {} horizons, not {MAX_DAYS}",
            WIN_RATES.file,
            points.len()
        );
        Ok(points)
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
    let mut published = series(
        Some("published (spec), D = 3..8".into()),
        PUBLISHED_WIN_RATES
            .iter()
            .flat_map(|&(d, a, b, c)| [a, b, c].map(|v| (f64::from(d), v)))
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
pub fn murder_plan_win_rate_spread(dir: &Path) -> Result<LineChart> {
    let mut chart = murder_plan_win_rates(dir)?;
    let average = chart
        .series
        .iter()
        .find(|s| s.label.as_deref() == Some(AVERAGE_LABEL))
        .map(|s| s.points.clone())
        .context("the win-rate chart has no average")?;
    let published_average: Vec<f64> = PUBLISHED_WIN_RATES.iter().map(|p| p.3).collect();
    for series in &mut chart.series {
        if series.stroke == Stroke::Markers {
            // Published points come in (a, b, average) triples per horizon.
            for (i, point) in series.points.iter_mut().enumerate() {
                point.1 -= published_average[i / 3];
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
pub fn dice_raw_vs_corrected(dir: &Path) -> Result<LineChart> {
    const MAX_BID: i32 = 14;
    let table = read_table(dir, &BID_PROBABILITIES)?;
    let (n, m, nb) = DICE_CASE;
    let total = table.i32s("total_dice")?;
    let mine = table.i32s("my_dice")?;
    let bidder = table.i32s("bidder_dice")?;
    let wild = table.bools("wild_ones")?;
    let class = table.strings("face_class")?;
    let rel = table.f64s("reliability")?;
    let bid = table.i32s("bid_count")?;
    let k = table.i32s("my_matching")?;
    let raw = table.f64s("raw_probability")?;
    let corrected = table.f64s("corrected_probability")?;
    let in_case: Vec<usize> = (0..table.rows())
        .filter(|&r| total[r] == n && mine[r] == m && bidder[r] == nb)
        .filter(|&r| !wild[r] && &class[r] == "other" && bid[r] <= MAX_BID)
        .collect();
    let curve = |my_fives: i32, reliability: f64, column: &[f64]| -> Result<Vec<(f64, f64)>> {
        let points: Vec<(f64, f64)> = in_case
            .iter()
            .filter(|&&r| k[r] == my_fives && rel[r] == reliability)
            .map(|&r| (f64::from(bid[r]), 100.0 * column[r]))
            .collect();
        if points.len() != MAX_BID as usize {
            bail!(
                "{}: {} rows for N={n}, m={m}, n_b={nb}, k={my_fives}, rel={reliability}, not {MAX_BID}",
                BID_PROBABILITIES.file,
                points.len()
            );
        }
        Ok(points)
    };
    let mut all = Vec::new();
    for (my_fives, color) in [(1, BLUE), (2, RED)] {
        // The raw probability ignores the reliability: read it from rel = 0.
        let mut raw_line = series(
            Some(format!("k = {my_fives}: raw")),
            curve(my_fives, 0.0, raw)?,
            color,
        );
        raw_line.stroke = Stroke::Dashed;
        all.push(raw_line);
        let mut loose = series(
            Some(format!("k = {my_fives}: corrected, rel = 0.5")),
            curve(my_fives, 0.5, corrected)?,
            color,
        );
        loose.opacity = 0.55;
        all.push(loose);
        let mut firm = series(
            Some(format!("k = {my_fives}: corrected, rel = 2")),
            curve(my_fives, 2.0, corrected)?,
            color,
        );
        firm.width = 3;
        firm.dots = true;
        all.push(firm);
    }
    let mut published = series(
        Some("published values (bid 5 fives)".into()),
        DICE_PUBLISHED
            .iter()
            .map(|&(_, _, p)| (f64::from(DICE_PUBLISHED_BID), 100.0 * p))
            .collect(),
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
/// B has [`CLUEDO_B_UNKNOWN`] unknown cards and A 1..=6. Exact P(in envelope)
/// from the few-candidate table against the published heuristic's.
pub fn cluedo_exact_vs_heuristic(dir: &Path) -> Result<LineChart> {
    let path = dir.join(FEW_CANDIDATES.file);
    let table =
        FewCandidatesTable::load(dir).with_context(|| format!("reading {}", path.display()))?;
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
            bail!(
                "{}: configuration {config} is not in the table",
                path.display()
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
pub fn cluedo_heuristic_error(dir: &Path) -> Result<LineChart> {
    let table = read_table(dir, &FEW_CANDIDATES)?;
    let exact = table.f64s("p_envelope")?;
    let heuristic = table.f64s("p_heuristic")?;
    // Per heuristic value (ordered by the bits of a non-negative double):
    // smallest, sum and largest exact value, and the row count.
    let mut groups: std::collections::BTreeMap<u64, (f64, f64, f64, u64)> = Default::default();
    for (&h, &p) in heuristic.iter().zip(exact) {
        ensure!(
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
    ensure!(!groups.is_empty(), "{} has no rows", FEW_CANDIDATES.file);
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
