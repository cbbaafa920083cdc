//! `CorrectionHistory`: the static evaluation corrected by what searches of
//! positions with the same pawn structure found. The switch changes the
//! tree searched, and either way the search keeps the tactic it should find.

use std::sync::Arc;

use chess::{CastlingMode, Position};
use engine::{Engine, Limits};

/// The best move and the nodes of a depth-`depth` search with the hand-crafted evaluation.
fn search(fen: &str, correction: bool, depth: i32) -> (String, u64) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let mut engine = Engine::new();
    engine.set_option("Evaluator", "Full").expect("option");
    engine
        .set_option(
            "CorrectionHistory",
            if correction { "true" } else { "false" },
        )
        .expect("option");
    let r = engine.search(&pos, &[], Limits::depth(depth), Arc::new(|_| {}));
    let best = r.best.expect("a legal move");
    (best.to_uci(CastlingMode::Standard).to_string(), r.nodes)
}

#[test]
fn correction_history_changes_the_search_not_the_tactic() {
    // Black's queen stands where the bishop takes it.
    let fen = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3";
    let (on, nodes_on) = search(fen, true, 10);
    let (off, nodes_off) = search(fen, false, 10);
    assert_eq!(on, "c1g5");
    assert_eq!(off, "c1g5");
    assert_ne!(
        nodes_on, nodes_off,
        "corrected evaluations prune and order differently"
    );
}
