//! The default book compiled into the binary, so that the engine and the GUI
//! have an opening repertoire with no configuration. Built from the master
//! games in `shared/data/pgn/masters` by `scripts/build-default-book.sh`.

use crate::polyglot::read_polyglot;
use crate::Book;

/// The default book's Polyglot bytes.
pub const DEFAULT_BOOK: &[u8] = include_bytes!("../data/default.bin");

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
