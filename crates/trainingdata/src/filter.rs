//! Which positions become training data: the filters NNUE trainers expect,
//! applied when games are read (the store keeps every position) and by PGN
//! conversion.
//!
//! A position is kept when it is quiet enough for a static evaluation to
//! learn its score: the side to move is not in check, the best move is not
//! a capture or a promotion (the score then depends on the exchange, not
//! the position), and the score is neither a mate nor beyond `max_score`.

use chess::{Move, MoveKind, Position};

/// The filter's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionFilter {
    /// Positions before this ply of the game are skipped. The ply comes
    /// from the position's move number and side to move (ply 16: move 9,
    /// White to move), so a game from a book position at move 9 keeps its
    /// first positions, while one from the start position skips its random
    /// plies and the first searched ones.
    pub min_ply: usize,
    /// Positions whose score (centipawns) is this far from zero or further
    /// are skipped; mate and tablebase scores always are.
    pub max_score: i32,
}

impl Default for PositionFilter {
    /// Skip the first 16 plies (before move 9) and scores of 20 pawns or more.
    fn default() -> PositionFilter {
        PositionFilter {
            min_ply: 16,
            max_score: 2000,
        }
    }
}

/// Why a position was left out (for the counts `datagen` prints).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Too early in the game.
    Opening,
    /// The side to move is in check.
    InCheck,
    /// The best move captures or promotes.
    Noisy,
    /// A mate score or beyond `max_score`.
    Score,
}

/// Positions left out, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkipCounts {
    /// Before the filter's first ply.
    pub opening: u64,
    /// In check.
    pub in_check: u64,
    /// Best move a capture or promotion.
    pub noisy: u64,
    /// Mate score or beyond the bound.
    pub score: u64,
}

impl SkipCounts {
    /// Counts one position left out for `skip`.
    pub fn count(&mut self, skip: Skip) {
        match skip {
            Skip::Opening => self.opening += 1,
            Skip::InCheck => self.in_check += 1,
            Skip::Noisy => self.noisy += 1,
            Skip::Score => self.score += 1,
        }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &SkipCounts) {
        self.opening += other.opening;
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.score += other.score;
    }

    /// All positions left out.
    pub fn total(&self) -> u64 {
        self.opening + self.in_check + self.noisy + self.score
    }
}

impl PositionFilter {
    /// Whether `pos`, with best move `best` and `score` (either side's
    /// view), is kept; `Err` says why not.
    pub fn check(&self, pos: &Position, best: Move, score: i32) -> Result<(), Skip> {
        if game_ply(pos) < self.min_ply {
            return Err(Skip::Opening);
        }
        if pos.in_check() {
            return Err(Skip::InCheck);
        }
        if is_noisy(pos, best) {
            return Err(Skip::Noisy);
        }
        // Mate and tablebase-win scores say nothing about the position's
        // value that a static evaluation could learn.
        if score.unsigned_abs() >= self.max_score.unsigned_abs()
            || score.unsigned_abs() >= u32::from(crate::viriformat::MATE_BOUND.unsigned_abs())
        {
            return Err(Skip::Score);
        }
        Ok(())
    }
}

/// The ply of the game `pos` stands at, from its move number: 0 for move 1
/// with White to move.
pub fn game_ply(pos: &Position) -> usize {
    let moves = (pos.fullmove_number().max(1) - 1) as usize;
    2 * moves + usize::from(pos.turn() == chess::Color::Black)
}

/// True for a capture (en passant included) or a promotion.
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Promotion | MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Normal => pos.piece_at(m.to()).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    fn mv(pos: &Position, uci: &str) -> Move {
        pos.parse_uci_move(uci, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn quiet_positions_pass_and_the_rest_say_why() {
        let filter = PositionFilter {
            min_ply: 4,
            max_score: 1000,
        };
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        assert_eq!(filter.check(&pos, mv(&pos, "f1b5"), 30), Ok(()));
        let early = PositionFilter {
            min_ply: 5,
            ..filter
        };
        assert_eq!(early.check(&pos, mv(&pos, "f1b5"), 30), Err(Skip::Opening));
        assert_eq!(game_ply(&pos), 4);
        assert_eq!(filter.check(&pos, mv(&pos, "f3e5"), 30), Err(Skip::Noisy));
        assert_eq!(
            filter.check(&pos, mv(&pos, "f1b5"), -1000),
            Err(Skip::Score)
        );
        assert_eq!(
            filter.check(
                &pos,
                mv(&pos, "f1b5"),
                i32::from(crate::viriformat::MATE_SCORE) - 3
            ),
            Err(Skip::Score)
        );
        let check =
            Position::from_fen("rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3")
                .unwrap();
        assert_eq!(
            filter.check(&check, mv(&check, "c7c6"), 0),
            Err(Skip::InCheck)
        );
    }

    #[test]
    fn promotions_and_en_passant_are_noisy_castling_is_not() {
        let pos = Position::from_fen("4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1").unwrap();
        assert!(is_noisy(&pos, mv(&pos, "b7b8q")));
        assert!(is_noisy(&pos, mv(&pos, "e5d6")));
        assert!(!is_noisy(&pos, mv(&pos, "e1g1")));
        assert!(!is_noisy(&pos, mv(&pos, "e5e6")));
    }
}
