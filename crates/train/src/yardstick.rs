//! The hand-crafted evaluation's loss on the validation positions: the bar a
//! network has to clear before it can play better than `Full`.
//!
//! The loss is the trainer's own (squared error of win probabilities, with
//! the same targets and the same sigmoid scale), so the two figures compare
//! directly: a net whose validation loss is above this one predicts the
//! search's scores worse than the static evaluation it is meant to replace.

use rayon::prelude::*;
use trainingdata::TrainingRecord;

use crate::sample::{sigmoid, Sample};

/// Mean loss of `engine::eval::evaluate` (Full, default weights) on
/// `records`, with targets made as for training (`wdl`, `scale`). Records
/// that do not make a legal position are left out; 0 for none.
pub fn hand_crafted_loss(records: &[TrainingRecord], wdl: f32, scale: f32) -> f64 {
    let (sum, count) = records
        .par_chunks(4096)
        .map(|chunk| {
            chunk
                .iter()
                .filter_map(|r| {
                    let pos = r.to_position().ok()?;
                    let predicted = sigmoid(engine::eval::evaluate(&pos) as f32 / scale);
                    let target = Sample::target(r, wdl, scale);
                    Some(f64::from((predicted - target).powi(2)))
                })
                .fold((0.0, 0usize), |(s, n), e| (s + e, n + 1))
        })
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;
    use trainingdata::RecordResult;

    #[test]
    fn zero_when_the_search_agrees_and_larger_as_it_disagrees() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/3Q4/8/8/5K2/8 b - - 0 1",
        ];
        let records = |offset: i32| -> Vec<TrainingRecord> {
            fens.iter()
                .map(|fen| {
                    let pos = Position::from_fen(fen).unwrap();
                    // The record's score is White's view; the evaluation's
                    // is the side to move's.
                    let stm = engine::eval::evaluate(&pos) + offset;
                    let white = if pos.turn() == chess::Color::White {
                        stm
                    } else {
                        -stm
                    };
                    TrainingRecord::from_position(&pos, white as i16, RecordResult::Draw)
                })
                .collect()
        };
        let exact = hand_crafted_loss(&records(0), 0.0, 400.0);
        let near = hand_crafted_loss(&records(50), 0.0, 400.0);
        let far = hand_crafted_loss(&records(300), 0.0, 400.0);
        assert!(exact < 1e-9, "{exact}");
        assert!(0.0 < near && near < far, "{near} {far}");
        assert_eq!(hand_crafted_loss(&[], 0.0, 400.0), 0.0);
    }
}
