//! The plots of `gametab build`: a whole build (the run's shared set, see
//! `common`) must publish every SVG under `plots/`, each well-formed XML
//! with its title, axis labels and legend entries as text, drawn from the
//! tables' numbers with the published ones of `data/published.csv` as
//! crosses, and the same bytes when drawn again from the same tables.

use crate::common;

use std::path::Path;

use gametab_build::known_answers::{self, PublishedNumber};
use gametab_build::plots::{
    cluedo_exact_vs_heuristic, cluedo_heuristic_error, dice_raw_vs_corrected,
    murder_plan_win_rate_spread, murder_plan_win_rates, plot_files, write_plots, LegendCorner,
    LineChart, Series, Stroke, PLOTS_DIR,
};
use gametab_build::registry;
use gametab_lookup::Tables;

/// The table set shared by every test of this file.
fn tables() -> &'static Path {
    common::built_tables()
}

/// Every text node of an SVG document, after checking it parses as XML with
/// an `svg` root.
fn svg_texts(file: &Path) -> Vec<String> {
    let svg = std::fs::read_to_string(file).unwrap();
    let doc = roxmltree::Document::parse(&svg)
        .unwrap_or_else(|e| panic!("{} is not well-formed XML: {e}", file.display()));
    assert_eq!(
        doc.root_element().tag_name().name(),
        "svg",
        "{}",
        file.display()
    );
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

#[test]
fn build_publishes_every_plot_with_title_axes_and_legend() {
    let dir = tables();
    let expected: [(&str, &[&str]); 6] = [
        (
            "plots/murder_plan_win_rates.svg",
            &[
                "Murder Plan: optimal mastermind win rate by horizon",
                "horizon D (turns)",
                "mastermind win rate (%)",
                "each of the 16 starts",
                "x=(0,1), y=(1,0)",
                "x=y=(0,0)",
                "average over the 16 starts",
                "published (spec), D = 3..8",
            ],
        ),
        (
            "plots/murder_plan_win_rate_spread.svg",
            &[
                "Murder Plan: win rate of each start minus the average",
                "win rate minus the 16-start average (percentage points)",
                "each of the 16 starts",
            ],
        ),
        (
            "plots/cluedo_exact_vs_heuristic.svg",
            &[
                "Cluedo: last three candidates, exact vs published heuristic",
                "P(candidate in envelope) (%)",
                "X (A only): exact",
                "Y (B only): exact",
                "Z (A or B): exact",
                "published heuristic (X, Y and Z alike)",
            ],
        ),
        (
            "plots/cluedo_heuristic_error.svg",
            &[
                "Cluedo: exact probability per heuristic value, 1,011,580 table rows",
                "published heuristic's P(candidate in envelope) (%)",
                "exact = heuristic",
                "exact: smallest to largest",
                "exact: mean over the rows",
            ],
        ),
        (
            "plots/dice_raw_vs_corrected.svg",
            &[
                "Liar's Dice: P(at least q fives), N = 20 dice, 5 mine, 5 the bidder's",
                "bid count q (dice showing five)",
                "probability the bid holds (%)",
                "k = 1: raw",
                "k = 1: corrected, rel = 0.5",
                "k = 2: corrected, rel = 2",
                "published values (bid 5 fives)",
            ],
        ),
        (
            "plots/dice_endgame_posteriors.svg",
            &[
                "Liar's Dice endgame 1v1, six sides: what the opening bid says",
                "probability that player 1's die matches the bid",
                "prior (reliability 0)",
                "reliability model, rel = 2",
                "equilibrium posterior (bids the equilibrium opens with)",
            ],
        ),
    ];
    assert_eq!(
        plot_files(&registry::plots()),
        expected
            .iter()
            .map(|(f, _)| f.to_string())
            .collect::<Vec<_>>()
    );
    for (file, needles) in expected {
        let texts = svg_texts(&dir.join(file));
        for needle in needles {
            assert!(
                texts.iter().any(|t| t == needle),
                "{file} has no text {needle:?}: {texts:?}"
            );
        }
    }
    let staging = dir.with_file_name(".tables.staging");
    assert!(!staging.exists(), "the staging directory was left behind");
    let published: Vec<_> = std::fs::read_dir(dir.join(PLOTS_DIR))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(published.len(), 6, "{published:?}");
}

/// A copy of the table files (not the plots) of the shared set.
fn copy_of_tables() -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(tables()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), copy.path().join(entry.file_name())).unwrap();
        }
    }
    copy
}

#[test]
fn plots_are_the_same_bytes_when_drawn_again() {
    let dir = tables();
    let before: Vec<Vec<u8>> = plot_files(&registry::plots())
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let copy = copy_of_tables();
    let loaded = Tables::open(copy.path()).unwrap();
    let written = write_plots(&registry::plots(), &loaded, copy.path()).unwrap();
    for ((plot, old), file) in written
        .iter()
        .zip(&before)
        .zip(plot_files(&registry::plots()))
    {
        assert_eq!(plot.file, file);
        let new = std::fs::read(copy.path().join(&file)).unwrap();
        assert_eq!(plot.bytes, new.len());
        assert!(new == *old, "{file} differs when drawn again");
    }
}

