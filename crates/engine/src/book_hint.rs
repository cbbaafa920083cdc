//! The opening book as the search sees it: the trait [`BookHint`] (in the
//! `types` crate, re-exported here) answers "is this position in the
//! book?"; the engine has no dependency on the book crate, the protocol
//! layer passes the loaded book down through the trait.
//!
//! With `BookInSearch` on, a position the search reaches within
//! `BookSearchPly` plies of the root that the book knows is not searched
//! further: it is scored by quiescence plus `BookBonus` for the side to move
//! at the root, so the search steers toward book lines (the seed's "if a
//! position reached during the search is a book position, stop and play
//! toward it").

pub use types::BookHint;
