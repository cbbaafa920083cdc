//! Sliding attacks by PEXT (BMI2 parallel bit extract): pext(occupancy, mask)
//! is a dense index into a table of attack sets, with no multiplication and no
//! magic numbers. Compiled in when the target CPU has BMI2.

use crate::sliders::{SliderEntry, BISHOP, PEXT_ATTACKS, ROOK};
use crate::{Bitboard, Square};

/// The index of `occupied` within `entry`'s attack sets, by the CPU's PEXT.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
#[allow(unsafe_code)]
fn index(entry: &SliderEntry, occupied: Bitboard) -> usize {
    // SAFETY: compiled only when the target has BMI2 (cfg above), so the instruction exists.
    unsafe { core::arch::x86_64::_pext_u64(occupied.0, entry.mask.0) as usize }
}

/// The same index computed bit by bit, for CPUs without BMI2 (and for tests).
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn index(entry: &SliderEntry, occupied: Bitboard) -> usize {
    pext_portable(occupied.0, entry.mask.0) as usize
}

/// Parallel bit extract in plain Rust: the bits of `x` selected by `mask`,
/// packed towards bit 0.
pub fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            result |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    result
}

/// Rook attacks from `sq` given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let entry = &ROOK[sq.index()];
    Bitboard(PEXT_ATTACKS[entry.offset + index(entry, occupied)])
}

/// Bishop attacks from `sq` given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let entry = &BISHOP[sq.index()];
    Bitboard(PEXT_ATTACKS[entry.offset + index(entry, occupied)])
}
