//! Standard Algebraic Notation: writing moves (`Nbd7`, `exd6`, `e8=Q+`,
//! `O-O-O#`) and reading them back tolerantly, as real PGN files write them
//! (`Ng1f3`, `N1f3`, `e8Q`, `0-0`, `exd6e.p.`, `e2-e4`, `Qh4#!?`).

use crate::make::castling_targets;
use crate::{CastlingSide, File, Move, MoveKind, Position, Rank, Role, Square};
use std::fmt;

/// Why a SAN string does not name a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Nothing was given.
    Empty,
    /// Not a move in algebraic notation.
    Malformed(String),
    /// Well formed, but no legal move fits it.
    Illegal(String),
    /// More than one legal move fits it; the candidates are listed in SAN.
    Ambiguous {
        /// The text given.
        san: String,
        /// The moves it could mean.
        candidates: Vec<String>,
    },
    /// A pawn move to the last rank without the piece it promotes to.
    MissingPromotion(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Empty => write!(f, "empty move"),
            SanError::Malformed(s) => write!(
                f,
                "'{s}' is not a move in algebraic notation (e.g. e4, Nf3, exd5, O-O, e8=Q)"
            ),
            SanError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
            SanError::Ambiguous { san, candidates } => {
                write!(
                    f,
                    "'{san}' is ambiguous: it could be {}",
                    candidates.join(" or ")
                )
            }
            SanError::MissingPromotion(s) => write!(
                f,
                "'{s}' reaches the last rank: add the promotion piece, e.g. {s}=Q"
            ),
        }
    }
}

impl std::error::Error for SanError {}

