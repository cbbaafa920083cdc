//! The book an engine plays from: the embedded default book or one loaded
//! from a file, switched on or off, with a selection policy and a depth in
//! plies after which it is left. UCI, xboard, the terminal game and the GUI
//! all choose their book moves here; the protocols add only their option
//! declarations. The embedded book is read on first use and shared, so
//! start-up stays instant.

use crate::{Book, BookError, Candidate, Policy};
use chess::{Color, Move, Position};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};
use types::BookHint;

/// The name that stands for the embedded book (the `BookFile` default).
pub const EMBEDDED_NAME: &str = "<embedded>";

/// The embedded book, read once for every [`OwnBook`] of the process.
static EMBEDDED: LazyLock<Arc<Book>> = LazyLock::new(|| Arc::new(Book::embedded()));

/// A book file that cannot be played from; the book in use stays.
#[derive(Debug, thiserror::Error)]
pub enum OwnBookError {
    /// The file cannot be read.
    #[error("cannot use book '{}': {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: BookError,
    },
    /// The file was read but holds no entry that could be used.
    #[error("book '{}' has no usable entries ({problems} problems)", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
        /// How many parts of it were skipped.
        problems: usize,
    },
}

/// Book settings and the book in use.
pub struct OwnBook {
    enabled: bool,
    policy: Policy,
    depth: u32,
    /// The book from a file (or given); `None` is the embedded one.
    own: Option<Arc<Book>>,
    rng: SmallRng,
}

impl OwnBook {
    /// How many plies of a game the book plays unless told otherwise.
    pub const DEFAULT_DEPTH: u32 = 30;

    /// The embedded book, on or off, with the default policy and depth.
    pub fn new(enabled: bool) -> OwnBook {
        OwnBook {
            enabled,
            policy: Policy::default(),
            depth: OwnBook::DEFAULT_DEPTH,
            own: None,
            rng: SmallRng::from_os_rng(),
        }
    }

    /// The embedded book, on, with the default policy, as deep as the book
    /// goes: the GUI's book, with or without a server (each game's
    /// settings say whether to ask it).
    pub fn whole() -> OwnBook {
        let mut book = OwnBook::new(true);
        book.set_depth(u32::MAX);
        book
    }

    /// Switches the book on or off for play ([`OwnBook::probe`]).
    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// Sets how a move is chosen among the book's candidates.
    pub fn set_policy(&mut self, policy: Policy) {
        self.policy = policy;
    }

    /// Leaves the book after `plies` plies of the game (`u32::MAX`: never).
    pub fn set_depth(&mut self, plies: u32) {
        self.depth = plies;
    }

    /// Plays from `book` from now on.
    pub fn use_book(&mut self, book: Book) {
        self.own = Some(Arc::new(book));
    }

    /// Plays from the embedded book from now on.
    pub fn use_embedded(&mut self) {
        self.own = None;
    }

    /// Loads a book file (Polyglot `.bin` or Kestrel text), or the embedded
    /// book for [`EMBEDDED_NAME`] or an empty name. A file that cannot be
    /// read or holds no usable entry is refused and the old book stays.
    pub fn load(&mut self, name: &str) -> Result<(), OwnBookError> {
        if name.is_empty() || name == EMBEDDED_NAME {
            self.use_embedded();
            return Ok(());
        }
        let path = Path::new(name);
        let (book, problems) = Book::open(path).map_err(|source| OwnBookError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        if book.is_empty() {
            return Err(OwnBookError::Empty {
                path: path.to_path_buf(),
                problems: problems.len(),
            });
        }
        self.use_book(book);
        Ok(())
    }

    /// The book in use.
    pub fn book(&self) -> &Book {
        self.shared()
    }

    /// The book in use, to edit (the embedded one is copied first).
    pub fn book_mut(&mut self) -> &mut Book {
        let own = self.own.get_or_insert_with(|| Arc::clone(&EMBEDDED));
        Arc::make_mut(own)
    }

    fn shared(&self) -> &Arc<Book> {
        self.own.as_ref().unwrap_or(&EMBEDDED)
    }

    /// The book's moves for `pos` with their shares (xboard's `bk`, the
    /// GUI's book panel), whether or not the book is on for play.
    pub fn candidates(&self, pos: &Position) -> Vec<Candidate> {
        self.book().candidates(pos)
    }

    /// A book move for `pos`, if the book is on, the game is still within
    /// its depth and the book has a legal move for the position.
    pub fn probe(&mut self, pos: &Position) -> Option<Move> {
        if !self.enabled {
            return None;
        }
        let ply =
            (pos.fullmove_number().saturating_sub(1)) * 2 + u32::from(pos.turn() == Color::Black);
        if ply >= self.depth {
            return None;
        }
        let book = Arc::clone(self.shared());
        book.pick(pos, self.policy, &mut self.rng)
            .filter(|m| pos.is_legal(*m))
    }

    /// The book for the search to ask (`BookInSearch`), when the book is on.
    pub fn search_hint(&self) -> Option<Arc<dyn BookHint>> {
        self.enabled
            .then(|| Arc::clone(self.shared()) as Arc<dyn BookHint>)
    }
}

/// The book as the search asks it: does it know the position?
impl BookHint for Book {
    fn knows(&self, pos: &Position) -> bool {
        !self.moves(pos.key()).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_the_embedded_book_while_on_and_within_depth() {
        let start = Position::startpos();
        let mut book = OwnBook::new(false);
        assert_eq!(book.probe(&start), None);
        assert!(book.search_hint().is_none());
        assert!(!book.candidates(&start).is_empty());
        book.set_enabled(true);
        let m = book
            .probe(&start)
            .expect("the default book knows 1st moves");
        assert!(start.is_legal(m));
        assert!(book.search_hint().expect("on").knows(&start));
        book.set_depth(0);
        assert_eq!(book.probe(&start), None);
    }

    #[test]
    fn a_bad_file_is_refused_and_the_book_stays() {
        let mut book = OwnBook::new(true);
        let err = book.load("/no/such/book.bin").expect_err("missing file");
        assert!(matches!(err, OwnBookError::Unreadable { .. }), "{err}");
        assert!(err
            .to_string()
            .starts_with("cannot use book '/no/such/book.bin'"));
        assert!(book.probe(&Position::startpos()).is_some());
        book.use_book(Book::new());
        assert_eq!(book.probe(&Position::startpos()), None);
        book.load(EMBEDDED_NAME).expect("the embedded book");
        assert!(book.probe(&Position::startpos()).is_some());
    }

    #[test]
    fn editing_copies_the_embedded_book() {
        let start = Position::startpos();
        let mut book = OwnBook::new(true);
        let known: Vec<Move> = book.candidates(&start).iter().map(|c| c.mv).collect();
        let new = start
            .legal_moves()
            .iter()
            .copied()
            .find(|m| !known.contains(m))
            .expect("the book does not know every first move");
        book.book_mut().add_move(&start, new, 1);
        assert_eq!(book.candidates(&start).len(), known.len() + 1);
        assert_eq!(OwnBook::new(true).candidates(&start).len(), known.len());
    }
}
