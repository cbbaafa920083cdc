//! Moves as Polyglot books store them: 16 bits, to-square in bits 0-5,
//! from-square in bits 6-11, promotion piece in bits 12-14 (1 knight ...
//! 4 queen), castling as the king taking its own rook (`e1h1`).

use chess::{Move, Position, Role};
use std::fmt;

/// A move in Polyglot's encoding, meaningful without a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PolyMove(pub u16);

impl PolyMove {
    /// The Polyglot encoding of a legal move.
    pub fn from_move(m: Move) -> PolyMove {
        let promo = match m.promotion_role() {
            Some(Role::Knight) => 1,
            Some(Role::Bishop) => 2,
            Some(Role::Rook) => 3,
            Some(Role::Queen) => 4,
            _ => 0,
        };
        PolyMove(m.to().index() as u16 | (m.from().index() as u16) << 6 | promo << 12)
    }

    /// The from-square index (0 = a1 ... 63 = h8).
    pub fn from_index(self) -> u8 {
        ((self.0 >> 6) & 63) as u8
    }

    /// The to-square index (for castling: the rook's square).
    pub fn to_index(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// The promotion code: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen.
    pub fn promotion_code(self) -> u16 {
        (self.0 >> 12) & 7
    }

    /// True when the bits can be a move at all (distinct squares, known
    /// promotion code, top bit clear).
    pub fn is_well_formed(self) -> bool {
        self.from_index() != self.to_index() && self.promotion_code() <= 4 && self.0 >> 15 == 0
    }

    /// The legal move in `pos` this stands for, if any.
    pub fn to_move(self, pos: &Position) -> Option<Move> {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| PolyMove::from_move(m) == self)
    }

    /// Reads Polyglot-style coordinates (`e2e4`, `e7e8q`, castling as `e1h1`).
    pub fn parse(text: &str) -> Option<PolyMove> {
        let b = text.as_bytes();
        if !(4..=5).contains(&b.len()) {
            return None;
        }
        let square = |f: u8, r: u8| -> Option<u16> {
            ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
                .then(|| u16::from(f - b'a') + 8 * u16::from(r - b'1'))
        };
        let from = square(b[0], b[1])?;
        let to = square(b[2], b[3])?;
        let promo = match b.get(4) {
            None => 0,
            Some(b'n') => 1,
            Some(b'b') => 2,
            Some(b'r') => 3,
            Some(b'q') => 4,
            Some(_) => return None,
        };
        let m = PolyMove(to | from << 6 | promo << 12);
        m.is_well_formed().then_some(m)
    }
}

/// Polyglot coordinates: `e2e4`, `e7e8q`, castling as `e1h1`.
impl fmt::Display for PolyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sq = |i: u8| format!("{}{}", (b'a' + i % 8) as char, (b'1' + i / 8) as char);
        write!(f, "{}{}", sq(self.from_index()), sq(self.to_index()))?;
        match self.promotion_code() {
            1 => f.write_str("n"),
            2 => f.write_str("b"),
            3 => f.write_str("r"),
            4 => f.write_str("q"),
            _ => Ok(()),
        }
    }
}

/// The UCI text of a legal move in the notation the position calls for.
pub(crate) fn uci(pos: &Position, m: Move) -> String {
    m.to_uci(pos.castling_mode()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_matches_polyglot() {
        let pos = Position::startpos();
        let e4 = pos.parse_san("e4").expect("legal");
        // e2 = 12, e4 = 28: 28 | 12 << 6.
        assert_eq!(PolyMove::from_move(e4), PolyMove(28 | 12 << 6));
        assert_eq!(PolyMove::from_move(e4).to_string(), "e2e4");
        assert_eq!(PolyMove(28 | 12 << 6).to_move(&pos), Some(e4));
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("valid");
        let oo = castle.parse_san("O-O").expect("legal");
        assert_eq!(PolyMove::from_move(oo).to_string(), "e1h1");
        assert_eq!(
            PolyMove::parse("e1h1").and_then(|m| m.to_move(&castle)),
            Some(oo)
        );
        assert_eq!(
            PolyMove::parse("a7a8q").map(super::PolyMove::promotion_code),
            Some(4)
        );
        assert_eq!(PolyMove::parse("e2e2"), None);
        assert_eq!(PolyMove::parse("e2e4x"), None);
    }
}
