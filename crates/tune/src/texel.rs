//! The Texel tuner: fits the evaluation weights to game results by
//! minimising the mean squared error between each position's result and
//! the win probability its evaluation predicts, `1 / (1 + 10^(-K·eval/400))`,
//! with the Adam gradient method. The evaluation is linear in the weights
//! once phase, scale and mop-up are fixed per position, so each position is
//! stored as the sparse list of its term counts (White minus Black).

use rayon::prelude::*;

use engine::eval::hce::trace::Coefficients;
use engine::eval::hce::weights::{Weights, COUNT};
use engine::eval::hce::{pair::pair, MAX_PHASE};
use engine::eval::{evaluate_traced, EvalKind};

use datagen::LabelledPosition;

/// One position, ready for the tuner.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Its term counts: `coefs[start..start + len]`.
    start: u32,
    len: u16,
    /// Middlegame share of the blend, 0..1.
    mg_share: f32,
    /// Endgame share, scale included.
    eg_share: f32,
    /// The part of the score outside the weights (mop-up), White's view.
    fixed: f32,
    /// White's game result.
    result: f32,
}

/// Positions turned into term counts.
pub struct TexelData {
    samples: Vec<Sample>,
    coefs: Vec<(u16, i16)>,
}

fn sample_terms(p: &LabelledPosition, weights: &Weights) -> (Vec<(u16, i16)>, f32, f32, f32) {
    let (report, c): (_, Coefficients) = evaluate_traced(
        &p.pos,
        EvalKind::Full,
        weights,
        None,
        Coefficients::default(),
    );
    let terms = (0..COUNT)
        .filter_map(|i| {
            let d = c.counts[0][i] - c.counts[1][i];
            (d != 0).then_some((
                i as u16,
                d.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            ))
        })
        .collect();
    let phase = report.phase as f32 / MAX_PHASE as f32;
    let eg = (1.0 - phase) * report.scale as f32 / 128.0;
    (terms, phase, eg, report.mop_up as f32)
}

