//! Where the quantised net's error comes from: the float net against copies
//! of itself with only the feature layer, or only the output layer, rounded
//! to the integer grid (QA = 255, QB = 64), and against the integer net
//! with QB = 64 and with the finest QB that fits (`quantise::auto_qb`).
//!
//! `cargo run --release -p train --example quant_error -- CHECKPOINT.ckpt SHARD.bin [N]`

use engine::eval::nnue::{InputBuckets, INPUTS, QA, QB};
use train::checkpoint::Checkpoint;
use train::model::{FloatNet, Scratch};
use train::quantise::{agreement, quantise};
use train::sample::Sample;
use trainingdata::read_file;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: quant_error CHECKPOINT.ckpt SHARD.bin [N]".into());
    }
    let net = Checkpoint::load(args[1].as_ref(), 0.0)?.net;
    let n: usize = args.get(3).map_or(Ok(5000), |s| s.parse())?;
    let records = read_file(&args[2])?.records;
    let records = &records[..records.len().min(n)];
    let h = net.hidden;
    let feature_end = INPUTS * h + h;
    let rounded = |features: bool, output: bool| {
        let mut copy = net.clone();
        for (i, p) in copy.params.iter_mut().enumerate() {
            let grid = if i < feature_end {
                features.then_some(QA)
            } else if i < feature_end + 2 * h {
                output.then_some(QB)
            } else {
                output.then_some(QA * QB)
            };
            if let Some(g) = grid {
                *p = (*p * g as f32).round() / g as f32;
            }
        }
        copy
    };
    let compare = |name: &str, other: &FloatNet| {
        let (mut s1, mut s2) = (Scratch::new(h), Scratch::new(h));
        let (mut total, mut max) = (0.0f64, 0.0f64);
        for r in records {
            let sample = Sample::from_record(r, 0.0, 400.0, &InputBuckets::NONE);
            let d = f64::from(
                (net.forward(&sample, &mut s1) - other.forward(&sample, &mut s2)) * 400.0,
            )
            .abs();
            total += d;
            max = max.max(d);
        }
        println!(
            "{name:<28} mean {:>6.2} cp  max {:>6.1} cp",
            total / records.len() as f64,
            max
        );
    };
    compare("feature layer rounded", &rounded(true, false));
    compare("output layer rounded", &rounded(false, true));
    compare("both rounded (float maths)", &rounded(true, true));
    for qb in [QB, 0] {
        let int = quantise(&net, 400, qb)?;
        let a = agreement(&net, &int, 400.0, records);
        println!(
            "{:<28} mean {:>6.2} cp  max {:>6.1} cp ({} positions)",
            format!("integer network, QB {}", int.qb()),
            a.mean_cp,
            a.max_cp,
            a.positions
        );
    }
    let w = net.output_weights();
    let big = w.iter().filter(|x| x.abs() > 1.0).count();
    println!(
        "output weights: max |w| {:.3}, {big} of {} above 1",
        w.iter().fold(0f32, |m, x| m.max(x.abs())),
        w.len()
    );
    Ok(())
}
