//! From float weights to the engine's integer network, and how closely the
//! integer network's scores follow the float one's.

use engine::eval::nnue::{evaluate, Accumulator, NetError, Network, MAX_QB, QA};
use trainingdata::TrainingRecord;

use crate::model::{factoriser_rows, FloatNet, Scratch};
use crate::sample::Sample;

/// Rounds `x * factor` into 16 bits (saturating: clipping during training
/// keeps real weights far inside).
fn to_i16(x: f32, factor: i32) -> i16 {
    (x * factor as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// The largest power of two up to `MAX_QB` by which every output weight
/// of `net` can be multiplied and still fit ±127: the finest output
/// quantisation that is safe for this net.
pub fn auto_qb(net: &FloatNet) -> i32 {
    let largest = net
        .output_weights()
        .iter()
        .fold(0f32, |m, w| m.max(w.abs()));
    let mut qb = 1;
    while qb * 2 <= MAX_QB && largest * (qb * 2) as f32 <= 127.0 {
        qb *= 2;
    }
    qb
}

/// The engine's network for `net`: feature weights and biases times QA,
/// output weights times `qb` (0: [`auto_qb`]), output biases times QA*qb;
/// `scale` centipawns per unit of output. The net keeps its output buckets
/// and king buckets (each bucket's rows with the factoriser added).
pub fn quantise(net: &FloatNet, scale: i32, qb: i32) -> Result<Network, NetError> {
    let qb = if qb == 0 { auto_qb(net) } else { qb };
    Network::from_parts(
        net.inputs,
        net.activation,
        scale,
        qb,
        net.merged_feature_weights()
            .iter()
            .map(|&w| to_i16(w, QA))
            .collect(),
        net.feature_bias().iter().map(|&w| to_i16(w, QA)).collect(),
        net.output_weights()
            .iter()
            .map(|&w| to_i16(w, qb))
            .collect(),
        net.output_biases()
            .iter()
            .map(|&b| (b * (QA * qb) as f32).round() as i32)
            .collect(),
    )
}

/// The float network that [`quantise`] turns into `net` (its integers
/// divided by the same factors, the factoriser at 0), for training to go
/// on from a net file: quantising the result gives `net` back exactly.
pub fn dequantise(net: &Network) -> FloatNet {
    let (qa, qb) = (QA as f32, net.qb() as f32);
    let buckets = net.output_buckets();
    let inputs = *net.input_buckets();
    let mut params: Vec<f32> = net
        .feature_weights()
        .iter()
        .map(|&w| f32::from(w) / qa)
        .collect();
    params.extend(std::iter::repeat_n(
        0.0,
        factoriser_rows(&inputs) * net.hidden(),
    ));
    params.extend(net.feature_bias().iter().map(|&w| f32::from(w) / qa));
    for bucket in 0..buckets {
        let (ours, theirs) = net.output_weights(bucket);
        params.extend(ours.iter().chain(theirs).map(|&w| f32::from(w) / qb));
    }
    params.extend((0..buckets).map(|b| net.output_bias(b) as f32 / (qa * qb)));
    FloatNet {
        hidden: net.hidden(),
        activation: net.activation(),
        buckets,
        inputs,
        params,
    }
}

/// How far the integer network's scores are from the float network's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// Mean absolute difference, centipawns.
    pub mean_cp: f64,
    /// Largest absolute difference, centipawns.
    pub max_cp: f64,
}

/// Compares the float network and its quantised twin on `records`. The
/// integer side goes through the engine's own path (a position built from
/// the record, `Accumulator::refresh`, `evaluate`), so this also checks
/// that trainer and engine agree on the inputs. Records that do not make a
/// legal position are skipped.
pub fn agreement(
    float: &FloatNet,
    quantised: &Network,
    scale: f32,
    records: &[TrainingRecord],
) -> Agreement {
    let mut scratch = Scratch::new(float.hidden);
    let mut acc = Accumulator::default();
    let (mut total, mut max, mut n) = (0.0f64, 0.0f64, 0usize);
    for record in records {
        let Ok(pos) = record.to_position() else {
            continue;
        };
        let sample = Sample::from_record(record, 0.0, scale, &float.inputs);
        let float_cp = f64::from(float.forward(&sample, &mut scratch) * scale);
        acc.refresh(quantised, &pos);
        let int_cp = f64::from(evaluate(quantised, &acc, &pos));
        let diff = (float_cp - int_cp).abs();
        total += diff;
        max = max.max(diff);
        n += 1;
    }
    Agreement {
        positions: n,
        mean_cp: if n == 0 { 0.0 } else { total / n as f64 },
        max_cp: max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adamw::AdamW;
    use crate::testdata::records;
    use engine::eval::nnue::{Activation, InputBuckets, INPUTS, QB};

    /// A network fitted for a few passes over `data`, so that its weights
    /// have the spread of a trained one (a freshly initialised network's
    /// tiny output weights round worse than trained ones do).
    fn fitted(activation: Activation, data: &[TrainingRecord]) -> FloatNet {
        fitted_bucketed(activation, 1, InputBuckets::NONE, data)
    }

    fn fitted_bucketed(
        activation: Activation,
        buckets: usize,
        inputs: InputBuckets,
        data: &[TrainingRecord],
    ) -> FloatNet {
        let mut net = FloatNet::new(128, activation, buckets, inputs, 9);
        let mut adam = AdamW::new(net.params.len(), 0.0);
        let mut scratch = Scratch::new(net.hidden);
        let clip = net.clip_of(0);
        let samples: Vec<Sample> = data
            .iter()
            .map(|r| Sample::from_record(r, 0.3, 400.0, &inputs))
            .collect();
        for _ in 0..10 {
            for batch in samples.chunks(128) {
                let mut grad = vec![0.0; net.params.len()];
                for s in batch {
                    net.backward(s, 1.0 / batch.len() as f32, &mut grad, &mut scratch);
                }
                adam.step(&mut net.params, &grad, 0.005, &clip);
            }
        }
        net
    }

    #[test]
    fn quantised_scores_follow_the_float_net() {
        let train = records(3000, 5);
        let check = records(2000, 6);
        for activation in [Activation::SCReLU, Activation::CReLU] {
            let float = fitted(activation, &train);
            let int = quantise(&float, 400, QB).unwrap();
            let a = agreement(&float, &int, 400.0, &check);
            eprintln!("{activation:?} QB 64: {a:?}");
            assert_eq!(a.positions, check.len());
            // Output weights are stored in steps of 1/64 (QB): over a few
            // hundred active neurons, 1/64 x 400 cp alone makes several
            // centipawns of noise.
            assert!(a.mean_cp < 10.0 && a.max_cp < 40.0, "{a:?}");
            // The finest QB that fits the weights does much better.
            let int = quantise(&float, 400, 0).unwrap();
            let fine = agreement(&float, &int, 400.0, &check);
            eprintln!("{activation:?} QB {}: {fine:?}", int.qb());
            assert!(int.qb() > QB && fine.mean_cp < a.mean_cp / 2.0, "{fine:?}");
        }
    }

    /// A bucketed net quantised goes through the engine's bucket choice
    /// (its own piece count from the position) and scores within a few
    /// centipawns of the float net, which picks its bucket from the
    /// sample's input count: the two agree on the bucket too.
    #[test]
    fn quantised_bucketed_scores_follow_the_float_net() {
        let train = records(3000, 5);
        let check = records(2000, 6);
        let float = fitted_bucketed(Activation::SCReLU, 8, InputBuckets::NONE, &train);
        // The buckets learnt apart: otherwise a wrong bucket would not show.
        let (b0, b7) = (float.bucket_weights(0), float.bucket_weights(7));
        assert!(b0.iter().zip(b7).any(|(a, b)| (a - b).abs() > 0.01));
        let mut used = [false; 8];
        for r in &check {
            let s = Sample::from_record(r, 0.0, 400.0, &InputBuckets::NONE);
            used[float.bucket_of(&s)] = true;
        }
        assert!(used.iter().filter(|&&u| u).count() >= 4, "{used:?}");
        for qb in [QB, 0] {
            let int = quantise(&float, 400, qb).unwrap();
            assert_eq!(int.output_buckets(), 8);
            let back = Network::from_bytes(&int.to_bytes()).unwrap();
            assert_eq!(back, int);
            let a = agreement(&float, &int, 400.0, &check);
            eprintln!("8 buckets QB {}: {a:?}", int.qb());
            assert_eq!(a.positions, check.len());
            // QB 64 rounds the output weights coarsely (see the one-bucket
            // test); the finest QB that fits does much better.
            let bound = if qb == QB { 10.0 } else { 5.0 };
            assert!(a.mean_cp < bound && a.max_cp < 40.0, "{a:?}");
            assert_eq!(quantise(&dequantise(&int), 400, int.qb()).unwrap(), int);
        }
    }

    /// King buckets with mirroring and the factoriser: the engine's
    /// accumulator (its own king views from the position) scores as the
    /// float net does, so trainer and engine agree on every input; the
    /// file round-trips and dequantises back to the same net.
    #[test]
    fn quantised_king_bucketed_scores_follow_the_float_net() {
        let train = records(3000, 5);
        let check = records(2000, 6);
        let float = fitted_bucketed(Activation::SCReLU, 8, InputBuckets::MIRROR4, &train);
        // The buckets learnt apart from the factoriser.
        assert!(float.feature_weights().iter().any(|w| w.abs() > 0.01));
        let int = quantise(&float, 400, 0).unwrap();
        assert_eq!(int.input_buckets(), &InputBuckets::MIRROR4);
        assert_eq!(Network::from_bytes(&int.to_bytes()).unwrap(), int);
        let a = agreement(&float, &int, 400.0, &check);
        eprintln!("mirror4, 8 output buckets, QB {}: {a:?}", int.qb());
        assert_eq!(a.positions, check.len());
        assert!(a.mean_cp < 5.0 && a.max_cp < 40.0, "{a:?}");
        let back = dequantise(&int);
        assert_eq!(back.params.len(), float.params.len());
        assert_eq!(quantise(&back, 400, int.qb()).unwrap(), int);
    }

    /// A net file read back into float weights is the same network: the
    /// quantised copy is identical and the scores agree to rounding.
    #[test]
    fn dequantised_net_quantises_back_to_itself() {
        let data = records(1000, 11);
        let float = fitted(Activation::SCReLU, &records(1000, 12));
        for qb in [QB, 256] {
            let int = quantise(&float, 400, qb).unwrap();
            let back = dequantise(&int);
            assert_eq!(back.params.len(), float.params.len());
            assert_eq!(quantise(&back, 400, qb).unwrap(), int);
            let a = agreement(&back, &int, 400.0, &data);
            assert!(a.mean_cp < 1.0 && a.max_cp < 1.5, "{a:?}");
        }
    }

    /// With float weights already on the integer grid, only the integer
    /// divisions differ: the arithmetic itself matches the float network.
    #[test]
    fn weights_on_the_grid_agree_to_a_centipawn() {
        let data = records(2000, 7);
        for activation in [Activation::SCReLU, Activation::CReLU] {
            let mut float = fitted(activation, &records(1000, 8));
            let h = float.hidden;
            let feature_end = INPUTS * h + h;
            for (i, p) in float.params.iter_mut().enumerate() {
                let grid = if i < feature_end {
                    QA as f32
                } else if i < feature_end + 2 * h {
                    QB as f32
                } else {
                    (QA * QB) as f32
                };
                *p = (*p * grid).round() / grid;
            }
            let int = quantise(&float, 400, QB).unwrap();
            let a = agreement(&float, &int, 400.0, &data);
            eprintln!("{activation:?} on the grid: {a:?}");
            assert!(a.mean_cp < 1.0 && a.max_cp < 1.5, "{a:?}");
        }
    }
}
