//! Broken input never panics and always gets the right typed error: the
//! corpora `tests/data/bad_fens.txt` and `tests/data/bad_san.txt`, plus
//! every prefix and byte-mangled variant of valid FENs.

mod common;

use chess::{CastlingMode, Position};
use common::data_file;

fn corpus(name: &str) -> Vec<(String, String)> {
    std::fs::read_to_string(data_file(name))
        .expect("corpus file")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (kind, text) = l.split_once('\t').unwrap_or((l, ""));
            (kind.to_string(), text.to_string())
        })
        .collect()
}

#[test]
fn broken_fens_give_the_named_error() {
    let cases = corpus("bad_fens.txt");
    assert!(cases.len() >= 50, "only {} broken FENs", cases.len());
    for (kind, fen) in cases {
        match Position::from_fen(&fen) {
            Ok(p) => panic!("accepted broken FEN '{fen}' as {p:?}"),
            Err(e) => {
                let debug = format!("{e:?}");
                assert!(
                    debug.starts_with(&kind),
                    "'{fen}': expected {kind}, got {debug}"
                );
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn broken_san_gives_the_named_error() {
    let cases = corpus("bad_san.txt");
    let mut pos = Position::startpos();
    let mut checked = 0;
    for (kind, text) in cases {
        if kind == "@" {
            pos = Position::from_fen(&text).unwrap();
            continue;
        }
        match pos.parse_san(&text) {
            Ok(m) => panic!("accepted broken SAN '{text}' as {m:?} in {}", pos.fen()),
            Err(e) => {
                let debug = format!("{e:?}");
                assert!(
                    debug.starts_with(&kind),
                    "'{text}': expected {kind}, got {debug}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} broken SAN strings");
}

/// Every prefix and many single-byte corruptions of real FENs: errors or
/// valid positions, never a panic; UCI move text likewise.
#[test]
fn mangled_input_never_panics() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let alphabet = b"pnbrqkPNBRQK12345678/ -wKQkqabcdefgh90x";
    for fen in fens {
        for end in 0..=fen.len() {
            let _ = Position::from_fen(&fen[..end]);
        }
        let bytes = fen.as_bytes();
        for i in 0..bytes.len() {
            for &c in alphabet {
                let mut b = bytes.to_vec();
                b[i] = c;
                if let Ok(p) = Position::from_fen(&String::from_utf8_lossy(&b)) {
                    // Whatever parses must be playable.
                    for &m in &p.legal_moves() {
                        // SAN is written in the position before the move.
                        let _ = p.san(m);
                        let mut q = p;
                        q.play_unchecked(m);
                    }
                }
            }
        }
    }
    let pos = Position::startpos();
    for text in [
        "", "e2", "e2e4q", "e2e4qq", "a1a1", "h9h8", "e7e8k", "é2e4", "0000", "e1g1", "e2e5",
    ] {
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            assert!(pos.parse_uci_move(text, mode).is_err(), "'{text}' accepted");
        }
    }
}
