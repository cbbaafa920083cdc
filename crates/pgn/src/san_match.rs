//! A fast path for reading SAN from PGN: the common forms (`e4`, `Nbd7`,
//! `exd5`, `e8=Q+`, `O-O`) are decoded from bytes without allocating, the
//! squares the piece could have come from are found by looking back from the
//! destination (attack tables, pawn pushes), and only those moves are checked
//! for legality: no move list is generated. Anything unusual, and every move
//! that does not match exactly one legal move, goes to `Position::parse_san`,
//! which is tolerant of odd notation and explains what is wrong. The answers
//! are the same; only the speed differs (replaying moves is most of the time
//! spent reading PGN).

use chess::attacks::{attacks, line};
use chess::{
    Bitboard, CastlingSide, Color, File, Move, Piece, Position, Rank, Role, SanError, Square,
};

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
                from_file = File::from_char(c as char);
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

/// The one legal move matching `p`, or `None` when none or several do.
fn unique_legal(pos: &Position, p: &Parsed) -> Option<Move> {
    let us = pos.turn();
    let occupied = pos.occupied();
    let own = pos.pieces(us, p.role);
    let mut from = if p.role == Role::Pawn {
        pawn_sources(pos, us, p.to, own)
    } else {
        // A piece attacks its destination exactly when it attacks back from
        // there (pawns excepted, handled above).
        attacks(Piece::new(us, p.role), p.to, occupied) & own
    };
    if let Some(f) = p.from_file {
        from &= Bitboard::from_file(f);
    }
    if let Some(r) = p.from_rank {
        from &= Bitboard::from_rank(r);
    }
    // A knight, bishop, rook or queen found by looking back from `to` can
    // reach it; when not in check, only a pin can make the move illegal.
    let simple = !matches!(p.role, Role::Pawn | Role::King) && !pos.in_check();
    if simple && pos.by_color(us).contains(p.to) {
        return None;
    }
    let pinned = if simple && from.any() {
        pos.pinned(us)
    } else {
        Bitboard::EMPTY
    };
    let king = pos.king(us);
    let mut found = None;
    for sq in from {
        let m = match p.promotion {
            Some(role) => Move::promotion(sq, p.to, role),
            None if p.role == Role::Pawn
                && pos.ep_square() == Some(p.to)
                && sq.file() != p.to.file() =>
            {
                Move::en_passant(sq, p.to)
            }
            None => Move::normal(sq, p.to),
        };
        let legal = if simple {
            !pinned.contains(sq) || line(king, sq).contains(p.to)
        } else {
            pos.is_legal(m)
        };
        if legal {
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
    }
    found
}

/// The squares of `us`'s pawns (`own`) that could move to `to`: one or two
/// steps behind it, or diagonally behind it. Legality is checked later.
fn pawn_sources(pos: &Position, us: Color, to: Square, own: Bitboard) -> Bitboard {
    let captures = chess::attacks::pawn_attacks(!us, to) & own;
    let back: i8 = if us == Color::White { -8 } else { 8 };
    let mut pushes = Bitboard::EMPTY;
    let one = to.index() as i8 + back;
    if (0..64).contains(&one) {
        let one = Square::new(one as u8);
        pushes = pushes.with(one);
        let two = one.index() as i8 + back;
        if !pos.occupied().contains(one) && (0..64).contains(&two) {
            pushes = pushes.with(Square::new(two as u8));
        }
    }
    captures | (pushes & own)
}

/// The legal move `san` names in `pos`, like `pos.parse_san` but faster on
/// the forms real games use.
pub fn match_san(pos: &Position, san: &[u8]) -> Result<Move, SanError> {
    let fast = match san.first() {
        Some(b'O' | b'0') => castling(pos, san),
        _ => parse_plain(san).and_then(|p| unique_legal(pos, &p)),
    };
    if let Some(m) = fast {
        return Ok(m);
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
    let side = if king_side {
        CastlingSide::King
    } else {
        CastlingSide::Queen
    };
    let us = pos.turn();
    let m = Move::castling(pos.king(us), pos.castling_rook(us, side)?);
    pos.is_legal(m).then_some(m)
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

    /// Every legal move of the positions of random games, written as SAN,
    /// is read back as itself (pins, checks, en passant, promotions, castling).
    #[test]
    fn reads_back_every_move_of_random_games() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut positions = 0;
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    assert_eq!(
                        match_san(&pos, pos.san(m).as_bytes()),
                        Ok(m),
                        "{}",
                        pos.fen()
                    );
                }
                positions += 1;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = (seed % moves.len() as u64) as usize;
                pos.play_unchecked(moves[pick]);
            }
        }
        assert!(positions > 10_000);
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
            for &m in &pos.legal_moves() {
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

    /// Every short SAN word (piece or pawn to each square, pawn captures,
    /// promotions) gives what `parse_san` gives, in positions with pins,
    /// blocked pushes, double pushes from the wrong rank, en passant and
    /// promotions.
    #[test]
    fn every_short_word_agrees_with_parse_san() {
        let fens = [
            chess::fen::STARTPOS,
            // d2 pinned by the bishop: no push; e2 pinned on the file: pushes.
            "4r1k1/8/8/8/1b6/8/3PP3/4K3 w - - 0 1",
            // d2 pinned by the bishop it can take.
            "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1",
            // e2 pinned on the diagonal: exf3 along the pin only.
            "4k3/8/8/7b/8/5p2/3pP3/3K4 w - - 0 1",
            // Pawns on the third rank, a blocked pawn, promotions both ways.
            "r3k3/1P4P1/2p5/8/8/2P1P2p/1p5P/4K2R w K - 0 1",
            "r3k3/1P4P1/2p5/8/8/2P1P2p/1p5P/4K2R b q - 0 1",
            // En passant, and in check.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("valid FEN");
            for to in 0..64u8 {
                let to = Square::new(to).to_string();
                let file = to.as_bytes()[0];
                let mut words = vec![to.clone()];
                words.extend(["N", "B", "R", "Q", "K"].map(|r| format!("{r}{to}")));
                for f in [file.wrapping_sub(1), file + 1] {
                    if (b'a'..=b'h').contains(&f) {
                        words.push(format!("{}x{to}", f as char));
                    }
                }
                let promotions: Vec<String> = words[..1]
                    .iter()
                    .chain(&words[6..])
                    .flat_map(|w| [format!("{w}=Q"), format!("{w}N")])
                    .collect();
                words.extend(promotions);
                for w in words {
                    assert_eq!(
                        match_san(&pos, w.as_bytes()).ok(),
                        pos.parse_san(&w).ok(),
                        "{fen} {w}"
                    );
                }
            }
        }
    }
}
