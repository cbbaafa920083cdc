//! What can go wrong with book files.

use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// A book could not be read or written at all.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A PGN input could not be read at all.
    #[error("{}: {message}", path.display())]
    Pgn {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A text book line given to a library call is not valid.
    #[error("{0}")]
    Invalid(String),
}

/// A part of a book file that was skipped (the rest was read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookProblem {
    /// Where: the line of a text book, or the entry number (from 1) of a `.bin`.
    pub location: Location,
    /// What is wrong and what was done about it.
    pub message: String,
}

/// Where a problem is in a book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A line of a text book (from 1).
    Line(usize),
    /// An entry of a Polyglot book (from 1), at byte offset 16 * (n - 1).
    Entry(usize),
    /// The file as a whole.
    File,
}

impl fmt::Display for BookProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Line(n) => write!(f, "line {n}: {}", self.message),
            Location::Entry(n) => write!(f, "entry {n} (byte {}): {}", 16 * (n - 1), self.message),
            Location::File => f.write_str(&self.message),
        }
    }
}
