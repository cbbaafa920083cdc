//! A soft node limit on top of the engine's public API: iterative deepening
//! goes on while the nodes searched are below the limit and stops after the
//! first iteration that passes it, so the score always comes from a
//! completed iteration. A hard limit (a multiple of the soft one) bounds a
//! pathological iteration.
//!
//! The engine's own `nodes` limit is hard: it cuts the search mid-iteration.
//! Soft limits are what datagen in other engines uses, and they are
//! reproducible here: the reporter blocks the search thread at the end of
//! the iteration until the stop has been requested, so the next iteration
//! stops at its first node whatever the machine's load.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use crate::{Engine, Limits, SearchEvent, SearchResult};
use chess::Position;

/// The hard limit as a multiple of the soft one.
const HARD_FACTOR: u64 = 20;

/// Searches `pos` on `engine` with a soft limit of `soft_nodes` nodes.
/// `history` holds the keys of the game's earlier positions. The result
/// has no move when the position has none (or the search failed).
pub fn search(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    soft_nodes: u64,
) -> SearchResult {
    let (events_tx, events) = mpsc::channel::<SearchEvent>();
    let (resume, resume_rx) = mpsc::channel::<()>();
    let resume_rx = Mutex::new(resume_rx);
    let reporter: crate::Reporter = Arc::new(move |event| {
        let blocks = matches!(&event, SearchEvent::Iteration(info)
            if info.bound.is_exact() && info.multipv == 1 && info.nodes >= soft_nodes);
        // The receiver only goes away once the best move has arrived.
        if events_tx.send(event).is_ok() && blocks {
            if let Ok(rx) = resume_rx.lock() {
                let _ = rx.recv();
            }
        }
    });
    let limits = Limits {
        nodes: Some(soft_nodes.saturating_mul(HARD_FACTOR)),
        ..Limits::default()
    };
    engine.go(*pos, history.to_vec(), limits, reporter);
    let mut result = None;
    for event in &events {
        match event {
            SearchEvent::Iteration(info)
                if info.bound.is_exact() && info.multipv == 1 && info.nodes >= soft_nodes =>
            {
                engine.stop();
                let _ = resume.send(());
            }
            SearchEvent::BestMove(found) => {
                result = Some(found);
                break;
            }
            _ => {}
        }
    }
    // Dropping the channels first releases a reporter still waiting.
    drop(resume);
    drop(events);
    engine.wait();
    // A search thread that died (an engine bug) reports nothing: answer
    // "no move", which ends a self-play game without a result.
    result.unwrap_or_else(no_move)
}

/// A result with no move.
pub fn no_move() -> SearchResult {
    SearchResult {
        best: None,
        ponder: None,
        score: 0,
        depth: 0,
        pv: Vec::new(),
        nodes: 0,
        stats: crate::SearchStats::default(),
        time: std::time::Duration::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_soft_and_reproducible() {
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let run = || {
            let mut engine = Engine::new();
            search(&mut engine, &pos, &[], 3000)
        };
        let (a, b) = (run(), run());
        assert!(a.nodes >= 3000, "stopped at {} nodes", a.nodes);
        assert!(a.nodes < 3000 * HARD_FACTOR);
        assert_eq!(
            (a.best, a.score, a.nodes, a.depth),
            (b.best, b.score, b.nodes, b.depth)
        );
        assert!(a.best.is_some());
    }

    #[test]
    fn a_position_without_moves_returns_no_move() {
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        let mut engine = Engine::new();
        assert!(search(&mut engine, &mated, &[], 1000).best.is_none());
    }
}
