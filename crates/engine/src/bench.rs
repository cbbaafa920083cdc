//! `kestrel bench`: a fixed-depth search over built-in positions, single
//! threaded with a fresh table, printing `N nodes M nps` last (OpenBench's
//! format). The node count is deterministic: it changes only when the
//! search's behaviour changes, so every functional change can quote it.
//!
//! Positions: 30 balanced openings from the CC0 "8moves_v3" book (Stockfish
//! project), 12 Win-at-Chess positions (Arasan's wacnew.epd, MIT) and 8
//! endgames written for Kestrel.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chess::Position;

use crate::engine::Engine;
use crate::eval::EvalKind;
use crate::events::SearchEvent;
use crate::limits::Limits;
use crate::option_error::OptionError;
use crate::params::SearchParams;

/// The bench positions.
pub const BENCH_FENS: [&str; 50] = [
    "rn2kb1r/pp3ppp/2p1pn2/3p3b/8/1P1P1NPP/PBPqPPB1/RN2K2R w KQkq - 0 9",
    "r1bqk2r/1p1n1ppp/p2bpn2/2p5/8/1Q1P1NP1/PP2PPBP/RNB1K2R w KQkq - 2 9",
    "r2qkb1r/1pp2ppp/p1p3n1/4p3/4P3/2NP1Q1P/PPP2PP1/R1B1K2R w KQkq - 1 9",
    "r1bqk2r/1p2npbp/2n3p1/p1ppp3/P7/2PP1NP1/1P2PPBP/RNBQ1RK1 w kq - 1 9",
    "r1bqk2r/p2p1ppp/1p2pn2/2b5/2PQ1B2/P1N5/1P2PPPP/R3KB1R w KQkq - 2 9",
    "r1b1kb1r/ppqn1ppp/3p1n2/P2pp3/4P3/2N2P2/1PP1N1PP/R1BQKB1R w KQkq - 0 9",
    "r1bqr1k1/pp1n1ppp/2pbpn2/3p4/2PP4/2N2NP1/PPQ1PPBP/R1B2RK1 w - - 3 9",
    "rn1qkb1r/1b3ppp/p1p1pn2/1p2N3/P1pP4/2N3P1/1P2PPBP/R1BQK2R w KQkq - 0 9",
    "r1bq1rk1/pp2ppbp/n1p3p1/3p4/3PnB2/1N3NP1/PPP1PPBP/R2Q1RK1 w - - 2 9",
    "r2qkb1r/1p1bpppp/p1np1n2/8/3NP3/2N1BPP1/PPP4P/R2QKB1R w KQkq - 3 9",
    "rn1qk1nr/p4ppp/1ppbp3/8/3P4/1N1Q4/PPP2PPP/R1B1K1NR w KQkq - 1 9",
    "rn3rk1/pp1q1ppp/2p2p2/3p1b2/1b1P4/2NBPN2/PPP2PPP/R2Q1RK1 w - - 6 9",
    "r1bqk2r/1p1pbppp/p1n1pn2/8/2P1P3/1N1B4/PP3PPP/RNBQ1RK1 w kq - 1 9",
    "r1bqrbk1/ppp2ppp/2np1n2/1B2p3/4P3/2PP1N2/PP2QPPP/R1B1KN1R w KQ - 0 9",
    "rn1qk2r/p2bnppp/1p2p3/1BppP3/P2P4/2P5/2P2PPP/R1BQK1NR w KQkq - 2 9",
    "r2qk1nr/pb1pppbp/1p4p1/2p5/2P5/1PN1PnP1/P2P1PBP/R1BQ1RK1 w kq - 0 9",
    "rnbq1rk1/ppp3bp/3p1np1/5p2/1PP1p3/4P1P1/PB1PNPBP/RN1Q1RK1 w - - 0 9",
    "r1bq1rk1/ppp1ppbp/1nn3p1/8/3P4/2N1PNP1/PP3PBP/R1BQK2R w KQ - 1 9",
    "r1bqk2r/p2nbpp1/1p2pn1p/2pp4/3P3B/P1N1PN2/1PP1BPPP/R2QK2R w KQkq - 0 9",
    "rn2k2r/ppq2ppp/2p1pn2/3p1b2/2PP4/1QN1PN2/PP3PPP/R3KB1R w KQkq - 3 9",
    "rnbq1rk1/1p3pbp/p2ppnp1/2pP4/2P1P3/2NBBP2/PP4PP/R2QK1NR w KQ - 0 9",
    "r1bq1rk1/pp1nppbp/2np2p1/2p5/3PP3/2PBBN1P/PP3PP1/RN1Q1RK1 w - - 3 9",
    "r2qk2r/ppp1bppp/1nnp4/8/2PP2b1/2NB4/PP2NPPP/R1BQK2R w KQkq - 6 9",
    "rnbq1rk1/pppn1pbp/6p1/4p3/8/1PN2NP1/PBP1PPBP/R2QK2R w KQ - 0 9",
    "r1bqk2r/pp2npb1/2np2pp/2pNp3/2P4P/3P1NP1/PP2PPB1/R1BQK2R w KQkq - 2 9",
    "r1bq1rk1/pp1nbppp/2pp1n2/P7/2BpP3/2N2N2/1PP2PPP/R1BQ1RK1 w - - 0 9",
    "r2qkbnr/pp1n1pp1/2p1p2p/3pP1N1/3P4/8/PPP1QPPP/RNB2RK1 w kq - 0 9",
    "r1bqk2r/pp1n1ppp/4pb2/2p5/3PN3/3B1N2/PPP2PPP/R2QK2R w KQkq - 0 9",
    "rnbqk2r/pp3ppp/4p3/8/1b1P4/5NP1/P3PP1P/R1BQKB1R w KQkq - 1 9",
    "rn1q1rk1/1bp1bppp/1p2pn2/p2p4/2PP4/1P1BPN2/P2N1PPP/R1BQ1RK1 w - - 0 9",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r4rk1/ppp2ppp/2n5/2bqp3/8/P2PB3/1PP1NPPP/R2Q1RK1 w - - 0 1",
    "rb3qk1/pQ3ppp/4p3/3P4/8/1P3N2/1P3PPP/3R2K1 w - - 0 1",
    "r1bqr1k1/pp1nb1p1/4p2p/3p1p2/3P4/P1N1PNP1/1PQ2PP1/3RKB1R w K - 0 1",
    "3qrbk1/ppp1r2n/3pP2p/3P4/2P4P/1P3Q2/PB6/R4R1K w - - 0 1",
    "r1b1qrk1/2p2ppp/pb1pnn2/1p2pNB1/3PP3/1BP5/PP2QPPP/RN1R2K1 w - - 0 1",
    "2qr2k1/4b1p1/2p2p1p/1pP1p3/p2nP3/PbQNB1PP/1P3PK1/4RB2 b - - 0 1",
    "4rrk1/pppb4/7p/3P2pq/3Qn3/P5P1/1PP4P/R3RNNK b - - 0 1",
    "6k1/5p1p/2bP2pb/4p3/2P5/1p1pNPPP/1P1Q1BK1/1q6 b - - 0 1",
    "6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1",
    "8/3b2kp/4p1p1/pr1n4/N1N4P/1P4P1/1K3P2/3R4 w - - 0 1",
    "r3r1k1/5pp1/p1p4p/2Pp4/8/q1NQP1BP/5PP1/4K2R b K - 0 1",
    "8/8/4k3/8/2K1P3/8/8/8 w - - 0 1",
    "8/8/8/3k4/8/8/2R5/3K4 w - - 0 1",
    "6k1/5ppp/8/8/8/8/r4PPP/1R4K1 w - - 0 1",
    "8/5pk1/6p1/7p/R6P/6P1/r4PK1/8 b - - 0 40",
    "8/8/1p2k3/p1p5/P1P1K3/1P6/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/3B4/3NK3 w - - 0 1",
    "8/8/3kb3/8/3PK3/8/8/8 w - - 0 1",
    "2r3k1/5ppp/8/8/8/8/5PPP/2R3K1 b - - 0 1",
];

