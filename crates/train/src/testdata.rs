//! Training data made without self-play, for tests and for trying the
//! trainer: random playouts from the start position, labelled with the
//! hand-crafted evaluation.

use chess::{Color, Position};
use engine::strength::Rng;
use trainingdata::{RecordResult, TrainingRecord};

/// `n` records from random games: each position's score is the
/// hand-crafted evaluation (White's view), its result the score's sign
/// beyond a pawn (a stand-in for a game's result that the net can learn).
pub fn records(n: usize, seed: u64) -> Vec<TrainingRecord> {
    playouts(n, seed, 120, 4, 100)
}

/// `n` records from random games of at most `plies` plies, skipping the
/// first `skip` plies and positions in check; the result is the score's
/// sign beyond `margin` centipawns.
pub fn playouts(
    n: usize,
    seed: u64,
    plies: usize,
    skip: usize,
    margin: i16,
) -> Vec<TrainingRecord> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::startpos();
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            pos.play_unchecked(moves[rng.next_u64() as usize % moves.len()]);
            if ply < skip || pos.in_check() {
                continue;
            }
            let stm = engine::eval::evaluate(&pos).clamp(-3000, 3000) as i16;
            let white = if pos.turn() == Color::White {
                stm
            } else {
                -stm
            };
            let result = match white {
                s if s > margin => RecordResult::WhiteWin,
                s if s < -margin => RecordResult::BlackWin,
                _ => RecordResult::Draw,
            };
            out.push(TrainingRecord::from_position(&pos, white, result));
            if out.len() == n {
                break;
            }
        }
    }
    out
}

/// A fresh scratch directory for one test.
#[cfg(test)]
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `records` as a shard file.
#[cfg(test)]
pub fn write_shard(path: &std::path::Path, records: &[TrainingRecord]) {
    let mut writer = trainingdata::RecordWriter::create(path).unwrap();
    for r in records {
        writer.write(r).unwrap();
    }
    writer.finish().unwrap();
}
