//! Merging training-data shards into one file. The format has no header,
//! so merging is concatenation; this also checks every record on the way
//! and drops the partial record an interrupted run may have left at the end
//! of a shard (which plain `cat` would carry into the middle of the output,
//! misaligning every record after it).

use std::path::{Path, PathBuf};

use trainingdata::{RecordReader, RecordWriter};

use crate::record_error::RecordFileError;

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Records written.
    pub records: u64,
    /// Each input with its record count and the bytes of a partial last
    /// record dropped.
    pub inputs: Vec<(PathBuf, u64, usize)>,
}

/// Writes the records of `inputs`, in order, to `output` (replaced whole,
/// or left as it was when anything fails).
pub fn merge(output: &Path, inputs: &[PathBuf]) -> Result<MergeReport, RecordFileError> {
    if inputs.is_empty() {
        return Err(RecordFileError::NoInput);
    }
    for input in inputs {
        if same_file(input, output) {
            return Err(RecordFileError::OutputIsInput(output.to_path_buf()));
        }
    }
    // Replaced only once every input has been read: a failure leaves the
    // old output as it was.
    let file = engine::output::create(output).map_err(|e| RecordFileError::write(output, e))?;
    let mut writer = RecordWriter::new(file);
    let mut report = MergeReport::default();
    for input in inputs {
        let mut reader = RecordReader::open(input)?;
        let mut count = 0u64;
        for record in reader.by_ref() {
            writer
                .write(&record?)
                .map_err(|e| RecordFileError::write(output, e))?;
            count += 1;
        }
        report.records += count;
        report
            .inputs
            .push((input.clone(), count, reader.trailing_bytes()));
    }
    writer
        .finish()
        .and_then(engine::output::Output::commit)
        .map_err(|e| RecordFileError::write(output, e))?;
    Ok(report)
}

/// True when `a` and `b` name the same existing file.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
