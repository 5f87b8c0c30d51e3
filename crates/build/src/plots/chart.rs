//! A line chart described as plain data ([`LineChart`]) and its rendering to
//! SVG with `plotters` (SVG back end only: text is left to the SVG viewer, so
//! no font files or system libraries are involved, and the same chart always
//! gives the same bytes).

use crate::error::{check, Error, Result};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Width and height of every picture, in pixels.
pub const SIZE: (u32, u32) = (960, 600);

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    /// A continuous line.
    Solid,
    /// A dashed line.
    Dashed,
    /// No line: markers only (crosses), for reference values.
    Markers,
}

/// One series of a [`LineChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry; series without one are drawn but not listed (used for
    /// the many light lines that share one legend entry).
    pub label: Option<String>,
    /// Points in data coordinates, drawn in order.
    pub points: Vec<(f64, f64)>,
    /// Colour as RGB.
    pub color: (u8, u8, u8),
    /// Opacity, 0..=1 (lighter lines for context).
    pub opacity: f64,
    /// Line width in pixels (marker size for [`Stroke::Markers`]).
    pub width: u32,
    /// Line style.
    pub stroke: Stroke,
    /// Draw a filled dot on every point of a line.
    pub dots: bool,
}

/// Where the legend box goes inside the plotting area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendCorner {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom right.
    LowerRight,
}

/// A complete chart: title, axes and series.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Caption above the plot.
    pub title: String,
    /// Horizontal axis label, with its unit.
    pub x_label: String,
    /// Vertical axis label, with its unit.
    pub y_label: String,
    /// Horizontal data range.
    pub x_range: (f64, f64),
    /// Vertical data range.
    pub y_range: (f64, f64),
    /// Number of labelled ticks on the horizontal axis.
    pub x_ticks: usize,
    /// Number of labelled ticks on the vertical axis.
    pub y_ticks: usize,
    /// Decimals of the tick labels (x, y).
    pub tick_decimals: (usize, usize),
    /// The series, drawn in order (later ones on top).
    pub series: Vec<Series>,
    /// Legend placement.
    pub legend: LegendCorner,
}

impl LineChart {
    /// Every legend entry, in drawing order.
    pub fn legend_entries(&self) -> impl Iterator<Item = &str> {
        self.series.iter().filter_map(|s| s.label.as_deref())
    }

    /// Check that the chart can be drawn: non-empty ranges, finite points
    /// inside them.
    fn validate(&self) -> Result<()> {
        let (x0, x1) = self.x_range;
        let (y0, y1) = self.y_range;
        check!(
            Check,
            x0 < x1 && y0 < y1,
            "chart {:?}: empty axis range x {x0}..{x1}, y {y0}..{y1}",
            self.title
        );
        for s in &self.series {
            let outside = s
                .points
                .iter()
                .find(|&&(x, y)| !(x0..=x1).contains(&x) || !(y0..=y1).contains(&y));
            if let Some((x, y)) = outside {
                return Err(Error::Plot(format!(
                    "chart {:?}: point ({x}, {y}) of series {:?} lies outside the axes",
                    self.title, s.label
                )));
            }
        }
        Ok(())
    }

    /// Render the chart as an SVG document.
    ///
    /// # Errors
    /// An empty axis range, a point outside the axes, or a drawing failure.
    pub fn to_svg(&self) -> Result<String> {
        self.validate()?;
        let mut svg = String::new();
        draw(
            self,
            SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        )
        .map_err(|e| Error::Plot(format!("drawing chart {:?}: {e}", self.title)))?;
        Ok(svg)
    }
}

const FONT: &str = "sans-serif";

fn style_of(s: &Series) -> ShapeStyle {
    let (r, g, b) = s.color;
    RGBColor(r, g, b).mix(s.opacity).stroke_width(s.width)
}

/// Draw `chart` onto `root`; plotters' own error type, converted by the caller.
fn draw<DB: DrawingBackend>(
    chart: &LineChart,
    root: DrawingArea<DB, Shift>,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (x0, x1) = chart.x_range;
    let (y0, y1) = chart.y_range;
    let mut ctx = ChartBuilder::on(&root)
        .caption(&chart.title, (FONT, 24).into_font().style(FontStyle::Bold))
        .margin_top(14)
        .margin_left(18)
        .margin_right(30)
        .margin_bottom(14)
        .x_label_area_size(56)
        .y_label_area_size(76)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let (dx, dy) = chart.tick_decimals;
    ctx.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .x_labels(chart.x_ticks)
        .y_labels(chart.y_ticks)
        .x_label_formatter(&|v| format!("{v:.dx$}"))
        .y_label_formatter(&|v| format!("{v:.dy$}"))
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 17))
        .bold_line_style(RGBColor(220, 220, 220))
        .light_line_style(RGBColor(245, 245, 245))
        .draw()?;
    for series in &chart.series {
        let style = style_of(series);
        let points = series.points.clone();
        let width = series.width as i32;
        match series.stroke {
            Stroke::Solid => {
                ctx.draw_series(LineSeries::new(points, style))?;
            }
            Stroke::Dashed => {
                ctx.draw_series(DashedLineSeries::new(points, 9, 6, style))?;
            }
            Stroke::Markers => {
                ctx.draw_series(
                    points
                        .into_iter()
                        .map(|p| Cross::new(p, width + 3, style.stroke_width(2))),
                )?;
            }
        }
        if series.dots && series.stroke != Stroke::Markers {
            ctx.draw_series(
                series
                    .points
                    .iter()
                    .map(|&p| Circle::new(p, width + 2, style.filled())),
            )?;
        }
        let Some(label) = &series.label else { continue };
        let stroke = series.stroke;
        // The legend entry hangs on an empty series drawn last.
        ctx.draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
            .label(label.as_str())
            .legend(move |(x, y)| legend_glyph(stroke, style, width, x, y));
    }
    let corner = match chart.legend {
        LegendCorner::UpperLeft => SeriesLabelPosition::UpperLeft,
        LegendCorner::UpperRight => SeriesLabelPosition::UpperRight,
        LegendCorner::LowerRight => SeriesLabelPosition::LowerRight,
    };
    ctx.configure_series_labels()
        .position(corner)
        .margin(12)
        .legend_area_size(34)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.92))
        .border_style(RGBColor(160, 160, 160))
        .draw()?;
    root.present()
}

/// The small sample of a series drawn in the legend.
fn legend_glyph<DB: DrawingBackend>(
    stroke: Stroke,
    style: ShapeStyle,
    width: i32,
    x: i32,
    y: i32,
) -> DynElement<'static, DB, (i32, i32)> {
    match stroke {
        Stroke::Solid => PathElement::new(vec![(x, y), (x + 26, y)], style).into_dyn(),
        Stroke::Dashed => DashedPathElement::new(vec![(x, y), (x + 26, y)], 7, 4, style).into_dyn(),
        Stroke::Markers => Cross::new((x + 13, y), width + 3, style.stroke_width(2)).into_dyn(),
    }
}
