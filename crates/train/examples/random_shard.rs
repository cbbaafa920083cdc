//! Writes a shard of training records from random games, labelled with the
//! hand-crafted evaluation: data for measuring the trainer's speed (and for
//! trying it out) before real self-play data exists.
//!
//! `cargo run --release -p train --example random_shard -- OUT.bin POSITIONS [SEED]`

use trainingdata::RecordWriter;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: random_shard OUT.bin POSITIONS [SEED]".into());
    }
    let count: usize = args[2].parse()?;
    let seed: u64 = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let mut writer = RecordWriter::create(&args[1])?;
    // Longer games than the tests' and a wider result margin.
    for record in train::testdata::playouts(count, seed, 160, 8, 150) {
        writer.write(&record)?;
    }
    writer.finish()?;
    eprintln!("wrote {count} positions to {}", args[1]);
    Ok(())
}
