//! The float network the trainer optimises: exactly the architecture of
//! `engine::eval::nnue`, with its forward pass and gradients.
//!
//! Only the ~32 active inputs per perspective touch the feature layer, so
//! the forward pass adds 2 x 32 rows of H weights and the backward pass
//! adds the hidden gradient into the same 2 x 32 rows of the gradient.

use engine::eval::nnue::{output_bucket, Activation, InputBuckets, INPUTS};

use crate::sample::{sigmoid, Sample};

/// Every weight is kept within ±`CLIP` during training, so that the
/// quantised output weights fit the ±127 the engine's output layer needs
/// (`1.98 * QB = 126.7`) and the accumulators stay far from 16-bit overflow.
pub const CLIP: f32 = 1.98;

/// The parameters, in one flat vector so that the optimiser and the
/// gradient reduction are single loops: feature weights (`INPUTS` rows of
/// H per king bucket), with more than one king bucket the factoriser
/// (`INPUTS` rows of H that every bucket shares: a piece's weight is its
/// bucket's row plus the factoriser's, so what holds whatever the king's
/// square is learnt from every position and the buckets learn only how
/// the king's square changes it; the quantiser adds them together),
/// feature biases (H), output weights (2H per output bucket, side to
/// move's half first), output biases (one per bucket).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// The hidden size H.
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Output buckets B, chosen by piece count (`nnue::output_bucket`).
    pub buckets: usize,
    /// The king buckets and mirroring of the inputs.
    pub inputs: InputBuckets,
    /// All parameters, laid out as described above.
    pub params: Vec<f32>,
}

/// Per-thread buffers for one sample's hidden layer.
#[derive(Clone, Debug)]
pub struct Scratch {
    ours: Vec<f32>,
    theirs: Vec<f32>,
}

impl Scratch {
    /// Buffers for a hidden layer of `hidden` neurons.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            ours: vec![0.0; hidden],
            theirs: vec![0.0; hidden],
        }
    }
}

impl FloatNet {
    /// The number of parameters for hidden size `hidden`, `buckets`
    /// output buckets and the king buckets `inputs`.
    pub fn param_count(hidden: usize, buckets: usize, inputs: &InputBuckets) -> usize {
        (inputs.inputs() + factoriser_rows(inputs)) * hidden + hidden + buckets * (2 * hidden + 1)
    }

    /// A freshly initialised network: feature weights uniform in
    /// ±1/sqrt(32) (about 32 inputs are active; with king buckets the
    /// factoriser is, and the buckets start at 0, so that every bucket
    /// starts as the same net), output weights uniform in ±1/sqrt(2H),
    /// biases 0. The same seed gives the same network (and, for one bucket
    /// of each kind, the network this code made before buckets).
    pub fn new(
        hidden: usize,
        activation: Activation,
        buckets: usize,
        inputs: InputBuckets,
        seed: u64,
    ) -> FloatNet {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut params = vec![0.0f32; FloatNet::param_count(hidden, buckets, &inputs)];
        let feature_range = 1.0 / (32f32).sqrt();
        let random_rows = if factoriser_rows(&inputs) > 0 {
            inputs.inputs() * hidden..(inputs.inputs() + INPUTS) * hidden
        } else {
            0..INPUTS * hidden
        };
        for p in &mut params[random_rows] {
            *p = rng.random_range(-feature_range..feature_range);
        }
        let mut net = FloatNet {
            hidden,
            activation,
            buckets,
            inputs,
            params,
        };
        let output_range = 1.0 / ((2 * hidden) as f32).sqrt();
        let out = net.output_at();
        for p in &mut net.params[out..out + 2 * hidden * buckets] {
            *p = rng.random_range(-output_range..output_range);
        }
        net
    }

    /// The same network with every output bucket a copy of this one's
    /// single output (to start a bucketed run from a one-output net: it
    /// then plays as that net did until the buckets learn apart).
    pub fn with_copied_buckets(&self, buckets: usize) -> FloatNet {
        assert_eq!(
            self.buckets, 1,
            "copies the single output of a one-output net"
        );
        let out = self.output_at();
        let h2 = 2 * self.hidden;
        let mut params = self.params[..out].to_vec();
        for _ in 0..buckets {
            params.extend_from_slice(&self.params[out..out + h2]);
        }
        params.extend(std::iter::repeat_n(self.output_bias(0), buckets));
        FloatNet {
            hidden: self.hidden,
            activation: self.activation,
            buckets,
            inputs: self.inputs,
            params,
        }
    }

