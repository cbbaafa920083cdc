//! A fixed-capacity list of moves: move generation never allocates.

use crate::{Bitboard, Move, Square};
use std::ops::{Deref, DerefMut};

/// The most legal moves any position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// Moves in a fixed array on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Where move generation puts what it finds: a list collects moves, a counter
/// only counts them (perft's bulk counting at the last ply).
///
/// A list implements `push` alone; the other methods list each move through
/// it unless a sink can do better (a counter counts the squares).
pub trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);

    /// Normal moves from `from` to each square of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    /// Normal pawn moves to each square of `targets`, each from `to - delta`.
    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::normal(
                Square::new((to.index() as i8 - delta) as u8),
                to,
            ));
        }
    }

    /// The four promotions to each square of `targets`, each from `to - delta`.
    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            for role in crate::Role::PROMOTIONS {
                self.push(Move::promotion(from, to, role));
            }
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without listing them.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn push_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, _: i8) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, _: i8) {
        self.0 += 4 * u64::from(targets.count());
    }
}
