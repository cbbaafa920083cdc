//! The finder on the labelled set (tests/data/motifs.epd, built by
//! scripts/motif_set.py with labels from construction and known
//! solutions, never from the finder): per motif, at least 95 % of what it
//! finds is labelled (a sentence naming a motif that is not there is worse
//! than none; for a motif found fewer than 20 times that allows no miss). Recall is reported, not
//! asserted; the table is printed (`--nocapture`) as docs/explain.md shows it.

use engine::{Engine, Limits};
use explain::labelled::{read, score, table, NODES};

#[test]
fn the_finder_is_precise_on_the_labelled_set() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/motifs.epd");
    let text = std::fs::read_to_string(path).expect("the labelled set is in the repository");
    let entries = read(&text).expect("every entry reads");
    assert!(entries.len() >= 300, "{} positions", entries.len());
    let mut engine = Engine::new();
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let (tallies, outcomes) = score(&mut engine, &entries, &limits);
    println!("{}", table(&tallies));
    for o in &outcomes {
        if !o.false_alarms.is_empty() {
            println!("{}: found but not labelled {:?}", o.id, o.false_alarms);
        }
    }
    for (kind, t) in &tallies {
        if let Some(p) = t.precision() {
            assert!(p >= 0.95, "{kind}: precision {:.1} %", 100.0 * p);
        }
    }
}
