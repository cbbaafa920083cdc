//! Where a training epoch's time goes: decoding records, the forward pass,
//! forward + backward on all cores, and the optimiser step, each timed on
//! the same shard.
//!
//! `cargo run --release -p train --example train_speed -- SHARD.bin [HIDDEN] [BATCH] [THREADS]`
//!
//! On a shared machine wall time says little, so each phase also reports
//! positions per CPU-second (the process's user + system time, through
//! the `cpu-time` crate): what one idle core would do.

use std::time::Instant;

use cpu_time::ProcessTime;

use engine::eval::nnue::{Activation, InputBuckets};
use rayon::prelude::*;
use train::adamw::AdamW;
use train::model::{FloatNet, Scratch};
use train::sample::Sample;
use trainingdata::read_file;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .ok_or("usage: train_speed SHARD.bin [HIDDEN] [BATCH] [THREADS]")?;
    let hidden: usize = args.get(2).map_or(Ok(256), |s| s.parse())?;
    let batch: usize = args.get(3).map_or(Ok(16_384), |s| s.parse())?;
    let threads: usize = args.get(4).map_or(Ok(2), |s| s.parse())?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()?;
    let records = read_file(path)?.records;
    let n = records.len();
    let net = FloatNet::new(hidden, Activation::SCReLU, 1, InputBuckets::NONE, 1);
    let per_s = |t: Instant| n as f64 / t.elapsed().as_secs_f64();
    let cpu_rate = |c0: ProcessTime| {
        let used = c0.elapsed().as_secs_f64();
        if used > 0.0 {
            format!("{:>10.0} pos/CPU-s", n as f64 / used)
        } else {
            "(no CPU time)".to_string()
        }
    };

    let (t, c0) = (Instant::now(), ProcessTime::now());
    let decoded: usize = records
        .par_iter()
        .map(|r| Sample::from_record(r, 0.3, 400.0, &InputBuckets::NONE).len)
        .sum();
    println!(
        "decode only        {:>10.0} pos/s {} ({:.1} inputs per position)",
        per_s(t),
        cpu_rate(c0),
        decoded as f64 / n as f64
    );

    let (t, c0) = (Instant::now(), ProcessTime::now());
    let loss: f64 = records
        .par_chunks(4096)
        .map(|c| {
            let mut s = Scratch::new(hidden);
            c.iter()
                .map(|r| {
                    f64::from(net.loss(
                        &Sample::from_record(r, 0.3, 400.0, &InputBuckets::NONE),
                        &mut s,
                    ))
                })
                .sum::<f64>()
        })
        .sum();
    println!(
        "forward            {:>10.0} pos/s {} (loss {:.5})",
        per_s(t),
        cpu_rate(c0),
        loss / n as f64
    );

    let params = net.params.len();
    let mut grads = vec![vec![0.0f32; params]; threads];
    let mut scratch = vec![Scratch::new(hidden); threads];
    let (t, c0) = (Instant::now(), ProcessTime::now());
    for b in records.chunks(batch) {
        let per = b.len().div_ceil(threads);
        b.par_chunks(per)
            .zip(grads.par_iter_mut())
            .zip(scratch.par_iter_mut())
            .for_each(|((c, g), s)| {
                g.fill(0.0);
                for r in c {
                    net.backward(
                        &Sample::from_record(r, 0.3, 400.0, &InputBuckets::NONE),
                        1.0,
                        g,
                        s,
                    );
                }
            });
    }
    println!(
        "forward + backward {:>10.0} pos/s {}",
        per_s(t),
        cpu_rate(c0)
    );

    let mut adam = AdamW::new(params, 0.01);
    let mut p = net.params.clone();
    let steps = n.div_ceil(batch);
    let (t, c0) = (Instant::now(), ProcessTime::now());
    for _ in 0..steps {
        adam.step(&mut p, &grads[0], 0.001, net.clip_of(0));
    }
    println!(
        "optimiser steps    {:>10.0} pos/s {} ({steps} steps of {batch}, {:.2} ms each)",
        per_s(t),
        cpu_rate(c0),
        t.elapsed().as_secs_f64() * 1000.0 / steps as f64
    );
    Ok(())
}
