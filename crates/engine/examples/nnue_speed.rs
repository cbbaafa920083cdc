//! How long the NNUE inference takes: a full refresh, an incremental
//! update (copy the parent's accumulator and apply a move), and the output
//! layer, each timed over the positions of random games. Reports wall time
//! and, because shared machines make wall time unreliable, CPU time
//! (the process's, through the `cpu-time` crate, as the ablation measures it).
//!
//! `cargo run --release -p engine --example nnue_speed -- NET.nnue`

use std::hint::black_box;
use std::time::Instant;

use cpu_time::ProcessTime;

use chess::{Move, Position};
use engine::eval::nnue::{evaluate, Accumulator, Network};
use engine::strength::Rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: nnue_speed NET.nnue")?;
    let net = Network::from_file(path.as_ref())?;
    // Random games: each position with the move played from it.
    let mut rng = Rng::new(7);
    let mut steps: Vec<(Position, Move)> = Vec::new();
    while steps.len() < 200_000 {
        let mut pos = Position::startpos();
        for _ in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.next_u64() as usize % moves.len()];
            steps.push((pos, m));
            pos.play_unchecked(m);
        }
    }
    let rounds = 10;
    let n = (steps.len() * rounds) as f64;
    let mut parent = Accumulator::default();
    let mut child = Accumulator::default();

    let (t, c) = (Instant::now(), ProcessTime::now());
    for _ in 0..rounds {
        for (pos, _) in &steps {
            parent.refresh(&net, pos);
            black_box(&parent);
        }
    }
    report("refresh", n, t, c);

    let (t, c) = (Instant::now(), ProcessTime::now());
    for _ in 0..rounds {
        for (pos, m) in &steps {
            child.update_from(&net, &parent, pos, *m);
            black_box(&child);
        }
    }
    report("update_from (copy and update)", n, t, c);

    let (t, c) = (Instant::now(), ProcessTime::now());
    let mut sum = 0i64;
    for _ in 0..rounds {
        for (pos, _) in &steps {
            sum += i64::from(evaluate(&net, black_box(&parent), pos));
        }
    }
    report("evaluate", n, t, c);
    black_box(sum);
    println!("hidden size {}", net.hidden());
    Ok(())
}

fn report(name: &str, n: f64, wall: Instant, cpu0: ProcessTime) {
    let cpu = cpu0.elapsed().as_secs_f64();
    println!(
        "{name:<24} {:>7.1} ns wall {:>7.1} ns CPU",
        wall.elapsed().as_secs_f64() * 1e9 / n,
        cpu * 1e9 / n
    );
}
