//! The opening book as a search sees it: a trait that answers "is this
//! position in the book?". The book crate implements it for its `Book` and
//! the engine asks it (with `BookInSearch`), so the engine does not depend
//! on the book crate.

use chess::Position;

/// An opening book the search can ask. Implementations must be cheap to call
/// from every search thread at once.
pub trait BookHint: Send + Sync {
    /// True when the book has a move for `pos`.
    fn knows(&self, pos: &Position) -> bool;
}
