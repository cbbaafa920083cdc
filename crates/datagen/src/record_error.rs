//! The error of the tools that read and write training-data files (merge,
//! shuffle, stats, PGN conversion).

use std::path::PathBuf;

use trainingdata::ReadError;

/// Why a training-data file operation failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordFileError {
    /// An input cannot be read or holds a damaged record.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The output cannot be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// No input file was given.
    #[error("no input files given")]
    NoInput,
    /// The output is one of the inputs (it would be truncated before it is read).
    #[error("the output {0} is also an input; write to a new file")]
    OutputIsInput(PathBuf),
}

impl RecordFileError {
    /// A write error on `path`.
    pub fn write(path: &std::path::Path, source: std::io::Error) -> RecordFileError {
        RecordFileError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}
