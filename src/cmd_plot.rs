//! `kestrel plot`: a chart of Elo over games from the JSON results of
//! `kestrel match` or `kestrel tournament` (several shards are merged first).

use anyhow::{bail, Result};
use charts::{line_chart, LineChart, Point, Series};
use clap::Args;
use matchrunner::history::rating_history;
use std::path::PathBuf;

/// Arguments of `kestrel plot`.
#[derive(Args)]
pub struct PlotArgs {
    /// Results written by `-json FILE` (several: shards of one run).
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// The chart to write (PNG).
    #[arg(long, default_value = "elo.png")]
    out: PathBuf,
    /// A point every this many games (default: about 40 points).
    #[arg(long)]
    every: Option<usize>,
}

/// Draws the chart.
pub fn run(args: PlotArgs) -> Result<()> {
    let results = matchrunner::merge::merge(&args.results, None)?;
    if results.games.is_empty() {
        bail!("no finished games in the results: nothing to plot");
    }
    let step = args
        .every
        .unwrap_or_else(|| results.games.len().div_ceil(40));
    let lines = rating_history(&results, step);
    let match_view = lines.len() == 1;
    let chart = LineChart {
        title: if match_view {
            format!("Elo difference over games: {}", lines[0].name)
        } else {
            "Ratings over games".to_string()
        },
        x_label: "games".to_string(),
        y_label: if match_view {
            "Elo (95% interval)".to_string()
        } else {
            "rating (95% interval)".to_string()
        },
        log_y: false,
        series: lines
            .into_iter()
            .map(|line| Series {
                name: line.name,
                points: line
                    .points
                    .iter()
                    .map(|p| Point {
                        x: p.games as f64,
                        y: p.elo,
                        err: p.error,
                    })
                    .collect(),
            })
            .collect(),
    };
    if chart.series.iter().all(|s| s.points.is_empty()) {
        bail!("every estimate is unbounded (all games won or lost): nothing to plot");
    }
    line_chart(&chart, &args.out)?;
    println!("wrote {}", args.out.display());
    Ok(())
}
