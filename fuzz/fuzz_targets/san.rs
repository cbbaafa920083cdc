//! The first byte picks one of a few fixed positions, the rest (as lossy
//! UTF-8) is read as a move in SAN and in UCI notation (both castling modes).
//! Nothing may panic, and any move that is accepted must be legal.
#![no_main]

use chess::{CastlingMode, Position};
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 8] = [
    // The start position.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling both ways, pins, en passant after a double push.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Promotions (with and without capture) for both sides, black to move.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // En passant: exd6 e.p. is legal, exf6 is not (f5 did not just move).
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    // Chess960: king on g1 between rooks on f1 and h1 (Shredder-FEN castling field).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // Chess960: king on b1, rooks a1 and h1; queenside castling is king takes adjacent rook.
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
    // Disambiguation: knights c3, c5, e5 (Ncd3/Ned3, N3e4/N5e4) and rooks a1, h1.
    "3k4/8/8/2N1N3/8/2N5/1K6/R6R w - - 0 1",
    // Check with en passant as the only answer to a pawn's check.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let fen = FENS[usize::from(selector) % FENS.len()];
    let pos = Position::from_fen(fen).expect("the fixed FENs are valid");
    let text = String::from_utf8_lossy(rest);
    let legal = pos.legal_moves();

    if let Ok(m) = pos.parse_san(&text) {
        assert!(
            legal.contains(&m),
            "SAN {text:?} gave {m:?}, which is not a legal move in {fen}"
        );
    }
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Ok(m) = pos.parse_uci_move(&text, mode) {
            assert!(
                legal.contains(&m),
                "UCI {text:?} ({mode:?}) gave {m:?}, which is not a legal move in {fen}"
            );
        }
    }
});
