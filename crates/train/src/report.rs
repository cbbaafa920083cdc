//! The training log (CSV, one row per epoch) and the loss chart.

use std::io::Write;
use std::path::Path;

use charts::{line_chart, LineChart, Point, Series};

use crate::error::TrainError;

/// The log's header line.
pub const HEADER: &str =
    "epoch,train_loss,val_loss,lr,positions,seconds,positions_per_s,quant_mean_cp,quant_max_cp,qb,hand_crafted_loss";

/// One epoch's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogRow {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean validation loss after the epoch (NaN in a run without a
    /// validation split; an empty field in the CSV).
    pub val_loss: f64,
    /// The learning rate at the epoch's end.
    pub lr: f32,
    /// Positions trained on.
    pub positions: u64,
    /// Wall time of the epoch's training, seconds.
    pub seconds: f64,
    /// Mean |quantised - float| score on validation positions, centipawns.
    pub quant_mean_cp: f64,
    /// Largest |quantised - float| score, centipawns.
    pub quant_max_cp: f64,
    /// The output layer's quantisation of the epoch's net file.
    pub qb: i32,
    /// The hand-crafted evaluation's loss on the same validation positions
    /// (`yardstick`); 0 in logs written before it was recorded, NaN (an
    /// empty field) without a validation split.
    pub hand_crafted_loss: f64,
}

impl LogRow {
    /// The row as a CSV line.
    pub fn to_csv(&self) -> String {
        let loss = |v: f64| {
            if v.is_nan() {
                String::new()
            } else {
                format!("{v:.6}")
            }
        };
        format!(
            "{},{:.6},{},{:.3e},{},{:.2},{:.0},{:.2},{:.1},{},{}",
            self.epoch,
            self.train_loss,
            loss(self.val_loss),
            self.lr,
            self.positions,
            self.seconds,
            self.positions as f64 / self.seconds.max(1e-9),
            self.quant_mean_cp,
            self.quant_max_cp,
            self.qb,
            loss(self.hand_crafted_loss)
        )
    }

    /// A row from a CSV line (None for the header or a damaged line). Logs
    /// of runs before the yardstick column have one field less.
    pub fn from_csv(line: &str) -> Option<LogRow> {
        let f: Vec<&str> = line.trim().split(',').collect();
        if f.len() != 10 && f.len() != 11 {
            return None;
        }
        let loss = |v: &str| {
            if v.is_empty() {
                Some(f64::NAN)
            } else {
                v.parse().ok()
            }
        };
        Some(LogRow {
            epoch: f[0].parse().ok()?,
            train_loss: f[1].parse().ok()?,
            val_loss: loss(f[2])?,
            lr: f[3].parse().ok()?,
            positions: f[4].parse().ok()?,
            seconds: f[5].parse().ok()?,
            quant_mean_cp: f[7].parse().ok()?,
            quant_max_cp: f[8].parse().ok()?,
            qb: f[9].parse().ok()?,
            hand_crafted_loss: match f.get(10) {
                Some(v) => loss(v)?,
                None => 0.0,
            },
        })
    }
}

/// The rows of an existing log (none if there is no file); damaged lines
/// are skipped.
pub fn read_log(path: &Path) -> Vec<LogRow> {
    std::fs::read_to_string(path)
        .map(|text| text.lines().filter_map(LogRow::from_csv).collect())
        .unwrap_or_default()
}

/// Appends `row` to the log at `path`, writing the header to a new file.
pub fn append_row(path: &Path, row: &LogRow) -> Result<(), TrainError> {
    let new = !path.exists();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| TrainError::io(path, e))?;
    let mut text = String::new();
    if new {
        text.push_str(HEADER);
        text.push('\n');
    }
    text.push_str(&row.to_csv());
    text.push('\n');
    file.write_all(text.as_bytes())
        .map_err(|e| TrainError::io(path, e))
}

/// Draws training and validation loss per epoch into a PNG (in units of
/// 10⁻⁴: the chart helper labels its axis with whole numbers), with the
/// hand-crafted evaluation's loss as the line the validation loss must get
/// under.
pub fn draw_chart(rows: &[LogRow], path: &Path) -> Result<(), TrainError> {
    let line = |name: &str, value: fn(&LogRow) -> f64| Series {
        name: name.to_string(),
        points: rows
            .iter()
            .filter(|r| !value(r).is_nan())
            .map(|r| Point {
                x: r.epoch as f64,
                y: value(r) * 1e4,
                err: 0.0,
            })
            .collect(),
    };
    let chart = LineChart {
        title: "NNUE training loss".to_string(),
        x_label: "epoch".to_string(),
        y_label: "loss (MSE of win probability) x 10^-4".to_string(),
        log_y: false,
        series: {
            let mut series = vec![line("training", |r| r.train_loss)];
            if rows.iter().any(|r| !r.val_loss.is_nan()) {
                series.push(line("validation", |r| r.val_loss));
            }
            if rows.iter().all(|r| r.hand_crafted_loss > 0.0) {
                series.push(line("hand-crafted evaluation (validation)", |r| {
                    r.hand_crafted_loss
                }));
            }
            series
        },
    };
    line_chart(&chart, path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_through_csv() {
        let row = LogRow {
            epoch: 3,
            train_loss: 0.012345,
            val_loss: 0.013,
            lr: 0.001,
            positions: 1000,
            seconds: 2.5,
            quant_mean_cp: 1.25,
            quant_max_cp: 7.5,
            qb: 64,
            hand_crafted_loss: 0.0025,
        };
        assert_eq!(LogRow::from_csv(&row.to_csv()), Some(row.clone()));
        assert_eq!(LogRow::from_csv(HEADER), None);
        // A line of an older log, without the last column.
        let old = "2,0.012345,0.013000,1.000e-3,1000,2.50,400,1.25,7.5,64";
        assert_eq!(
            LogRow::from_csv(old),
            Some(LogRow {
                epoch: 2,
                hand_crafted_loss: 0.0,
                ..row
            })
        );
    }
}
