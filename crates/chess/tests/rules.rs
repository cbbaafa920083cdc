//! Specific rules, each with a position that exercises it: en passant with a
//! horizontal pin, castling through and into check, Chess960 castling,
//! promotions, game outcomes, SAN disambiguation and tolerant SAN input.

use chess::{CastlingMode, Game, Outcome, Position, SanError};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci_moves(p: &Position, mode: CastlingMode) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    v.sort();
    v
}

fn play(p: &mut Position, uci: &str) {
    let m = p
        .parse_uci_move(uci, p.castling_mode())
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
    p.play_unchecked(m);
}

#[test]
fn en_passant_horizontal_pin_is_illegal() {
    // Taking on d6 would remove both pawns from the fifth rank and expose the king.
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!uci_moves(&p, CastlingMode::Standard).contains(&"e5d6".to_string()));
    // Without the rook it is legal.
    let p = pos("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
    assert!(uci_moves(&p, CastlingMode::Standard).contains(&"e5d6".to_string()));
}

#[test]
fn en_passant_evades_a_pawn_check() {
    // The d5 pawn gives check; taking it en passant is one of the evasions.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.in_check());
    assert!(uci_moves(&p, CastlingMode::Standard).contains(&"e4d3".to_string()));
}

#[test]
fn en_passant_square_kept_only_when_capturable() {
    let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.ep_square(), None);
    assert!(p.fen().contains(" - 0 1"));
    let mut p = pos("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    play(&mut p, "e2e4");
    assert_eq!(p.ep_square().map(|s| s.to_string()), Some("e3".to_string()));
}