    /// The same network with the king buckets `inputs` (from a net with one
    /// bucket and no mirroring): its feature weights become the factoriser
    /// and every bucket starts at 0, so that it scores as before wherever
    /// the king stands on files e-h (and, mirrored, as the mirror image on
    /// files a-d). Fine-tunes a plain net into a bucketed one.
    pub fn with_input_buckets(&self, inputs: InputBuckets) -> FloatNet {
        assert!(self.inputs.is_plain(), "starts from a plain net");
        let rows = INPUTS * self.hidden;
        let mut params = vec![0.0; inputs.inputs() * self.hidden];
        if factoriser_rows(&inputs) > 0 {
            params.extend_from_slice(&self.params[..rows]);
        } else {
            params.copy_from_slice(&self.params[..rows]);
        }
        params.extend_from_slice(&self.params[rows..]);
        FloatNet {
            inputs,
            params,
            ..self.clone()
        }
    }

    /// Where the factoriser's rows start (its length is
    /// `factoriser_rows` rows).
    fn factoriser_at(&self) -> usize {
        self.inputs.inputs() * self.hidden
    }

    fn bias_at(&self) -> usize {
        (self.inputs.inputs() + factoriser_rows(&self.inputs)) * self.hidden
    }

    fn output_at(&self) -> usize {
        self.bias_at() + self.hidden
    }

    /// The feature weights (`INPUTS` rows of H per king bucket), without
    /// the factoriser.
    pub fn feature_weights(&self) -> &[f32] {
        &self.params[..self.factoriser_at()]
    }

    /// The factoriser's rows (`INPUTS` of H; none with one king bucket).
    pub fn factoriser(&self) -> &[f32] {
        &self.params[self.factoriser_at()..self.bias_at()]
    }

    /// The feature weights as the engine uses them: each bucket's rows plus
    /// the factoriser's.
    pub fn merged_feature_weights(&self) -> Vec<f32> {
        let factor = self.factoriser();
        let mut rows = self.feature_weights().to_vec();
        if !factor.is_empty() {
            for bucket in rows.chunks_exact_mut(factor.len()) {
                for (w, f) in bucket.iter_mut().zip(factor) {
                    *w += f;
                }
            }
        }
        rows
    }

    /// The feature biases.
    pub fn feature_bias(&self) -> &[f32] {
        &self.params[self.bias_at()..self.output_at()]
    }

    fn output_bias_at(&self) -> usize {
        self.output_at() + 2 * self.hidden * self.buckets
    }

    /// Every bucket's output weights (2H per bucket).
    pub fn output_weights(&self) -> &[f32] {
        &self.params[self.output_at()..self.output_bias_at()]
    }

    /// Bucket `bucket`'s output weights (2H).
    pub fn bucket_weights(&self, bucket: usize) -> &[f32] {
        let at = self.output_at() + 2 * self.hidden * bucket;
        &self.params[at..at + 2 * self.hidden]
    }

    /// The output bucket `sample` is scored with.
    #[inline]
    pub fn bucket_of(&self, sample: &Sample) -> usize {
        output_bucket(sample.len as u32, self.buckets)
    }

    /// The clip of parameter `i` when the net is to be quantised with output
    /// quantisation `qb` (0: chosen later to fit): every weight within
    /// ±`CLIP`, the output weights also within ±127/`qb`, so that a fixed
    /// fine `qb` never saturates them, and with a factoriser its rows and
    /// the buckets' within ±`CLIP`/2, so that their sum, the weight the
    /// engine uses, stays within ±`CLIP` (bullet's example clips both to
    /// ±0.99 for the same reason).
    pub fn clip_of(&self, qb: i32) -> impl Fn(usize) -> f32 + Sync {
        let output = self.output_at()..self.output_bias_at();
        let output_clip = if qb > 0 {
            (127.0 / qb as f32).min(CLIP)
        } else {
            CLIP
        };
        let factorised = if factoriser_rows(&self.inputs) > 0 {
            0..self.bias_at()
        } else {
            0..0
        };
        move |i| {
            if output.contains(&i) {
                output_clip
            } else if factorised.contains(&i) {
                CLIP / 2.0
            } else {
                CLIP
            }
        }
    }

    /// Every bucket's output bias.
    pub fn output_biases(&self) -> &[f32] {
        &self.params[self.output_bias_at()..]
    }

