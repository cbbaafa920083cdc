//! A hash table size the machine cannot give is refused over UCI and
//! xboard with a message, and the engine goes on with its old table
//! (instead of aborting on a failed allocation). 32 TiB stands for "more
//! than this machine has" on any machine that runs the tests: it is the
//! option's maximum, so it is refused for want of memory, not as out of
//! range.

mod common;

use common::Running;

/// 32 TiB in MiB: `Hash`'s maximum, and more than any test machine has.
const HUGE_MIB: u64 = 1 << 25;

#[test]
fn uci_refuses_a_hash_it_cannot_have_and_keeps_the_old_table() {
    let mut e = Running::start(&[]);
    e.send("uci");
    let options = e.until("uciok", 5);
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Hash type spin")
                && l.ends_with(&format!("max {HUGE_MIB}"))),
        "{options:?}"
    );
    e.send("setoption name Hash value 32");
    e.send(&format!("setoption name Hash value {HUGE_MIB}"));
    e.send("isready");
    let lines = e.until("readyok", 30);
    let refusal = lines
        .iter()
        .find(|l| l.starts_with("info string error: Hash refused"))
        .unwrap_or_else(|| panic!("no refusal: {lines:?}"));
    assert!(refusal.contains("the table stays at 32 MiB"), "{refusal}");
    // Out of range is a different message.
    e.send(&format!("setoption name Hash value {}", HUGE_MIB + 1));
    e.send("isready");
    let lines = e.until("readyok", 5);
    assert!(
        lines.iter().any(|l| l.contains("takes a number from 1 to")),
        "{lines:?}"
    );
    // The engine still searches.
    e.send("position startpos moves e2e4");
    e.send("go depth 4");
    let lines = e.until("bestmove", 30);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4")),
        "{lines:?}"
    );
}

#[test]
fn xboard_memory_refuses_a_size_it_cannot_have() {
    let mut e = Running::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until_line(|l| l == "feature done=1", 5);
    assert!(
        features.iter().any(|l| l.contains("memory=1")),
        "{features:?}"
    );
    e.send("accepted done");
    e.send("new");
    e.send("memory 32");
    e.send(&format!("memory {HUGE_MIB}"));
    e.send("ping 1");
    let lines = e.until_line(|l| l == "pong 1", 30);
    let refusal = lines
        .iter()
        .find(|l| l.starts_with("Error (Hash refused"))
        .unwrap_or_else(|| panic!("no refusal: {lines:?}"));
    assert!(refusal.contains("the table stays at 32 MiB"), "{refusal}");
    assert!(
        refusal.ends_with(&format!(": memory {HUGE_MIB}")),
        "{refusal}"
    );
    // The engine still plays.
    e.send("sd 3");
    e.send("usermove e2e4");
    e.until("move ", 30);
}
