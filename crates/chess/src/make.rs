//! Making and unmaking moves (and null moves), keeping the Zobrist keys,
//! castling rights, en-passant square, counters and checkers up to date.
//!
//! `play_unchecked` returns the little that `undo` cannot recompute. Because
//! `Position` is `Copy`, copy-make is simply
//! `let mut child = *pos; child.play_unchecked(m);`. `play` is the same move
//! for moves from outside the rules (a user, a file, another program): it
//! checks legality first and refuses an illegal move, leaving the position
//! as it was.

use crate::attacks::pawn_attacks;
use crate::{
    position::StructureKeys, zobrist, Bitboard, CastlingMode, CastlingRights, CastlingSide, Color,
    Move, MoveKind, Piece, Position, Role, Square,
};
use std::fmt;

/// What `Position::undo` needs to restore the position before a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Option<Piece>,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmove_clock: u16,
    key: u64,
    structure: StructureKeys,
    checkers: Bitboard,
}

/// Why `Position::play` refused a move: it is not legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move refused.
    pub mv: Move,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Chess960 notation names castling unambiguously (king takes rook).
        write!(
            f,
            "illegal move {} in this position",
            self.mv.to_uci(CastlingMode::Chess960)
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Where king and rook end up when `color` castles with the rook on `rook` from `king`.
#[inline(always)]
pub(crate) fn castling_targets(king: Square, rook: Square) -> (CastlingSide, Square, Square) {
    let side = if rook > king {
        CastlingSide::King
    } else {
        CastlingSide::Queen
    };
    let base = king.index() as u8 & 56;
    (
        side,
        Square::new(base + side.king_to_file()),
        Square::new(base + side.rook_to_file()),
    )
}

impl Position {
    fn save(&self, captured: Option<Piece>) -> Undo {
        Undo {
            captured,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
            structure: self.structure,
            checkers: self.checkers,
        }
    }

    /// Plays `m` if it is legal here, and refuses it (the position
    /// unchanged) otherwise. For moves whose legality nothing has checked
    /// yet; the search and move generation's callers use `play_unchecked`.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMove { mv: m })
        }
    }

    /// Plays a move known to be legal here (produced by move generation,
    /// checked by a parser or by `is_legal`), without checking it again: the
    /// make-move of the search. An illegal move leaves the position
    /// inconsistent; `play` is the checked form.
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let Some(piece) = self.board[from.index()] else {
            debug_assert!(false, "no piece on {from} for {m:?}");
            return self.save(None);
        };

        // Rights lost by a king or rook leaving or being taken on its square.
        let lost = if self.castling.is_empty() {
            CastlingRights::NONE
        } else {
            self.castling_rights_on(from)
                .with(self.castling_rights_on(to))
        };
        let mut undo = self.save(None);
        let mut key = self.key ^ zobrist::white_to_move();
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        if m.kind() == MoveKind::Castling {
            let (_, king_to, rook_to) = castling_targets(from, to);
            let rook = Piece::new(us, Role::Rook);
            self.remove(piece, from);
            self.remove(rook, to);
            self.put(piece, king_to);
            self.put(rook, rook_to);
            key ^= zobrist::piece(piece, from)
                ^ zobrist::piece(piece, king_to)
                ^ zobrist::piece(rook, to)
                ^ zobrist::piece(rook, rook_to);
            self.structure.toggle(piece, from);
            self.structure.toggle(piece, king_to);
            self.structure.toggle(rook, to);
            self.structure.toggle(rook, rook_to);
        } else {
            let captured_sq = if m.kind() == MoveKind::EnPassant {
                Square::new(to.index() as u8 ^ 8)
            } else {
                to
            };
            if let Some(captured) = self.board[captured_sq.index()] {
                self.remove(captured, captured_sq);
                key ^= zobrist::piece(captured, captured_sq);
                self.structure.toggle(captured, captured_sq);
                self.halfmove_clock = 0;
                undo.captured = Some(captured);
            }
            if let Some(role) = m.promotion_role() {
                let promoted = Piece::new(us, role);
                self.remove(piece, from);
                self.put(promoted, to);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(promoted, to);
                self.structure.toggle(piece, from);
                self.structure.toggle(promoted, to);
            } else {
                self.shift(piece, from, to);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                self.structure.toggle(piece, from);
                self.structure.toggle(piece, to);
            }
            if piece.role == Role::Pawn {
                self.halfmove_clock = 0;
                if from.index() ^ to.index() == 16 {
                    // Double push: an en-passant square only if an enemy pawn can take.
                    let passed = Square::new((from.index() as u8 + to.index() as u8) / 2);
                    if (pawn_attacks(us, passed) & self.pieces(them, Role::Pawn)).any() {
                        self.ep_square = Some(passed);
                        key ^= zobrist::en_passant(passed.file());
                    }
                }
            }
        }

        if self.castling.bits() & lost.bits() != 0 {
            key ^= zobrist::castling(self.castling);
            self.castling = self.castling.without(lost);
            key ^= zobrist::castling(self.castling);
        }

        if us == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = them;
        self.key = key;
        let ksq = self.king(them);
        self.checkers = self.attackers_to(ksq, self.occupied()) & self.by_color(us);
        undo
    }

    /// Takes back `m`, which must be the last move played, with its `Undo`.
    pub fn undo(&mut self, m: Move, undo: Undo) {
        let them = self.turn;
        let us = !them;
        let from = m.from();
        let to = m.to();
        if m.kind() == MoveKind::Castling {
            let (_, king_to, rook_to) = castling_targets(from, to);
            let king = Piece::new(us, Role::King);
            let rook = Piece::new(us, Role::Rook);
            self.remove(king, king_to);
            self.remove(rook, rook_to);
            self.put(king, from);
            self.put(rook, to);
        } else {
            let Some(moved) = self.board[to.index()] else {
                debug_assert!(false, "no piece on {to} to take back {m:?}");
                return;
            };
            if m.promotion_role().is_some() {
                self.remove(moved, to);
                self.put(Piece::new(us, Role::Pawn), from);
            } else {
                self.shift(moved, to, from);
            }
            if let Some(captured) = undo.captured {
                let captured_sq = if m.kind() == MoveKind::EnPassant {
                    Square::new(to.index() as u8 ^ 8)
                } else {
                    to
                };
                self.put(captured, captured_sq);
            }
        }
        if us == Color::Black {
            self.fullmove_number -= 1;
        }
        self.turn = us;
        self.castling = undo.castling;
        self.ep_square = undo.ep_square;
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
        self.structure = undo.structure;
        self.checkers = undo.checkers;
    }

    /// Passes the turn (for null-move pruning). Not allowed in check.
    pub fn play_null(&mut self) -> Undo {
        debug_assert!(!self.in_check(), "null move in check");
        let undo = self.save(None);
        let mut key = self.key ^ zobrist::white_to_move();
        if let Some(ep) = self.ep_square.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.key = key;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = !self.turn;
        self.checkers = Bitboard::EMPTY;
        undo
    }

    /// Takes back a null move.
    pub fn undo_null(&mut self, undo: Undo) {
        self.turn = !self.turn;
        if self.turn == Color::Black {
            self.fullmove_number -= 1;
        }
        self.ep_square = undo.ep_square;
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
        self.checkers = undo.checkers;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_refuses_an_illegal_move_and_keeps_the_position() {
        // The e-pawn is pinned against the king by the rook on e8.
        let start = Position::from_fen("4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let sq = |name: &str| name.parse::<Square>().unwrap();
        let pinned_off_file = Move::normal(sq("e2"), sq("d3"));
        let empty_square = Move::normal(sq("a1"), sq("a2"));
        let their_piece = Move::normal(sq("e8"), sq("e7"));
        for m in [pinned_off_file, empty_square, their_piece, Move::NULL] {
            let mut pos = start;
            assert_eq!(pos.play(m), Err(IllegalMove { mv: m }));
            assert!(pos == start, "{m:?} changed the position");
        }
        assert_eq!(
            IllegalMove {
                mv: pinned_off_file
            }
            .to_string(),
            "illegal move e2d3 in this position"
        );
    }

    #[test]
    fn play_of_a_legal_move_is_play_unchecked() {
        let start = Position::startpos();
        for &m in &start.legal_moves() {
            let (mut checked, mut unchecked) = (start, start);
            let undo = checked.play(m).unwrap();
            assert_eq!(undo, unchecked.play_unchecked(m));
            assert_eq!(checked.fen(), unchecked.fen());
            checked.undo(m, undo);
            assert!(checked == start);
        }
    }
}
