//! bullet's data formats: the 32-byte `ChessBoard` record that bullet's
//! chess loaders read, and its text lines (`FEN | score | result`).
//!
//! `ChessBoard` is side-to-move relative: a position with Black to move is
//! mirrored vertically with the colours swapped, so the side to move always
//! plays "up" as White; the score and result are the side to move's.
//! Layout (little-endian), as the `bulletformat` crate defines it (a test
//! checks this code against that crate):
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 8  | occupancy `u64`, side-to-move relative |
//! | 8  | 16 | a nibble per occupied square in square order: role (0 pawn ... 5 king) + 8 for the side not to move |
//! | 24 | 2  | score `i16`, centipawns, side to move's view |
//! | 26 | 1  | result: 0 loss, 1 draw, 2 win for the side to move |
//! | 27 | 1  | the side to move's king square |
//! | 28 | 1  | the other king's square, mirrored vertically (`^ 56`) |
//! | 29 | 3  | extra, 0 |

use chess::{Color, Piece, Position, Role};

use crate::record::board_fen;
use crate::{RecordResult, TrainingRecord};

/// The size of one `ChessBoard` record.
pub const CHESSBOARD_SIZE: usize = 32;

/// The `ChessBoard` record of `record`.
pub fn to_chessboard(record: &TrainingRecord) -> [u8; CHESSBOARD_SIZE] {
    let flip = record.turn() == Color::Black;
    // Squares and colours as the side to move sees them.
    let mut board: [Option<(bool, Role)>; 64] = [None; 64];
    for (square, piece) in record.pieces() {
        let sq = if flip {
            square.index() ^ 56
        } else {
            square.index()
        };
        let ours = (piece.color == Color::White) != flip;
        board[sq] = Some((ours, piece.role));
    }
    let mut bytes = [0u8; CHESSBOARD_SIZE];
    let mut occ = 0u64;
    let (mut ksq, mut opp_ksq) = (0u8, 0u8);
    let mut i = 0;
    for (sq, slot) in board.iter().enumerate() {
        let Some((ours, role)) = *slot else { continue };
        occ |= 1 << sq;
        if i < 32 {
            let nibble = role.index() as u8 | if ours { 0 } else { 8 };
            bytes[8 + i / 2] |= nibble << (4 * (i % 2));
        }
        i += 1;
        if role == Role::King {
            if ours {
                ksq = sq as u8;
            } else {
                opp_ksq = sq as u8 ^ 56;
            }
        }
    }
    bytes[0..8].copy_from_slice(&occ.to_le_bytes());
    let score = if flip {
        record.score().saturating_neg()
    } else {
        record.score()
    };
    bytes[24..26].copy_from_slice(&score.to_le_bytes());
    let result = record.result().to_byte();
    bytes[26] = if flip { 2 - result } else { result };
    bytes[27] = ksq;
    bytes[28] = opp_ksq;
    bytes
}

/// Why 32 bytes are not a `ChessBoard` record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChessBoardError {
    /// More squares occupied than nibbles.
    #[error("{0} squares are occupied; a record holds at most 32 pieces")]
    TooManyPieces(u32),
    /// A nibble that names no piece.
    #[error("piece nibble {0} is not a piece (0-5, 8-13)")]
    Nibble(u8),
    /// A result byte out of range.
    #[error("result byte is {0}; expected 0, 1 or 2")]
    Result(u8),
    /// Not one king a side, or the king squares disagree with the pieces.
    #[error("the kings do not match the pieces (one a side, at bytes 27 and 28)")]
    Kings,
    /// The pieces make no legal position.
    #[error("not a legal position: {0}")]
    Position(chess::FenError),
}

