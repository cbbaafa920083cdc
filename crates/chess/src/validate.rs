//! Whether a set-up position is one chess can reach closely enough to play
//! from: the checks FEN parsing (and board editors) apply.

use crate::attacks::pawn_attacks;
use crate::{Bitboard, CastlingSide, Color, Position, Role, Square};
use std::fmt;

/// Why a position cannot be played from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king or more than one.
    KingCount {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A side has more than 16 pieces.
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
    /// A side has more than 8 pawns.
    TooManyPawns {
        /// The side.
        color: Color,
        /// How many pawns it has.
        count: u32,
    },
    /// The side that just moved is in check.
    OpponentInCheck,
    /// The side to move is attacked by more than two pieces.
    TooManyCheckers(u32),
    /// A castling right whose king is not on its back rank.
    CastlingWithoutKing {
        /// The side.
        color: Color,
        /// The side of the board.
        side: CastlingSide,
    },
    /// A castling right without a rook on the back rank on that side of the king.
    CastlingWithoutRook {
        /// The side.
        color: Color,
        /// The side of the board.
        side: CastlingSide,
    },
    /// An en-passant square that no double pawn push can have produced.
    ImpossibleEnPassant(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |s: &CastlingSide| {
            if *s == CastlingSide::King {
                "kingside"
            } else {
                "queenside"
            }
        };
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{color} has {count} kings; each side needs exactly one")
            }
            PositionError::PawnOnBackRank(sq) => write!(f, "pawn on {sq}: pawns cannot stand on the first or eighth rank"),
            PositionError::TooManyPieces { color, count } => {
                write!(f, "{color} has {count} pieces; at most 16 are possible")
            }
            PositionError::TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns; at most 8 are possible")
            }
            PositionError::OpponentInCheck => {
                write!(f, "the side not to move is in check (the side to move could take the king)")
            }
            PositionError::TooManyCheckers(n) => write!(f, "the king is attacked by {n} pieces; at most 2 are possible"),
            PositionError::CastlingWithoutKing { color, side: s } => {
                write!(f, "{color} {} castling right, but the king is not on its first rank", side(s))
            }
            PositionError::CastlingWithoutRook { color, side: s } => {
                write!(f, "{color} {} castling right, but there is no rook to castle with", side(s))
            }
            PositionError::ImpossibleEnPassant(sq) => write!(
                f,
                "en-passant square {sq} is impossible: it must be on the third or sixth rank, empty, behind a pawn that just moved two squares"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// Checks that the position is one to play from. Castling rights and the
    /// en-passant square are checked when they are set by FEN parsing; this
    /// checks material, kings, pawns and checks.
    pub fn validate(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            let kings = self.pieces(color, Role::King).count();
            if kings != 1 {
                return Err(PositionError::KingCount {
                    color,
                    count: kings,
                });
            }
        }
        if let Some(sq) = (self.by_role(Role::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).first()
        {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        for color in Color::ALL {
            let count = self.by_color(color).count();
            if count > 16 {
                return Err(PositionError::TooManyPieces { color, count });
            }
            let pawns = self.pieces(color, Role::Pawn).count();
            if pawns > 8 {
                return Err(PositionError::TooManyPawns {
                    color,
                    count: pawns,
                });
            }
        }
        let them = !self.turn;
        if self.is_attacked_by(self.king(them), self.turn, self.occupied()) {
            return Err(PositionError::OpponentInCheck);
        }
        let checkers = self.checkers.count();
        if checkers > 2 {
            return Err(PositionError::TooManyCheckers(checkers));
        }
        Ok(())
    }

    /// Checks a claimed en-passant square for the side to move: on the sixth
    /// rank (from the mover's view), empty, with the square behind it empty
    /// and an enemy pawn in front of it.
    pub(crate) fn check_en_passant(&self, ep: Square) -> Result<(), PositionError> {
        let us = self.turn;
        let them = !us;
        let on_sixth = Bitboard::relative_rank(us, 5).contains(ep);
        let ok = on_sixth && {
            let pawn_sq = Square::new(ep.index() as u8 ^ 8);
            let origin =
                Square::new((ep.index() as i8 + if us == Color::White { 8 } else { -8 }) as u8);
            self.piece_at(ep).is_none()
                && self.piece_at(origin).is_none()
                && self.piece_at(pawn_sq) == Some(crate::Piece::new(them, Role::Pawn))
        };
        if ok {
            Ok(())
        } else {
            Err(PositionError::ImpossibleEnPassant(ep))
        }
    }

    /// True when a pawn of the side to move attacks `ep` (the square is then
    /// kept and hashed; otherwise it is dropped, as Polyglot and X-FEN do).
    pub(crate) fn en_passant_capturable(&self, ep: Square) -> bool {
        (pawn_attacks(!self.turn, ep) & self.pieces(self.turn, Role::Pawn)).any()
    }
}