/// The legend entry of the curve of a published win rate's start.
fn win_rate_legend(start: &str) -> &'static str {
    match start {
        "x=(0,1) y=(1,0)" => "x=(0,1), y=(1,0)",
        "x=(0,0) y=(0,0)" => "x=y=(0,0)",
        "average" => "average over the 16 starts",
        other => panic!("no curve for the start {other:?}"),
    }
}

/// The legend entry of the Liar's Dice curve a published row lies on: a raw
/// or corrected probability of the charted case (N = 20, m = n_b = 5, no
/// wilds, fives) for k = 1 or 2 at a charted reliability; `None` for the
/// other rows.
fn dice_legend(row: &PublishedNumber) -> Option<String> {
    let case = "total_dice=20;my_dice=5;bidder_dice=5;wild_ones=false;face_class=other;";
    let k: u32 = row.parse_parameter("my_matching").ok()?;
    let charted =
        row.game == "dice" && row.parameters_text().starts_with(case) && (k == 1 || k == 2);
    match (charted, row.quantity.as_str()) {
        (true, "raw_probability") => Some(format!("k = {k}: raw")),
        (true, "corrected_probability") => {
            let rel: f64 = row.parse_parameter("reliability").ok()?;
            [0.5, 2.0]
                .contains(&rel)
                .then(|| format!("k = {k}: corrected, rel = {rel}"))
        }
        _ => None,
    }
}

fn series<'a>(chart: &'a LineChart, label: &str) -> &'a Series {
    chart
        .series
        .iter()
        .find(|s| s.label.as_deref() == Some(label))
        .unwrap_or_else(|| panic!("{:?} has no series {label:?}", chart.title))
}

fn y_at(series: &Series, x: f64) -> f64 {
    series
        .points
        .iter()
        .find(|p| p.0 == x)
        .unwrap_or_else(|| panic!("{:?} has no point at {x}", series.label))
        .1
}

