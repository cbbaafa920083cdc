//! The book panel: the moves an opening book gives the position on view,
//! as the page lists them. The server answers with the book it was started
//! with, a page without a server with the embedded book; both through
//! [`BookPanel::of`], so the two lists cannot differ.

use book::Candidate;
use chess::Position;
use serde::Serialize;

use crate::record::GameRecord;
use crate::request::not_hidden;
use crate::GameError;

/// One book move as the page lists it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct BookLine {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI notation (what the page plays when it is clicked).
    pub uci: String,
    /// The book's weight for it.
    pub weight: u32,
    /// Its share of the position's total weight, in percent.
    pub percent: f64,
    /// Games won by the side to move (zero in a Polyglot book).
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost by the side to move.
    pub losses: u32,
}

impl From<Candidate> for BookLine {
    fn from(c: Candidate) -> BookLine {
        BookLine {
            san: c.san,
            uci: c.uci,
            weight: c.weight,
            percent: c.percent,
            wins: c.wins,
            draws: c.draws,
            losses: c.losses,
        }
    }
}

/// `GET /api/book`'s answer: the book's name, whether moves can be added to
/// it, and its moves in the position on view, heaviest first.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct BookPanel {
    /// The book's file, or `<embedded>`.
    pub book: String,
    /// True when `POST /api/book/add` can add to it.
    pub writable: bool,
    /// Its moves here.
    pub moves: Vec<BookLine>,
}

impl BookPanel {
    /// The panel for the position `record` shows, with the moves
    /// `candidates` gives for it; refused while the evaluation is hidden
    /// (a book is help too).
    pub fn of(
        record: &GameRecord,
        book: String,
        writable: bool,
        candidates: impl FnOnce(&Position) -> Vec<Candidate>,
    ) -> Result<BookPanel, GameError> {
        not_hidden(record, "the book's statistics")?;
        let moves = candidates(&record.position())
            .into_iter()
            .map(BookLine::from)
            .collect();
        Ok(BookPanel {
            book,
            writable,
            moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use book::OwnBook;

    #[test]
    fn the_start_position_lists_the_embedded_books_moves_heaviest_first() {
        let record = GameRecord::new(Position::startpos());
        let own = OwnBook::whole();
        let panel = BookPanel::of(&record, "<embedded>".into(), false, |p| own.candidates(p))
            .expect("not hidden");
        assert!(panel.moves.len() >= 4, "{:?}", panel.moves);
        assert!(panel.moves.windows(2).all(|w| w[0].weight >= w[1].weight));
        let total: f64 = panel.moves.iter().map(|m| m.percent).sum();
        assert!((total - 100.0).abs() < 0.01, "shares sum to {total}");
        assert!(panel.moves.iter().any(|m| m.san == "e4" && m.uci == "e2e4"));
    }
}
