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
mod endgame;
mod games;

use crate::error::{Context, Error, Result};
use std::path::Path;

use gametab_lookup::Tables;

pub use chart::{LegendCorner, LineChart, Series, Stroke};
pub use endgame::{dice_endgame_posteriors, ENDGAME_CASE};
pub use games::{
    cluedo_exact_vs_heuristic, cluedo_heuristic_error, dice_raw_vs_corrected,
    murder_plan_win_rate_spread, murder_plan_win_rates,
};

/// Subdirectory of a table directory holding the plots.
pub const PLOTS_DIR: &str = "plots";

/// A chart drawn from a verified table set. Each game lists its own
/// ([`crate::game::GameBuild::plots`]); the registry hands the whole list
/// ([`crate::registry::plots`]) to [`write_plots`], so this module knows
/// no game and no registry.
#[derive(Debug, Clone, Copy)]
pub struct Plot {
    /// File name inside the plots directory.
    pub file: &'static str,
    /// Draws the chart from the tables.
    pub draw: fn(&Tables) -> Result<LineChart>,
}

/// The file names of `plots`, relative to the table directory
/// (`plots/<name>.svg`), in the order they are written.
pub fn plot_files(plots: &[&Plot]) -> Vec<String> {
    plots
        .iter()
        .map(|plot| format!("{PLOTS_DIR}/{}", plot.file))
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

/// Draw each chart of `plots` from `tables` (the table set in `dir`) and
/// write them (atomically) into `dir/plots/`, in that order.
///
/// # Errors
/// A missing or invalid table, a chart whose data do not fit its axes, or a
/// file that cannot be written.
pub fn write_plots(plots: &[&Plot], tables: &Tables, dir: &Path) -> Result<Vec<WrittenPlot>> {
    let plots_dir = dir.join(PLOTS_DIR);
    std::fs::create_dir_all(&plots_dir).map_err(|e| Error::io("create", &plots_dir, e))?;
    let mut written = Vec::new();
    for (plot, file) in plots.iter().zip(plot_files(plots)) {
        let chart = (plot.draw)(tables).with_context(|| format!("drawing {file}"))?;
        let svg = chart.to_svg()?;
        crate::output::write_atomically(&plots_dir.join(plot.file), svg.as_bytes())?;
        written.push(WrittenPlot {
            file,
            legend: chart.legend_entries().map(str::to_string).collect(),
            title: chart.title,
            bytes: svg.len(),
        });
    }
    Ok(written)
}
