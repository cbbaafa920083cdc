//! Kestrel's opening books: one model (Polyglot key -> moves with weight,
//! learn and win/draw/loss counts), read and written as Polyglot `.bin` and
//! as Kestrel's editable text format, built from PGN on all cores, probed
//! with the selection policies GNU Chess offered, a default book compiled
//! into the program, and the book an engine plays from ([`OwnBook`]).
//!
//! ```
//! use book::{Book, Policy};
//! use rand::SeedableRng;
//! let book = Book::embedded();
//! let start = chess::Position::startpos();
//! let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
//! let m = book.pick(&start, Policy::WeightedRandom, &mut rng).expect("a book move");
//! assert!(start.is_legal(m));
//! for c in book.candidates(&start) {
//!     println!("{} {:.1}% ({} games)", c.san, c.percent, c.wins + c.draws + c.losses);
//! }
//! ```

#[allow(clippy::module_inception)]
mod book;
mod embedded;
mod error;
pub mod explorer;
mod format;
mod from_pgn;
mod key_hash;
mod own_book;
mod policy;
mod poly_move;
pub mod polyglot;
pub mod text;

pub use book::{Book, BookMove, Candidate};
pub use embedded::{DEFAULT_BOOK, MASTERS_PGN};
pub use error::{BookError, BookProblem, Location};
pub use explorer::{
    Explored, ExploredMove, Explorer, ExplorerFilter, ExplorerGame, ExplorerOptions,
    ExplorerSummary, GameId, TopGame, DEFAULT_EXPLORER_PLIES,
};
pub use format::{
    read_book, read_book_file, record_in_text_book, Format, ParseFormatError, MAX_BOOK_FILE_LEN,
};
pub use from_pgn::{build_from_pgn, BuildOptions, BuildSummary};
pub use own_book::{OwnBook, OwnBookError, EMBEDDED_NAME};
pub use policy::{ParsePolicyError, Policy};
pub use poly_move::PolyMove;