/// A `ChessBoard` record as Kestrel's record: the position as bullet sees
/// it (the side to move as White, to move), its score and result.
pub fn from_chessboard(bytes: &[u8; CHESSBOARD_SIZE]) -> Result<TrainingRecord, ChessBoardError> {
    let occ = u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes"));
    if occ.count_ones() > 32 {
        return Err(ChessBoardError::TooManyPieces(occ.count_ones()));
    }
    let result = RecordResult::from_byte(bytes[26]).ok_or(ChessBoardError::Result(bytes[26]))?;
    let mut board: [Option<Piece>; 64] = [None; 64];
    let mut kings = [None, None];
    let mut bits = occ;
    let mut i = 0;
    while bits != 0 {
        let sq = chess::Square::new(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let nibble = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf;
        i += 1;
        let role = *Role::ALL
            .get(usize::from(nibble & 7))
            .ok_or(ChessBoardError::Nibble(nibble))?;
        let color = if nibble & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if role == Role::King {
            if kings[color.index()].is_some() {
                return Err(ChessBoardError::Kings);
            }
            kings[color.index()] = Some(sq.index() as u8);
        }
        board[sq.index()] = Some(Piece::new(color, role));
    }
    if kings != [Some(bytes[27]), Some(bytes[28] ^ 56)] {
        return Err(ChessBoardError::Kings);
    }
    let pos = Position::from_fen(&format!("{} w - - 0 1", board_fen(&board)))
        .map_err(ChessBoardError::Position)?;
    let score = i16::from_le_bytes([bytes[24], bytes[25]]);
    Ok(TrainingRecord::from_position(&pos, score, result))
}

/// bullet's text line for `record`: `FEN | score | result`, the score in
/// centipawns and the result (1.0, 0.5, 0.0) both from White's view.
pub fn to_text(record: &TrainingRecord) -> String {
    let result = match record.result() {
        RecordResult::WhiteWin => "1.0",
        RecordResult::Draw => "0.5",
        RecordResult::BlackWin => "0.0",
    };
    format!("{} | {} | {result}", record.to_fen(), record.score())
}

/// Why a text line is not `FEN | score | result`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Not three fields.
    #[error("expected `FEN | score | result`")]
    Fields,
    /// A score that is not a centipawn number.
    #[error("score '{0}' is not a whole number of centipawns")]
    Score(String),
    /// A result other than 1.0, 0.5 or 0.0.
    #[error("result '{0}' is not 1.0, 0.5 or 0.0")]
    Result(String),
    /// The FEN does not parse.
    #[error("{0}")]
    Fen(chess::FenError),
    /// A line longer than any record's.
    #[error("line longer than {0} bytes: not a text record")]
    TooLong(usize),
}

/// Parses a bullet text line (the inverse of [`to_text`]).
pub fn from_text(line: &str) -> Result<TrainingRecord, TextError> {
    let mut fields = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(TextError::Fields);
    };
    let score: i16 = score.parse().map_err(|_| TextError::Score(score.into()))?;
    let result = match result.trim_matches(|c| c == '[' || c == ']') {
        "1.0" | "1" => RecordResult::WhiteWin,
        "0.5" | "1/2" => RecordResult::Draw,
        "0.0" | "0" => RecordResult::BlackWin,
        _ => return Err(TextError::Result(result.into())),
    };
    let pos = Position::from_fen(fen).map_err(TextError::Fen)?;
    Ok(TrainingRecord::from_position(&pos, score, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lines_round_trip() {
        let pos = Position::from_fen("r3k2r/8/8/3q4/8/8/8/R3K2R b - - 4 30").unwrap();
        let record = TrainingRecord::from_position(&pos, -250, RecordResult::BlackWin);
        let line = to_text(&record);
        assert_eq!(line, "r3k2r/8/8/3q4/8/8/8/R3K2R b - - 4 30 | -250 | 0.0");
        assert_eq!(from_text(&line), Ok(record));
        assert!(from_text("8/8/8 w | 1").is_err());
    }

    #[test]
    fn chessboards_round_trip_as_the_side_to_move_sees_them() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        let record = TrainingRecord::from_position(&pos, 120, RecordResult::WhiteWin);
        let bytes = to_chessboard(&record);
        let back = from_chessboard(&bytes).unwrap();
        // Black to move becomes White to move on a mirrored board.
        assert_eq!(back.to_fen(), "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            (back.score(), back.result()),
            (-120, RecordResult::BlackWin)
        );
    }
}