impl TexelData {
    /// Traces every position with `weights` (which fix each position's
    /// endgame scale, the one part of the score that is not linear).
    pub fn build(positions: &[LabelledPosition], weights: &Weights) -> TexelData {
        let traced: Vec<_> = positions
            .par_iter()
            .map(|p| (sample_terms(p, weights), p.result))
            .collect();
        let mut samples = Vec::with_capacity(traced.len());
        let mut coefs = Vec::new();
        for ((terms, mg_share, eg_share, fixed), result) in traced {
            samples.push(Sample {
                start: coefs.len() as u32,
                len: terms.len() as u16,
                mg_share,
                eg_share,
                fixed,
                result,
            });
            coefs.extend(terms);
        }
        TexelData { samples, coefs }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True when there are no positions.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn eval(&self, s: &Sample, params: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &self.coefs[s.start as usize..s.start as usize + s.len as usize] {
            mg += f64::from(c) * params[2 * i as usize];
            eg += f64::from(c) * params[2 * i as usize + 1];
        }
        mg * f64::from(s.mg_share) + eg * f64::from(s.eg_share) + f64::from(s.fixed)
    }

    /// Mean squared error of the predictions with weights `params`.
    pub fn loss(&self, params: &[f64], k: f64) -> f64 {
        let total: f64 = self
            .samples
            .par_iter()
            .map(|s| {
                let e = sigmoid(k, self.eval(s, params)) - f64::from(s.result);
                e * e
            })
            .sum();
        total / self.samples.len().max(1) as f64
    }

    /// The loss and its gradient.
    fn gradient(&self, params: &[f64], k: f64) -> (f64, Vec<f64>) {
        let (loss, grad) = self
            .samples
            .par_chunks(4096)
            .map(|chunk| {
                let mut g = vec![0.0; 2 * COUNT];
                let mut loss = 0.0;
                for s in chunk {
                    let p = sigmoid(k, self.eval(s, params));
                    let err = p - f64::from(s.result);
                    loss += err * err;
                    // d(err²)/d(eval) = 2·err·p(1-p)·K·ln10/400
                    let d = 2.0 * err * p * (1.0 - p) * k * std::f64::consts::LN_10 / 400.0;
                    for &(i, c) in &self.coefs[s.start as usize..s.start as usize + s.len as usize]
                    {
                        g[2 * i as usize] += d * f64::from(c) * f64::from(s.mg_share);
                        g[2 * i as usize + 1] += d * f64::from(c) * f64::from(s.eg_share);
                    }
                }
                (loss, g)
            })
            .reduce(
                || (0.0, vec![0.0; 2 * COUNT]),
                |(la, mut ga), (lb, gb)| {
                    ga.iter_mut().zip(gb).for_each(|(a, b)| *a += b);
                    (la + lb, ga)
                },
            );
        let n = self.samples.len().max(1) as f64;
        (loss / n, grad.into_iter().map(|g| g / n).collect())
    }
}

/// Win probability of a White score of `eval` centipawns.
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The weights as the tuner's parameter vector (mg, eg interleaved).
pub fn to_params(w: &Weights) -> Vec<f64> {
    w.as_slice()
        .iter()
        .flat_map(|p| [f64::from(p.mg), f64::from(p.eg)])
        .collect()
}

/// The parameter vector rounded back to weights.
pub fn to_weights(params: &[f64]) -> Weights {
    let mut w = Weights::zero();
    for i in 0..COUNT {
        let r = |v: f64| (v.round() as i32).clamp(-10_000, 10_000);
        w.set(i, pair(r(params[2 * i]), r(params[2 * i + 1])));
    }
    w
}

/// The scaling constant K that best fits the data with `params`
/// (a ternary search; the loss is unimodal in K).
pub fn fit_k(data: &TexelData, params: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if data.loss(params, a) < data.loss(params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TexelConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Weight of the L2 penalty on moving away from the starting weights
    /// (per squared centipawn): a few thousand games are few data points
    /// for a thousand weights, and without it the tuner fits their noise.
    pub l2: f64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct TexelOutcome {
    /// The tuned weights.
    pub weights: Weights,
    /// The scaling constant used.
    pub k: f64,
    /// Loss with the starting weights.
    pub loss_before: f64,
    /// Loss with the tuned (rounded) weights.
    pub loss_after: f64,
}

/// Tunes `start` on `data`; `progress(epoch, loss)` is called every epoch.
pub fn tune(
    data: &TexelData,
    start: &Weights,
    config: &TexelConfig,
    mut progress: impl FnMut(usize, f64),
) -> TexelOutcome {
    let mut params = to_params(start);
    let origin = params.clone();
    let k = fit_k(data, &params);
    let loss_before = data.loss(&params, k);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; params.len()];
    let mut v = vec![0.0; params.len()];
    for epoch in 1..=config.epochs {
        let (loss, mut grad) = data.gradient(&params, k);
        for i in 0..params.len() {
            grad[i] += 2.0 * config.l2 * (params[i] - origin[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            params[i] -= config.learning_rate * mh / (vh.sqrt() + eps);
        }
        progress(epoch, loss);
    }
    let weights = to_weights(&params);
    let loss_after = data.loss(&to_params(&weights), k);
    TexelOutcome {
        weights,
        k,
        loss_before,
        loss_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;

    /// A small fixed data set: positions from seeded random games, labelled
    /// by who is ahead in material by the old-fashioned count (so there is
    /// something real to fit).
    fn data() -> Vec<LabelledPosition> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut out = Vec::new();
        while out.len() < 400 {
            let mut pos = Position::startpos();
            for _ in 0..(20 + out.len() % 60) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
            }
            let count = |c| {
                [1, 3, 3, 5, 9]
                    .iter()
                    .zip(chess::Role::ALL)
                    .map(|(v, r)| v * pos.pieces(c, r).count() as i32)
                    .sum::<i32>()
            };
            let diff = count(chess::Color::White) - count(chess::Color::Black);
            let result = if diff > 1 {
                1.0
            } else if diff < -1 {
                0.0
            } else {
                0.5
            };
            out.push(LabelledPosition { pos, result });
        }
        out
    }

    #[test]
    fn tuning_lowers_the_loss() {
        let positions = data();
        let start = Weights::default_shared();
        let data = TexelData::build(&positions, &start);
        assert_eq!(data.len(), 400);
        let mut losses = Vec::new();
        let outcome = tune(
            &data,
            &start,
            &TexelConfig {
                epochs: 60,
                learning_rate: 2.0,
                l2: 0.0,
            },
            |_, l| losses.push(l),
        );
        assert!(
            outcome.loss_after < outcome.loss_before * 0.9,
            "{outcome:?}"
        );
        assert!(losses.last().unwrap() < losses.first().unwrap());
        // The rounded weights reproduce the tuner's linear model.
        let p = to_params(&outcome.weights);
        assert!((data.loss(&p, outcome.k) - outcome.loss_after).abs() < 1e-12);
    }

    #[test]
    fn params_round_trip() {
        let w = Weights::default_shared();
        assert_eq!(to_weights(&to_params(&w)), *w);
    }
}