#[test]
fn charts_show_the_table_numbers() {
    let set = &Tables::open(tables()).unwrap();
    let win = murder_plan_win_rates(set).unwrap();
    // 16 light start lines, 3 bold cases, the published crosses.
    assert_eq!(win.series.len(), 20);
    assert_eq!(win.series.iter().filter(|s| s.label.is_none()).count(), 15);
    // Every published win rate is on its curve, and the crosses are the
    // published numbers in file order.
    let rates = known_answers::select("murder_plan", "win_rate").unwrap();
    let horizon = |row: &PublishedNumber| f64::from(row.parse_parameter::<u8>("horizon").unwrap());
    for row in &rates {
        let start = row.parameter("start").unwrap();
        let y = y_at(series(&win, win_rate_legend(start)), horizon(row));
        assert!(row.reproduced_by(y), "{}: chart {y}", row.name());
    }
    let crosses = |chart: &LineChart| {
        let markers = chart.series.iter().filter(|s| s.stroke == Stroke::Markers);
        let markers: Vec<&Series> = markers.collect();
        assert_eq!(markers.len(), 1, "{:?}", chart.title);
        markers[0].points.clone()
    };
    let published_points: Vec<(f64, f64)> = rates.iter().map(|r| (horizon(r), r.value)).collect();
    assert_eq!(crosses(&win), published_points);

    // The spread: each curve and cross minus its own average, so the
    // published start is as far from the published average as the table's
    // (to the two roundings of the published table).
    let spread = murder_plan_win_rate_spread(set).unwrap();
    assert_eq!(
        y_at(series(&spread, "average over the 16 starts"), 6.0),
        0.0
    );
    let published_average = |d: f64| {
        let row = rates
            .iter()
            .find(|r| horizon(r) == d && r.parameter("start") == Some("average"));
        row.unwrap().value
    };
    for (row, cross) in rates.iter().zip(crosses(&spread)) {
        let d = horizon(row);
        assert_eq!(cross, (d, row.value - published_average(d)));
        let start = row.parameter("start").unwrap();
        let y = y_at(series(&spread, win_rate_legend(start)), d);
        assert!(
            (y - cross.1).abs() <= 2.0 * row.tolerance,
            "{}: {y}",
            row.name()
        );
    }

    // Every published probability of a drawn Liar's Dice curve is on it,
    // and those are the crosses.
    let dice = dice_raw_vs_corrected(set).unwrap();
    let mut drawn = Vec::new();
    for row in known_answers::all().unwrap() {
        let Some(legend) = dice_legend(&row) else {
            continue;
        };
        let bid = f64::from(row.parse_parameter::<u32>("bid_count").unwrap());
        let y = y_at(series(&dice, &legend), bid);
        assert!(row.reproduced_by(y / 100.0), "{}: chart {y} %", row.name());
        drawn.push((bid, 100.0 * row.value));
    }
    assert_eq!(drawn.len(), 5, "{drawn:?}");
    assert_eq!(crosses(&dice), drawn);

    // X can only be held by A, Y only by B (2 unknown cards): with nothing
    // else constraining them, P(X) / P(Y) = b / a; the heuristic says 1/3.
    let cluedo = cluedo_exact_vs_heuristic(set).unwrap();
    let heuristic = series(&cluedo, "published heuristic (X, Y and Z alike)");
    assert!(heuristic
        .points
        .iter()
        .all(|p| (p.1 - 100.0 / 3.0).abs() < 1e-9));
    let (x, y) = (
        series(&cluedo, "X (A only): exact"),
        series(&cluedo, "Y (B only): exact"),
    );
    for a in 1..=6 {
        let a = f64::from(a);
        assert!((y_at(x, a) / y_at(y, a) - 2.0 / a).abs() < 1e-9, "a = {a}");
    }
    // a = 3, b = 2: 13 deals, X in the envelope in 4, Y in 6, Z in 3.
    assert!((y_at(x, 3.0) - 400.0 / 13.0).abs() < 1e-9);
    assert!((y_at(y, 3.0) - 600.0 / 13.0).abs() < 1e-9);

    // Over the whole table: one range bar per heuristic value, each from the
    // smallest to the largest exact value; where the heuristic is certain
    // (0 or 1) the exact probability is too, and a third hides a wide range.
    let error = cluedo_heuristic_error(set).unwrap();
    let bars: Vec<&Series> = error
        .series
        .iter()
        .filter(|s| s.stroke == Stroke::Solid)
        .collect();
    let mean = series(&error, "exact: mean over the rows");
    assert_eq!(bars.len(), mean.points.len());
    for (bar, &(h, m)) in bars.iter().zip(&mean.points) {
        let (low, high) = (bar.points[0], bar.points[1]);
        // (the mean of equal values may differ from them in the last bit)
        assert!(low.0 == h && high.0 == h, "{bar:?}");
        assert!(low.1 - 1e-9 <= m && m <= high.1 + 1e-9, "{bar:?} mean {m}");
        if h == 0.0 || h == 100.0 {
            assert!(
                low.1 == h && high.1 == h,
                "heuristic {h} %: exact {low:?}..{high:?}"
            );
        }
    }
    let third = bars
        .iter()
        .find(|b| (b.points[0].0 - 100.0 / 3.0).abs() < 1e-9)
        .expect("a bar at 1/3");
    assert!(
        third.points[0].1 < 10.0 && third.points[1].1 > 70.0,
        "{third:?}"
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    // A set whose Cluedo table has gone (it loads on first use): the Cluedo
    // charts fail, naming the file, and nothing is published for them.
    let copy = copy_of_tables();
    std::fs::remove_file(copy.path().join("cluedo_few_candidates.parquet")).unwrap();
    let loaded = Tables::open(copy.path()).unwrap();
    let error = write_plots(&registry::plots(), &loaded, copy.path()).unwrap_err();
    let message = gametab_build::error::chain(&error);
    assert!(
        message.contains("cluedo_exact_vs_heuristic.svg")
            && message.contains("cluedo_few_candidates.parquet"),
        "{message}"
    );
    assert!(!copy
        .path()
        .join(PLOTS_DIR)
        .join("cluedo_exact_vs_heuristic.svg")
        .exists());
    let chart = |points: Vec<(f64, f64)>, y_range| LineChart {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        x_range: (0.0, 1.0),
        y_range,
        x_ticks: 2,
        y_ticks: 2,
        tick_decimals: (0, 0),
        series: vec![Series {
            label: Some("s".into()),
            points,
            color: (0, 0, 0),
            opacity: 1.0,
            width: 1,
            stroke: Stroke::Solid,
            dots: false,
        }],
        legend: LegendCorner::UpperLeft,
    };
    assert!(chart(vec![(0.5, 0.5)], (0.0, 1.0)).to_svg().is_ok());
    let outside = chart(vec![(0.5, 1.5)], (0.0, 1.0)).to_svg().unwrap_err();
    assert!(
        outside.to_string().contains("outside the axes"),
        "{outside}"
    );
    let nan = chart(vec![(0.5, f64::NAN)], (0.0, 1.0))
        .to_svg()
        .unwrap_err();
    assert!(nan.to_string().contains("outside the axes"), "{nan}");
    let empty_range = chart(vec![], (1.0, 1.0)).to_svg().unwrap_err();
    assert!(
        empty_range.to_string().contains("empty axis range"),
        "{empty_range}"
    );
}
