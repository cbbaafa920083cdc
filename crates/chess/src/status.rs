//! What the position alone says about the game: mate, stalemate, and
//! material that can never mate.

use crate::{Bitboard, Position, Role};

impl Position {
    /// True when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// True when the side to move has a move that checkmates. Only moves
    /// that give check are tried, each by playing it and asking whether the
    /// opponent has a legal reply; nothing is allocated.
    pub fn has_mate_in_one(&self) -> bool {
        let check = self.check_squares();
        self.legal_moves().iter().any(|&m| {
            self.gives_check_with(&check, m) && {
                let mut child = *self;
                child.play_unchecked(m);
                !child.has_legal_moves()
            }
        })
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

#[cfg(test)]
mod tests {
    use crate::Position;

    fn has_mate_in_one(fen: &str) -> bool {
        Position::from_fen(fen).unwrap().has_mate_in_one()
    }

    #[test]
    fn mates_in_one_are_found() {
        // Back rank, a quiet queen move supported by a knight (WAC.001 after
        // 1.Qg6 with White to move again), an en passant capture that mates
        // (matetrack's first position), and a promotion.
        assert!(has_mate_in_one("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"));
        assert!(has_mate_in_one(
            "2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 w - - 0 1"
        ));
        assert!(has_mate_in_one(
            "5K2/8/2qk4/2nPp3/3r4/6B1/B7/3R4 w - e6 0 1"
        ));
        assert!(has_mate_in_one("7k/4P1pp/8/8/8/8/8/6K1 w - - 0 1"));
    }

    #[test]
    fn checks_that_do_not_mate_are_not_mates() {
        // The start position, a check the king walks out of, a promotion
        // that is blocked, stalemate.
        assert!(!has_mate_in_one(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        assert!(!has_mate_in_one("6k1/8/8/8/8/8/8/R5K1 w - - 0 1"));
        assert!(!has_mate_in_one("4r2k/4P1pp/8/8/8/8/8/6K1 w - - 0 1"));
        assert!(!has_mate_in_one("7k/8/6QK/8/8/8/8/8 b - - 0 1"));
    }
}