/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 11;

/// The outcome of a bench run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Time over all positions.
    pub time: Duration,
    /// Nodes per position.
    pub per_position: Vec<u64>,
    /// Nodes over all positions when each depth was complete (index 0:
    /// depth 1), for node-count-against-depth curves.
    pub per_depth: Vec<u64>,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with `params` and the
/// evaluator `kind` (one thread, 16 MiB table cleared first; `Nnue` uses
/// the built-in network).
pub fn run(depth: i32, params: SearchParams, kind: EvalKind) -> BenchResult {
    run_with_options(depth, params, kind, &[])
        .expect("every evaluator is available: a network is built in")
}

/// [`run`] with engine options set after `params`, in order, as a UCI
/// session would: `EvalFile` to bench another network. The first option
/// the engine refuses is the error.
pub fn run_with_options(
    depth: i32,
    params: SearchParams,
    kind: EvalKind,
    options: &[(&str, &str)],
) -> Result<BenchResult, OptionError> {
    let mut engine = Engine::new();
    engine.set_params(params);
    for (name, value) in options {
        engine.set_option(name, value)?;
    }
    engine.set_option("Evaluator", kind.name())?;
    Ok(search_all(&mut engine, depth))
}

/// Searches every bench position to `depth` with the engine as set up.
fn search_all(engine: &mut Engine, depth: i32) -> BenchResult {
    let mut per_position = Vec::with_capacity(BENCH_FENS.len());
    let mut nodes = 0;
    let mut per_depth = vec![0u64; depth.max(1) as usize];
    let start = crate::host::Stopwatch::start();
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        // Nodes when each iteration ended (the last report of a depth wins:
        // aspiration failures report the same depth more than once).
        let iterations = Arc::new(Mutex::new(vec![0u64; per_depth.len()]));
        let sink = iterations.clone();
        let reporter: crate::Reporter = Arc::new(move |event| {
            if let SearchEvent::Iteration(info) = event {
                let mut v = sink.lock().expect("no reporter panics");
                if let Some(slot) = (info.depth as usize)
                    .checked_sub(1)
                    .and_then(|d| v.get_mut(d))
                {
                    *slot = info.nodes;
                }
            }
        });
        let result = engine.search(&pos, &[], Limits::depth(depth), reporter);
        per_position.push(result.nodes);
        nodes += result.nodes;
        let iterations = iterations.lock().expect("no reporter panics");
        // A position solved early (a forced mate) stops deepening: later
        // depths count its final total.
        let mut carried = 0;
        for (d, slot) in per_depth.iter_mut().enumerate() {
            carried = carried.max(iterations[d]);
            *slot += if d + 1 == iterations.len() {
                result.nodes
            } else {
                carried
            };
        }
    }
    BenchResult {
        nodes,
        time: start.elapsed(),
        per_position,
        per_depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_playable() {
        for fen in BENCH_FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert!(pos.has_legal_moves(), "{fen}");
        }
    }

    #[test]
    fn node_count_is_deterministic() {
        let a = run(5, SearchParams::default(), EvalKind::Full);
        let b = run(5, SearchParams::default(), EvalKind::Full);
        assert_eq!(a.per_position, b.per_position);
        assert!(a.nodes > 10_000);
        assert_eq!(a.per_depth.len(), 5);
        assert_eq!(*a.per_depth.last().unwrap(), a.nodes);
        assert!(a.per_depth.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn every_evaluator_runs_and_searches_differently() {
        let full = run(4, SearchParams::default(), EvalKind::Full);
        let nnue = run(4, SearchParams::default(), EvalKind::Nnue);
        let simple = run(4, SearchParams::default(), EvalKind::Simple);
        assert_ne!(full.per_position, nnue.per_position);
        assert_ne!(full.per_position, simple.per_position);
        assert_eq!(
            nnue.per_position,
            run(4, SearchParams::default(), EvalKind::Nnue).per_position
        );
    }
}
