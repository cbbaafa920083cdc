//! Correction history: how far the static evaluation fell from what the
//! search then found, remembered by what the position is made of, and
//! added to later evaluations of positions that share it. The evaluation's
//! systematic errors are about structures it misjudges: the pawns, each
//! side's pieces, the minor and the major pieces (each with the kings), and
//! the last two moves. Each of those keys has a table; a position's
//! correction is the mean of its six entries (Stockfish's, Viridithas's and
//! Reckless's idea, with their keys).

use chess::{Color, Position};

use super::history::PrevMoves;
use crate::params::tuned;
use crate::score::{Value, TB_WIN_BOUND};

/// Entries per side to move of each keyed table (a power of two: the
/// key's low bits index it).
const SIZE: usize = 16_384;
/// Entries hold centipawns times this, so that small steps are not lost.
const GRAIN: i32 = 256;
// The largest `CorrectionMax` (params.rs) in grains fits an `i16` entry.
const _: () = assert!(127 * GRAIN <= i16::MAX as i32);
/// The tables a position reads: pawns, White's pieces, Black's pieces,
/// minor pieces, major pieces, the last two moves.
const TABLES: usize = 6;
/// (piece, destination) pairs of a move, and none ([`super::history::PieceTo`]).
const PIECE_TO: usize = 12 * 64 + 1;

/// The corrections: five keyed tables, each one half per side to move,
/// and the continuation table by the last two moves. Entries are `i16`
/// (every quiescence stand-pat reads six at random, so half the bytes is
/// fewer cache misses); they never pass `CorrectionMax` (at most 127) times
/// `GRAIN`, which `i16` holds.
pub struct CorrectionHistory {
    keyed: Box<[i16]>,
    continuation: Box<[i16]>,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            keyed: vec![0; (TABLES - 1) * 2 * SIZE].into_boxed_slice(),
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
        }
    }
}

/// The entries of `pos` (after the moves `prev`) in each table.
#[inline]
fn slots(pos: &Position, prev: PrevMoves) -> [usize; TABLES] {
    let keys = [
        pos.pawn_key(),
        pos.non_pawn_key(Color::White),
        pos.non_pawn_key(Color::Black),
        pos.minor_key(),
        pos.major_key(),
    ];
    let turn = pos.turn().index();
    let mut out = [0; TABLES];
    for (t, key) in keys.iter().enumerate() {
        out[t] = (t * 2 + turn) * SIZE + (*key as usize & (SIZE - 1));
    }
    out[TABLES - 1] = usize::from(prev.ply2.0) * PIECE_TO + usize::from(prev.ply1.0);
    out
}

impl CorrectionHistory {
    fn entries(&self, at: &[usize; TABLES]) -> [i32; TABLES] {
        std::array::from_fn(|t| {
            i32::from(if t == TABLES - 1 {
                self.continuation[at[t]]
            } else {
                self.keyed[at[t]]
            })
        })
    }

    /// Starts loading `pos`'s entries into the cache: six reads at random
    /// in a megabyte and a half were a tenth of the search's time when
    /// waited for, and the static evaluation computed meanwhile hides them.
    #[inline]
    pub fn prefetch(&self, pos: &Position, prev: PrevMoves) {
        let at = slots(pos, prev);
        for (t, &i) in at.iter().enumerate() {
            chess::prefetch(if t == TABLES - 1 {
                &self.continuation[i]
            } else {
                &self.keyed[i]
            });
        }
    }

    /// `raw`, the static evaluation of `pos` reached by the moves `prev`,
    /// corrected by what searches of positions that share its structures
    /// found (never into mate scores).
    #[inline]
    pub fn correct(&self, pos: &Position, prev: PrevMoves, raw: Value) -> Value {
        let sum: i32 = self.entries(&slots(pos, prev)).iter().sum();
        (raw + sum / (GRAIN * TABLES as i32)).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Moves each of `pos`'s entries towards `error` (search result minus
    /// raw evaluation), the more the deeper the search that found it.
    #[inline]
    pub fn update(&mut self, pos: &Position, prev: PrevMoves, depth: i32, error: Value) {
        let limit = tuned::correction_max() * GRAIN;
        let target = (error * GRAIN).clamp(-limit, limit);
        let weight = (depth + 1).clamp(1, tuned::correction_weight_max());
        let at = slots(pos, prev);
        for (t, &i) in at.iter().enumerate() {
            let e = if t == TABLES - 1 {
                &mut self.continuation[i]
            } else {
                &mut self.keyed[i]
            };
            let moved = (i32::from(*e) * (256 - weight) + target * weight) / 256;
            // Within ±limit, and limit ≤ 127 × GRAIN < i16::MAX.
            *e = moved.clamp(-limit, limit) as i16;
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.keyed.fill(0);
        self.continuation.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_error_of_a_structure_and_shares_it_by_each_key() {
        let mut c = CorrectionHistory::default();
        let none = PrevMoves::default();
        let pos = Position::startpos();
        assert_eq!(c.correct(&pos, none, 10), 10);
        for _ in 0..200 {
            c.update(&pos, none, 10, 40);
        }
        let corrected = c.correct(&pos, none, 10);
        assert!((45..=50).contains(&corrected), "{corrected}");
        // Another pawn structure shares the pieces' tables, not the pawns'.
        let other: Position = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            .parse()
            .unwrap();
        let shared = c.correct(&other, none, 10);
        assert!(shared > 10 && shared < corrected, "{shared}");
        // Errors beyond the limit are clamped.
        for _ in 0..200 {
            c.update(&pos, none, 20, 10_000);
        }
        let max = tuned::correction_max();
        assert!((max - 4..=max).contains(&c.correct(&pos, none, 0)));
        c.clear();
        assert_eq!(c.correct(&pos, none, 10), 10);
    }
}
