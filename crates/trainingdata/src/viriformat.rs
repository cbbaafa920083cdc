//! Whole self-play games in viriformat, the game format of the Viridithas
//! engine that the bullet trainer reads: a 32-byte packed start position
//! (marlinformat, carrying the game's result), then a 2-byte move and a
//! 2-byte score for every move, then a 4-byte zero terminator.
//!
//! Keeping every move of a game (not only the positions a filter kept)
//! means no position is thrown away for good: the filters run when the
//! games are read ([`crate::PositionFilter`]), and can change later.
//!
//! Layout of the packed position (little-endian), as the `viriformat` crate
//! writes it (a test checks this writer and reader against that crate):
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 8  | occupancy `u64` (a1 = bit 0) |
//! | 8  | 16 | a nibble per occupied square in square order, low nibble first: role (0 pawn ... 5 king, 6 a rook that may still castle) + 8 for Black |
//! | 24 | 1  | side to move in bit 7 (1 Black), the en-passant square in bits 0-6 (64: none) |
//! | 25 | 1  | halfmove clock |
//! | 26 | 2  | fullmove number `u16` |
//! | 28 | 2  | score `i16` (0 in a game's start position) |
//! | 30 | 1  | result: 0 Black won, 1 draw, 2 White won |
//! | 31 | 1  | extra, 0 |
//!
//! A move is `from | to << 6 | promotion << 12 | flag << 14`, promotion
//! 0 knight ... 3 queen, flag 3 promotion, 1 en passant, 2 castling (the
//! king "takes" its own rook, as in Kestrel's own moves). Each move's
//! score is the search's score of the position the move was played in,
//! centipawns from **White's** point of view.

use chess::{CastlingSide, Color, Move, MoveKind, Piece, Position, Role, Square};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use crate::record::board_fen;
use crate::RecordResult;
use types::Score;

/// The size of the packed start position.
pub const PACKED_SIZE: usize = 32;
/// The size of one move-and-score entry (and of the terminator).
pub const ENTRY_SIZE: usize = 4;
/// The longest game a reader accepts, in moves: far beyond any game's
/// length under the fifty-move rule (about 6,000 plies), so that a damaged
/// file with no terminator is refused instead of read into memory whole.
pub const MAX_GAME_MOVES: usize = 10_000;

/// The stored score of a mate in 0 moves: a mate in `n` moves is stored as
/// `MATE_SCORE - n` (negated when the side is mated), as far from every
/// evaluation as an `i16` allows.
pub const MATE_SCORE: i16 = 31_000;
/// Stored scores this far from zero or further are mates; evaluations are
/// clamped inside it.
pub const MATE_BOUND: i16 = 30_000;

/// The stored form of a search score (either side's view): centipawns
/// clamped inside [`MATE_BOUND`], mates as [`MATE_SCORE`] less the moves.
pub fn stored_score(score: Score) -> i16 {
    let clamp = |v: i32, max: i16| v.clamp(-i32::from(max), i32::from(max)) as i16;
    match score {
        Score::Cp(cp) => clamp(cp, MATE_BOUND - 1),
        Score::Mate(n) if n >= 0 => MATE_SCORE - clamp(n, MATE_SCORE - MATE_BOUND),
        Score::Mate(n) => -MATE_SCORE + clamp(-n, MATE_SCORE - MATE_BOUND),
    }
}

/// The nibble of a rook that can still castle.
const UNMOVED_ROOK: u8 = 6;

/// One self-play game: where it started, how it ended, and every move with
/// the score of the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position the recorded moves start from (after any random
    /// opening plies, which are not recorded).
    pub start: Position,
    /// The game's result.
    pub result: RecordResult,
    /// Each move, with its position's score (centipawns, White's view).
    pub moves: Vec<(Move, i16)>,
}

impl Game {
    /// A game from `start` with no moves yet.
    pub fn new(start: Position, result: RecordResult) -> Game {
        Game {
            start,
            result,
            moves: Vec::new(),
        }
    }

    /// Each position of the game with the move played in it and its score,
    /// in order.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Move, i16)> + '_ {
        let mut pos = self.start;
        self.moves.iter().map(move |&(m, score)| {
            let here = pos;
            pos.play_unchecked(m);
            (here, m, score)
        })
    }

    /// The number of bytes the game takes in a file.
    pub fn encoded_len(&self) -> usize {
        PACKED_SIZE + ENTRY_SIZE * (self.moves.len() + 1)
    }

    /// Writes the game in viriformat.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(self.encoded_len());
        bytes.extend_from_slice(&pack(&self.start, 0, self.result));
        for &(m, score) in &self.moves {
            bytes.extend_from_slice(&encode_move(m).to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        bytes.extend_from_slice(&[0; ENTRY_SIZE]);
        out.write_all(&bytes)
    }
}

