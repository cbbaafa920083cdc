//! `ProbCut`: at a non-PV node deep enough, a capture whose reduced search
//! beats beta by a margin cuts the node. The switch turns it off, and either
//! way the search keeps the tactic it should find.

use std::sync::Arc;

use chess::{CastlingMode, Position};
use engine::{Engine, Limits};

/// The best move and the number of ProbCut cut-offs of a depth-`depth` search.
fn search(fen: &str, probcut: bool, depth: i32) -> (String, u64) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let mut engine = Engine::new();
    engine
        .set_option("ProbCut", if probcut { "true" } else { "false" })
        .expect("option");
    let r = engine.search(&pos, &[], Limits::depth(depth), Arc::new(|_| {}));
    let best = r.best.expect("a legal move");
    (
        best.to_uci(CastlingMode::Standard).to_string(),
        r.stats.probcuts,
    )
}

#[test]
fn probcut_cuts_and_the_switch_turns_it_off() {
    // Black's queen stands where the bishop takes it.
    let fen = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3";
    let (on, cuts_on) = search(fen, true, 10);
    let (off, cuts_off) = search(fen, false, 10);
    assert_eq!(on, "c1g5");
    assert_eq!(off, "c1g5");
    assert!(
        cuts_on > 0,
        "a won queen leaves captures that beat beta by far"
    );
    assert_eq!(cuts_off, 0);
}
