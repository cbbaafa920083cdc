//! What training data holds: positions read and kept by the read filter,
//! the result split, the side to move, a histogram of scores and the
//! distribution of piece counts (`kestrel datagen stats`), for any format
//! `trainingdata::source` reads. Reads each input once, streaming.

use std::fmt;
use std::path::Path;

use chess::Color;
use trainingdata::source::{self, DataFormat, ReadCounts, SourceError};
use trainingdata::{PositionFilter, TrainingRecord};

/// Width of a score histogram bucket, centipawns.
pub const SCORE_BUCKET: i32 = 100;
/// Scores beyond ± this go to the outer buckets.
pub const SCORE_RANGE: i32 = 1000;

/// Counts over a training-data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataStats {
    /// Records counted (the positions kept).
    pub records: u64,
    /// What reading found: games, positions before and after the filter,
    /// the filter's reasons, a partial last record.
    pub read: ReadCounts,
    /// Records by result: Black won, draw, White won.
    pub results: [u64; 3],
    /// Records by result for the side to move: lost, draw, won.
    pub mover_results: [u64; 3],
    /// The data is the side to move's (bullet's `ChessBoard`): every
    /// position reads with White to move, so the colours say nothing and
    /// only the side to move's view is shown.
    pub side_relative: bool,
    /// Records by side to move: White, Black.
    pub turns: [u64; 2],
    /// Scores (White's view; the side to move's for side-relative data) in
    /// buckets of `SCORE_BUCKET` from
    /// `-SCORE_RANGE` to `SCORE_RANGE`, the outer buckets open-ended.
    pub scores: Vec<u64>,
    /// Records by number of pieces (index 0 to 32).
    pub pieces: [u64; 33],
    /// Sum of |score|, for the mean.
    pub abs_score_sum: u64,
}

impl Default for DataStats {
    fn default() -> DataStats {
        DataStats {
            records: 0,
            read: ReadCounts::default(),
            results: [0; 3],
            mover_results: [0; 3],
            side_relative: false,
            turns: [0; 2],
            scores: vec![0; (2 * SCORE_RANGE / SCORE_BUCKET + 2) as usize],
            pieces: [0; 33],
            abs_score_sum: 0,
        }
    }
}

impl DataStats {
    /// Counts one record.
    pub fn add(&mut self, r: &TrainingRecord) {
        self.records += 1;
        let result = r.result().to_byte() as usize;
        self.results[result] += 1;
        // The byte is 0 Black won, 1 draw, 2 White won.
        let mover = if r.turn() == Color::White {
            result
        } else {
            2 - result
        };
        self.mover_results[mover] += 1;
        self.turns[r.turn().index()] += 1;
        self.scores[score_bucket(r.score())] += 1;
        self.pieces[r.piece_count().min(32) as usize] += 1;
        self.abs_score_sum += u64::from(r.score().unsigned_abs());
    }

    /// Reads and counts `path` in `format`, games filtered by `filter`; a
    /// damaged record or game fails, naming the file and where.
    pub fn of_source(
        path: &Path,
        format: DataFormat,
        filter: &PositionFilter,
    ) -> Result<DataStats, SourceError> {
        let mut stats = DataStats {
            side_relative: format.is_side_relative(),
            ..DataStats::default()
        };
        stats.read = source::read_positions(path, format, filter, |r| stats.add(&r))?;
        Ok(stats)
    }

    /// The label of score bucket `i`: `< -1000`, `-1000..-900`, ..., `>= 1000`.
    pub fn score_label(i: usize) -> String {
        let last = (2 * SCORE_RANGE / SCORE_BUCKET + 1) as usize;
        if i == 0 {
            format!("< {}", -SCORE_RANGE)
        } else if i == last {
            format!(">= {SCORE_RANGE}")
        } else {
            let low = -SCORE_RANGE + (i as i32 - 1) * SCORE_BUCKET;
            format!("{low}..{}", low + SCORE_BUCKET)
        }
    }
}

