//! Why training stopped.

use std::path::PathBuf;

/// A training run's error.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file could not be read or written. (The system's error is part of
    /// the message, not a separate cause, so that `{:#}` says it once.)
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A training-data shard could not be read.
    #[error(transparent)]
    Data(#[from] trainingdata::ReadError),
    /// A training-data shard in another format, or a store, could not be read.
    #[error(transparent)]
    Source(#[from] trainingdata::source::SourceError),
    /// The quantised network was refused.
    #[error("quantised network: {0}")]
    Net(#[from] engine::eval::nnue::NetError),
    /// The net file to start from could not be read.
    #[error("{path}: {error}")]
    InitNet {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: engine::eval::nnue::NetError,
    },
    /// A checkpoint file is not one, or is damaged.
    #[error("checkpoint {path}: {reason}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The loss chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] charts::PlotError),
    /// The options do not make a run.
    #[error("{0}")]
    Config(String),
}

impl TrainError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> TrainError {
        TrainError::Io {
            path: path.into(),
            error,
        }
    }
}
