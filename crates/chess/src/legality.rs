//! Is this move legal here? Answered without generating the move list, for
//! moves that come from elsewhere: hash tables, killer and countermove
//! tables, books, other threads. Any 16-bit `Move` may be asked about.

use crate::attacks::{attacks, between, line, pawn_attacks};
use crate::{Bitboard, Color, Move, MoveKind, MoveList, Position, Role, Square};

impl Position {
    /// True when `m` is a legal move in this position.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color != us || m.is_null() {
            return false;
        }
        // Only promotions may carry promotion bits: other patterns are not moves.
        let canonical = match m.kind() {
            MoveKind::Normal => Move::normal(from, to),
            MoveKind::EnPassant => Move::en_passant(from, to),
            MoveKind::Castling => Move::castling(from, to),
            MoveKind::Promotion => m,
        };
        if m != canonical {
            return false;
        }
        match m.kind() {
            // Rare kinds: ask the generator, restricted to them.
            MoveKind::Castling => {
                if piece.role != Role::King || self.in_check() {
                    return false;
                }
                let mut list = MoveList::new();
                self.generate_castling(&mut list);
                list.contains(&m)
            }
            MoveKind::EnPassant => {
                if piece.role != Role::Pawn || self.ep_square != Some(to) {
                    return false;
                }
                let check_mask = self.check_mask();
                let mut list = MoveList::new();
                self.generate_en_passant(&mut list, to, check_mask);
                list.contains(&m)
            }
            MoveKind::Normal | MoveKind::Promotion => self.is_legal_ordinary(m, piece.role),
        }
    }

    /// Squares that capture or block the single checker (all squares when
    /// not in check, none in double check).
    fn check_mask(&self) -> Bitboard {
        match (self.checkers.first(), self.checkers.more_than_one()) {
            (None, _) => Bitboard::FULL,
            (Some(_), true) => Bitboard::EMPTY,
            (Some(checker), false) => between(self.king(self.turn), checker).with(checker),
        }
    }

    fn is_legal_ordinary(&self, m: Move, role: Role) -> bool {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        let occupied = self.occupied();
        if self.by_color(us).contains(to) {
            return false;
        }
        let last_rank = Bitboard::relative_rank(us, 7);
        if role == Role::Pawn {
            // Promotion exactly when reaching the last rank.
            if last_rank.contains(to) != (m.kind() == MoveKind::Promotion) {
                return false;
            }
            let forward: i8 = if us == Color::White { 8 } else { -8 };
            let single = from.index() as i8 + forward;
            let reachable = if pawn_attacks(us, from).contains(to) {
                self.by_color(!us).contains(to)
            } else if to.index() as i8 == single {
                !occupied.contains(to)
            } else if to.index() as i8 == single + forward {
                Bitboard::relative_rank(us, 1).contains(from)
                    && !occupied.contains(to)
                    && !occupied.contains(Square::new(single as u8))
            } else {
                false
            };
            if !reachable {
                return false;
            }
        } else {
            if m.kind() == MoveKind::Promotion {
                return false;
            }
            if !attacks(crate::Piece::new(us, role), from, occupied).contains(to) {
                return false;
            }
        }
        let ksq = self.king(us);
        if role == Role::King {
            return !self.is_attacked_by(to, !us, occupied.without(from));
        }
        if !self.check_mask().contains(to) {
            return false;
        }
        !self.pinned(us).contains(from) || line(ksq, from).contains(to)
    }
}
