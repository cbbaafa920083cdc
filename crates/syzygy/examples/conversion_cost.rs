//! What a probe costs, and how much of it is turning Kestrel's position
//! into shakmaty's: by bitboards (what the prober does), through FEN text
//! (the obvious alternative), and a whole WDL probe with the tables in
//! memory. Run from the repository root:
//!
//! ```sh
//! cargo run --release -p syzygy --example conversion_cost [TABLE_DIR]
//! ```

use std::hint::black_box;
use std::time::Instant;

use chess::Position;
use engine::Tablebase;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use syzygy::convert::to_shakmaty;
use syzygy::SyzygyTablebase;

/// 4-piece positions: a few starts and every position a few plies from them.
fn positions() -> Vec<Position> {
    let starts = [
        "8/8/4k3/8/3r4/8/8/2K4Q w - - 0 1",
        "1k6/5b2/7R/2K5/8/8/8/8 b - - 0 1",
        "7K/8/5k2/8/1B6/3N4/8/8 w - - 0 1",
        "8/8/5k2/8/8/1P4K1/8/8 w - - 0 1",
    ];
    let mut out = Vec::new();
    for fen in starts {
        let mut frontier = vec![Position::from_fen(fen).unwrap()];
        for _ in 0..2 {
            let mut next = Vec::new();
            for pos in &frontier {
                for &m in &pos.legal_moves() {
                    let mut child = *pos;
                    child.play_unchecked(m);
                    next.push(child);
                }
            }
            out.extend(frontier);
            frontier = next;
        }
        out.extend(frontier);
    }
    out.retain(|p| p.piece_count() == 4);
    out
}

fn time_per_call(label: &str, positions: &[Position], rounds: usize, f: impl Fn(&Position)) {
    let start = Instant::now();
    for _ in 0..rounds {
        for p in positions {
            f(p);
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
    println!("{label:<40} {ns:8.0} ns");
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/syzygy".to_string());
    let (tables, _) = SyzygyTablebase::open(&dir).expect("tables");
    let positions = positions();
    println!("{} positions with 4 pieces", positions.len());
    // Load every table used before timing.
    for p in &positions {
        black_box(tables.probe_wdl(p));
    }
    let rounds = 20;
    time_per_call("convert by bitboards", &positions, rounds, |p| {
        black_box(to_shakmaty(black_box(p)));
    });
    time_per_call("convert through FEN text", &positions, rounds, |p| {
        let fen: Fen = black_box(p).fen().parse().unwrap();
        black_box(fen.into_position::<Chess>(CastlingMode::Standard).ok());
    });
    time_per_call("probe WDL (conversion included)", &positions, rounds, |p| {
        black_box(tables.probe_wdl(black_box(p)));
    });
    time_per_call(
        "Kestrel: legal moves of the position",
        &positions,
        rounds,
        |p| {
            black_box(black_box(p).legal_moves());
        },
    );
}
