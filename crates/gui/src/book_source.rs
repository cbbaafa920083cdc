//! The opening book the GUI shows and the engines play from: the embedded
//! default book, or the one file named by `--book`. Moves are chosen by
//! [`book::OwnBook`], as over UCI; what is the GUI's own is the file: moves
//! are added only to it, and only when it is a Kestrel text book: the server
//! touches no other file.

use std::path::{Path, PathBuf};

use book::{Book, Candidate, Format, OwnBook, EMBEDDED_NAME};
use chess::{Game, Move, Position};

/// The book and where it came from.
pub struct BookSource {
    book: OwnBook,
    path: Option<PathBuf>,
    writable: bool,
}

/// What `--book` names that cannot serve as a book.
#[derive(Debug, thiserror::Error)]
pub enum BookSourceError {
    /// The file exists but cannot be read.
    #[error("cannot use book {path}: {reason}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The file does not exist and is not a text book that could be started.
    #[error("book {0} does not exist (name a .txt file to start a new text book)")]
    Missing(PathBuf),
}

impl BookSource {
    /// The embedded default book.
    pub fn embedded() -> BookSource {
        BookSource {
            book: gui_book(),
            path: None,
            writable: false,
        }
    }

    /// The book at `path`: an existing Polyglot or text book, or a `.txt`
    /// path that does not exist yet (an empty text book, created on the
    /// first added move).
    pub fn open(path: &Path) -> Result<BookSource, BookSourceError> {
        let is_text_name = Format::from_extension(path) == Some(Format::Text);
        let (book, writable) = if path.exists() {
            let bytes = book::read_book_file(path).map_err(|e| match e {
                book::BookError::Io { source, .. } => BookSourceError::Unreadable {
                    path: path.to_path_buf(),
                    reason: source.to_string(),
                },
                other => BookSourceError::Unreadable {
                    path: path.to_path_buf(),
                    reason: other.to_string(),
                },
            })?;
            let format = Format::from_extension(path).unwrap_or_else(|| Format::sniff(&bytes));
            (book::read_book(&bytes, format).0, format == Format::Text)
        } else if is_text_name {
            (Book::new(), true)
        } else {
            return Err(BookSourceError::Missing(path.to_path_buf()));
        };
        let mut own = gui_book();
        own.use_book(book);
        Ok(BookSource {
            book: own,
            path: Some(path.to_path_buf()),
            writable,
        })
    }

    /// The file's name, or `<embedded>`.
    pub fn name(&self) -> String {
        self.path
            .as_ref()
            .map_or(EMBEDDED_NAME.to_string(), |p| p.display().to_string())
    }

    /// True when moves can be added.
    pub fn writable(&self) -> bool {
        self.writable
    }

    /// The book moves of `pos`, heaviest first.
    pub fn candidates(&self, pos: &Position) -> Vec<Candidate> {
        self.book.candidates(pos)
    }

    /// A book move for `pos`, chosen at random by weight.
    pub fn pick(&mut self, pos: &Position) -> Option<Move> {
        self.book.probe(pos)
    }

    /// Adds the last move of `game` to the text book file and to the book in
    /// memory; returns the move's SAN.
    pub fn add_last_move(&mut self, game: &Game) -> Result<String, String> {
        let Some(path) = self.path.clone().filter(|_| self.writable) else {
            return Err(format!(
                "the book {} is not a text book: start kestrel gui with --book FILE.txt to add moves",
                self.name()
            ));
        };
        let mut before = game.clone();
        let m = before
            .pop()
            .ok_or("no move played yet: play the move to add first")?;
        let san = before.position().san(m);
        book::record_in_text_book(&path, &before, m, 1)
            .map_err(|e| format!("cannot add {san} to {}: {e}", path.display()))?;
        self.book.book_mut().add_game_move(&before, m, 1);
        Ok(san)
    }
}

/// The book as the GUI plays it, with or without a server ([`OwnBook::whole`]).
fn gui_book() -> OwnBook {
    OwnBook::whole()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_go_to_a_text_book_only() {
        let dir = std::env::temp_dir().join(format!("kestrel-gui-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("mine.txt");
        let _ = std::fs::remove_file(&path);
        let mut source = BookSource::open(&path).expect("a new text book");
        let mut game = Game::new(Position::startpos());
        assert!(source.add_last_move(&game).is_err());
        game.push(game.position().parse_san("a3").expect("legal"));
        assert_eq!(source.add_last_move(&game).expect("added"), "a3");
        assert_eq!(source.candidates(&Position::startpos())[0].san, "a3");
        let reread = BookSource::open(&path).expect("reads");
        assert_eq!(reread.candidates(&Position::startpos()).len(), 1);
        std::fs::remove_dir_all(&dir).expect("clean up");

        let mut embedded = BookSource::embedded();
        assert!(!embedded.candidates(&Position::startpos()).is_empty());
        assert!(embedded.add_last_move(&game).is_err());
        assert!(BookSource::open(Path::new("/nonexistent/book.bin")).is_err());
    }
}
