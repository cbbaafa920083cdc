//! Tests of the evaluation as a whole: colour symmetry on thousands of
//! positions, the trace adding up to the score, and each term's direction
//! on positions built for it.

use super::hce::pawns;
use super::hce::trace::Coefficients;
use super::hce::weights::*;
use super::*;

/// The same position with colours swapped (board mirrored top to bottom).
fn flip(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let turn = if f[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = f[2].chars().map(swap).collect();
    castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
    let castling: String = castling.into_iter().collect();
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {turn} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

/// Positions from random games (a fixed seed): many shapes of middlegame
/// and endgame.
fn random_positions(count: usize) -> Vec<Position> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..(next() % 160) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so that endgames appear.
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && next() % 3 == 0 {
                captures[(next() % captures.len() as u64) as usize]
            } else {
                moves[(next() % moves.len() as u64) as usize]
            };
            pos.play_unchecked(m);
        }
        out.push(pos);
    }
    out
}

#[test]
fn colour_flipped_positions_score_the_same() {
    let w = Weights::default_shared();
    let positions = random_positions(5000);
    for pos in &positions {
        let fen = pos.fen();
        let flipped = Position::from_fen(&flip(&fen)).unwrap();
        for kind in [EvalKind::Full, EvalKind::Simple] {
            let a = evaluate_traced(pos, kind, &w, None, NoTrace).0;
            let b = evaluate_traced(&flipped, kind, &w, None, NoTrace).0;
            assert_eq!(a.white, -b.white, "{kind:?} {fen}");
            assert_eq!(a.for_side(pos.turn()), b.for_side(flipped.turn()), "{fen}");
        }
    }
}

#[test]
fn pawn_cache_gives_the_same_scores() {
    let w = Weights::default_shared();
    let mut table = pawns::PawnTable::default();
    for pos in random_positions(2000) {
        let plain = evaluate_traced(&pos, EvalKind::Full, &w, None, NoTrace).0;
        let cached = evaluate_traced(&pos, EvalKind::Full, &w, Some(&mut table), NoTrace).0;
        let again = evaluate_traced(&pos, EvalKind::Full, &w, Some(&mut table), NoTrace).0;
        assert_eq!(plain, cached);
        assert_eq!(plain, again);
    }
}

#[test]
fn trace_adds_up_to_the_sum() {
    let w = Weights::default_shared();
    for pos in random_positions(500) {
        let (report, c) = evaluate_traced(&pos, EvalKind::Full, &w, None, Coefficients::default());
        let mut sum = Pair::default();
        for i in 0..COUNT {
            sum += w.get(i) * (c.counts[0][i] - c.counts[1][i]);
        }
        assert_eq!(sum, report.sum, "{}", pos.fen());
    }
}

fn score(fen: &str) -> Value {
    evaluate(&Position::from_fen(fen).unwrap())
}

fn coefficients(fen: &str) -> Coefficients {
    let w = Weights::default_shared();
    let pos = Position::from_fen(fen).unwrap();
    evaluate_traced(&pos, EvalKind::Full, &w, None, Coefficients::default()).1
}