    /// Bucket `bucket`'s output bias.
    pub fn output_bias(&self, bucket: usize) -> f32 {
        self.params[self.output_bias_at() + bucket]
    }

    /// The accumulators of `sample` into the scratch buffers.
    #[inline]
    fn accumulate(&self, sample: &Sample, scratch: &mut Scratch) {
        let h = self.hidden;
        let rows = self.feature_weights();
        let factor = self.factoriser();
        let bias = self.feature_bias();
        for (acc, features) in [
            (&mut scratch.ours, sample.stm_features()),
            (&mut scratch.theirs, sample.nstm_features()),
        ] {
            acc.copy_from_slice(bias);
            for &f in features {
                let row = &rows[f as usize * h..(f as usize + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
                if !factor.is_empty() {
                    let shared = f as usize % INPUTS;
                    for (a, w) in acc.iter_mut().zip(&factor[shared * h..(shared + 1) * h]) {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The raw output (1.0 = `scale` centipawns) of bucket `bucket` from
    /// the accumulators.
    #[inline]
    fn output(&self, scratch: &Scratch, bucket: usize) -> f32 {
        let (w_ours, w_theirs) = self.bucket_weights(bucket).split_at(self.hidden);
        let act = self.activation;
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| activate(act, a) * w)
                .sum::<f32>()
        };
        dot(&scratch.ours, w_ours) + dot(&scratch.theirs, w_theirs) + self.output_bias(bucket)
    }

    /// The raw output for `sample` (1.0 = `scale` centipawns).
    pub fn forward(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(sample, scratch);
        self.output(scratch, self.bucket_of(sample))
    }

    /// The squared error of `sample`'s prediction.
    pub fn loss(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        let error = sigmoid(self.forward(sample, scratch)) - sample.target;
        error * error
    }

    /// Adds the gradient of `weight` x (sample's squared error) to `grad`
    /// (laid out like `params`) and returns the error. Only the active rows
    /// of the feature layer and the sample's output bucket are touched.
    pub fn backward(
        &self,
        sample: &Sample,
        weight: f32,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        let h = self.hidden;
        let out = self.forward(sample, scratch);
        let predicted = sigmoid(out);
        let error = predicted - sample.target;
        // d(error²)/d(out) through the sigmoid.
        let g = weight * 2.0 * error * predicted * (1.0 - predicted);
        let act = self.activation;
        let bucket = self.bucket_of(sample);
        let w_out = self.bucket_weights(bucket);
        grad[self.output_bias_at() + bucket] += g;
        let (grad_rows, rest) = grad.split_at_mut(self.bias_at());
        let (grad_rows, grad_factor) = grad_rows.split_at_mut(self.factoriser_at());
        let (grad_bias, grad_out) = rest.split_at_mut(h);
        let grad_out = &mut grad_out[2 * h * bucket..2 * h * (bucket + 1)];
        for (half, acc) in [&mut scratch.ours, &mut scratch.theirs]
            .into_iter()
            .enumerate()
        {
            let w = &w_out[half * h..(half + 1) * h];
            let gw = &mut grad_out[half * h..(half + 1) * h];
            // Output weights' gradient, then the hidden layer's (kept in
            // place of the accumulator, which is no longer needed).
            for ((a, &w), gw) in acc.iter_mut().zip(w).zip(gw.iter_mut()) {
                *gw += g * activate(act, *a);
                *a = g * w * derivative(act, *a);
            }
        }
        for (acc, features) in [
            (&scratch.ours, sample.stm_features()),
            (&scratch.theirs, sample.nstm_features()),
        ] {
            for (gb, &d) in grad_bias.iter_mut().zip(acc.iter()) {
                *gb += d;
            }
            for &f in features {
                let row = &mut grad_rows[f as usize * h..(f as usize + 1) * h];
                for (gr, &d) in row.iter_mut().zip(acc.iter()) {
                    *gr += d;
                }
                if !grad_factor.is_empty() {
                    let shared = f as usize % INPUTS;
                    let row = &mut grad_factor[shared * h..(shared + 1) * h];
                    for (gr, &d) in row.iter_mut().zip(acc.iter()) {
                        *gr += d;
                    }
                }
            }
        }
        error * error
    }
}

/// The factoriser's rows: `INPUTS` with more than one king bucket, else none
/// (a single bucket is its own factoriser).
pub fn factoriser_rows(inputs: &InputBuckets) -> usize {
    if inputs.count() > 1 {
        INPUTS
    } else {
        0
    }
}

/// The activation of a hidden neuron.
#[inline(always)]
pub fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::SCReLU => c * c,
        Activation::CReLU => c,
    }
}

/// The activation's derivative (0 where it is clipped).
#[inline(always)]
fn derivative(activation: Activation, x: f32) -> f32 {
    let inside = if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 };
    match activation {
        Activation::SCReLU => 2.0 * x * inside,
        Activation::CReLU => inside,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::MAX_ACTIVE;

    fn sample() -> Sample {
        sample_of(5)
    }

    /// A sample of `len` pieces (distinct inputs per side).
    fn sample_of(len: usize) -> Sample {
        let mut s = Sample {
            stm: [0; MAX_ACTIVE],
            nstm: [0; MAX_ACTIVE],
            len,
            target: 0.7,
        };
        for i in 0..len {
            s.stm[i] = (i * 97 % INPUTS) as u16;
            s.nstm[i] = ((i * 131 + 3) % INPUTS) as u16;
        }
        s.nstm[4] = s.stm[1]; // one input active from both sides
        s
    }

    /// The analytic gradient against finite differences, for a few
    /// parameters of every kind.
    #[test]
    fn a_fixed_qb_clips_only_the_output_weights_to_fit() {
        let net = FloatNet::new(32, Activation::SCReLU, 1, InputBuckets::NONE, 1);
        let first_output = INPUTS * 32 + 32;
        for qb in [0, 64, 256, 512] {
            let clip = net.clip_of(qb);
            assert_eq!(clip(0), CLIP);
            assert_eq!(clip(first_output - 1), CLIP, "feature bias");
            assert_eq!(clip(net.params.len() - 1), CLIP, "output bias");
            let output = clip(first_output + 63);
            assert!(output <= CLIP);
            if qb > 0 {
                assert!(output * qb as f32 <= 127.0 && output * qb as f32 > 126.0);
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        for activation in [Activation::SCReLU, Activation::CReLU] {
            let mut net = FloatNet::new(32, activation, 1, InputBuckets::NONE, 3);
            // Biases away from 0 so that more neurons are inside the clip.
            let h = net.hidden;
            for i in 0..h {
                net.params[INPUTS * h + i] = 0.3;
            }
            let s = sample();
            let mut scratch = Scratch::new(h);
            let mut grad = vec![0.0; net.params.len()];
            net.backward(&s, 1.0, &mut grad, &mut scratch);
            let row = s.stm[1] as usize * h;
            let probes = [
                row,
                row + 5,
                s.nstm[0] as usize * h + 7,
                INPUTS * h + 2,
                INPUTS * h + h + 1,
                INPUTS * h + h + h + 4,
                net.params.len() - 1,
            ];
            let what = format!("{activation:?}");
            assert_gradient(&net, &s, &grad, &probes, &mut scratch, &what);
        }
    }

    /// Checks the analytic gradient `grad` of `net`'s loss on `s` against
    /// central finite differences at the parameters `probes`.
    fn assert_gradient(
        net: &FloatNet,
        s: &Sample,
        grad: &[f32],
        probes: &[usize],
        scratch: &mut Scratch,
        what: &str,
    ) {
        for &p in probes {
            let eps = 1e-3f32;
            let mut plus = net.clone();
            plus.params[p] += eps;
            let mut minus = net.clone();
            minus.params[p] -= eps;
            let numeric = (f64::from(plus.loss(s, scratch)) - f64::from(minus.loss(s, scratch)))
                / (2.0 * f64::from(eps));
            let analytic = f64::from(grad[p]);
            assert!(
                (numeric - analytic).abs() < 1e-3 * (1.0 + analytic.abs()),
                "{what} param {p}: numeric {numeric} analytic {analytic}"
            );
        }
    }

    /// The bucketed output layer: each sample's gradient reaches its own
    /// bucket's weights and bias (checked against finite differences) and
    /// no other bucket's.
    #[test]
    fn bucketed_gradient_matches_finite_differences() {
        for activation in [Activation::SCReLU, Activation::CReLU] {
            let mut net = FloatNet::new(32, activation, 8, InputBuckets::NONE, 5);
            let h = net.hidden;
            for i in 0..h {
                net.params[INPUTS * h + i] = 0.1;
            }
            let out = INPUTS * h + h;
            let bias = out + 8 * 2 * h;
            // Each bucket's weights differ, so a wrong bucket shows.
            for b in 0..8 {
                net.params[bias + b] = 0.05 * b as f32 - 0.2;
            }
            let mut scratch = Scratch::new(h);
            for (len, bucket) in [(5, 0), (6, 1), (14, 3), (29, 6), (30, 7), (32, 7)] {
                let s = sample_of(len);
                assert_eq!(net.bucket_of(&s), bucket, "{len} pieces");
                let mut grad = vec![0.0; net.params.len()];
                net.backward(&s, 1.0, &mut grad, &mut scratch);
                let own = out + 2 * h * bucket;
                for other in (0..8).filter(|&b| b != bucket) {
                    let at = out + 2 * h * other;
                    assert!(grad[at..at + 2 * h].iter().all(|&g| g == 0.0));
                    assert_eq!(grad[bias + other], 0.0);
                }
                let probes = [
                    s.stm[2] as usize * h + 3,
                    INPUTS * h + 6,
                    own + 1,
                    own + h + 9,
                    own + 2 * h - 1,
                    bias + bucket,
                ];
                let what = format!("{activation:?} {len} pieces,");
                assert_gradient(&net, &s, &grad, &probes, &mut scratch, &what);
                assert!(grad[bias + bucket] != 0.0);
            }
        }
    }

    /// King buckets: a sample's gradient reaches its own bucket's rows and
    /// the factoriser's (finite differences at both), and a plain net given
    /// buckets scores as before.
    #[test]
    fn king_bucket_and_factoriser_gradients_match_finite_differences() {
        let inputs = InputBuckets::MIRROR4;
        let mut net = FloatNet::new(32, Activation::SCReLU, 1, inputs, 4);
        let h = net.hidden;
        let factor = inputs.inputs() * h;
        // Buckets away from 0, biases inside the clip.
        for (i, p) in net.params[..factor].iter_mut().enumerate() {
            *p = ((i * 37 % 101) as f32 - 50.0) * 0.002;
        }
        let bias = factor + INPUTS * h;
        for i in 0..h {
            net.params[bias + i] = 0.2;
        }
        // Inputs in bucket 2 for the side to move, bucket 0 for the other.
        let mut s = sample_of(6);
        for f in &mut s.stm[..6] {
            *f += 2 * INPUTS as u16;
        }
        let mut scratch = Scratch::new(h);
        let mut grad = vec![0.0; net.params.len()];
        net.backward(&s, 1.0, &mut grad, &mut scratch);
        let own = s.stm[1] as usize * h + 3;
        let shared = factor + (s.stm[1] as usize % INPUTS) * h + 3;
        assert!(grad[own] != 0.0 && grad[shared] != 0.0);
        // Bucket 1 is used by neither side: no gradient.
        assert!(grad[INPUTS * h..2 * INPUTS * h].iter().all(|&g| g == 0.0));
        let probes = [
            own,
            shared,
            s.nstm[0] as usize * h + 5,
            bias + 1,
            net.params.len() - 1,
        ];
        assert_gradient(&net, &s, &grad, &probes, &mut scratch, "mirror4");

        let plain = FloatNet::new(32, Activation::SCReLU, 1, InputBuckets::NONE, 8);
        let bucketed = plain.with_input_buckets(inputs);
        assert_eq!(bucketed.params.len(), FloatNet::param_count(32, 1, &inputs));
        for f in [0, 3 * INPUTS as u16] {
            let mut t = sample_of(5);
            let u = sample_of(5);
            for x in &mut t.stm[..5] {
                *x += f;
            }
            let a = plain.forward(&u, &mut scratch);
            let b = bucketed.forward(&t, &mut scratch);
            assert!((a - b).abs() < 1e-5, "{a} {b}");
        }
    }

    #[test]
    fn copied_buckets_score_as_the_single_output() {
        let one = FloatNet::new(32, Activation::SCReLU, 1, InputBuckets::NONE, 7);
        let eight = one.with_copied_buckets(8);
        assert_eq!(
            eight.params.len(),
            FloatNet::param_count(32, 8, &InputBuckets::NONE)
        );
        let mut scratch = Scratch::new(32);
        for len in [3, 10, 20, 32] {
            let s = sample_of(len);
            assert_eq!(
                one.forward(&s, &mut scratch),
                eight.forward(&s, &mut scratch)
            );
        }
    }
}
