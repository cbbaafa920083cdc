//! Charts as PNG files from plain data: a line chart (several series,
//! optional logarithmic y axis, optional error bars) and a horizontal bar
//! chart with error bars. Text uses a bundled font (DejaVu Sans), so no
//! system font library is needed.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// A chart could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {message}")]
pub struct PlotError {
    /// The file being written.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

/// One point of a series; `err` is the half-width of an error bar (0: none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Horizontal position.
    pub x: f64,
    /// Value.
    pub y: f64,
    /// Error bar half-width.
    pub err: f64,
}

/// A named line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points, in x order.
    pub points: Vec<Point>,
}

/// A line chart.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// Caption.
    pub title: String,
    /// Horizontal axis label.
    pub x_label: String,
    /// Vertical axis label.
    pub y_label: String,
    /// Logarithmic vertical axis (points with y <= 0 are left out).
    pub log_y: bool,
    /// The lines.
    pub series: Vec<Series>,
}

/// One bar: a value with its confidence interval as an error bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Its label (where the interval is open or missing, the label is
    /// the place to say why).
    pub label: String,
    /// Its value (an infinite value is drawn to the edge of the chart).
    pub value: f64,
    /// The interval's ends, low and high (`None`: no error bar). An
    /// infinite end is drawn to the edge of the chart, with an arrow.
    pub interval: Option<(f64, f64)>,
}

/// A horizontal bar chart, one bar per row, first bar on top.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Caption.
    pub title: String,
    /// Label of the value axis.
    pub value_label: String,
    /// Where bars start: 0 for differences, 1 for ratios.
    pub origin: f64,
    /// The bars.
    pub bars: Vec<Bar>,
}

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const WIDTH: u32 = 1000;

fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        assert!(
            register_font("sans-serif", FontStyle::Normal, FONT).is_ok(),
            "the bundled font is a valid TrueType font"
        );
    });
}

fn error(path: &Path, e: impl std::fmt::Display) -> PlotError {
    PlotError {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Spans `lo..hi` with a margin, never empty.
fn padded(lo: f64, hi: f64, share: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * share).max(1e-9);
    if hi - lo < 1e-9 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo - pad, hi + pad)
    }
}

/// Colours for series, distinguishable and printable.
fn colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    PALETTE[i % PALETTE.len()]
}

/// Colour of series `i` of `n`: the palette, or hues spread evenly around
/// the colour wheel when there are more series than palette colours.
fn series_colour(i: usize, n: usize) -> RGBColor {
    if n <= 10 {
        return colour(i);
    }
    // Alternate light and dark so that neighbours in hue differ too.
    let light = if i.is_multiple_of(2) { 0.38 } else { 0.55 };
    let (r, g, b) = HSLColor(i as f64 / n as f64, 0.75, light).rgb();
    RGBColor(r, g, b)
}

/// A tick label of a linear axis spanning `span`: as many decimals as
/// ticks about a tenth of the span apart need (0.2 steps read 0.2, 0.4, not
/// 0, 0), and no "-0".
fn linear_label(v: f64, span: f64) -> String {
    let step = span.abs() / 10.0;
    let decimals = if step > 0.0 && step.is_finite() {
        (-step.log10().floor()).clamp(0.0, 6.0) as usize
    } else {
        0
    };
    let text = format!("{v:.decimals$}");
    // A tiny negative value rounds to "-0.0".
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

/// Draws a line chart to a PNG file.
pub fn line_chart(chart: &LineChart, path: &Path) -> Result<(), PlotError> {
    register();
    // A log axis is drawn as log10 of the values on a linear axis, labelled
    // with the values themselves.
    let ty = |y: f64| if chart.log_y { y.log10() } else { y };
    let usable = |p: &Point| p.x.is_finite() && p.y.is_finite() && (!chart.log_y || p.y > 0.0);
    let points = || {
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| usable(p))
    };
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in points() {
        let err = if p.err.is_finite() { p.err.abs() } else { 0.0 };
        x0 = x0.min(p.x);
        x1 = x1.max(p.x);
        let lo = if chart.log_y { p.y } else { p.y - err };
        y0 = y0.min(ty(lo));
        y1 = y1.max(ty(p.y + err));
    }
    let integer_x = points().all(|p| p.x.fract() == 0.0);
    let (x0, x1) = padded(x0, x1, 0.03);
    let (y0, y1) = padded(y0, y1, 0.06);

    // Room for the legend when there are many series.
    let height = (650 + 12 * chart.series.len().saturating_sub(20)) as u32;
    let root = BitMapBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(path, e))?;
    let mut c = ChartBuilder::on(&root)
        .caption(&chart.title, ("sans-serif", 26))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| error(path, e))?;
    let log_y = chart.log_y;
    let y_fmt = move |v: &f64| {
        if log_y {
            let value = 10f64.powf(*v);
            if value >= 1e6 {
                format!("{:.1}M", value / 1e6)
            } else if value >= 1e3 {
                format!("{:.0}k", value / 1e3)
            } else {
                format!("{value:.0}")
            }
        } else {
            linear_label(*v, y1 - y0)
        }
    };
    c.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .y_label_formatter(&y_fmt)
        .x_label_formatter(&|v: &f64| {
            if v.fract().abs() < 1e-9 {
                format!("{v:.0}")
            } else if integer_x {
                // Whole-number data (depths, generations): no tick between.
                String::new()
            } else {
                format!("{v:.1}")
            }
        })
        .light_line_style(RGBColor(238, 238, 238))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .draw()
        .map_err(|e| error(path, e))?;

    for (i, s) in chart.series.iter().enumerate() {
        let col = series_colour(i, chart.series.len());
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| usable(p))
            .map(|p| (p.x, ty(p.y)))
            .collect();
        c.draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))
            .map_err(|e| error(path, e))?
            .label(&s.name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(2)));
        c.draw_series(
            pts.iter()
                .map(|&(x, y)| Circle::new((x, y), 3, col.filled())),
        )
        .map_err(|e| error(path, e))?;
        let bars = s
            .points
            .iter()
            .filter(|p| usable(p) && p.err.is_finite() && p.err > 0.0 && !chart.log_y);
        c.draw_series(
            bars.map(|p| ErrorBar::new_vertical(p.x, p.y - p.err, p.y, p.y + p.err, col, 8)),
        )
        .map_err(|e| error(path, e))?;
    }
    if chart.series.len() > 1 || chart.series.iter().any(|s| !s.name.is_empty()) {
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(|e| error(path, e))?;
    }
    root.present().map_err(|e| error(path, e))?;
    Ok(())
}

