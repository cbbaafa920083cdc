//! Float checkpoints: everything needed to resume a run (weights and the
//! optimiser's moments), written after every epoch.
//!
//! Format, little-endian: magic `KESTCKPT`, then `u32` version (3), hidden
//! size, activation code, epochs done, output buckets and input flags (bit
//! 0: mirrored), the 64-byte king-bucket map, `u64` optimiser steps and
//! parameter count N, then N `f32` parameters, N first moments, N second
//! moments, and last the FNV-1a 64 hash of every byte before it. Version 1
//! (before output buckets) lacks the bucket count: one bucket; versions 1
//! and 2 lack the flags and map: no king buckets.

use std::path::Path;

use engine::eval::nnue::{fnv1a64, Activation, InputBuckets, MAX_BUCKETS};

use crate::adamw::AdamW;
use crate::error::TrainError;
use crate::model::{factoriser_rows, FloatNet};

const MAGIC: [u8; 8] = *b"KESTCKPT";
const VERSION: u32 = 3;

/// Bytes before the parameters in a checkpoint of `version`.
const fn header_len(version: u32) -> usize {
    match version {
        0 | 1 => 8 + 4 * 4 + 8 * 2,
        2 => 8 + 5 * 4 + 8 * 2,
        _ => 8 + 6 * 4 + 64 + 8 * 2,
    }
}

/// The longest checkpoint read: one of the largest network (1,024
/// neurons, 16 king buckets and the factoriser) with its two AdamW
/// moments is about 160 MB.
pub const MAX_FILE_LEN: u64 = 192 << 20;

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
        let mut out = Vec::with_capacity(header_len(VERSION) + 12 * n + 8);
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            self.net.hidden as u32,
            self.net.activation.code(),
            self.epochs_done as u32,
            self.net.buckets as u32,
            u32::from(self.net.inputs.mirrors()),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(self.net.inputs.map());
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
        if bytes.len() < header_len(1) + 8 || bytes[..8] != MAGIC {
            return Err("not a Kestrel training checkpoint (no KESTCKPT header)".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().map_err(|_| "short hash")?);
        let u32_at =
            |at: usize| u32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        let u64_at = |at: usize| u64::from(u32_at(at)) | u64::from(u32_at(at + 4)) << 32;
        let version = u32_at(8);
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "version {version}; this build reads 1 to {VERSION}"
            ));
        }
        let header = header_len(version);
        if body.len() < header {
            return Err(format!("{} bytes: truncated header", bytes.len()));
        }
        let hidden = u32_at(12) as usize;
        let activation = Activation::from_code(u32_at(16))
            .ok_or_else(|| format!("unknown activation code {}", u32_at(16)))?;
        let epochs_done = u32_at(20) as usize;
        let buckets = if version >= 2 { u32_at(24) as usize } else { 1 };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "{buckets} output buckets: must be 1 to {MAX_BUCKETS}"
            ));
        }
        let inputs = if version >= 3 {
            let flags = u32_at(28);
            if flags > 1 {
                return Err(format!(
                    "input flags {flags:#x}: only bit 0 (mirroring) is known"
                ));
            }
            let mut map = [0u8; 64];
            map.copy_from_slice(&body[32..96]);
            InputBuckets::new(map, flags == 1).map_err(|e| e.to_string())?
        } else {
            InputBuckets::NONE
        };
        let rest = header - 16;
        let step = u64_at(rest);
        let n = u64_at(rest + 8);
        // `hidden` is not checked yet: the count is computed in 128 bits.
        let rows = (inputs.inputs() + factoriser_rows(&inputs)) as u128;
        let needed = u128::from(hidden as u32) * (rows + 1 + 2 * buckets as u128) + buckets as u128;
        if u128::from(n) != needed {
            return Err(format!(
                "{n} parameters; hidden size {hidden} with {buckets} output buckets and {} king \
                 buckets needs {needed}",
                inputs.count()
            ));
        }
        let n = n as usize;
        if body.len() as u128 != header as u128 + 12 * n as u128 {
            return Err(format!(
                "{} bytes; hidden size {hidden} needs {}: truncated",
                bytes.len(),
                header as u128 + 12 * n as u128 + 8
            ));
        }
        let computed = fnv1a64(body);
        if computed != stored {
            return Err(format!(
                "checksum mismatch (stored {stored:016x}, computed {computed:016x}): damaged"
            ));
        }
        let floats = |k: usize| -> Vec<f32> {
            body[header + 4 * n * k..header + 4 * n * (k + 1)]
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
                buckets,
                inputs,
                params: floats(0),
            },
            adam,
            epochs_done,
        })
    }

    /// Writes the checkpoint to `path`.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        engine::output::write(path, self.to_bytes()).map_err(|e| TrainError::io(path, e))
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
        for buckets in [1, 8] {
            round_trip(buckets, InputBuckets::NONE);
        }
        round_trip(8, InputBuckets::MIRROR4);
    }

    /// A version 1 checkpoint (no bucket count) still resumes, as one
    /// bucket; a version 2 one (no king buckets) as no king buckets.
    #[test]
    fn versions_1_and_2_read_as_one_bucket_and_no_king_buckets() {
        let net = FloatNet::new(32, Activation::SCReLU, 1, InputBuckets::NONE, 1);
        let ckpt = Checkpoint {
            adam: AdamW::new(net.params.len(), 0.01),
            net,
            epochs_done: 2,
        };
        let v3 = ckpt.to_bytes();
        let rehash = |mut bytes: Vec<u8>| {
            let hash = fnv1a64(&bytes);
            bytes.extend_from_slice(&hash.to_le_bytes());
            bytes
        };
        let mut v1 = v3[..8].to_vec();
        v1.extend_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&v3[12..24]);
        v1.extend_from_slice(&v3[96..v3.len() - 8]);
        assert_eq!(Checkpoint::from_bytes(&rehash(v1), 0.01).unwrap(), ckpt);
        let mut v2 = v3[..8].to_vec();
        v2.extend_from_slice(&2u32.to_le_bytes());
        v2.extend_from_slice(&v3[12..28]);
        v2.extend_from_slice(&v3[96..v3.len() - 8]);
        assert_eq!(Checkpoint::from_bytes(&rehash(v2), 0.01).unwrap(), ckpt);
        let mut nine = v3.clone();
        nine[24..28].copy_from_slice(&9u32.to_le_bytes());
        assert!(Checkpoint::from_bytes(&nine, 0.01)
            .unwrap_err()
            .contains("output buckets"));
    }

    fn round_trip(buckets: usize, inputs: InputBuckets) {
        let net = FloatNet::new(32, Activation::SCReLU, buckets, inputs, 1);
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
        damaged[header_len(VERSION) + 100] ^= 1;
        assert!(Checkpoint::from_bytes(&damaged, 0.01)
            .unwrap_err()
            .contains("checksum"));
        for len in [0, 10, header_len(VERSION) + 8, bytes.len() - 1] {
            assert!(Checkpoint::from_bytes(&bytes[..len], 0.01).is_err());
        }
    }
}
