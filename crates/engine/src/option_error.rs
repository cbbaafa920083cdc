//! Why [`Engine::set_option`](crate::Engine::set_option) refused a value.

use std::fmt;

use crate::params::ParamError;
use crate::search::tt::TableSizeError;

/// Why an option was not set. The engine is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// Unknown name, or a value of the wrong type or out of range.
    Param(ParamError),
    /// `Hash`: a size the machine cannot give; the old table is kept.
    Hash {
        /// Why the new size was refused.
        refused: TableSizeError,
        /// The size of the table still in use, in MiB.
        kept_mib: usize,
    },
    /// `Threads`: a count the system would not start (too little memory
    /// for the threads' stacks, or too many threads); the threads the
    /// engine had are kept.
    Threads {
        /// The count asked for.
        wanted: usize,
        /// The number of the thread the system would not start (1-based).
        refused_at: usize,
        /// Why, as the system said it.
        reason: String,
        /// The threads still in use.
        kept: usize,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Param(e) => e.fmt(f),
            OptionError::Hash { refused, kept_mib } => write!(
                f,
                "Hash refused: {refused}; the table stays at {kept_mib} MiB (choose a smaller Hash)"
            ),
            OptionError::Threads {
                wanted,
                refused_at,
                reason,
                kept,
            } => write!(
                f,
                "Threads refused: the system would not start search thread {refused_at} of {wanted} ({reason}); the engine keeps {kept} thread{} (choose fewer Threads)",
                if *kept == 1 { "" } else { "s" }
            ),
        }
    }
}

impl std::error::Error for OptionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OptionError::Param(e) => Some(e),
            OptionError::Hash { refused, .. } => Some(refused),
            OptionError::Threads { .. } => None,
        }
    }
}

/// Why [`Engine::try_new`](crate::Engine::try_new) could not make an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// Its transposition table could not be had.
    Table(TableSizeError),
    /// The system would not start its search thread (what it said).
    Thread(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Table(e) => write!(f, "the engine cannot start: {e}"),
            StartError::Thread(why) => write!(
                f,
                "the engine cannot start: the system would not start its search thread ({why})"
            ),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Table(e) => Some(e),
            StartError::Thread(_) => None,
        }
    }
}

impl From<ParamError> for OptionError {
    fn from(e: ParamError) -> OptionError {
        OptionError::Param(e)
    }
}