#[test]
fn castling_through_or_into_check_is_illegal() {
    // f1 is attacked by the bishop on c4: no short castling; long castling is fine.
    let p = pos("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
    let moves = uci_moves(&p, CastlingMode::Standard);
    assert!(!moves.contains(&"e1g1".to_string()));
    assert!(moves.contains(&"e1c1".to_string()));
    // In check: no castling at all.
    let p = pos("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    assert!(!uci_moves(&p, CastlingMode::Standard)
        .iter()
        .any(|m| m == "e1g1" || m == "e1c1"));
    // A piece on b1 blocks long castling; b1 merely attacked does not.
    let p = pos("r3k2r/8/8/8/8/8/8/Rn2K2R w KQkq - 0 1");
    assert!(
        !uci_moves(&p, CastlingMode::Standard).contains(&"e1c1".to_string()),
        "b1 occupied"
    );
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let attacked_b1 = pos("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(uci_moves(&p, CastlingMode::Standard).contains(&"e1c1".to_string()));
    assert!(uci_moves(&attacked_b1, CastlingMode::Standard).contains(&"e1c1".to_string()));
    // c1 attacked by the rook on c8: long castling would land in check.
    let p = pos("2r1k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(!uci_moves(&p, CastlingMode::Standard).contains(&"e1c1".to_string()));
    assert!(uci_moves(&p, CastlingMode::Standard).contains(&"e1g1".to_string()));
}

#[test]
fn chess960_castling_rook_xray() {
    // King d1, castling rook b1, enemy rook a1: after O-O-O the king on c1
    // would stand in the a1 rook's line once b1 is vacated.
    let p = pos("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1");
    assert!(!uci_moves(&p, CastlingMode::Chess960).contains(&"d1b1".to_string()));
    // Without the enemy rook, castling is legal, written king-takes-rook.
    let p = pos("4k3/8/8/8/8/8/8/1R1K4 w B - 0 1");
    assert!(uci_moves(&p, CastlingMode::Chess960).contains(&"d1b1".to_string()));
    let mut after = p;
    play(&mut after, "d1b1");
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn chess960_king_already_on_target() {
    // King g1, rook h1: castling short only moves the rook to f1.
    let mut p = pos("6kr/8/8/8/8/8/8/6KR w Hh - 0 1");
    assert!(uci_moves(&p, CastlingMode::Chess960).contains(&"g1h1".to_string()));
    play(&mut p, "g1h1");
    // X-FEN writes the outermost rook's right as k.
    assert_eq!(p.fen(), "6kr/8/8/8/8/8/8/5RK1 b k - 1 1");
    assert_eq!(
        p.san(p.parse_uci_move("g8h8", CastlingMode::Chess960).unwrap()),
        "O-O"
    );
}

#[test]
fn shredder_and_x_fen_castling_fields() {
    let p = pos("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(p.castling_mode(), CastlingMode::Chess960);
    // The f-rooks are the only (so outermost) queenside rooks: X-FEN says KQkq.
    assert_eq!(
        p.fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    assert_eq!(
        p.fen_with(chess::CastlingNotation::Shredder),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    );
    assert_eq!(pos(&p.fen()), p);
    assert_eq!(Position::startpos().castling_mode(), CastlingMode::Standard);
}

#[test]
fn all_four_promotions() {
    let p = pos("8/P7/8/8/8/8/8/k6K w - - 0 1");
    let moves = uci_moves(&p, CastlingMode::Standard);
    for m in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert!(p.parse_uci_move("a7a8", CastlingMode::Standard).is_err());
}

#[test]
fn checkmate_and_stalemate() {
    let mut g = Game::new(Position::startpos());
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let mv = g
            .position()
            .parse_uci_move(m, CastlingMode::Standard)
            .unwrap();
        g.push(mv);
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome::Checkmate {
            winner: chess::Color::Black
        })
    );
    assert_eq!(g.outcome().unwrap().result(), "0-1");
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(p.is_stalemate());
    assert_eq!(Game::new(p).outcome(), Some(Outcome::Stalemate));
}

#[test]
fn fifty_move_rule_and_mate_on_the_hundredth_ply() {
    let p = pos("7k/8/8/8/8/8/8/K5R1 w - - 100 80");
    assert_eq!(Game::new(p).outcome(), Some(Outcome::FiftyMoveRule));
    // Mate delivered with the clock reaching 100: the mate counts.
    let mut p = pos("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(&mut p, "a1a8");
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(
        Game::new(p).outcome(),
        Some(Outcome::Checkmate {
            winner: chess::Color::White
        })
    );
}

#[test]
fn threefold_repetition() {
    let mut g = Game::new(Position::startpos());
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, m) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(g.outcome(), None, "no draw before move {i}");
        let mv = g
            .position()
            .parse_uci_move(m, CastlingMode::Standard)
            .unwrap();
        g.push(mv);
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::ThreefoldRepetition));
    g.pop();
    assert_eq!(g.outcome(), None);
}

#[test]
fn insufficient_material() {
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
        "8/8/4kb2/8/8/3K4/8/8 w - - 0 1",
        "8/3b4/4k3/8/8/3K4/4B3/8 w - - 0 1", // bishops on the same colour (d7, e2)
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
    }
    for fen in [
        "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1",
        "8/8/4kn2/8/8/3KN3/8/8 w - - 0 1",
        "8/2b5/4k3/8/8/3K4/4B3/8 w - - 0 1", // opposite colours (c7, e2)
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn san_disambiguation() {
    // Knights on b1 and f1... here: rooks on a1 and h1 both reach d1 (file),
    // knights on g1 and g5 both reach f3 (rank), queens on a1, a3, c1 (both).
    let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert_eq!(
        p.san(p.parse_uci_move("a1d1", CastlingMode::Standard).unwrap()),
        "Rad1"
    );
    // With the king on e1 the h1 rook cannot reach d1: no disambiguation.
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_eq!(
        p.san(p.parse_uci_move("a1d1", CastlingMode::Standard).unwrap()),
        "Rd1"
    );
    let p = pos("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1");
    assert_eq!(
        p.san(p.parse_uci_move("g1f3", CastlingMode::Standard).unwrap()),
        "N1f3"
    );
    let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(
        p.san(p.parse_uci_move("a1b2", CastlingMode::Standard).unwrap()),
        "Qa1b2"
    );
    // A pinned knight does not count as a second candidate.
    let p = pos("4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1");
    assert_eq!(
        p.san(p.parse_uci_move("c1d3", CastlingMode::Standard).unwrap()),
        "Nd3"
    );
}

#[test]
fn san_output_forms() {
    let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    let san = |u: &str| p.san(p.parse_uci_move(u, CastlingMode::Standard).unwrap());
    assert_eq!(san("e1g1"), "O-O");
    assert_eq!(san("e1c1"), "O-O-O");
    assert_eq!(san("e5d6"), "exd6");
    assert_eq!(san("b7a8q"), "bxa8=Q+");
    assert_eq!(san("b7b8n"), "b8=N");
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(
        p.san(p.parse_uci_move("a1a8", CastlingMode::Standard).unwrap()),
        "Ra8#"
    );
}

#[test]
fn tolerant_san_input() {
    let p = pos("r3k2r/1P6/8/3pP3/8/8/8/R3K1NR w KQkq d6 0 1");
    let uci = |s: &str| {
        p.parse_san(s)
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
    };
    let ok = |s: &str, expected: &str| assert_eq!(uci(s).as_deref(), Ok(expected), "{s}");
    ok("Nf3", "g1f3");
    ok("Ng1f3", "g1f3");
    ok("N1f3", "g1f3");
    ok("Ng1-f3", "g1f3");
    ok("exd6", "e5d6");
    ok("exd6e.p.", "e5d6");
    ok("exd6 e.p.", "e5d6");
    ok("ed6", "e5d6");
    ok("bxa8=Q", "b7a8q");
    ok("bxa8Q+", "b7a8q");
    ok("b8=q", "b7b8q");
    ok("b8N", "b7b8n");
    ok("O-O-O", "e1c1");
    ok("0-0-0", "e1c1");
    ok("Ra1c1!?", "a1c1");
    ok("Kf2", "e1f2");
    assert!(matches!(
        p.parse_san("b8"),
        Err(SanError::MissingPromotion(_))
    ));
    assert!(
        matches!(p.parse_san("O-O"), Err(SanError::Illegal(_))),
        "g1 is occupied"
    );
    assert!(matches!(p.parse_san("Nc3"), Err(SanError::Illegal(_))));
    assert!(matches!(p.parse_san("Zf3"), Err(SanError::Malformed(_))));
    assert!(matches!(p.parse_san(""), Err(SanError::Empty)));
    let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    match p.parse_san("Rd1") {
        Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, vec!["Rad1", "Rhd1"]),
        other => panic!("expected ambiguity, got {other:?}"),
    }
}
