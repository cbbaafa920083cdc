//! Search techniques that ship off until a test shows they gain (`ProbCut`,
//! `CorrectionHistory`): each switch changes the search when on, and either
//! way the search keeps the tactic it should find.

use std::sync::Arc;

use chess::{CastlingMode, Position};
use engine::{Engine, Limits, SearchResult};

/// Black's queen stands where the bishop takes it: c1g5 wins it.
const QUEEN_HANGS: &str = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3";

/// A depth-10 search of `QUEEN_HANGS` with these options set.
fn search(options: &[(&str, &str)]) -> SearchResult {
    let pos = Position::from_fen(QUEEN_HANGS).expect("valid FEN");
    let mut engine = Engine::new();
    for (name, value) in options {
        engine.set_option(name, value).expect("option");
    }
    let r = engine.search(&pos, &[], Limits::depth(10), Arc::new(|_| {}));
    let best = r.best.expect("a legal move");
    assert_eq!(best.to_uci(CastlingMode::Standard).to_string(), "c1g5");
    r
}

#[test]
fn probcut_cuts_and_the_switch_turns_it_off() {
    let on = search(&[("ProbCut", "true")]);
    let off = search(&[("ProbCut", "false")]);
    assert!(
        on.stats.probcuts > 0,
        "a won queen leaves captures that beat beta by far"
    );
    assert_eq!(off.stats.probcuts, 0);
}

#[test]
fn correction_history_changes_the_search_not_the_tactic() {
    let on = search(&[("Evaluator", "Full"), ("CorrectionHistory", "true")]);
    let off = search(&[("Evaluator", "Full"), ("CorrectionHistory", "false")]);
    assert_ne!(
        on.nodes, off.nodes,
        "corrected evaluations prune and order differently"
    );
}
