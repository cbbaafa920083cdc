//! Whether a legal move gives check, decided before it is made, so that a
//! search can prune a move without paying for making it.
//!
//! A search asks this of most moves of a node: [`CheckSquares`] works out
//! once per position where each kind of piece would check the enemy king
//! and which of our pieces uncover a check by moving, so that each
//! ordinary move is then answered by two or three table lookups.

use crate::attacks::{
    between, bishop_attacks, knight_attacks, line, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::make::castling_targets;
use crate::{Bitboard, Move, MoveKind, Position, Role, Square};

/// Where the side to move checks the enemy king from, for one position
/// (from [`Position::check_squares`]; only valid for that position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckSquares {
    /// The enemy king.
    king: Square,
    /// Squares from which a piece of each role (indexed by `Role::index`)
    /// attacks the enemy king on the current board; empty for the king.
    by_role: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and the
    /// enemy king: moving one off that line uncovers a check.
    discoverers: Bitboard,
}

impl Position {
    /// The squares and pieces that give check in this position, for
    /// [`Position::gives_check_with`].
    #[inline]
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.turn();
        let king = self.king(!us);
        let occupied = self.occupied();
        let diagonal = bishop_attacks(king, occupied);
        let orthogonal = rook_attacks(king, occupied);
        let mut by_role = [Bitboard::EMPTY; 6];
        by_role[Role::Pawn.index()] = pawn_attacks(!us, king);
        by_role[Role::Knight.index()] = knight_attacks(king);
        by_role[Role::Bishop.index()] = diagonal;
        by_role[Role::Rook.index()] = orthogonal;
        by_role[Role::Queen.index()] = diagonal | orthogonal;
        // Our sliders aimed at the king through nothing but our own pieces;
        // a lone piece between is a discoverer.
        let theirs = self.by_color(!us);
        let snipers = (rook_attacks(king, theirs) & self.orthogonal_sliders(us))
            | (bishop_attacks(king, theirs) & self.diagonal_sliders(us));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = between(king, sniper) & occupied;
            if !between.more_than_one() {
                discoverers |= between;
            }
        }
        CheckSquares {
            king,
            by_role,
            discoverers,
        }
    }

    /// True when the legal move `m` leaves the opponent in check, by the
    /// moved (or promoted) piece or by a slider it uncovers; castling
    /// checks with the rook, en passant can uncover a check through the
    /// captured pawn's square. For many moves of one position, work out
    /// [`Position::check_squares`] once and ask [`Position::gives_check_with`].
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_with(&self.check_squares(), m)
    }

    /// [`Position::gives_check`] with this position's `check_squares`.
    #[inline]
    pub fn gives_check_with(&self, check: &CheckSquares, m: Move) -> bool {
        if m.kind() != MoveKind::Normal {
            return self.special_gives_check(m);
        }
        let from = m.from();
        self.gives_direct_check_with(check, m)
            || (check.discoverers.contains(from) && !line(check.king, from).contains(m.to()))
    }

    /// True when the piece `m` moves attacks the enemy king from where it
    /// lands, judged by its role before the move (a promotion counts as the
    /// pawn) and without discovered checks; castling never does. Cheaper
    /// than [`Position::gives_check_with`], for ordering moves.
    #[inline]
    pub fn gives_direct_check_with(&self, check: &CheckSquares, m: Move) -> bool {
        // The board before the move serves for the piece's own attack: had
        // `from` been on its line from `to` to the king, it would be giving
        // check already.
        !m.is_castling()
            && self
                .piece_at(m.from())
                .is_some_and(|p| check.by_role[p.role.index()].contains(m.to()))
    }

    /// Castling, en passant and promotions change more of the board than
    /// one piece's square: their checks are worked out on the board after
    /// the move.
    fn special_gives_check(&self, m: Move) -> bool {
        let us = self.turn();
        let ksq = self.king(!us);
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        if m.kind() == MoveKind::Castling {
            let (_, king_to, rook_to) = castling_targets(from, to);
            let occupied = (self.occupied() ^ from_bb ^ to_bb)
                | Bitboard::from_square(king_to)
                | Bitboard::from_square(rook_to);
            return rook_attacks(rook_to, occupied).contains(ksq);
        }
        let mut occupied = (self.occupied() ^ from_bb) | to_bb;
        if m.kind() == MoveKind::EnPassant {
            occupied ^= Bitboard::from_square(Square::new(to.index() as u8 ^ 8));
        }
        let role = m.promotion_role().unwrap_or(piece.role);
        let direct = match role {
            Role::Pawn => pawn_attacks(us, to),
            Role::Knight => knight_attacks(to),
            Role::Bishop => bishop_attacks(to, occupied),
            Role::Rook => rook_attacks(to, occupied),
            Role::Queen => queen_attacks(to, occupied),
            Role::King => Bitboard::EMPTY,
        };
        if direct.contains(ksq) {
            return true;
        }
        // A discovered check needs the vacated square (or, en passant, the
        // captured pawn's) on a line through the king.
        if line(ksq, from).is_empty() && m.kind() != MoveKind::EnPassant {
            return false;
        }
        let ours = self.by_color(us) & !from_bb;
        (bishop_attacks(ksq, occupied) & self.diagonal_sliders(us) & ours).any()
            || (rook_attacks(ksq, occupied) & self.orthogonal_sliders(us) & ours).any()
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// Every legal move of every position reached by a walk over the move
    /// tree of tricky positions: the answer before the move equals the
    /// check state after it.
    fn agree_below(pos: &Position, depth: u32, checked: &mut u64) {
        for m in &pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(*m);
            assert_eq!(pos.gives_check(*m), child.in_check(), "{} {m:?}", pos.fen());
            // A direct check is a check (promotions aside: judged as the pawn).
            if m.kind() == crate::MoveKind::Normal {
                assert!(
                    !pos.gives_direct_check_with(&pos.check_squares(), *m) || child.in_check(),
                    "{} {m:?}",
                    pos.fen()
                );
            }
            *checked += 1;
            if depth > 1 {
                agree_below(&child, depth - 1, checked);
            }
        }
    }

    #[test]
    fn agrees_with_making_the_move() {
        let mut checked = 0;
        for fen in [
            crate::fen::STARTPOS,
            // Kiwipete, positions 3-6 of the Chess Programming Wiki's perft
            // set: castling, en passant with pins, promotions, discovered checks.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            // En passant that uncovers a rook check along the rank.
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
            "8/8/8/r2pP2K/8/8/8/k7 w - d6 0 1",
            // Castling that checks with the rook.
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            agree_below(&pos, 3, &mut checked);
        }
        // The perft suites (Chess960 castling included), two plies deep.
        for line in include_str!("../tests/data/perft.epd").lines().chain(
            include_str!("../tests/data/perft960.epd")
                .lines()
                .step_by(8),
        ) {
            let fen = line.split(';').next().unwrap().trim();
            let pos = Position::from_fen(fen).unwrap();
            agree_below(&pos, 2, &mut checked);
        }
        assert!(checked > 300_000, "{checked} moves checked");
    }
}
