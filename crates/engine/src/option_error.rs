//! Why [`Engine::set_option`](crate::Engine::set_option) refused a value.

use std::fmt;

use crate::params::ParamError;
use crate::tt::TableSizeError;

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
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Param(e) => e.fmt(f),
            OptionError::Hash { refused, kept_mib } => write!(
                f,
                "Hash refused: {refused}; the table stays at {kept_mib} MiB (choose a smaller Hash)"
            ),
        }
    }
}

impl std::error::Error for OptionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OptionError::Param(e) => Some(e),
            OptionError::Hash { refused, .. } => Some(refused),
        }
    }
}

impl From<ParamError> for OptionError {
    fn from(e: ParamError) -> OptionError {
        OptionError::Param(e)
    }
}
