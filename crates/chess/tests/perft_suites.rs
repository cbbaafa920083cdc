//! Perft against the published node counts of the standard and Chess960
//! suites in `tests/data` (sources and licences in `tests/data/README.md`).
//!
//! The default run covers every position at the depths whose count is at most
//! `BUDGET` nodes (a few seconds in all). The deep runs are ignored by default:
//!     cargo test --release -p chess --test perft_suites -- --ignored
//! (every listed depth of both suites, including the classic positions at
//! their deepest published counts: roughly an hour on two cores).

mod common;

use chess::perft::{perft, perft_copy_make, perft_make_unmake};
use chess::Position;
use common::read_perft_epd;

const BUDGET: u64 = 2_000_000;

fn run_suite(name: &str, max_nodes: u64) -> u64 {
    let mut total = 0;
    for case in read_perft_epd(name) {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if expected > max_nodes {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.fen);
            total += expected;
        }
    }
    total
}

#[test]
fn standard_suite_to_budget() {
    assert!(run_suite("perft.epd", BUDGET) > 10_000_000);
}

#[test]
fn chess960_suite_to_budget() {
    assert!(run_suite("perft960.epd", BUDGET) > 10_000_000);
}

#[test]
fn make_unmake_agrees_with_copy_make() {
    for case in read_perft_epd("perft.epd").iter().take(20) {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        let before = pos;
        assert_eq!(
            perft_make_unmake(&mut pos, 3),
            perft_copy_make(&before, 3),
            "{}",
            case.fen
        );
        assert_eq!(pos, before, "make/unmake must restore the position exactly");
    }
}

#[test]
#[ignore = "deep: every listed depth of perft.epd (minutes in release mode)"]
fn standard_suite_all_depths() {
    run_suite("perft.epd", u64::MAX);
}

#[test]
#[ignore = "deep: every listed depth of perft960.epd (about an hour)"]
fn chess960_suite_all_depths() {
    run_suite("perft960.epd", u64::MAX);
}

/// The six classic positions of the Chess Programming Wiki at their deepest
/// commonly published counts.
#[test]
#[ignore = "deep: about 22 billion nodes (a minute or two in release mode)"]
fn classic_positions_deepest() {
    let cases: &[(&str, u32, u64)] = &[
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            7,
            3_195_901_860,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            6,
            8_031_647_685,
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            8,
            3_009_794_393,
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            6,
            706_045_033,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            5,
            89_941_194,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            6,
            6_923_051_137,
        ),
    ];
    for &(fen, depth, expected) in cases {
        assert_eq!(
            perft(&Position::from_fen(fen).unwrap(), depth),
            expected,
            "{fen} depth {depth}"
        );
    }
}