/// The 32 packed bytes of `pos` with `score` and the game's `result`.
pub fn pack(pos: &Position, score: i16, result: RecordResult) -> [u8; PACKED_SIZE] {
    let mut bytes = [0u8; PACKED_SIZE];
    let occupied = pos.occupied();
    let occupancy = occupied
        .into_iter()
        .fold(0u64, |bits, sq| bits | 1 << sq.index());
    bytes[0..8].copy_from_slice(&occupancy.to_le_bytes());
    let castling_rooks: Vec<Square> = [Color::White, Color::Black]
        .into_iter()
        .flat_map(|c| CastlingSide::ALL.map(|s| pos.castling_rook(c, s)))
        .flatten()
        .collect();
    for (i, sq) in occupied.into_iter().enumerate().take(32) {
        let piece = pos.piece_at(sq).expect("an occupied square holds a piece");
        let mut code = piece.role.index() as u8;
        if piece.role == Role::Rook && castling_rooks.contains(&sq) {
            code = UNMOVED_ROOK;
        }
        if piece.color == Color::Black {
            code |= 8;
        }
        bytes[8 + i / 2] |= code << ((i % 2) * 4);
    }
    let turn = u8::from(pos.turn() == Color::Black) << 7;
    let ep = pos.ep_square().map_or(64, |sq| sq.index() as u8);
    bytes[24] = turn | ep;
    bytes[25] = pos.halfmove_clock().min(255) as u8;
    let fullmove = u16::try_from(pos.fullmove_number()).unwrap_or(u16::MAX);
    bytes[26..28].copy_from_slice(&fullmove.to_le_bytes());
    bytes[28..30].copy_from_slice(&score.to_le_bytes());
    bytes[30] = result.to_byte();
    bytes
}

/// Why 32 bytes are not a packed position, or 4 bytes not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackedError {
    /// More squares are occupied than the nibbles describe.
    #[error("{0} squares are occupied; a packed position holds at most 32 pieces")]
    TooManyPieces(u32),
    /// A nibble names no piece.
    #[error("piece nibble {nibble} on {square} is not a piece")]
    PieceNibble {
        /// The square it describes.
        square: Square,
        /// Its value.
        nibble: u8,
    },
    /// The result byte is out of range.
    #[error("result byte is {0}; expected 0, 1 or 2")]
    Result(u8),
    /// The en-passant field is neither a square nor 64.
    #[error("en-passant field is {0}; expected a square (0-63) or 64 (none)")]
    EnPassant(u8),
    /// The pieces do not make a legal position.
    #[error("not a legal position: {0}")]
    Position(chess::FenError),
    /// A move that is not legal in its position.
    #[error("move {raw:#06x} is not legal in {fen}")]
    IllegalMove {
        /// The 16 bits read.
        raw: u16,
        /// The position it was read in.
        fen: String,
    },
}

