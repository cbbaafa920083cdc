//! Sliding attacks by magic bitboards: (occupancy & mask) * magic >> shift
//! indexes a table of attack sets. Used where the CPU lacks fast PEXT.

use crate::sliders::{SliderEntry, BISHOP, MAGIC_ATTACKS, ROOK};
use crate::{Bitboard, Square};

#[inline(always)]
fn lookup(entry: &SliderEntry, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & entry.mask.0).wrapping_mul(entry.magic) >> entry.shift) as usize;
    Bitboard(MAGIC_ATTACKS[entry.offset + index])
}

/// Rook attacks from `sq` given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&ROOK[sq.index()], occupied)
}

/// Bishop attacks from `sq` given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&BISHOP[sq.index()], occupied)
}
