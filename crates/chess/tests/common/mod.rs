//! Helpers shared by the integration tests: a seeded RNG, random playouts,
//! and the EPD perft suites.
#![allow(dead_code)]

use chess::{GenType, MoveList, Position};
use std::path::PathBuf;

/// xorshift64*: small, seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Tricky standard positions (Chess Programming Wiki perft set and known edge cases).
pub const TRICKY: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// A random legal playout of up to `max_plies` from `start`; half the time a
/// capture, promotion or castling move is preferred, to reach rarer cases.
pub fn playout(rng: &mut Rng, start: &Position, max_plies: usize) -> Position {
    let mut pos = *start;
    let plies = rng.below(max_plies + 1);
    for _ in 0..plies {
        let all = pos.legal_moves();
        if all.is_empty() {
            break;
        }
        let mut noisy = MoveList::new();
        pos.generate_moves(GenType::Noisy, &mut noisy);
        for m in all.iter().filter(|m| m.is_castling()) {
            noisy.push(*m);
        }
        let pool = if !noisy.is_empty() && rng.below(2) == 0 {
            &noisy
        } else {
            &all
        };
        pos.play_unchecked(pool[rng.below(pool.len())]);
    }
    pos
}

/// `n` random positions (with at least one legal move) from the start and the tricky set.
pub fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let starts: Vec<Position> = TRICKY
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    random_positions_from(&starts, n, seed, 80)
}

/// `n` random positions reached by playouts from `starts`.
pub fn random_positions_from(
    starts: &[Position],
    n: usize,
    seed: u64,
    max_plies: usize,
) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let start = &starts[rng.below(starts.len())];
        let pos = playout(&mut rng, start, max_plies);
        if pos.has_legal_moves() {
            out.push(pos);
        }
    }
    out
}

/// A file in this crate's `tests/data`.
pub fn data_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// One line of a perft EPD: `FEN ;D1 20 ;D2 400 ...`.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn read_perft_epd(name: &str) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(data_file(name)).expect("perft suite in tests/data");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p.split_once(' ').expect("Dn count");
                    (
                        d.trim_start_matches('D').parse().unwrap(),
                        n.trim().parse().unwrap(),
                    )
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}
