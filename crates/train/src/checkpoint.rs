//! Float checkpoints: everything needed to resume a run (weights and the
//! optimiser's moments), written after every epoch.
//!
//! Format, little-endian: magic `KESTCKPT`, then `u32` version (1), hidden
//! size, activation code and epochs done, `u64` optimiser steps and
//! parameter count N, then N `f32` parameters, N first moments, N second
//! moments, and last the FNV-1a 64 hash of every byte before it.

use std::path::Path;

use engine::eval::nnue::{fnv1a64, Activation};

use crate::adamw::AdamW;
use crate::error::TrainError;
use crate::model::FloatNet;

const MAGIC: [u8; 8] = *b"KESTCKPT";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 * 4 + 8 * 2;

/// The longest checkpoint read: one of the largest network (1,024
/// neurons) with its two AdamW moments is about 10 MB.
pub const MAX_FILE_LEN: u64 = 64 << 20;

/// A run's state after some epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The weights.
    pub net: FloatNet,
    /// The optimiser and its moments.
    pub adam: AdamW,
    /// Epochs completed.
    pub epochs_done: usize,
}

impl Checkpoint {
    /// The checkpoint as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.net.params.len();
        let mut out = Vec::with_capacity(HEADER + 12 * n + 8);
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            self.net.hidden as u32,
            self.net.activation.code(),
            self.epochs_done as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.adam.step.to_le_bytes());
        out.extend_from_slice(&(n as u64).to_le_bytes());
        for values in [&self.net.params, &self.adam.m, &self.adam.v] {
            for x in values {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let hash = fnv1a64(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// A checkpoint from bytes (`weight_decay` is the run's setting, not
    /// stored); a damaged or foreign file is an error, never a panic.
    pub fn from_bytes(bytes: &[u8], weight_decay: f32) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER + 8 || bytes[..8] != MAGIC {
            return Err("not a Kestrel training checkpoint (no KESTCKPT header)".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().map_err(|_| "short hash")?);
        let u32_at =
            |at: usize| u32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        let u64_at = |at: usize| u64::from(u32_at(at)) | u64::from(u32_at(at + 4)) << 32;
        let version = u32_at(8);
        if version != VERSION {
            return Err(format!("version {version}; this build reads {VERSION}"));
        }
        let hidden = u32_at(12) as usize;
        let activation = Activation::from_code(u32_at(16))
            .ok_or_else(|| format!("unknown activation code {}", u32_at(16)))?;
        let epochs_done = u32_at(20) as usize;
        let step = u64_at(24);
        let n = u64_at(32);
        if n != FloatNet::param_count(hidden) as u64 {
            return Err(format!(
                "{n} parameters; hidden size {hidden} needs {}",
                FloatNet::param_count(hidden)
            ));
        }
        let n = n as usize;
        if body.len() != HEADER + 12 * n {
            return Err(format!(
                "{} bytes; hidden size {hidden} needs {}: truncated",
                bytes.len(),
                HEADER + 12 * n + 8
            ));
        }
        let computed = fnv1a64(body);
        if computed != stored {
            return Err(format!(
                "checksum mismatch (stored {stored:016x}, computed {computed:016x}): damaged"
            ));
        }
        let floats = |k: usize| -> Vec<f32> {
            body[HEADER + 4 * n * k..HEADER + 4 * n * (k + 1)]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        let mut adam = AdamW::new(n, weight_decay);
        adam.step = step;
        adam.m = floats(1);
        adam.v = floats(2);
        Ok(Checkpoint {
            net: FloatNet {
                hidden,
                activation,
                params: floats(0),
            },
            adam,
            epochs_done,
        })
    }

    /// Writes the checkpoint to `path`.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        std::fs::write(path, self.to_bytes()).map_err(|e| TrainError::io(path, e))
    }

    /// Reads a checkpoint from `path`: a regular file of at most
    /// [`MAX_FILE_LEN`] bytes.
    pub fn load(path: &Path, weight_decay: f32) -> Result<Checkpoint, TrainError> {
        let bytes =
            engine::file::read_regular(path, MAX_FILE_LEN).map_err(|e| TrainError::io(path, e))?;
        Checkpoint::from_bytes(&bytes, weight_decay).map_err(|reason| TrainError::Checkpoint {
            path: path.to_path_buf(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_damage() {
        let net = FloatNet::new(32, Activation::SCReLU, 1);
        let mut adam = AdamW::new(net.params.len(), 0.01);
        adam.step = 17;
        adam.m[3] = 0.25;
        adam.v[5] = 0.5;
        let ckpt = Checkpoint {
            net,
            adam,
            epochs_done: 4,
        };
        let bytes = ckpt.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes, 0.01).unwrap(), ckpt);
        let mut damaged = bytes.clone();
        damaged[HEADER + 100] ^= 1;
        assert!(Checkpoint::from_bytes(&damaged, 0.01)
            .unwrap_err()
            .contains("checksum"));
        for len in [0, 10, HEADER + 8, bytes.len() - 1] {
            assert!(Checkpoint::from_bytes(&bytes[..len], 0.01).is_err());
        }
    }
}
