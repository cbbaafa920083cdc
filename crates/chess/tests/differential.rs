//! Kestrel's rules against an independent implementation (the `shakmaty`
//! crate) on seeded random positions: the legal move sets, perft divide at
//! depth 3, and the Polyglot Zobrist keys must all agree. On a mismatch the
//! test prints the FEN and the differing divide lines.

mod common;

use chess::perft::divide;
use chess::{CastlingMode, Position};
use common::{random_positions, random_positions_from, read_perft_epd};
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{fen::Fen, perft as sm_perft, Chess, EnPassantMode, Position as _};
use std::collections::BTreeMap;

fn theirs(fen: &str, mode: shakmaty::CastlingMode) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap_or_else(|e| panic!("shakmaty rejects FEN {fen}: {e}"))
        .into_position(mode)
        .unwrap_or_else(|e| panic!("shakmaty rejects position {fen}: {e}"))
}

fn compare(pos: &Position, mode: CastlingMode, depth: u32) {
    let fen = pos.fen();
    let sm_mode = match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    };
    let other = theirs(&fen, sm_mode);

    let key: Zobrist64 = other.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(pos.key(), key.0, "Zobrist key differs for {fen}");

    let ours: BTreeMap<String, u64> = divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_uci(mode).to_string(), n))
        .collect();
    let reference: BTreeMap<String, u64> = other
        .legal_moves()
        .iter()
        .map(|m| {
            let mut child = other.clone();
            child.play_unchecked(*m);
            (m.to_uci(sm_mode).to_string(), sm_perft(&child, depth - 1))
        })
        .collect();
    if ours != reference {
        let mut report = format!("perft {depth} differs for {fen}\n");
        for mv in ours
            .keys()
            .chain(reference.keys())
            .collect::<std::collections::BTreeSet<_>>()
        {
            let (a, b) = (ours.get(mv), reference.get(mv));
            if a != b {
                report += &format!("  {mv}: kestrel {a:?} shakmaty {b:?}\n");
            }
        }
        panic!("{report}");
    }
}

#[test]
fn standard_random_positions_depth_3() {
    let positions = random_positions(2000, 0xC0FFEE);
    for pos in &positions {
        compare(pos, CastlingMode::Standard, 3);
    }
}

#[test]
fn chess960_random_positions_depth_3() {
    let starts: Vec<Position> = read_perft_epd("perft960.epd")
        .iter()
        .step_by(4)
        .map(|c| Position::from_fen(&c.fen).unwrap())
        .collect();
    for pos in random_positions_from(&starts, 500, 960, 40) {
        compare(&pos, CastlingMode::Chess960, 3);
    }
}

/// Every position along many playouts, not just their ends: move sets and
/// keys after every single move (catches incremental-key drift).
#[test]
fn every_step_of_playouts_depth_1() {
    let mut rng = common::Rng(42);
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            compare(&pos, CastlingMode::Standard, 1);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}
