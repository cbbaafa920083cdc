//! AdamW: Adam with decoupled weight decay, and the weight clipping that
//! keeps the network quantisable.

use rayon::prelude::*;

/// The optimiser's settings and state (first and second moments).
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// Exponential decay of the first moment.
    pub beta1: f32,
    /// Exponential decay of the second moment.
    pub beta2: f32,
    /// Added to the denominator.
    pub epsilon: f32,
    /// Decoupled weight decay per step, as a fraction of the learning rate.
    pub weight_decay: f32,
    /// Steps taken (for bias correction).
    pub step: u64,
    /// First moments, one per parameter.
    pub m: Vec<f32>,
    /// Second moments, one per parameter.
    pub v: Vec<f32>,
}

/// Parameters per parallel work item of a step.
const CHUNK: usize = 16 * 1024;

impl AdamW {
    /// A fresh optimiser for `params` parameters.
    pub fn new(params: usize, weight_decay: f32) -> AdamW {
        AdamW {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay,
            step: 0,
            m: vec![0.0; params],
            v: vec![0.0; params],
        }
    }

    /// One step with gradient `grad` at learning rate `lr`, on all cores;
    /// parameter `i` ends within ±`clip(i)` (see `FloatNet::clip_of`).
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        lr: f32,
        clip: impl Fn(usize) -> f32 + Sync,
    ) {
        self.step += 1;
        let (b1, b2, eps) = (self.beta1, self.beta2, self.epsilon);
        let correction1 = 1.0 - b1.powi(self.step.min(i32::MAX as u64) as i32);
        let correction2 = 1.0 - b2.powi(self.step.min(i32::MAX as u64) as i32);
        let step_size = lr / correction1;
        let decay = 1.0 - lr * self.weight_decay;
        params
            .par_chunks_mut(CHUNK)
            .zip(grad.par_chunks(CHUNK))
            .zip(self.m.par_chunks_mut(CHUNK))
            .zip(self.v.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(chunk, (((p, g), m), v))| {
                let base = chunk * CHUNK;
                for (i, (((p, &g), m), v)) in p
                    .iter_mut()
                    .zip(g)
                    .zip(m.iter_mut())
                    .zip(v.iter_mut())
                    .enumerate()
                {
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    let update = step_size * *m / ((*v / correction2).sqrt() + eps);
                    let limit = clip(base + i);
                    *p = (*p * decay - update).clamp(-limit, limit);
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CLIP;

    #[test]
    fn minimises_a_quadratic_and_clips() {
        // f(x) = (x - 0.5)² + (y - 5)² + (z - 5)²: x reaches 0.5, y stops at
        // the clip, z at its own smaller clip.
        let mut params = vec![0.0f32, 0.0, 0.0];
        let mut adam = AdamW::new(3, 0.0);
        let clip = |i: usize| if i == 2 { 0.25 } else { CLIP };
        for _ in 0..2000 {
            let grad = [
                2.0 * (params[0] - 0.5),
                2.0 * (params[1] - 5.0),
                2.0 * (params[2] - 5.0),
            ];
            adam.step(&mut params, &grad, 0.01, clip);
        }
        assert!((params[0] - 0.5).abs() < 1e-2, "{params:?}");
        assert_eq!(params[1], CLIP);
        assert_eq!(params[2], 0.25);
    }
}
