//! Writes a shard of training records from random games, labelled with the
//! hand-crafted evaluation: data for measuring the trainer's speed (and for
//! trying it out) before real self-play data exists.
//!
//! `cargo run --release -p train --example random_shard -- OUT.bin POSITIONS [SEED]`

use chess::{Color, Position};
use engine::strength::Rng;
use trainingdata::{GameResult, RecordWriter, TrainingRecord};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: random_shard OUT.bin POSITIONS [SEED]".into());
    }
    let count: usize = args[2].parse()?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let mut rng = Rng::new(seed);
    let mut writer = RecordWriter::create(&args[1])?;
    let mut written = 0;
    while written < count {
        let mut pos = Position::startpos();
        // Mostly random moves, with some plies of the best static reply so
        // that games keep pieces longer than pure random play does.
        for ply in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            pos.play(moves[rng.next_u64() as usize % moves.len()]);
            if ply < 8 || pos.in_check() {
                continue;
            }
            let stm = engine::eval::evaluate(&pos).clamp(-3000, 3000) as i16;
            let white = if pos.turn() == Color::White {
                stm
            } else {
                -stm
            };
            let result = match white {
                s if s > 150 => GameResult::WhiteWin,
                s if s < -150 => GameResult::BlackWin,
                _ => GameResult::Draw,
            };
            writer.write(&TrainingRecord::from_position(&pos, white, result))?;
            written += 1;
            if written == count {
                break;
            }
        }
    }
    writer.finish()?;
    eprintln!("wrote {written} positions to {}", args[1]);
    Ok(())
}