/// The position, score and result packed in `bytes`.
pub fn unpack(bytes: &[u8; PACKED_SIZE]) -> Result<(Position, i16, RecordResult), PackedError> {
    let occupancy = u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes"));
    if occupancy.count_ones() > 32 {
        return Err(PackedError::TooManyPieces(occupancy.count_ones()));
    }
    let mut board: [Option<Piece>; 64] = [None; 64];
    let mut castling = String::new();
    let mut bits = occupancy;
    let mut i = 0;
    while bits != 0 {
        let square = Square::new(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let nibble = (bytes[8 + i / 2] >> ((i % 2) * 4)) & 0xf;
        i += 1;
        let color = if nibble & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let code = nibble & 7;
        let role = match code {
            UNMOVED_ROOK => {
                // Shredder-FEN names the rook's file, which says the side.
                let file = char::from(b'a' + square.file().index() as u8);
                castling.push(match color {
                    Color::White => file.to_ascii_uppercase(),
                    Color::Black => file,
                });
                Role::Rook
            }
            _ => *Role::ALL
                .get(usize::from(code))
                .ok_or(PackedError::PieceNibble { square, nibble })?,
        };
        board[square.index()] = Some(Piece::new(color, role));
    }
    let result = RecordResult::from_byte(bytes[30]).ok_or(PackedError::Result(bytes[30]))?;
    let turn = if bytes[24] >> 7 == 0 { 'w' } else { 'b' };
    let ep = bytes[24] & 0x7f;
    let ep = match ep {
        64 => "-".to_string(),
        0..=63 => Square::new(ep).to_string(),
        _ => return Err(PackedError::EnPassant(ep)),
    };
    let fen = format!(
        "{} {turn} {} {ep} {} {}",
        board_fen(&board),
        if castling.is_empty() { "-" } else { &castling },
        bytes[25],
        u16::from_le_bytes([bytes[26], bytes[27]]).max(1),
    );
    let pos = Position::from_fen(&fen).map_err(PackedError::Position)?;
    let score = i16::from_le_bytes([bytes[28], bytes[29]]);
    Ok((pos, score, result))
}

/// The 16 bits viriformat stores for `m`.
pub fn encode_move(m: Move) -> u16 {
    let squares = m.from().index() as u16 | (m.to().index() as u16) << 6;
    match m.kind() {
        MoveKind::Normal => squares,
        MoveKind::Promotion => {
            let role = m.promotion_role().map_or(0, |r| r.index() as u16 - 1);
            squares | role << 12 | 0b11 << 14
        }
        MoveKind::EnPassant => squares | 0b01 << 14,
        MoveKind::Castling => squares | 0b10 << 14,
    }
}

/// The move `raw` stands for (not yet checked against a position).
pub fn decode_move(raw: u16) -> Move {
    let from = Square::new((raw & 63) as u8);
    let to = Square::new(((raw >> 6) & 63) as u8);
    match raw >> 14 {
        0b11 => {
            let role = Role::ALL[usize::from((raw >> 12) & 3) + 1];
            Move::promotion(from, to, role)
        }
        0b01 => Move::en_passant(from, to),
        0b10 => Move::castling(from, to),
        _ => Move::normal(from, to),
    }
}

/// Why a viriformat file could not be read: the file and the byte offset of
/// the game or entry at fault.
#[derive(Debug, thiserror::Error)]
pub enum GameReadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A packed position or a move is damaged.
    #[error("{path}: game {game} at byte {offset} is damaged: {source}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The game's index, from 0.
        game: u64,
        /// The byte offset of the damaged position or move.
        offset: u64,
        /// What is wrong.
        source: PackedError,
    },
    /// A game with no terminator within [`MAX_GAME_MOVES`] moves.
    #[error("{path}: game {game} at byte {offset} has no terminator within {MAX_GAME_MOVES} moves (not a viriformat file, or damaged)")]
    TooLong {
        /// The file.
        path: PathBuf,
        /// The game's index.
        game: u64,
        /// The byte offset of its start.
        offset: u64,
    },
    /// The file ends inside a game.
    #[error("{path}: cut short inside game {game} (it starts at byte {offset}; the file ends at byte {end})")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The game's index.
        game: u64,
        /// The byte offset of its start.
        offset: u64,
        /// The bytes read in all.
        end: u64,
    },
}

/// Streams games from a viriformat file (or any reader), checking every
/// packed position and replaying every move for legality.
///
/// Yields one `Err` for a damaged or truncated game and then stops: after
/// damage the next game's start cannot be found.
pub struct GameReader<R: BufRead> {
    inner: R,
    path: PathBuf,
    offset: u64,
    games: u64,
    done: bool,
}

impl<R: BufRead> GameReader<R> {
    /// Reads games from `inner`; `name` names it in errors.
    pub fn new(inner: R, name: impl Into<PathBuf>) -> GameReader<R> {
        GameReader {
            inner,
            path: name.into(),
            offset: 0,
            games: 0,
            done: false,
        }
    }

    /// Bytes read so far: the offset of the next game.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Games read so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Fills `buf` as far as the input allows; the number of bytes read.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::record::fill(&mut self.inner, buf)
    }

    fn io_error(&self, source: io::Error) -> GameReadError {
        GameReadError::Io {
            path: self.path.clone(),
            source,
        }
    }

    fn read_game(&mut self) -> Result<Option<Game>, GameReadError> {
        let start = self.offset;
        let game_index = self.games;
        let truncated = |reader: &Self, got: usize| GameReadError::Truncated {
            path: reader.path.clone(),
            game: game_index,
            offset: start,
            end: reader.offset + got as u64,
        };
        let mut packed = [0u8; PACKED_SIZE];
        let got = self.fill(&mut packed).map_err(|e| self.io_error(e))?;
        if got == 0 {
            return Ok(None);
        }
        if got < PACKED_SIZE {
            return Err(truncated(self, got));
        }
        let corrupt = |reader: &Self, offset: u64, source: PackedError| GameReadError::Corrupt {
            path: reader.path.clone(),
            game: game_index,
            offset,
            source,
        };
        let (position, _, result) = unpack(&packed).map_err(|e| corrupt(self, start, e))?;
        self.offset += PACKED_SIZE as u64;
        let mut game = Game::new(position, result);
        let mut pos = position;
        loop {
            let mut entry = [0u8; ENTRY_SIZE];
            let got = self.fill(&mut entry).map_err(|e| self.io_error(e))?;
            if got < ENTRY_SIZE {
                return Err(truncated(self, got));
            }
            let here = self.offset;
            self.offset += ENTRY_SIZE as u64;
            if entry == [0; ENTRY_SIZE] {
                break;
            }
            if game.moves.len() >= MAX_GAME_MOVES {
                return Err(GameReadError::TooLong {
                    path: self.path.clone(),
                    game: game_index,
                    offset: start,
                });
            }
            let raw = u16::from_le_bytes([entry[0], entry[1]]);
            let m = decode_move(raw);
            if pos.play(m).is_err() {
                // Refused: the position is still the one the move was read in.
                let fen = pos.fen();
                return Err(corrupt(self, here, PackedError::IllegalMove { raw, fen }));
            }
            game.moves
                .push((m, i16::from_le_bytes([entry[2], entry[3]])));
        }
        self.games += 1;
        Ok(Some(game))
    }
}