/// The histogram bucket of `score`.
fn score_bucket(score: i16) -> usize {
    let s = i32::from(score);
    if s < -SCORE_RANGE {
        0
    } else if s >= SCORE_RANGE {
        (2 * SCORE_RANGE / SCORE_BUCKET + 1) as usize
    } else {
        ((s + SCORE_RANGE) / SCORE_BUCKET + 1) as usize
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// A bar of `#` proportional to `part / max`, at most 40 wide.
fn bar(part: u64, max: u64) -> String {
    "#".repeat((40 * part).div_ceil(max.max(1)) as usize)
}

impl fmt::Display for DataStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.records;
        let read = &self.read;
        if read.games > 0 {
            let s = &read.skipped;
            writeln!(
                f,
                "games {} positions {} ({:.1} a game); the read filter kept {} ({:.1} %) and left out: opening plies {}, in check {}, capture or promotion {}, score {}",
                read.games,
                read.positions,
                read.positions as f64 / read.games as f64,
                read.kept,
                percent(read.kept, read.positions),
                s.opening,
                s.in_check,
                s.noisy,
                s.score
            )?;
        }
        writeln!(f, "records {n}")?;
        if read.trailing_bytes > 0 {
            writeln!(
                f,
                "partial last record: {} bytes ignored (an interrupted write)",
                read.trailing_bytes
            )?;
        }
        if self.side_relative {
            writeln!(
                f,
                "side to move's data (bullet's ChessBoard): every board is as the side to move sees it, so which colour moved is not recorded"
            )?;
        } else {
            let [black, draw, white] = self.results;
            writeln!(
                f,
                "results  white won {white} ({:.1} %)  draw {draw} ({:.1} %)  black won {black} ({:.1} %)",
                percent(white, n),
                percent(draw, n),
                percent(black, n)
            )?;
        }
        let [lost, drawn, won] = self.mover_results;
        writeln!(
            f,
            "results for the side to move  won {won} ({:.1} %)  draw {drawn} ({:.1} %)  lost {lost} ({:.1} %)",
            percent(won, n),
            percent(drawn, n),
            percent(lost, n)
        )?;
        if !self.side_relative {
            writeln!(
                f,
                "to move  white {} ({:.1} %)  black {} ({:.1} %)",
                self.turns[Color::White.index()],
                percent(self.turns[Color::White.index()], n),
                self.turns[Color::Black.index()],
                percent(self.turns[Color::Black.index()], n)
            )?;
        }
        writeln!(
            f,
            "mean |score| {:.1} cp",
            self.abs_score_sum as f64 / n.max(1) as f64
        )?;
        writeln!(
            f,
            "score (cp, {})",
            if self.side_relative {
                "the side to move's view"
            } else {
                "White's view"
            }
        )?;
        let max = self.scores.iter().copied().max().unwrap_or(0);
        for (i, &count) in self.scores.iter().enumerate() {
            writeln!(
                f,
                "  {:>12} {count:>10} {:>5.1} % {}",
                DataStats::score_label(i),
                percent(count, n),
                bar(count, max)
            )?;
        }
        writeln!(f, "pieces on the board")?;
        let max = self.pieces.iter().copied().max().unwrap_or(0);
        for (pieces, &count) in self.pieces.iter().enumerate() {
            if count > 0 {
                writeln!(
                    f,
                    "  {pieces:>12} {count:>10} {:>5.1} % {}",
                    percent(count, n),
                    bar(count, max)
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_score() {
        assert_eq!(score_bucket(i16::MIN), 0);
        assert_eq!(score_bucket(-1001), 0);
        assert_eq!(score_bucket(-1000), 1);
        assert_eq!(score_bucket(-1), 10);
        assert_eq!(score_bucket(0), 11);
        assert_eq!(score_bucket(999), 20);
        assert_eq!(score_bucket(1000), 21);
        assert_eq!(score_bucket(i16::MAX), 21);
        assert_eq!(DataStats::default().scores.len(), 22);
        assert_eq!(DataStats::score_label(0), "< -1000");
        assert_eq!(DataStats::score_label(11), "0..100");
        assert_eq!(DataStats::score_label(21), ">= 1000");
    }
}
