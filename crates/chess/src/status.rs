//! What the position alone says about the game: mate, stalemate, and
//! material that can never mate.

use crate::{Bitboard, Position, Role};

impl Position {
    /// True when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// True when the side to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_moves()
    }

    /// True when neither side can ever mate: king against king, a lone minor
    /// piece against a bare king, or bishops alone that all stand on squares
    /// of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let minors = self.by_role(Role::Knight) | self.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = self.by_role(Role::Bishop);
        self.by_role(Role::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }
}