impl Position {
    /// The SAN of a legal move, with `+` or `#` when it checks or mates.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let mut after = *self;
        after.play_unchecked(m);
        if after.in_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        s
    }

    /// A legal move in long algebraic notation as PGN writers such as
    /// fastchess write it: the piece letter (none for a pawn), both
    /// squares, `x` for a capture, the promotion and the check or mate
    /// sign (`Ng1f3`, `e4xd5`, `e7e8=Q+`, `O-O`).
    pub fn lan(&self, m: Move) -> String {
        let san = self.san(m);
        let Some(piece) = self
            .piece_at(m.from())
            .filter(|_| !m.is_null() && !m.is_castling())
        else {
            return san;
        };
        let mut s = String::with_capacity(10);
        if piece.role != Role::Pawn {
            s.push(piece.role.upper_char());
        }
        s.push_str(&m.from().to_string());
        if m.kind() == MoveKind::EnPassant || self.piece_at(m.to()).is_some() {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(role) = m.promotion_role() {
            s.push('=');
            s.push(role.upper_char());
        }
        s.extend(san.chars().filter(|c| matches!(c, '+' | '#')));
        s
    }

    /// The SAN of a legal move without the check or mate sign.
    pub fn san_without_suffix(&self, m: Move) -> String {
        if m.is_null() {
            return "--".to_string();
        }
        if m.is_castling() {
            let (side, _, _) = castling_targets(m.from(), m.to());
            return if side == CastlingSide::King {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return format!("{m:?}");
        };
        let capture = m.kind() == MoveKind::EnPassant || self.piece_at(to).is_some();
        let mut s = String::with_capacity(8);
        if piece.role == Role::Pawn {
            if capture {
                s.push(from.file().char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(role) = m.promotion_role() {
                s.push('=');
                s.push(role.upper_char());
            }
            return s;
        }
        s.push(piece.role.upper_char());
        if piece.role != Role::King {
            let others: Vec<Square> = self
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.to() == to
                        && o.from() != from
                        && !o.is_castling()
                        && self.piece_at(o.from()) == Some(piece)
                })
                .map(|o| o.from())
                .collect();
            if !others.is_empty() {
                if others.iter().all(|o| o.file() != from.file()) {
                    s.push(from.file().char());
                } else if others.iter().all(|o| o.rank() != from.rank()) {
                    s.push(from.rank().char());
                } else {
                    s.push_str(&from.to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// Reads a move in SAN (tolerantly) and returns the legal move it names.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let malformed = || SanError::Malformed(text.to_string());
        let mut body = text.trim();
        if body.is_empty() {
            return Err(SanError::Empty);
        }
        // Annotations and check signs at the end carry no information we need.
        body = body.trim_end_matches(['+', '#', '!', '?']);
        for suffix in ["e.p.", "ep"] {
            if body.len() > suffix.len() + 1 && body.to_ascii_lowercase().ends_with(suffix) {
                body = body[..body.len() - suffix.len()].trim_end();
            }
        }
        if !body.is_ascii() || body.is_empty() {
            return Err(malformed());
        }

        let castle = body.replace('0', "O").to_ascii_uppercase();
        let castle_side = match castle.as_str() {
            "O-O" | "OO" => Some(CastlingSide::King),
            "O-O-O" | "OOO" => Some(CastlingSide::Queen),
            _ => None,
        };
        if let Some(side) = castle_side {
            return self
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.is_castling() && castling_targets(m.from(), m.to()).0 == side)
                .ok_or_else(|| SanError::Illegal(text.to_string()));
        }

        let bytes = body.as_bytes();
        let (role, rest) = match bytes[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (
                Role::from_char(bytes[0] as char).unwrap_or(Role::Pawn),
                &body[1..],
            ),
            b'P' => (Role::Pawn, &body[1..]),
            _ => (Role::Pawn, body),
        };
        // Promotion at the end: "=Q", "Q", "=q", "(Q)", "/Q".
        let mut rest: String = rest
            .chars()
            .filter(|c| !matches!(c, 'x' | 'X' | ':' | '-' | '(' | ')' | '/'))
            .collect();
        let mut promotion = None;
        if role == Role::Pawn && rest.len() >= 3 {
            let bytes = rest.as_bytes();
            let letter = Role::from_char(bytes[bytes.len() - 1] as char)
                .filter(|r| !matches!(r, Role::Pawn | Role::King));
            if let (Some(r), b'=' | b'1' | b'8') = (letter, bytes[bytes.len() - 2]) {
                promotion = Some(r);
                rest.pop();
                if rest.ends_with('=') {
                    rest.pop();
                }
            }
        }
        let chars: Vec<char> = rest.chars().collect();
        if chars.len() < 2 || chars.len() > 4 {
            return Err(malformed());
        }
        let (hint, dest) = chars.split_at(chars.len() - 2);
        let to = Square::from_coords(
            File::from_char(dest[0]).ok_or_else(malformed)?,
            Rank::from_char(dest[1]).ok_or_else(malformed)?,
        );
        let mut from_file = None;
        let mut from_rank = None;
        for &c in hint {
            if let Some(f) =
                File::from_char(c).filter(|_| c.is_ascii_lowercase() && from_file.is_none())
            {
                from_file = Some(f);
            } else if let Some(r) = Rank::from_char(c).filter(|_| from_rank.is_none()) {
                from_rank = Some(r);
            } else {
                return Err(malformed());
            }
        }

        let moves = self.legal_moves();
        let fits = |m: &&Move| {
            let Some(piece) = self.piece_at(m.from()) else {
                return false;
            };
            let dest = if m.is_castling() {
                castling_targets(m.from(), m.to()).1
            } else {
                m.to()
            };
            piece.role == role
                && dest == to
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
                && (m.promotion_role() == promotion
                    || (promotion.is_none() && m.promotion_role().is_some()))
        };
        let mut candidates: Vec<Move> = moves.iter().filter(fits).copied().collect();
        // A king move written for castling ("Kg1") stands only if no ordinary move fits.
        if candidates.iter().any(|m| !m.is_castling()) {
            candidates.retain(|m| !m.is_castling());
        }
        match candidates.as_slice() {
            [] => Err(SanError::Illegal(text.to_string())),
            [m] if m.promotion_role().is_some() && promotion.is_none() => {
                Err(SanError::MissingPromotion(text.to_string()))
            }
            [m] => Ok(*m),
            many if many.iter().all(|m| m.promotion_role().is_some()) && promotion.is_none() => {
                Err(SanError::MissingPromotion(text.to_string()))
            }
            many => Err(SanError::Ambiguous {
                san: text.to_string(),
                candidates: many.iter().map(|m| self.san(*m)).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn long_algebraic_as_fastchess_writes_it() {
        let lan = |fen: &str, uci: &str| {
            let pos = Position::from_fen(fen).expect("FEN");
            let m = pos
                .parse_uci_move(uci, crate::CastlingMode::Standard)
                .expect("legal");
            pos.lan(m)
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(lan(start, "g1f3"), "Ng1f3");
        assert_eq!(lan(start, "e2e4"), "e2e4");
        let open = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq d6 0 3";
        assert_eq!(lan(open, "e4d5"), "e4xd5");
        assert_eq!(lan(open, "f3e5"), "Nf3xe5");
        assert_eq!(lan(open, "f1b5"), "Bf1b5+");
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert_eq!(lan(ep, "e5d6"), "e5xd6");
        let promo = "7k/4P3/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(lan(promo, "e7e8q"), "e7e8=Q+");
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(lan(castle, "e1g1"), "O-O");
        let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(lan(mate, "a1a8"), "Ra1a8#");
    }
}
