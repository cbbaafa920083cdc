//! Book files on disk: which format a file is, and loading/saving by path.

use crate::polyglot::{read_polyglot, write_polyglot};
use crate::text::{read_text, write_text};
use crate::{Book, BookError, BookProblem};
use std::path::Path;
use std::str::FromStr;

/// A book file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Polyglot `.bin`.
    Polyglot,
    /// Kestrel's text format.
    Text,
}

/// A format name that is not `bin`/`polyglot` or `txt`/`text`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown book format '{0}': use bin (Polyglot) or txt (Kestrel text)")]
pub struct ParseFormatError(pub String);

impl FromStr for Format {
    type Err = ParseFormatError;

    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        match s.to_ascii_lowercase().as_str() {
            "bin" | "polyglot" => Ok(Format::Polyglot),
            "txt" | "text" => Ok(Format::Text),
            _ => Err(ParseFormatError(s.to_string())),
        }
    }
}

impl Format {
    /// The format a path's extension names (`.bin` Polyglot, `.txt` text).
    pub fn from_extension(path: &Path) -> Option<Format> {
        path.extension()?.to_str()?.parse().ok()
    }

    /// Guesses the format of a file's bytes: text books are UTF-8 with `|`
    /// separated columns; anything else is taken as Polyglot.
    pub fn sniff(bytes: &[u8]) -> Format {
        let head = &bytes[..bytes.len().min(4096)];
        let text = match std::str::from_utf8(head) {
            Ok(s) => s,
            Err(e) if e.valid_up_to() + 4 > head.len() => {
                std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or("")
            }
            Err(_) => return Format::Polyglot,
        };
        if !text.is_empty() && (text.contains('|') || text.starts_with('#')) {
            Format::Text
        } else {
            Format::Polyglot
        }
    }
}

/// Reads a book from bytes in `format`.
pub fn read_book(bytes: &[u8], format: Format) -> (Book, Vec<BookProblem>) {
    match format {
        Format::Polyglot => read_polyglot(bytes),
        Format::Text => read_text(&String::from_utf8_lossy(bytes)),
    }
}

/// The longest book file read: 64 million Polyglot entries, far more than
/// any book built from PGN here holds.
pub const MAX_BOOK_FILE_LEN: u64 = 1 << 30;

/// The bytes of the book file at `path`: a regular file of at most
/// [`MAX_BOOK_FILE_LEN`] bytes. A device, a FIFO or a directory is refused
/// at once (its open would never end, or its read would never end).
pub fn read_book_file(path: &Path) -> Result<Vec<u8>, BookError> {
    types::file::read_regular(path, MAX_BOOK_FILE_LEN).map_err(|source| BookError::Io {
        path: path.to_path_buf(),
        source,
    })
}

impl Book {
    /// Loads a book file: Polyglot for `.bin`, text for `.txt`, guessed from
    /// the contents otherwise. Damaged parts are skipped and listed in the
    /// problems; only a file that cannot be read is an error.
    pub fn open(path: &Path) -> Result<(Book, Vec<BookProblem>), BookError> {
        let bytes = read_book_file(path)?;
        let format = Format::from_extension(path).unwrap_or_else(|| Format::sniff(&bytes));
        Ok(read_book(&bytes, format))
    }

    /// Saves the book in `format` (or the one the extension names, else
    /// Polyglot). Returns how many entries the format could not hold: the
    /// text format leaves out moves that are illegal in a position it knows
    /// ([`crate::text::TextBook::left_out`]); Polyglot holds every entry.
    pub fn save(&self, path: &Path, format: Option<Format>) -> Result<usize, BookError> {
        let format = format
            .or_else(|| Format::from_extension(path))
            .unwrap_or(Format::Polyglot);
        let (bytes, left_out) = match format {
            Format::Polyglot => (write_polyglot(self), 0),
            Format::Text => {
                let text = write_text(self);
                (text.text.into_bytes(), text.left_out)
            }
        };
        types::output::write(path, bytes).map_err(|source| BookError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(left_out)
    }
}

/// Records `m`, played in the current position of `game`, in the text book
/// at `path` (created if missing) with `weight` added: what a GUI's "add this
/// move to my book" calls. Returns the problems found in the existing file
/// (its broken lines are dropped when it is rewritten).
pub fn record_in_text_book(
    path: &Path,
    game: &chess::Game,
    m: chess::Move,
    weight: u32,
) -> Result<Vec<BookProblem>, BookError> {
    let (mut book, problems) = if path.exists() {
        let bytes = read_book_file(path)?;
        read_text(&String::from_utf8_lossy(&bytes))
    } else {
        (Book::new(), Vec::new())
    };
    if !game.position().is_legal(m) {
        return Err(BookError::Invalid(format!(
            "{:?} is not a legal move in {}",
            m,
            game.position().fen()
        )));
    }
    book.add_game_move(game, m, weight);
    book.save(path, Some(Format::Text))?;
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{Game, Position};

    #[test]
    fn recording_moves_into_a_text_book() {
        let dir = std::env::temp_dir().join(format!("kestrel-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("mine.txt");
        let mut game = Game::new(Position::startpos());
        for san in ["e4", "c5", "Nf3"] {
            let m = game.position().parse_san(san).expect("legal");
            let problems = record_in_text_book(&path, &game, m, 1).expect("recorded");
            assert!(problems.is_empty());
            game.push(m);
        }
        // Recording the same move again adds to its weight.
        let mut again = Game::new(Position::startpos());
        let e4 = again.position().parse_san("e4").expect("legal");
        record_in_text_book(&path, &again, e4, 1).expect("recorded");
        again.push(e4);
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(text.contains("- | e4 | e2e4 | 2 |"), "{text}");
        assert!(text.contains("1.e4 c5 | Nf3 | g1f3 | 1 |"), "{text}");
        let (book, problems) = Book::open(&path).expect("reads back");
        assert!(problems.is_empty());
        assert_eq!(book.entry_count(), 3);
        // An illegal move is refused and the file left as it was.
        let illegal = chess::Move::normal(chess::Square::new(0), chess::Square::new(63));
        assert!(record_in_text_book(&path, &again, illegal, 1).is_err());
        assert_eq!(std::fs::read_to_string(&path).expect("unchanged"), text);
        std::fs::remove_dir_all(&dir).ok();
    }
}