/// Draws a horizontal bar chart with error bars to a PNG file.
pub fn bar_chart(chart: &BarChart, path: &Path) -> Result<(), PlotError> {
    register();
    let origin = chart.origin;
    let mut lo = origin;
    let mut hi = origin;
    let ends = chart.bars.iter().flat_map(|b| {
        [
            Some(b.value),
            b.interval.map(|i| i.0),
            b.interval.map(|i| i.1),
        ]
    });
    for v in ends.flatten().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let (lo, hi) = padded(lo, hi, 0.05);
    let n = chart.bars.len().max(1);
    let height = (110 + 32 * n as u32).max(300);
    let root = BitMapBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(path, e))?;
    let labels: Vec<String> = chart.bars.iter().map(|b| b.label.clone()).collect();
    // Wide enough for the longest label (about 8 px a character at this
    // size), so that a label saying why an interval is open is read whole.
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let label_area = u32::try_from(longest * 8 + 20)
        .unwrap_or(u32::MAX)
        .clamp(230, 560);
    // Row i is drawn at y = n - 1 - i so that the first bar is on top.
    let row_y = move |i: usize| (n - 1 - i) as f64;
    let mut c = ChartBuilder::on(&root)
        .caption(&chart.title, ("sans-serif", 26))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(label_area)
        .build_cartesian_2d(lo..hi, -0.6..(n as f64 - 0.4))
        .map_err(|e| error(path, e))?;
    c.configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&|v: &f64| {
            let r = v.round();
            if (v - r).abs() > 0.01 || r < 0.0 || r as usize >= n {
                return String::new();
            }
            labels.get(n - 1 - r as usize).cloned().unwrap_or_default()
        })
        .x_desc(&chart.value_label)
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .draw()
        .map_err(|e| error(path, e))?;
    let clamp = |v: f64| v.clamp(lo, hi);
    c.draw_series(chart.bars.iter().enumerate().map(|(i, b)| {
        let y = row_y(i);
        let col = if b.value >= origin {
            colour(0)
        } else {
            colour(3)
        };
        Rectangle::new(
            [(origin, y - 0.32), (clamp(b.value), y + 0.32)],
            col.mix(0.8).filled(),
        )
    }))
    .map_err(|e| error(path, e))?;
    c.draw_series(
        chart
            .bars
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.interval.map(|iv| (i, b.value, iv)))
            .filter(|&(_, _, (l, h))| l.is_finite() && h.is_finite() && l <= h)
            .map(|(i, value, (l, h))| {
                ErrorBar::new_horizontal(
                    row_y(i),
                    clamp(l),
                    clamp(value),
                    clamp(h),
                    BLACK.stroke_width(2),
                    10,
                )
            }),
    )
    .map_err(|e| error(path, e))?;
    // An open end: the error bar runs to the edge and ends in an
    // arrowhead rather than a cap, so that it is not read as a bound.
    let open = chart.bars.iter().enumerate().filter_map(|(i, b)| {
        let (l, h) = b.interval?;
        if l.is_nan() || h.is_nan() || (l.is_finite() && h.is_finite()) {
            return None;
        }
        let y = row_y(i);
        let tick = (hi - lo) * 0.015;
        let end = |v: f64, edge: f64, inward: f64| {
            if v.is_finite() {
                // A cap, as the closed error bars have.
                vec![(clamp(v), y - 0.16), (clamp(v), y + 0.16)]
            } else {
                vec![
                    (edge + inward, y - 0.2),
                    (edge, y),
                    (edge + inward, y + 0.2),
                ]
            }
        };
        Some([
            vec![(clamp(l), y), (clamp(h), y)],
            end(l, lo, tick),
            end(h, hi, -tick),
        ])
    });
    c.draw_series(
        open.flatten()
            .map(|points| PathElement::new(points, BLACK.stroke_width(2))),
    )
    .map_err(|e| error(path, e))?;
    c.draw_series(std::iter::once(PathElement::new(
        vec![(origin, -0.6), (origin, n as f64 - 0.4)],
        BLACK,
    )))
    .map_err(|e| error(path, e))?;
    root.present().map_err(|e| error(path, e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("kestrel-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    fn png_size(path: &Path) -> u64 {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG", "{} is a PNG", path.display());
        bytes.len() as u64
    }

    #[test]
    fn linear_labels_have_the_decimals_their_ticks_need() {
        assert_eq!(linear_label(0.4, 2.6), "0.4");
        assert_eq!(linear_label(-1.2, 2.6), "-1.2");
        assert_eq!(linear_label(-0.000_000_1, 2.6), "0.0");
        assert_eq!(linear_label(1500.0, 8000.0), "1500");
        assert_eq!(linear_label(0.05, 0.3), "0.05");
        assert_eq!(linear_label(3.0, 0.0), "3");
    }

    #[test]
    fn line_chart_writes_a_png() {
        let path = tmp("lines.png");
        let series = |name: &str, k: f64| Series {
            name: name.into(),
            points: (1..=8)
                .map(|d| Point {
                    x: f64::from(d),
                    y: k * 3f64.powi(d),
                    err: 0.0,
                })
                .collect(),
        };
        let chart = LineChart {
            title: "Nodes by depth".into(),
            x_label: "depth".into(),
            y_label: "nodes".into(),
            log_y: true,
            series: vec![series("on", 1.0), series("off", 2.5)],
        };
        line_chart(&chart, &path).unwrap();
        assert!(png_size(&path) > 5_000);
        let elo = LineChart {
            title: "Elo".into(),
            x_label: "generation".into(),
            y_label: "Elo".into(),
            log_y: false,
            series: vec![Series {
                name: "best".into(),
                points: vec![
                    Point {
                        x: 1.0,
                        y: 5.0,
                        err: 30.0,
                    },
                    Point {
                        x: 2.0,
                        y: f64::INFINITY,
                        err: f64::NAN,
                    },
                    Point {
                        x: 3.0,
                        y: 40.0,
                        err: 25.0,
                    },
                ],
            }],
        };
        line_chart(&elo, &path).unwrap();
        assert!(png_size(&path) > 5_000);
    }

    #[test]
    fn bar_chart_writes_a_png() {
        let path = tmp("bars.png");
        let chart = BarChart {
            title: "Elo of each technique".into(),
            value_label: "Elo (on - off)".into(),
            origin: 0.0,
            bars: vec![
                Bar {
                    label: "NullMove".into(),
                    value: 80.0,
                    interval: Some((40.0, 120.0)),
                },
                Bar {
                    label: "Razoring".into(),
                    value: -5.0,
                    interval: Some((-40.0, 30.0)),
                },
                Bar {
                    label: "Futility (unbounded above)".into(),
                    value: 300.0,
                    interval: Some((150.0, f64::INFINITY)),
                },
                Bar {
                    label: "Quiescence".into(),
                    value: f64::INFINITY,
                    interval: None,
                },
            ],
        };
        bar_chart(&chart, &path).unwrap();
        assert!(png_size(&path) > 5_000);
        let empty = BarChart {
            bars: vec![],
            ..chart
        };
        bar_chart(&empty, &tmp("no_bars.png")).unwrap();
        let path = tmp("ratios.png");
        let ratios = BarChart {
            title: "Time off/on".into(),
            value_label: "ratio".into(),
            origin: 1.0,
            bars: vec![
                Bar {
                    label: "NullMove".into(),
                    value: 2.5,
                    interval: Some((2.1, 2.9)),
                },
                Bar {
                    label: "Razoring (1 run: no interval)".into(),
                    value: 0.97,
                    interval: None,
                },
            ],
        };
        bar_chart(&ratios, &path).unwrap();
        assert!(png_size(&path) > 5_000);
    }

    #[test]
    fn an_unwritable_path_is_an_error() {
        let chart = BarChart {
            title: "x".into(),
            value_label: "y".into(),
            origin: 0.0,
            bars: vec![],
        };
        let e = bar_chart(&chart, Path::new("/nonexistent-dir/x.png")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent-dir/x.png"));
    }
}
