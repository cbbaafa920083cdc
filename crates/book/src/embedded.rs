//! The default book compiled into the binary, so that the engine and the GUI
//! have an opening repertoire with no configuration, and the master games it
//! was built from, for the opening explorer. The book is built from the
//! master games in `shared/data/pgn/masters` by
//! `scripts/build-default-book.sh`, the shipped games by
//! `scripts/build-masters.py` (sources and licences: `data/README.md`).

use crate::polyglot::read_polyglot;
use crate::Book;

/// The default book's Polyglot bytes.
pub const DEFAULT_BOOK: &[u8] = include_bytes!("../data/default.bin");

/// The master games (zstd-compressed PGN) the explorer indexes; only a
/// program that explores carries them (an unused constant is not linked).
pub const MASTERS_PGN: &[u8] = include_bytes!("../data/masters.pgn.zst");

impl Book {
    /// The default book compiled into the program.
    pub fn embedded() -> Book {
        read_polyglot(DEFAULT_BOOK).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;

    #[test]
    fn embedded_book_is_whole_and_knows_the_start() {
        let (book, problems) = read_polyglot(DEFAULT_BOOK);
        assert!(problems.is_empty(), "{problems:?}");
        let start = book.candidates(&Position::startpos());
        let sans: Vec<&str> = start.iter().map(|c| c.san.as_str()).collect();
        assert!(sans.contains(&"e4") && sans.contains(&"d4"), "{sans:?}");
        assert!(book.position_count() > 1000);
    }
}
