//! Shuffling a training-data file, in bounded memory.
//!
//! A file of at most `max_in_memory` records is shuffled in memory. A
//! larger one takes two passes: each record goes to one of `k` bucket files
//! chosen at random (next to the output, removed afterwards), then each
//! bucket, about half the memory limit, is shuffled in memory and appended
//! to the output. Random buckets followed by a uniform shuffle of each give
//! a uniformly random order of the whole file.

use std::path::{Path, PathBuf};

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use trainingdata::{read_file, RecordReader, RecordWriter, TrainingRecord, RECORD_SIZE};

use crate::merge::same_file;
use crate::record_error::RecordFileError;

/// Records shuffled in memory by default: 32 M records, 1 GiB.
pub const DEFAULT_MAX_IN_MEMORY: u64 = 32 << 20;

/// What a shuffle did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShuffleReport {
    /// Records written.
    pub records: u64,
    /// Bucket files used (0: shuffled in memory).
    pub buckets: u64,
    /// Bytes of a partial last record of the input, dropped.
    pub trailing_bytes: usize,
}

/// Writes the records of `input` to `output` in an order fixed by `seed`,
/// holding at most about `max_in_memory` records in memory.
pub fn shuffle(
    input: &Path,
    output: &Path,
    seed: u64,
    max_in_memory: u64,
) -> Result<ShuffleReport, RecordFileError> {
    if same_file(input, output) {
        return Err(RecordFileError::OutputIsInput(output.to_path_buf()));
    }
    let len = std::fs::metadata(input)
        .map_err(|source| trainingdata::ReadError::Io {
            path: input.to_path_buf(),
            source,
        })?
        .len();
    let records = len / RECORD_SIZE as u64;
    let mut rng = SmallRng::seed_from_u64(seed);
    let max_in_memory = max_in_memory.max(2);
    if records <= max_in_memory {
        let mut file = read_file(input)?;
        file.records.shuffle(&mut rng);
        write_all(output, &file.records)?;
        return Ok(ShuffleReport {
            records: file.records.len() as u64,
            buckets: 0,
            trailing_bytes: file.trailing_bytes,
        });
    }
    let buckets = records.div_ceil(max_in_memory / 2);
    let paths: Vec<PathBuf> = (0..buckets)
        .map(|i| {
            let mut name = output.as_os_str().to_owned();
            name.push(format!(".bucket{i}.tmp"));
            PathBuf::from(name)
        })
        .collect();
    let result = shuffle_through(input, output, &paths, &mut rng);
    for path in &paths {
        let _ = std::fs::remove_file(path);
    }
    let (records, trailing_bytes) = result?;
    Ok(ShuffleReport {
        records,
        buckets,
        trailing_bytes,
    })
}

/// The two passes through bucket files `paths`.
fn shuffle_through(
    input: &Path,
    output: &Path,
    paths: &[PathBuf],
    rng: &mut SmallRng,
) -> Result<(u64, usize), RecordFileError> {
    let mut writers = paths
        .iter()
        .map(|p| RecordWriter::create(p).map_err(|e| RecordFileError::write(p, e)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut reader = RecordReader::open(input)?;
    let mut records = 0u64;
    for record in reader.by_ref() {
        let bucket = rng.random_range(0..writers.len());
        writers[bucket]
            .write(&record?)
            .map_err(|e| RecordFileError::write(&paths[bucket], e))?;
        records += 1;
    }
    for (writer, path) in writers.into_iter().zip(paths) {
        writer
            .finish()
            .map_err(|e| RecordFileError::write(path, e))?;
    }
    let file = engine::output::create(output).map_err(|e| RecordFileError::write(output, e))?;
    let mut out = RecordWriter::new(file);
    for path in paths {
        let mut bucket = read_file(path)?.records;
        bucket.shuffle(rng);
        for record in &bucket {
            out.write(record)
                .map_err(|e| RecordFileError::write(output, e))?;
        }
    }
    out.finish()
        .and_then(engine::output::Output::commit)
        .map_err(|e| RecordFileError::write(output, e))?;
    Ok((records, reader.trailing_bytes()))
}

/// Writes `records` to `path` (replaced whole, or not at all).
fn write_all(path: &Path, records: &[TrainingRecord]) -> Result<(), RecordFileError> {
    let file = engine::output::create(path).map_err(|e| RecordFileError::write(path, e))?;
    let mut writer = RecordWriter::new(file);
    for record in records {
        writer
            .write(record)
            .map_err(|e| RecordFileError::write(path, e))?;
    }
    writer
        .finish()
        .and_then(engine::output::Output::commit)
        .map_err(|e| RecordFileError::write(path, e))?;
    Ok(())
}
