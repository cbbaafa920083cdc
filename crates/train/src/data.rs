//! Training data: shards of records split into a training part and a fixed
//! validation part.

use std::path::{Path, PathBuf};

use engine::strength::Rng;
use trainingdata::source::{self, DataFormat};
use trainingdata::store::Store;
use trainingdata::{PositionFilter, TrainingRecord, RECORD_SIZE};

use crate::error::TrainError;

/// One shard's records, split.
#[derive(Clone, Debug, Default)]
pub struct Shard {
    /// Records to train on.
    pub train: Vec<TrainingRecord>,
    /// Records held out to measure the validation loss.
    pub validation: Vec<TrainingRecord>,
}

/// Records are held out in runs of this many. Datagen writes a game's
/// positions one after another (70 to 100 of them), so whole runs keep
/// most validation positions out of the games trained on: a position's
/// neighbours in its game share its result and nearly its score, and
/// holding out single records would let the validation loss reward
/// memorising games.
pub const VALIDATION_RUN: usize = 256;

/// True when record `index` of shard `shard` is held out. The choice is a
/// hash of the shard and the record's run of [`VALIDATION_RUN`], so a
/// record stays on its side in every epoch and when a run resumes.
pub fn is_validation(shard: usize, index: usize, fraction: f64) -> bool {
    let run = index / VALIDATION_RUN;
    let hash = Rng::new((shard as u64) << 40 ^ run as u64).next_u64();
    ((hash >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// Splits `records` (shard number `shard`) into training and validation.
pub fn split(records: Vec<TrainingRecord>, shard: usize, fraction: f64) -> Shard {
    let mut out = Shard::default();
    for (index, record) in records.into_iter().enumerate() {
        if is_validation(shard, index, fraction) {
            out.validation.push(record);
        } else {
            out.train.push(record);
        }
    }
    out
}

/// The inputs with every store folder replaced by its shards, in the
/// manifest's order: each shard is one shard of the run.
pub fn expand_stores(paths: &[PathBuf]) -> Result<Vec<PathBuf>, TrainError> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let shards = Store::open(path)
                .and_then(|store| store.shard_paths())
                .map_err(|e| TrainError::Source(e.into()))?;
            out.extend(shards);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// Reads shard file `path` (number `shard` in the run's list; any format
/// `datagen convert` reads, games through the default read filter) and
/// splits it.
pub fn load_shard(path: &Path, shard: usize, fraction: f64) -> Result<Shard, TrainError> {
    let mut records = Vec::new();
    source::read_positions(
        path,
        DataFormat::of_path(path),
        &PositionFilter::default(),
        |r| records.push(r),
    )?;
    Ok(split(records, shard, fraction))
}

/// The number of records in the files, for progress: from their sizes for
/// 32-byte records, by reading for games and text.
pub fn count_records(paths: &[impl AsRef<Path>]) -> Result<u64, TrainError> {
    let mut total = 0;
    for path in paths {
        let path = path.as_ref();
        match DataFormat::of_path(path) {
            DataFormat::Kestrel | DataFormat::Bullet => {
                let len = std::fs::metadata(path)
                    .map_err(|e| TrainError::io(path, e))?
                    .len();
                total += len / RECORD_SIZE as u64;
            }
            format => {
                let filter = PositionFilter::default();
                total += source::read_positions(path, format, &filter, |_| {})?.kept;
            }
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_share_is_near_the_fraction_and_stable() {
        let held = (0..2_000_000)
            .filter(|&i| is_validation(3, i, 0.05))
            .count();
        assert!((90_000..110_000).contains(&held), "{held}");
        // Held out in whole runs.
        let first = VALIDATION_RUN * 7;
        let side = is_validation(2, first, 0.5);
        assert!((first..first + VALIDATION_RUN).all(|i| is_validation(2, i, 0.5) == side));
        assert_eq!(is_validation(1, 77, 0.3), is_validation(1, 77, 0.3));
        assert!(!(0..1000).any(|i| is_validation(0, i, 0.0)));
    }
}