#[test]
fn start_position_is_level_but_for_the_tempo() {
    let w = Weights::default_shared();
    let tempo = w.get(TEMPO);
    assert_eq!(
        score("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        tempo.mg
    );
}

#[test]
fn doubled_and_isolated_pawns_cost() {
    let w = Weights::default_shared();
    assert!(w.get(DOUBLED).mg < 0 && w.get(DOUBLED).eg < 0);
    for f in 0..8 {
        assert!(w.get(ISOLATED + f).eg < 0, "isolated on file {f}");
    }
    // An isolated pawn costs more on the centre files than on the edge.
    let centre = (2..6)
        .map(|f| w.get(ISOLATED + f).mg + w.get(ISOLATED + f).eg)
        .sum::<i32>();
    let edge = [0, 1, 6, 7]
        .iter()
        .map(|&f| w.get(ISOLATED + f).mg + w.get(ISOLATED + f).eg)
        .sum::<i32>();
    assert!(centre < edge, "centre {centre} edge {edge}");
    // Same material: doubled c-pawns vs healthy c- and d-pawns.
    let healthy = score("4k3/pp4pp/8/8/8/8/PPP3PP/4K3 w - - 0 1");
    let doubled = score("4k3/pp4pp/8/8/8/2P5/P1P3PP/4K3 w - - 0 1");
    assert!(doubled < healthy, "doubled {doubled} healthy {healthy}");
    let c = coefficients("4k3/pp4pp/8/8/8/2P5/P1P3PP/4K3 w - - 0 1");
    assert_eq!(c.counts[0][DOUBLED], 1);
}

#[test]
fn advanced_passers_are_worth_more() {
    let w = Weights::default_shared();
    let sixth = w.get(PASSED + 5) + w.get(PASSED_FREE + 5);
    let third = w.get(PASSED + 2) + w.get(PASSED_FREE + 2);
    assert!(sixth.eg > third.eg);
    let on_sixth = score("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
    let on_third = score("4k3/8/8/8/8/3P4/8/4K3 w - - 0 1");
    assert!(on_sixth > on_third, "{on_sixth} vs {on_third}");
}

#[test]
fn the_king_wants_its_shield_in_the_middlegame() {
    // Castled king behind intact pawns vs the same king with the pawns pushed.
    let sheltered = score("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1");
    let exposed = score("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P1PP/2N2NP1/PPPP4/R1BQ1RK1 w - - 0 1");
    let c = coefficients("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1");
    assert_eq!(
        c.counts[0][KING_SHIELD + 1],
        3,
        "f2 g2 h2 on the second rank"
    );
    // Two extra pawns for the exposed king, but the shield matters.
    let w = Weights::default_shared();
    let two_pawns = 2 * w.get(PIECE_VALUE).mg;
    assert!(exposed - sheltered < two_pawns, "{exposed} {sheltered}");
}

#[test]
fn threats_and_outposts_are_seen() {
    // White knight on d5 (defended by e4, no black c/e pawns to chase it)
    // attacks the black queen on c7.
    let c = coefficients("4k3/1pq5/8/3N4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(c.counts[0][KNIGHT_OUTPOST], 1);
    assert_eq!(c.counts[0][THREAT_BY_MINOR + 4], 1);
    let c = coefficients("4k3/1q6/8/3N4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(
        c.counts[1][THREAT_BY_QUEEN + 1],
        1,
        "the queen attacks the knight"
    );
    assert_eq!(c.counts[1][HANGING + 1], 0, "e4 defends it");
    // A rook on an open file and on the seventh.
    let c = coefficients("6k1/1R6/8/8/8/8/8/6K1 w - - 0 1");
    assert_eq!(c.counts[0][ROOK_OPEN_FILE], 1);
    assert_eq!(c.counts[0][ROOK_SEVENTH], 1);
}

#[test]
fn simple_evaluator_counts_only_material_and_mobility() {
    let w = Weights::default_shared();
    let pos = Position::from_fen("4k3/1pq5/8/3N4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let c = evaluate_traced(&pos, EvalKind::Simple, &w, None, Coefficients::default()).1;
    for term in TERMS {
        let used = (0..term.len)
            .any(|i| c.counts[0][term.first + i] != 0 || c.counts[1][term.first + i] != 0);
        let allowed = term.group == Group::Material
            || term.group == Group::Mobility
            || term.group == Group::Tempo;
        assert!(!used || allowed, "{} in Simple", term.name);
    }
}

#[test]
fn flip_is_an_involution() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(flip(&flip(fen)), fen);
    assert_eq!(
        flip("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2"),
        "4k3/8/8/8/2Pp4/8/8/4K3 b - c3 0 2"
    );
}

/// A search with a network: every evaluation it makes is checked against a
/// fresh computation (the assertion in `Evaluator::evaluate` under test),
/// through null moves, captures, castling, en passant and promotions.
#[test]
fn a_search_with_a_network_keeps_its_accumulators_exact() {
    use crate::eval::nnue::network::tests::random_network;
    use crate::eval::nnue::Activation;
    use crate::{Engine, Limits};

    let mut engine = Engine::new();
    engine.set_network(Some(Arc::new(random_network(32, Activation::SCReLU, 7))));
    engine.set_option("Evaluator", "NNUE").unwrap();
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let r = engine.search(&pos, &[], Limits::depth(7), Arc::new(|_| {}));
        assert!(r.best.is_some(), "{fen}");
    }
}

#[test]
fn a_lone_king_is_left_to_the_hand_crafted_evaluation() {
    let applies = |fen: &str| network_applies(&Position::from_fen(fen).unwrap(), 0, NETWORK_RANGE);
    assert!(network_applies(&Position::startpos(), 0, NETWORK_RANGE));
    assert!(applies("8/8/8/4k3/8/8/1r6/KQ6 w - - 0 1"));
    assert!(!applies("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1"), "KBNK");
    assert!(!applies("8/8/8/4k3/8/8/1Q6/K7 b - - 0 1"), "KQK");
    assert!(!applies("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "two kings");
}

#[test]
fn a_score_beyond_the_networks_range_is_left_to_the_hand_crafted_evaluation() {
    let pos = Position::startpos();
    assert!(network_applies(&pos, NETWORK_RANGE - 1, NETWORK_RANGE));
    assert!(network_applies(&pos, 1 - NETWORK_RANGE, NETWORK_RANGE));
    assert!(!network_applies(&pos, NETWORK_RANGE, NETWORK_RANGE));
    assert!(!network_applies(&pos, -NETWORK_RANGE, NETWORK_RANGE));
    // The evaluator's score then is the hand-crafted one: White a queen and
    // two rooks up, which the network scores far beyond its range.
    let fen = "3qk3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let net = nnue::embedded_network();
    assert!(
        nnue::evaluate_position(&net, &pos) >= NETWORK_RANGE,
        "{fen}"
    );
    let mut evaluator = Evaluator::default();
    evaluator.configure(
        EvalKind::Nnue,
        &Weights::default_shared(),
        Some(&net),
        NETWORK_RANGE,
        1,
    );
    evaluator.start(&pos);
    assert_eq!(evaluator.evaluate(&pos), evaluate(&pos));
    // `NetworkRange` moves the bound: at its largest the network's score
    // stands; its default is this one.
    assert_eq!(
        crate::params::SearchParams::default().network_range,
        NETWORK_RANGE
    );
    evaluator.configure(
        EvalKind::Nnue,
        &Weights::default_shared(),
        Some(&net),
        32_000,
        1,
    );
    evaluator.start(&pos);
    assert_eq!(
        evaluator.evaluate(&pos),
        nnue::evaluate_position(&net, &pos)
    );
}
