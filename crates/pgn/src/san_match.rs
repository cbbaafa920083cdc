//! A fast path for reading SAN from PGN: the common forms (`e4`, `Nbd7`,
//! `exd5`, `e8=Q+`, `O-O`) are decoded from bytes without allocating and
//! matched against only the legal moves that reach the destination square.
//! Anything unusual, and every move that does not match exactly one legal
//! move, goes to `Position::parse_san`, which is tolerant of odd notation and
//! explains what is wrong. The answers are the same; only the speed differs
//! (replaying moves is most of the time spent reading PGN).

use chess::{Bitboard, File, Move, MoveList, MoveSink, Position, Rank, Role, SanError, Square};

/// Collects the legal moves that land on the destination squares.
struct ToSquares {
    targets: Bitboard,
    list: MoveList,
}

impl MoveSink for ToSquares {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if self.targets.contains(m.to()) || m.is_castling() {
            self.list.push(m);
        }
    }

    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets & self.targets {
            self.list.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets & self.targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            self.list.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets & self.targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            for role in Role::PROMOTIONS {
                self.list.push(Move::promotion(from, to, role));
            }
        }
    }
}

/// The parts of a plain SAN move.
struct Parsed {
    role: Role,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

/// Decodes the common SAN forms; `None` for anything else.
fn parse_plain(san: &[u8]) -> Option<Parsed> {
    let mut end = san.len();
    while end > 0 && matches!(san[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let s = &san[..end];
    let (role, mut body) = match s.first()? {
        b'N' => (Role::Knight, &s[1..]),
        b'B' => (Role::Bishop, &s[1..]),
        b'R' => (Role::Rook, &s[1..]),
        b'Q' => (Role::Queen, &s[1..]),
        b'K' => (Role::King, &s[1..]),
        b'a'..=b'h' => (Role::Pawn, s),
        _ => return None,
    };
    let mut promotion = None;
    if role == Role::Pawn && body.len() >= 3 {
        let last = body[body.len() - 1];
        let p = match last {
            b'Q' => Some(Role::Queen),
            b'R' => Some(Role::Rook),
            b'B' => Some(Role::Bishop),
            b'N' => Some(Role::Knight),
            _ => None,
        };
        if p.is_some() {
            promotion = p;
            body = &body[..body.len() - 1];
            if body.last() == Some(&b'=') {
                body = &body[..body.len() - 1];
            }
        }
    }
    if body.len() < 2 {
        return None;
    }
    let (hint, dest) = body.split_at(body.len() - 2);
    let to = Square::from_coords(
        File::from_char(dest[0] as char)?,
        Rank::from_char(dest[1] as char)?,
    );
    let mut from_file = None;
    let mut from_rank = None;
    for &c in hint {
        match c {
            b'a'..=b'h' if from_file.is_none() && from_rank.is_none() => {
                from_file = File::from_char(c as char)
            }
            b'1'..=b'8' if from_rank.is_none() => from_rank = Rank::from_char(c as char),
            b'x' | b':' | b'-' => {}
            _ => return None,
        }
    }
    Some(Parsed {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// The legal move `san` names in `pos`, like `pos.parse_san` but faster on
/// the forms real games use.
pub fn match_san(pos: &Position, san: &[u8]) -> Result<Move, SanError> {
    if let Some(m) = castling(pos, san) {
        return Ok(m);
    }
    if let Some(p) = parse_plain(san) {
        let mut sink = ToSquares {
            targets: Bitboard::from_square(p.to),
            list: MoveList::new(),
        };
        pos.generate::<_, true, true>(&mut sink);
        let mut found = None;
        let mut count = 0;
        for &m in sink.list.iter() {
            if m.is_castling() || m.to() != p.to {
                continue;
            }
            let Some(piece) = pos.piece_at(m.from()) else {
                continue;
            };
            if piece.role != p.role
                || m.promotion_role() != p.promotion
                || p.from_file.is_some_and(|f| m.from().file() != f)
                || p.from_rank.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            found = Some(m);
            count += 1;
        }
        if count == 1 {
            if let Some(m) = found {
                return Ok(m);
            }
        }
    }
    let text = std::str::from_utf8(san)
        .map_err(|_| SanError::Malformed(String::from_utf8_lossy(san).into_owned()))?;
    pos.parse_san(text).or_else(|e| from_to(pos, san).ok_or(e))
}

/// `O-O` / `O-O-O` (or with zeros): the legal castling move to that side.
fn castling(pos: &Position, san: &[u8]) -> Option<Move> {
    let mut end = san.len();
    while end > 0 && matches!(san[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let king_side = match &san[..end] {
        b"O-O" | b"0-0" => true,
        b"O-O-O" | b"0-0-0" => false,
        _ => return None,
    };
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.is_castling() && (m.to() > m.from()) == king_side)
}

/// A move given by both squares and no piece letter (`g1f3`, `g1xd1`,
/// `e7-e8q`), as some programs write PGN: the legal move between them.
fn from_to(pos: &Position, san: &[u8]) -> Option<Move> {
    let mut end = san.len();
    while end > 0 && matches!(san[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let uci: String = san[..end]
        .iter()
        .filter(|b| !matches!(b, b'x' | b'-' | b':' | b'='))
        .map(|&b| b.to_ascii_lowercase() as char)
        .collect();
    let b = uci.as_bytes();
    if !(4..=5).contains(&b.len()) || !b[1].is_ascii_digit() || !b[3].is_ascii_digit() {
        return None;
    }
    pos.parse_uci_move(&uci, pos.castling_mode()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_without_piece_letter() {
        let pos = Position::startpos();
        let nf3 = pos.parse_san("Nf3").expect("legal");
        for text in ["g1f3", "g1-f3", "Ng1f3"] {
            assert_eq!(match_san(&pos, text.as_bytes()), Ok(nf3), "{text}");
        }
        assert!(match_san(&pos, b"g1g3").is_err());
    }

    #[test]
    fn agrees_with_parse_san() {
        let fens = [
            chess::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2P5/8/8/8/8/5k2/K7 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("valid FEN");
            for &m in pos.legal_moves().iter() {
                for san in [pos.san(m), pos.san_without_suffix(m)] {
                    assert_eq!(match_san(&pos, san.as_bytes()), Ok(m), "{fen} {san}");
                }
            }
            for bad in ["Nb5", "e5", "Zz", "", "O-O-O-O", "\u{1}"] {
                assert_eq!(
                    match_san(&pos, bad.as_bytes()).is_ok(),
                    pos.parse_san(bad).is_ok(),
                    "{fen} {bad}"
                );
            }
        }
    }
}