impl<R: BufRead> Iterator for GameReader<R> {
    type Item = Result<Game, GameReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_game() {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} moves, {})",
            self.start.fen(),
            self.moves.len(),
            self.result.pgn()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_from(fen: &str, uci: &[&str]) -> Game {
        let start = Position::from_fen(fen).unwrap();
        let mut pos = start;
        let mut game = Game::new(start, RecordResult::Draw);
        for (i, text) in uci.iter().enumerate() {
            let m = pos
                .parse_uci_move(text, pos.castling_mode())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.play_unchecked(m);
            game.moves.push((m, i as i16 * 7 - 20));
        }
        game
    }

    #[test]
    fn scores_are_stored_with_mates_beyond_every_evaluation() {
        assert_eq!(stored_score(Score::Cp(-35)), -35);
        assert_eq!(stored_score(Score::Cp(90_000)), MATE_BOUND - 1);
        assert_eq!(stored_score(Score::Mate(3)), MATE_SCORE - 3);
        assert_eq!(stored_score(Score::Mate(-2)), -MATE_SCORE + 2);
        assert_eq!(stored_score(Score::Mate(5_000)), MATE_BOUND);
    }

    #[test]
    fn packed_positions_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 40",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/5k2/8/4K3 b - - 99 300",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let bytes = pack(&pos, -123, RecordResult::WhiteWin);
            let (back, score, result) = unpack(&bytes).unwrap();
            assert_eq!(back.fen(), pos.fen(), "{fen}");
            assert_eq!((score, result), (-123, RecordResult::WhiteWin));
        }
    }

    #[test]
    fn every_kind_of_move_round_trips() {
        let game = game_from(
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
            &["a2a4", "b4a3", "e1c1", "e8g8", "b7b8n"],
        );
        let mut bytes = Vec::new();
        game.write_to(&mut bytes).unwrap();
        assert_eq!(bytes.len(), game.encoded_len());
        let back: Vec<Game> = GameReader::new(&bytes[..], "mem")
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, [game]);
    }

    #[test]
    fn damage_is_refused_with_the_offset() {
        let game = game_from(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5", "g1f3"],
        );
        let mut bytes = Vec::new();
        game.write_to(&mut bytes).unwrap();
        game.write_to(&mut bytes).unwrap();
        // The second game's second move made illegal: e7e5 -> e7e4.
        let second = game.encoded_len() as u64;
        let at = second as usize + PACKED_SIZE + ENTRY_SIZE;
        let mut damaged = bytes.clone();
        damaged[at..at + 2].copy_from_slice(
            &encode_move(Move::normal(Square::new(52), Square::new(20))).to_le_bytes(),
        );
        let out: Vec<_> = GameReader::new(&damaged[..], "d.vf").collect();
        assert_eq!(out.len(), 2);
        let err = out[1].as_ref().unwrap_err().to_string();
        assert!(err.contains(&format!("d.vf: game 1 at byte {at}")), "{err}");
        // Cut short inside the second game.
        let out: Vec<_> = GameReader::new(&bytes[..bytes.len() - 3], "t.vf").collect();
        let err = out[1].as_ref().unwrap_err().to_string();
        assert!(err.contains("cut short inside game 1"), "{err}");
        assert!(err.contains(&format!("byte {second}")), "{err}");
        // Zeros where the first position should be: no kings.
        let out: Vec<_> = GameReader::new(&[0u8; 64][..], "z.vf").collect();
        assert!(out[0].is_err());
    }
}
