//! The pictures of a build: SVG charts drawn from a table set into the
//! `plots/` subdirectory of its directory.
//!
//! `gametab build` calls [`write_plots`] with the staging directory's tables
//! as its verification loaded them (every file read once, digests checked),
//! so the charts show exactly the bytes that are published, and they are
//! published with the tables (before the manifest). The charts are
//! deterministic: the same tables give the same SVG bytes. They are not
//! listed in `manifest.json`, which covers tables.

mod chart;
mod games;

use std::path::Path;

use anyhow::{Context, Result};
use gametab_lookup::Tables;

pub use chart::{LegendCorner, LineChart, Series, Stroke};
pub use games::{
    cluedo_exact_vs_heuristic, cluedo_heuristic_error, dice_raw_vs_corrected,
    murder_plan_win_rate_spread, murder_plan_win_rates,
};

/// Subdirectory of a table directory holding the plots.
pub const PLOTS_DIR: &str = "plots";

/// A chart builder: reads a table set and returns the chart.
type ChartSource = fn(&Tables) -> Result<LineChart>;

/// Every plot of the build: file name inside [`PLOTS_DIR`] and its source.
const PLOTS: [(&str, ChartSource); 5] = [
    ("murder_plan_win_rates.svg", murder_plan_win_rates),
    (
        "murder_plan_win_rate_spread.svg",
        murder_plan_win_rate_spread,
    ),
    ("dice_raw_vs_corrected.svg", dice_raw_vs_corrected),
    ("cluedo_exact_vs_heuristic.svg", cluedo_exact_vs_heuristic),
    ("cluedo_heuristic_error.svg", cluedo_heuristic_error),
];

/// The file names of every plot, relative to the table directory
/// (`plots/<name>.svg`), in the order they are written.
pub fn plot_files() -> Vec<String> {
    PLOTS
        .iter()
        .map(|(name, _)| format!("{PLOTS_DIR}/{name}"))
        .collect()
}

/// One plot written by [`write_plots`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenPlot {
    /// Path relative to the table directory, `plots/<name>.svg`.
    pub file: String,
    /// The chart's title.
    pub title: String,
    /// Its legend entries.
    pub legend: Vec<String>,
    /// Size of the SVG file in bytes.
    pub bytes: usize,
}

/// Draw every chart from `tables` (the table set in `dir`) and write them
/// (atomically) into `dir/plots/`.
///
/// # Errors
/// A missing or invalid table, a chart whose data do not fit its axes, or a
/// file that cannot be written.
pub fn write_plots(tables: &Tables, dir: &Path) -> Result<Vec<WrittenPlot>> {
    let plots_dir = dir.join(PLOTS_DIR);
    std::fs::create_dir_all(&plots_dir)
        .with_context(|| format!("cannot create {}", plots_dir.display()))?;
    let mut written = Vec::new();
    for ((name, source), file) in PLOTS.iter().zip(plot_files()) {
        let chart = source(tables).with_context(|| format!("drawing {file}"))?;
        let svg = chart.to_svg()?;
        crate::output::write_atomically(&plots_dir.join(name), svg.as_bytes())?;
        written.push(WrittenPlot {
            file,
            legend: chart.legend_entries().map(str::to_string).collect(),
            title: chart.title,
            bytes: svg.len(),
        });
    }
    Ok(written)
}
