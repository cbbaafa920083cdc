//! UCI move notation: `e2e4`, `e7e8q`, castling as `e1g1` (standard) or as
//! king takes own rook, `e1h1` (Chess960 mode).

use crate::make::castling_targets;
use crate::{CastlingMode, Move, MoveKind, Position, Role, Square};
use std::fmt;

/// A move written in UCI notation for a castling mode.
#[derive(Clone, Copy, Debug)]
pub struct UciMove {
    mv: Move,
    mode: CastlingMode,
}

impl Move {
    /// The move in UCI notation (`0000` for the null move).
    pub fn to_uci(self, mode: CastlingMode) -> UciMove {
        UciMove { mv: self, mode }
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        if m.is_null() {
            return f.write_str("0000");
        }
        let to = match (m.kind(), self.mode) {
            (MoveKind::Castling, CastlingMode::Standard) => castling_targets(m.from(), m.to()).1,
            _ => m.to(),
        };
        write!(f, "{}{}", m.from(), to)?;
        if let Some(role) = m.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

/// Why a UCI move string does not name a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMoveError {
    /// Not of the form `<from><to>[promotion]`, e.g. `e2e4` or `e7e8q`.
    Malformed(String),
    /// Well formed, but not legal in the position.
    Illegal(String),
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Malformed(s) => {
                write!(f, "'{s}' is not a UCI move (expected e.g. e2e4 or e7e8q)")
            }
            UciMoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for UciMoveError {}

impl Position {
    /// Finds the legal move a UCI string names. In standard mode castling is
    /// read from the king's two-square move and from king-takes-rook; in
    /// Chess960 mode only from king-takes-rook (the other form can be an
    /// ordinary king move there). A missing promotion letter is an error.
    pub fn parse_uci_move(&self, text: &str, mode: CastlingMode) -> Result<Move, UciMoveError> {
        let malformed = || UciMoveError::Malformed(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(malformed());
        }
        let from: Square = text[0..2].parse().map_err(|_| malformed())?;
        let to: Square = text[2..4].parse().map_err(|_| malformed())?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
                _ => return Err(malformed()),
            },
        };
        let moves = self.legal_moves();
        let exact = moves
            .iter()
            .find(|m| m.from() == from && m.to() == to && m.promotion_role() == promotion);
        // Standard castling written as the king's own move, where no ordinary move reads the same.
        let castle = || {
            moves.iter().find(|m| {
                mode == CastlingMode::Standard
                    && m.is_castling()
                    && promotion.is_none()
                    && m.from() == from
                    && castling_targets(m.from(), m.to()).1 == to
            })
        };
        exact
            .or_else(castle)
            .copied()
            .ok_or_else(|| UciMoveError::Illegal(text.to_string()))
    }
}
