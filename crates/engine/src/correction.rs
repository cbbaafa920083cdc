//! Correction history: how far the static evaluation fell from what the
//! search then found, remembered by pawn structure and side to move, and
//! added to later evaluations of positions with the same pawns (the
//! evaluation's systematic errors are mostly about pawn structures it
//! misjudges). Stockfish's and Weiss's idea.

use chess::Position;

use crate::params::tuned;
use crate::score::{Value, TB_WIN_BOUND};

/// Entries per side to move (a power of two: the pawn key's low bits index it).
const SIZE: usize = 16_384;
/// Entries hold centipawns times this, so that small steps are not lost.
const GRAIN: i32 = 256;

/// The corrections, one table per side to move (White's, then Black's).
pub struct CorrectionHistory {
    pawn: Box<[i32]>,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            pawn: vec![0; 2 * SIZE].into_boxed_slice(),
        }
    }
}

impl CorrectionHistory {
    #[inline]
    fn slot(pos: &Position) -> usize {
        pos.turn().index() * SIZE + ((pos.pawn_key() as usize) & (SIZE - 1))
    }

    /// `raw`, the static evaluation of `pos`, corrected by what searches of
    /// positions with its pawn structure found (never into mate scores).
    #[inline]
    pub fn correct(&self, pos: &Position, raw: Value) -> Value {
        (raw + self.pawn[Self::slot(pos)] / GRAIN).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Moves the entry of `pos` towards `error` (search result minus raw
    /// evaluation), the more the deeper the search that found it.
    #[inline]
    pub fn update(&mut self, pos: &Position, depth: i32, error: Value) {
        let limit = tuned::correction_max() * GRAIN;
        let target = (error * GRAIN).clamp(-limit, limit);
        let weight = (depth + 1).clamp(1, tuned::correction_weight_max());
        let e = &mut self.pawn[Self::slot(pos)];
        *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.pawn.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_error_of_a_pawn_structure_and_only_that() {
        let mut c = CorrectionHistory::default();
        let pos = Position::startpos();
        let other: Position = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            .parse()
            .unwrap();
        assert_eq!(c.correct(&pos, 10), 10);
        for _ in 0..200 {
            c.update(&pos, 10, 40);
        }
        let corrected = c.correct(&pos, 10);
        assert!((45..=50).contains(&corrected), "{corrected}");
        assert_eq!(c.correct(&other, 10), 10, "another pawn structure");
        // Errors beyond the limit are clamped.
        for _ in 0..200 {
            c.update(&pos, 20, 10_000);
        }
        let max = tuned::correction_max();
        assert!((max - 4..=max).contains(&c.correct(&pos, 0)));
        c.clear();
        assert_eq!(c.correct(&pos, 10), 10);
    }
}
