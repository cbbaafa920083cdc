//! FEN (Forsyth-Edwards Notation) in and out, with X-FEN and Shredder-FEN
//! castling fields for Chess960.

use crate::validate::PositionError;
use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Position, Rank, Role, Square,
};
use std::fmt;
use std::str::FromStr;

/// The FEN of the standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing was given.
    Empty,
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The board field does not have 8 ranks separated by '/'.
    RankCount(usize),
    /// A rank does not describe exactly 8 squares.
    RankWidth {
        /// The rank, as written in FEN order (8 first).
        rank: char,
        /// How many squares it describes.
        squares: u32,
    },
    /// A character in the board field that is neither a piece letter nor 1-8.
    BoardChar(char),
    /// Two digits in a row in a rank (write `8`, not `44`).
    AdjacentDigits {
        /// The rank, as written in FEN order (8 first).
        rank: char,
    },
    /// The side-to-move field is not `w` or `b`.
    Turn(String),
    /// The castling field is malformed or names a right twice.
    Castling(String),
    /// The en-passant field is not `-` or a square.
    EnPassant(String),
    /// The halfmove clock is not a number from 0 to 65535.
    HalfmoveClock(String),
    /// The fullmove number is not a number from 0 to 65535.
    FullmoveNumber(String),
    /// The fields parse but the position is impossible.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::FieldCount(n) => write!(
                f,
                "FEN has {n} fields; expected 4 to 6: board, side to move, castling, en passant[, halfmove clock, fullmove number]"
            ),
            FenError::RankCount(n) => write!(f, "FEN board has {n} ranks; expected 8 separated by '/'"),
            FenError::RankWidth { rank, squares } => {
                write!(f, "FEN rank {rank} describes {squares} squares; expected 8")
            }
            FenError::AdjacentDigits { rank } => {
                write!(f, "FEN rank {rank} has two digits in a row; write the empty squares as one digit")
            }
            FenError::BoardChar(c) => write!(f, "'{c}' in the FEN board is neither a piece letter (PNBRQKpnbrqk) nor a digit 1-8"),
            FenError::Turn(s) => write!(f, "side to move '{s}' must be 'w' or 'b'"),
            FenError::Castling(s) => write!(f, "castling field '{s}' must be '-' or letters from KQkq (or rook files A-H/a-h)"),
            FenError::EnPassant(s) => write!(f, "en-passant field '{s}' must be '-' or a square"),
            FenError::HalfmoveClock(s) => write!(f, "halfmove clock '{s}' must be a number from 0 to 65535"),
            FenError::FullmoveNumber(s) => write!(f, "fullmove number '{s}' must be a number from 0 to 65535"),
            FenError::Position(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// How the castling field of an output FEN names the rights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// X-FEN: `KQkq` where the rook is the outermost on its side, file letters otherwise.
    #[default]
    XFen,
    /// Shredder-FEN: always the rook files (`HAha`).
    Shredder,
}

fn parse_board(board: &str) -> Result<Position, FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut pos = Position::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank_index = 7 - i as u8;
        let mut file = 0u32;
        let mut after_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BoardChar(c));
                }
                if after_digit {
                    return Err(FenError::AdjacentDigits {
                        rank: (b'1' + rank_index) as char,
                    });
                }
                after_digit = true;
                file += d;
            } else {
                after_digit = false;
                let piece = Piece::from_char(c).ok_or(FenError::BoardChar(c))?;
                if file < 8 {
                    pos.put(piece, Square::new(rank_index * 8 + file as u8));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth {
                rank: (b'1' + rank_index) as char,
                squares: file,
            });
        }
    }
    Ok(pos)
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS).expect("the start position is valid")
    }

    /// Parses and validates a FEN (X-FEN and Shredder-FEN castling fields are
    /// understood). The halfmove clock and fullmove number may be omitted.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = parse_board(fields[0])?;
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_string())),
        };
        pos.refresh();
        pos.validate()?;
        pos.parse_castling(fields[2])?;
        match fields[3] {
            "-" => {}
            text => {
                let ep: Square = text
                    .parse()
                    .map_err(|_| FenError::EnPassant(text.to_string()))?;
                pos.check_en_passant(ep)?;
                if pos.en_passant_capturable(ep) {
                    pos.ep_square = Some(ep);
                }
            }
        }
        if let Some(text) = fields.get(4) {
            pos.halfmove_clock = text
                .parse()
                .map_err(|_| FenError::HalfmoveClock(text.to_string()))?;
        }
        if let Some(text) = fields.get(5) {
            let n: u16 = text
                .parse()
                .map_err(|_| FenError::FullmoveNumber(text.to_string()))?;
            // Some tools write 0; the game starts at move 1.
            pos.fullmove_number = u32::from(n.max(1));
        }
        pos.refresh();
        Ok(pos)
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let malformed = || FenError::Castling(field.to_string());
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back_rank = Bitboard::relative_rank(color, 0);
            let king = self.king(color);
            let rooks = self.pieces(color, Role::Rook) & back_rank;
            let (side, rook) = match c.to_ascii_lowercase() {
                'k' | 'q' => {
                    let side = if c.eq_ignore_ascii_case(&'k') {
                        CastlingSide::King
                    } else {
                        CastlingSide::Queen
                    };
                    if !back_rank.contains(king) {
                        return Err(PositionError::CastlingWithoutKing { color, side }.into());
                    }
                    // The outermost rook on that side of the king.
                    let mut candidates = rooks
                        .into_iter()
                        .filter(|r| (side == CastlingSide::King) == (r.file() > king.file()));
                    let rook = match side {
                        CastlingSide::King => candidates.next_back(),
                        CastlingSide::Queen => candidates.next(),
                    };
                    (
                        side,
                        rook.ok_or(PositionError::CastlingWithoutRook { color, side })?,
                    )
                }
                'a'..='h' => {
                    let file = File::from_char(c).ok_or_else(malformed)?;
                    let rank = Rank::FIRST.relative(color);
                    let sq = Square::from_coords(file, rank);
                    if file == king.file() {
                        return Err(malformed());
                    }
                    let side = if file > king.file() {
                        CastlingSide::King
                    } else {
                        CastlingSide::Queen
                    };
                    if !back_rank.contains(king) {
                        return Err(PositionError::CastlingWithoutKing { color, side }.into());
                    }
                    if !rooks.contains(sq) {
                        return Err(PositionError::CastlingWithoutRook { color, side }.into());
                    }
                    (side, sq)
                }
                _ => return Err(malformed()),
            };
            if self.castling.has(color, side) {
                return Err(malformed());
            }
            self.castling = self.castling.with(CastlingRights::single(color, side));
            self.castling_rooks[CastlingRights::index_of(color, side)] = rook;
        }
        Ok(())
    }

    /// The position as FEN, with an X-FEN castling field.
    pub fn fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The position as FEN with the castling field in the given notation.
    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if *rank != Rank::FIRST {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn.char());
        s.push(' ');
        let castling_start = s.len();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                let king = self.king(color);
                let rooks = self.pieces(color, Role::Rook) & Bitboard::relative_rank(color, 0);
                let mut outer = rooks
                    .into_iter()
                    .filter(|r| (side == CastlingSide::King) == (r.file() > king.file()));
                let outermost = match side {
                    CastlingSide::King => outer.next_back(),
                    CastlingSide::Queen => outer.next(),
                };
                let c = if notation == CastlingNotation::XFen && outermost == Some(rook) {
                    if side == CastlingSide::King {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    rook.file().char()
                };
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if s.len() == castling_start {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        s
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
