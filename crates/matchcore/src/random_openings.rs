//! Where self-play games start: a position from an EPD book (or the start
//! position) followed by random legal plies. Shared by `kestrel datagen` and
//! OpenBench's `genfens`, so both make their openings the same way.

use std::ops::RangeInclusive;
use std::path::Path;

use chess::{Game, Position};
use rand::Rng;

use crate::openings::{self, OpeningsError};

/// Random openings: a book position (or the start position) and a random
/// number of random plies from `plies`.
#[derive(Clone, Debug)]
pub struct OpeningSource {
    /// Book positions; empty: the start position.
    book: Vec<Position>,
    /// How many random plies follow the book position.
    plies: RangeInclusive<usize>,
}

/// Attempts at a playable opening before giving up (a book whose positions
/// all end the game within the random plies).
const ATTEMPTS: usize = 1000;

impl OpeningSource {
    /// Random plies from the start position.
    pub fn random(plies: RangeInclusive<usize>) -> OpeningSource {
        OpeningSource {
            book: Vec::new(),
            plies,
        }
    }

    /// Book positions read from an EPD or FEN file (one a line; the format of
    /// `../shared/data/openings.epd`), then random plies.
    pub fn from_book(
        path: &Path,
        plies: RangeInclusive<usize>,
    ) -> Result<OpeningSource, OpeningsError> {
        Ok(OpeningSource {
            book: openings::read_positions(path)?,
            plies,
        })
    }

    /// How many book positions there are (0: the start position is used).
    pub fn book_len(&self) -> usize {
        self.book.len()
    }

    /// One opening: a game from a book position (or the start position)
    /// with the random plies played, not over and not in check. `None` only
    /// when no such opening was found in many attempts.
    pub fn generate(&self, rng: &mut impl Rng) -> Option<Game> {
        for _ in 0..ATTEMPTS {
            let start = if self.book.is_empty() {
                Position::startpos()
            } else {
                self.book[rng.random_range(0..self.book.len())]
            };
            let plies = rng.random_range(self.plies.clone());
            if let Some(game) = random_plies(start, plies, rng) {
                return Some(game);
            }
        }
        None
    }
}

/// `plies` random legal moves from `start`; `None` when the game ends on
/// the way or the last position is over or in check (a poor place to start
/// a game from, and a position the trainer's filter would drop anyway).
pub fn random_plies(start: Position, plies: usize, rng: &mut impl Rng) -> Option<Game> {
    let mut game = Game::new(start);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.push(moves[rng.random_range(0..moves.len())]);
    }
    let ok = game.outcome().is_none() && !game.position().in_check();
    ok.then_some(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn openings_are_playable_and_reproducible() {
        let source = OpeningSource::random(8..=9);
        let make = |seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            (0..20)
                .map(|_| source.generate(&mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        let (a, b) = (make(3), make(3));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.position().fen(), y.position().fen());
            assert!((8..=9).contains(&x.moves().len()));
            assert!(x.outcome().is_none() && !x.position().in_check());
        }
        assert_ne!(a[0].position().fen(), make(4)[0].position().fen());
    }

    #[test]
    fn a_missing_book_is_an_error() {
        let e = OpeningSource::from_book(Path::new("/nonexistent.epd"), 0..=2).unwrap_err();
        assert!(e.to_string().contains("/nonexistent.epd"));
    }
}
