//! Round trips over 10,000 seeded random positions: FEN out and back in gives
//! the same position and FEN; for every legal move, its SAN and UCI text parse
//! back to the same move; make/unmake restores the position; the incremental
//! keys equal keys computed from scratch.

mod common;

use chess::{CastlingMode, Color, Position};
use common::random_positions;

#[test]
fn fen_san_uci_and_make_unmake_round_trips() {
    let mut moves_checked = 0;
    for pos in random_positions(10_000, 2024) {
        let fen = pos.fen();
        let parsed = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(parsed, pos, "FEN round trip changed the position: {fen}");
        assert_eq!(parsed.fen(), fen);

        for &m in &pos.legal_moves() {
            let san = pos.san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} in {fen}");
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                let uci = m.to_uci(mode).to_string();
                assert_eq!(pos.parse_uci_move(&uci, mode), Ok(m), "UCI {uci} in {fen}");
            }
            let mut after = pos;
            let undo = after.play_unchecked(m);
            let fresh = Position::from_fen(&after.fen()).unwrap();
            assert_eq!(
                after.key(),
                fresh.key(),
                "incremental key after {san} in {fen}"
            );
            let structure = |p: &Position| {
                [
                    p.pawn_key(),
                    p.non_pawn_key(Color::White),
                    p.non_pawn_key(Color::Black),
                    p.minor_key(),
                    p.major_key(),
                ]
            };
            assert_eq!(
                structure(&after),
                structure(&fresh),
                "pawn, non-pawn, minor and major keys after {san} in {fen}"
            );
            assert_eq!(
                after.checkers(),
                fresh.checkers(),
                "checkers after {san} in {fen}"
            );
            after.undo(m, undo);
            assert_eq!(after, pos, "undo of {san} in {fen}");
            moves_checked += 1;
        }
        if !pos.in_check() {
            let mut after = pos;
            let undo = after.play_null();
            assert_ne!(after.key(), pos.key());
            after.undo_null(undo);
            assert_eq!(after, pos, "null move undo in {fen}");
        }
    }
    assert!(
        moves_checked > 150_000,
        "only {moves_checked} moves checked"
    );
}

/// The fast legality test agrees with the generator on every legal move of
/// each position, on the legal moves of other positions, and on arbitrary
/// 16-bit patterns.
#[test]
fn is_legal_agrees_with_generation() {
    let positions = random_positions(3_000, 77);
    let mut rng = common::Rng(5);
    for (i, pos) in positions.iter().enumerate() {
        let legal = pos.legal_moves();
        let other = positions[(i + 1) % positions.len()].legal_moves();
        let random = (0..200).map(|_| chess::Move::from_bits(rng.next() as u16));
        for m in legal
            .iter()
            .copied()
            .chain(other.iter().copied())
            .chain(random)
        {
            assert_eq!(
                pos.is_legal(m),
                legal.contains(&m),
                "{m:?} in {}",
                pos.fen()
            );
        }
    }
}
