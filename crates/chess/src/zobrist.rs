//! Zobrist keys with Polyglot's random numbers, so that a position's key is
//! exactly its key in Polyglot opening books.

use crate::polyglot_random::POLYGLOT_RANDOM;
use crate::{CastlingRights, Color, File, Piece, Square};

/// Key of `piece` standing on `sq`. Polyglot orders piece kinds black pawn,
/// white pawn, black knight, ..., white king.
#[inline(always)]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + usize::from(piece.color == Color::White);
    POLYGLOT_RANDOM[64 * kind + sq.index()]
}

/// Key of a set of castling rights (the xor of each right's number).
#[inline(always)]
pub(crate) fn castling(rights: CastlingRights) -> u64 {
    let mut key = 0;
    for bit in 0..4 {
        if rights.bits() & (1 << bit) != 0 {
            key ^= POLYGLOT_RANDOM[768 + bit];
        }
    }
    key
}

/// Key of an en-passant file (only hashed when a capture there is possible).
#[inline(always)]
pub(crate) fn en_passant(file: File) -> u64 {
    POLYGLOT_RANDOM[772 + file.index()]
}

/// Key xor-ed in when White is to move.
#[inline(always)]
pub(crate) fn white_to_move() -> u64 {
    POLYGLOT_RANDOM[780]
}
