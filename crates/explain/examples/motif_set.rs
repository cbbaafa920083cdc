//! The finder scored on the labelled set: precision and recall per motif.
//!
//! `cargo run --release -p explain --example motif_set -- tests/data/motifs.epd [NODES]`
//! prints the table docs/explain.md shows, then each entry the finder got
//! wrong (what it found that is not labelled, what it missed).

use engine::{Engine, Limits};
use explain::labelled::{read, score, table};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "tests/data/motifs.epd".into());
    let nodes: u64 = match args.next() {
        Some(n) => n.parse().map_err(|e| format!("NODES '{n}': {e}"))?,
        None => explain::labelled::NODES,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let entries = read(&text)?;
    let mut engine = Engine::try_new().map_err(|e| e.to_string())?;
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let (tallies, outcomes) = score(&mut engine, &entries, &limits);
    println!("{} positions, {nodes} nodes per search\n", entries.len());
    print!("{}", table(&tallies));
    for o in outcomes {
        if !o.false_alarms.is_empty() || !o.misses.is_empty() {
            println!(
                "{}: found but not labelled {:?}, labelled but not found {:?}",
                o.id, o.false_alarms, o.misses
            );
        }
    }
    Ok(())
}
