//! Endgame knowledge at work: the engine, playing both sides at a short
//! fixed search, mates a lone king with queen, with rook, and with bishop
//! and knight (the evaluation's mop-up must show the way: these mates lie
//! far beyond the search horizon), inside the fifty-move limit.

use std::sync::Arc;

use chess::{Game, Position};
use engine::{Engine, Limits};

/// Plays the game out; returns the plies until mate, or `None`.
fn plies_to_mate(fen: &str, nodes: u64, max_plies: usize) -> Option<usize> {
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    let mut engine = Engine::new();
    let mut keys = Vec::new();
    for ply in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return matches!(outcome, chess::Outcome::Checkmate { .. }).then_some(ply);
        }
        let pos = *game.position();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = engine.search(&pos, &keys, limits, Arc::new(|_| {}));
        keys.push(pos.key());
        game.push(result.best.expect("a legal move exists"));
    }
    None
}

#[test]
fn queen_mates_a_lone_king() {
    let plies = plies_to_mate("8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1", 20_000, 100);
    assert!(plies.is_some(), "KQK not mated within 50 moves");
}

#[test]
fn rook_mates_a_lone_king() {
    let plies = plies_to_mate("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 20_000, 100);
    assert!(plies.is_some(), "KRK not mated within 50 moves");
}

#[test]
fn bishop_and_knight_mate_in_the_right_corner() {
    // The hardest elementary mate: up to 33 moves with best play.
    let plies = plies_to_mate("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1", 50_000, 100);
    assert!(plies.is_some(), "KBNK not mated within 50 moves");
}

#[test]
fn bishop_and_knights_mate_is_seen_from_afar() {
    // A mate in 18 (Stockfish 15.1 sees a mate at 291,412 nodes). The
    // search reaches no deeper than about 30 plies here: the mop-up must
    // lead it towards the bishop's corner, step by step, for the table to
    // join the lines into a mate. A basic mate's search weighs the mop-up
    // eight times (`MopUpWeight`); at weight 1 the score after these nodes
    // is +1,522 cp, no mate.
    let pos = Position::from_fen("2K5/5k2/8/8/5B2/7N/8/8 w - - 0 1").unwrap();
    let limits = Limits {
        nodes: Some(2_000_000),
        ..Limits::default()
    };
    let result = Engine::new().search(&pos, &[], limits, Arc::new(|_| {}));
    assert!(
        engine::score::is_mate(result.score) && result.score > 0,
        "score {}",
        result.score
    );
}
