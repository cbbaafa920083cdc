//! Moves packed in 16 bits: from (6), to (6), promotion role (2), kind (2).
//!
//! Castling is stored as "king takes own rook" (from = king square, to = rook
//! square). That one encoding serves standard chess and Chess960 alike; how it
//! is written (e1g1 or e1h1) is a matter of notation, see `uci_move.rs`.

use crate::{Role, Square};
use std::fmt;

/// What kind of move a `Move` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others (captures and double pushes included).
    Normal,
    /// A pawn reaching the last rank; the role is in `Move::promotion`.
    Promotion,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, encoded as the king moving to its own rook's square.
    Castling,
}

/// A move in 16 bits. `Move::NULL` (a1a1) is the null move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_SHIFT: u16 = 14;
const PROMO_SHIFT: u16 = 12;

impl Move {
    /// The null move (passing the turn); never legal on the board.
    pub const NULL: Move = Move(0);

    /// A normal move (also captures and double pushes).
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A pawn move promoting to `role` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        let promo = (role as u16).wrapping_sub(Role::Knight as u16) & 3;
        Move(
            from.index() as u16 | (to.index() as u16) << 6 | promo << PROMO_SHIFT | 1 << KIND_SHIFT,
        )
    }

    /// An en-passant capture: `to` is the empty square the pawn moves to.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | 2 << KIND_SHIFT)
    }

    /// Castling: the king on `king` with the rook on `rook`.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | 3 << KIND_SHIFT)
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The square the piece goes to (for castling: the rook's square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion role, for promotions only.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        if self.0 >> KIND_SHIFT != 1 {
            return None;
        }
        Some(match (self.0 >> PROMO_SHIFT) & 3 {
            0 => Role::Knight,
            1 => Role::Bishop,
            2 => Role::Rook,
            _ => Role::Queen,
        })
    }

    /// True for castling moves.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 >> KIND_SHIFT == 3
    }

    /// True for the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 16 bits (for hash tables and books).
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// A move from raw bits as written by `to_bits`. Any value decodes to some
    /// move; whether it is legal is the position's business.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

/// Shows the move as from-to with the promotion letter (castling as king takes rook).
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        match self.kind() {
            MoveKind::EnPassant => f.write_str("(ep)"),
            MoveKind::Castling => f.write_str("(castle)"),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        for from in Square::ALL {
            for to in Square::ALL {
                let m = Move::normal(from, to);
                assert_eq!((m.from(), m.to(), m.kind()), (from, to, MoveKind::Normal));
                for role in Role::PROMOTIONS {
                    let p = Move::promotion(from, to, role);
                    assert_eq!(
                        (p.from(), p.to(), p.promotion_role()),
                        (from, to, Some(role))
                    );
                }
                assert_eq!(Move::en_passant(from, to).kind(), MoveKind::EnPassant);
                assert!(Move::castling(from, to).is_castling());
                assert_eq!(Move::from_bits(m.to_bits()), m);
            }
        }
        assert!(Move::NULL.is_null());
    }
}
