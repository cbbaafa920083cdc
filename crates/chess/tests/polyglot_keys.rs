//! Zobrist keys equal Polyglot book keys: the examples published with the
//! Polyglot book format specification.

use chess::{CastlingMode, Position};

fn key_after(moves: &str) -> u64 {
    let mut pos = Position::startpos();
    for text in moves.split_whitespace() {
        let m = pos.parse_uci_move(text, CastlingMode::Standard).unwrap();
        pos.play_unchecked(m);
    }
    let from_fen = Position::from_fen(&pos.fen()).unwrap();
    assert_eq!(
        from_fen.key(),
        pos.key(),
        "incremental and fresh keys differ after {moves}"
    );
    pos.key()
}

#[test]
fn published_polyglot_examples() {
    let cases = [
        ("", 0x463b96181691fc9c),
        ("e2e4", 0x823c9b50fd114196),
        ("e2e4 d7d5", 0x0756b94461c50fb0),
        ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
    ];
    for (moves, expected) in cases {
        assert_eq!(key_after(moves), expected, "key after '{moves}'");
    }
}

#[test]
fn published_fens() {
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(Position::from_fen(fen).unwrap().key(), 0x22a48b5a8e47ff78);
    let fen = "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3";
    assert_eq!(Position::from_fen(fen).unwrap().key(), 0x3c8123ea7b067637);
}
