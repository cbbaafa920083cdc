//! One game as every host holds it: the game itself and what the review's
//! passes found about it. `kestrel gui` keeps it under one lock per
//! session, the page without a server in hand; the request layer
//! ([`crate::change`]) and the review's steps ([`crate::review_pass`])
//! work on it the same on both.

use crate::record::GameRecord;
use crate::review::{self, Review, ReviewView};

/// A game and its review's results.
#[derive(Debug, Clone)]
pub struct GameState {
    /// The game.
    pub record: GameRecord,
    /// What the review's passes found.
    pub review: Review,
}

impl GameState {
    /// `record`, not reviewed yet.
    pub fn new(record: GameRecord) -> GameState {
        GameState {
            record,
            review: Review::default(),
        }
    }

    /// The review as `GET /api/analysis` answers it, for the game as it is
    /// now (see [`review::view`]).
    pub fn review_view(&self) -> ReviewView {
        review::view(&self.review, &self.record)
    }

    /// The bytes the game and its review hold beyond the struct itself
    /// (see [`GameRecord::heap_bytes`], [`Review::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.record.heap_bytes() + self.review.heap_bytes()
    }
}
