//! The 32-byte training record (layout in the crate docs), with its buffered
//! writer and its reader (a streaming iterator and a whole-file fast path).

use chess::{Color, FenError, Piece, Position, Role, Square};
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The size of one record in bytes.
pub const RECORD_SIZE: usize = 32;

/// The most pieces a record holds: 16 bytes of 4-bit nibbles.
const MAX_PIECES: u32 = 32;

/// A game's result, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// Black won.
    BlackWin = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl RecordResult {
    /// The result of a game won by `winner` (`None`: a draw).
    pub fn from_winner(winner: Option<Color>) -> RecordResult {
        match winner {
            Some(Color::White) => RecordResult::WhiteWin,
            Some(Color::Black) => RecordResult::BlackWin,
            None => RecordResult::Draw,
        }
    }

    /// The result stored as `byte` (0, 1 or 2).
    pub fn from_byte(byte: u8) -> Option<RecordResult> {
        match byte {
            0 => Some(RecordResult::BlackWin),
            1 => Some(RecordResult::Draw),
            2 => Some(RecordResult::WhiteWin),
            _ => None,
        }
    }

    /// The byte stored for this result.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// White's score: 0 for a loss, 0.5 for a draw, 1 for a win.
    pub fn white_score(self) -> f32 {
        f32::from(self.to_byte()) / 2.0
    }

    /// The PGN result tag: `1-0`, `1/2-1/2` or `0-1`.
    pub fn pgn(self) -> &'static str {
        match self {
            RecordResult::WhiteWin => "1-0",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::BlackWin => "0-1",
        }
    }

    /// The result for a PGN result tag; `None` for `*` or anything else.
    pub fn from_pgn(tag: &str) -> Option<RecordResult> {
        match tag.trim() {
            "1-0" => Some(RecordResult::WhiteWin),
            "1/2-1/2" => Some(RecordResult::Draw),
            "0-1" => Some(RecordResult::BlackWin),
            _ => None,
        }
    }
}

/// Why 32 bytes are not a training record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The result byte is out of range.
    #[error("result byte is {0}; expected 0 (Black won), 1 (draw) or 2 (White won)")]
    Result(u8),
    /// The side-to-move byte is out of range.
    #[error("side-to-move byte is {0}; expected 0 (White) or 1 (Black)")]
    SideToMove(u8),
    /// More squares are occupied than the piece nibbles can describe.
    #[error("{0} squares are occupied; a record holds at most 32 pieces")]
    TooManyPieces(u32),
    /// A piece nibble names no piece.
    #[error("piece nibble {nibble} on {square} is not a piece (0-5 White, 8-13 Black)")]
    PieceNibble {
        /// The occupied square it describes.
        square: Square,
        /// Its value.
        nibble: u8,
    },
    /// A nibble past the last piece is not zero.
    #[error("unused piece nibble {index} is {nibble}; expected 0")]
    UnusedNibble {
        /// Its index (0 = low nibble of byte 8).
        index: usize,
        /// Its value.
        nibble: u8,
    },
    /// Not exactly one king of each colour: no position to train on (an
    /// all-zero record decodes to an empty board).
    #[error("{white} white and {black} black kings; a position has one of each")]
    Kings {
        /// White kings.
        white: u32,
        /// Black kings.
        black: u32,
    },
    /// The reserved last byte is not zero.
    #[error("reserved byte 31 is {0}; expected 0")]
    Reserved(u8),
    /// The pieces do not make a position one can play from.
    #[error("not a legal position: {0}")]
    Position(FenError),
}

/// One training position: the pieces, the side to move and the move
/// counters, labelled with a search score and the game's result.
///
/// The board fields are private so that every record is encodable; build one
/// with [`TrainingRecord::from_position`] or [`TrainingRecord::from_bytes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrainingRecord {
    occupancy: u64,
    pieces: [u8; 16],
    score: i16,
    result: RecordResult,
    turn: Color,
    fullmove: u16,
    halfmove: u8,
}

impl TrainingRecord {
    /// The record of `pos` with White's search score `score_white` (in
    /// centipawns) and the game's `result`. Castling rights and the
    /// en-passant square are dropped; the fullmove number saturates at
    /// 65535 and the halfmove clock at 255.
    pub fn from_position(pos: &Position, score_white: i16, result: RecordResult) -> TrainingRecord {
        let mut occupancy = 0u64;
        let mut pieces = [0u8; 16];
        // A valid position has at most 16 pieces a side, so `take` never
        // drops one; it only keeps the encoding in bounds.
        for (i, sq) in pos
            .occupied()
            .into_iter()
            .take(MAX_PIECES as usize)
            .enumerate()
        {
            if let Some(piece) = pos.piece_at(sq) {
                occupancy |= 1u64 << sq.index();
                pieces[i / 2] |= piece_nibble(piece) << (4 * (i % 2));
            }
        }
        TrainingRecord {
            occupancy,
            pieces,
            score: score_white,
            result,
            turn: pos.turn(),
            fullmove: u16::try_from(pos.fullmove_number()).unwrap_or(u16::MAX),
            halfmove: u8::try_from(pos.halfmove_clock()).unwrap_or(u8::MAX),
        }
    }

    /// The record stored in `bytes`, checked field by field (not for chess
    /// legality: [`TrainingRecord::to_position`] checks that).
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Result<TrainingRecord, RecordError> {
        let occupancy = u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes"));
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&bytes[8..24]);
        let count = occupancy.count_ones();
        if count > MAX_PIECES {
            return Err(RecordError::TooManyPieces(count));
        }
        let mut occupied = occupancy;
        let mut kings = [0u32; 2];
        for index in 0..32 {
            let nibble = (pieces[index / 2] >> (4 * (index % 2))) & 0xf;
            if occupied == 0 {
                if nibble != 0 {
                    return Err(RecordError::UnusedNibble { index, nibble });
                }
                continue;
            }
            let square = Square::new(occupied.trailing_zeros() as u8);
            occupied &= occupied - 1;
            let Some(piece) = nibble_piece(nibble) else {
                return Err(RecordError::PieceNibble { square, nibble });
            };
            if piece.role == Role::King {
                kings[piece.color.index()] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(RecordError::Kings {
                white: kings[0],
                black: kings[1],
            });
        }
        let result = RecordResult::from_byte(bytes[26]).ok_or(RecordError::Result(bytes[26]))?;
        let turn = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            other => return Err(RecordError::SideToMove(other)),
        };
        if bytes[31] != 0 {
            return Err(RecordError::Reserved(bytes[31]));
        }
        Ok(TrainingRecord {
            occupancy,
            pieces,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result,
            turn,
            fullmove: u16::from_le_bytes([bytes[28], bytes[29]]),
            halfmove: bytes[30],
        })
    }

    /// The 32 bytes stored for this record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        bytes[8..24].copy_from_slice(&self.pieces);
        bytes[24..26].copy_from_slice(&self.score.to_le_bytes());
        bytes[26] = self.result.to_byte();
        bytes[27] = self.turn.index() as u8;
        bytes[28..30].copy_from_slice(&self.fullmove.to_le_bytes());
        bytes[30] = self.halfmove;
        bytes
    }

    /// The occupied squares as a bitboard (bit *i* = square *i*, a1 = 0).
    pub fn occupancy(&self) -> u64 {
        self.occupancy
    }

    /// The pieces and their squares, in increasing square order: what an
    /// NNUE trainer needs, without building a [`Position`].
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occupied = self.occupancy;
        let mut index = 0usize;
        std::iter::from_fn(move || {
            if occupied == 0 {
                return None;
            }
            let square = Square::new(occupied.trailing_zeros() as u8);
            occupied &= occupied - 1;
            let nibble = (self.pieces[index / 2] >> (4 * (index % 2))) & 0xf;
            index += 1;
            // Every record was built from a position or checked by
            // `from_bytes`, so each nibble names a piece.
            Some((square, nibble_piece(nibble).expect("checked piece nibble")))
        })
    }

    /// How many pieces stand on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupancy.count_ones()
    }

    /// The search score in centipawns, from White's point of view.
    pub fn score(&self) -> i16 {
        self.score
    }

    /// The search score in centipawns, from the side to move's point of view.
    pub fn score_stm(&self) -> i16 {
        match self.turn {
            Color::White => self.score,
            Color::Black => self.score.saturating_neg(),
        }
    }

    /// The game's result.
    pub fn result(&self) -> RecordResult {
        self.result
    }

    /// Sets the game's result (known only once the game has ended).
    pub fn set_result(&mut self, result: RecordResult) {
        self.result = result;
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The fullmove number (saturated at 65535).
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The halfmove clock (saturated at 255).
    pub fn halfmove_clock(&self) -> u8 {
        self.halfmove
    }

    /// The position as FEN, with no castling rights and no en-passant square.
    pub fn to_fen(&self) -> String {
        let mut board: [Option<Piece>; 64] = [None; 64];
        for (square, piece) in self.pieces() {
            board[square.index()] = Some(piece);
        }
        let fen = board_fen(&board);
        let turn = match self.turn {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!("{fen} {turn} - - {} {}", self.halfmove, self.fullmove)
    }

    /// The position, without castling rights or en-passant square (the
    /// format does not store them). Fails when the pieces make no legal
    /// position (a damaged record).
    pub fn to_position(&self) -> Result<Position, RecordError> {
        Position::from_fen(&self.to_fen()).map_err(RecordError::Position)
    }
}

/// Fills `buf` from `reader` as far as it allows (a short count only at
/// the end of the input); the number of bytes read.
pub(crate) fn fill(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The board field of a FEN for a board of 64 squares (a1 first).
pub(crate) fn board_fen(board: &[Option<Piece>; 64]) -> String {
    let mut fen = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0u8;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen
}

/// The nibble stored for `piece`: role + 8 for Black.
fn piece_nibble(piece: Piece) -> u8 {
    piece.role.index() as u8 + if piece.color == Color::Black { 8 } else { 0 }
}

/// The piece a nibble stands for.
fn nibble_piece(nibble: u8) -> Option<Piece> {
    let color = if nibble & 8 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let role = *Role::ALL.get(usize::from(nibble & 7))?;
    Some(Piece::new(color, role))
}

/// Why a training-data file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read training data {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A record does not decode.
    #[error("{path}: record {index} (byte {offset}) is damaged: {source} (is this a Kestrel training-data file? `kestrel datagen stats` checks one)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The record's index, from 0.
        index: u64,
        /// Its byte offset.
        offset: u64,
        /// What is wrong with it.
        source: RecordError,
    },
}

/// A whole training-data file read at once.
#[derive(Clone, Debug, Default)]
pub struct RecordFile {
    /// Its records, in file order.
    pub records: Vec<TrainingRecord>,
    /// Bytes of an incomplete last record, ignored (a file cut short while
    /// it was written); 0 for a complete file.
    pub trailing_bytes: usize,
}

/// Reads a whole file of records into memory: the fast path for a trainer
/// that holds its data set in memory. A trailing partial record is left out
/// and counted in [`RecordFile::trailing_bytes`]; a damaged record fails.
pub fn read_file(path: impl AsRef<Path>) -> Result<RecordFile, ReadError> {
    let path = path.as_ref();
    // A device or a FIFO is refused before it is read (`/dev/zero` would
    // fill the memory).
    let bytes = types::file::read_regular(path, u64::MAX).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let chunks = bytes.chunks_exact(RECORD_SIZE);
    let trailing_bytes = chunks.remainder().len();
    let mut records = Vec::with_capacity(bytes.len() / RECORD_SIZE);
    for (index, chunk) in chunks.enumerate() {
        let chunk: &[u8; RECORD_SIZE] = chunk.try_into().expect("exact chunk");
        let record = TrainingRecord::from_bytes(chunk).map_err(|source| ReadError::Corrupt {
            path: path.to_path_buf(),
            index: index as u64,
            offset: (index * RECORD_SIZE) as u64,
            source,
        })?;
        records.push(record);
    }
    Ok(RecordFile {
        records,
        trailing_bytes,
    })
}

/// Streams records from a file or any reader, in bounded memory.
///
/// Yields `Err` for a damaged record and goes on with the next one; stops
/// after an I/O error. A trailing partial record ends the stream and is
/// counted by [`RecordReader::trailing_bytes`].
pub struct RecordReader<R: Read> {
    inner: BufReader<R>,
    path: PathBuf,
    index: u64,
    trailing_bytes: usize,
    done: bool,
}

impl RecordReader<File> {
    /// Opens the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<RecordReader<File>, ReadError> {
        let path = path.as_ref();
        // Only a regular file: a device would stream records for ever, and
        // the open of a FIFO would wait for a writer.
        let file = types::file::open_regular(path, None).map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(RecordReader::new(file, path))
    }
}

impl<R: Read> RecordReader<R> {
    /// Reads records from `inner`; `name` names it in errors.
    pub fn new(inner: R, name: impl Into<PathBuf>) -> RecordReader<R> {
        RecordReader {
            inner: BufReader::with_capacity(RECORD_SIZE * 8192, inner),
            path: name.into(),
            index: 0,
            trailing_bytes: 0,
            done: false,
        }
    }

    /// Bytes of an incomplete last record that were ignored (0 until the
    /// end is reached, and for a complete file).
    pub fn trailing_bytes(&self) -> usize {
        self.trailing_bytes
    }

    /// How many whole records have been read so far.
    pub fn records_read(&self) -> u64 {
        self.index
    }

    /// Fills `buf` as far as the input allows; the number of bytes read.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::record::fill(&mut self.inner, buf)
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<TrainingRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut buf = [0u8; RECORD_SIZE];
        let filled = match self.fill(&mut buf) {
            Ok(n) => n,
            Err(source) => {
                self.done = true;
                return Some(Err(ReadError::Io {
                    path: self.path.clone(),
                    source,
                }));
            }
        };
        if filled < RECORD_SIZE {
            self.done = true;
            self.trailing_bytes = filled;
            return None;
        }
        let index = self.index;
        self.index += 1;
        Some(
            TrainingRecord::from_bytes(&buf).map_err(|source| ReadError::Corrupt {
                path: self.path.clone(),
                index,
                offset: index * RECORD_SIZE as u64,
                source,
            }),
        )
    }
}

/// Writes records through a buffer that only ever holds whole records, so
/// that every write to the underlying file ends on a record boundary: a
/// file cut short by Ctrl-C after [`RecordWriter::flush`] is complete.
pub struct RecordWriter<W: Write> {
    /// `None` only after `finish` moved it out (`Drop` then has nothing to do).
    inner: Option<W>,
    buffer: Vec<u8>,
    written: u64,
}

/// Records buffered before a write: 256 KiB.
const BUFFERED_RECORDS: usize = 8192;

impl RecordWriter<File> {
    /// Creates (or truncates) the file at `path`.
    pub fn create(path: impl AsRef<Path>) -> io::Result<RecordWriter<File>> {
        Ok(RecordWriter::new(File::create(path)?))
    }

    /// Opens the file at `path` to add records at its end, creating it if
    /// needed. A partial record left at the end by an interrupted run is cut
    /// off first, so that the new records stay aligned.
    pub fn append(path: impl AsRef<Path>) -> io::Result<RecordWriter<File>> {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)?;
        let len = file.metadata()?.len();
        let whole = len - len % RECORD_SIZE as u64;
        if whole != len {
            file.set_len(whole)?;
        }
        file.seek(SeekFrom::Start(whole))?;
        Ok(RecordWriter::new(file))
    }
}

impl<W: Write> RecordWriter<W> {
    /// Writes records to `inner`.
    pub fn new(inner: W) -> RecordWriter<W> {
        RecordWriter {
            inner: Some(inner),
            buffer: Vec::with_capacity(RECORD_SIZE * BUFFERED_RECORDS),
            written: 0,
        }
    }

    /// Adds one record (written out when the buffer is full).
    pub fn write(&mut self, record: &TrainingRecord) -> io::Result<()> {
        self.buffer.extend_from_slice(&record.to_bytes());
        self.written += 1;
        if self.buffer.len() >= RECORD_SIZE * BUFFERED_RECORDS {
            self.flush_buffer()?;
        }
        Ok(())
    }

    /// How many records have been given to [`RecordWriter::write`].
    pub fn records_written(&self) -> u64 {
        self.written
    }

    /// Writes out every buffered record and flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.flush_buffer()?;
        match self.inner.as_mut() {
            Some(inner) => inner.flush(),
            None => Ok(()),
        }
    }

    /// Flushes and gives back the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        Ok(self
            .inner
            .take()
            .expect("the writer is present until finish"))
    }

    fn flush_buffer(&mut self) -> io::Result<()> {
        if let Some(inner) = self.inner.as_mut() {
            if !self.buffer.is_empty() {
                inner.write_all(&self.buffer)?;
                self.buffer.clear();
            }
        }
        Ok(())
    }
}

impl<W: Write> Drop for RecordWriter<W> {
    fn drop(&mut self) {
        // Best effort, as `BufWriter` does: errors cannot be reported here;
        // callers that care call `flush` or `finish`.
        let _ = self.flush_buffer();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fen: &str, score: i16, result: RecordResult) -> TrainingRecord {
        TrainingRecord::from_position(&Position::from_fen(fen).unwrap(), score, result)
    }

    #[test]
    fn start_position_has_the_documented_bytes() {
        let bytes = TrainingRecord::from_position(&Position::startpos(), -17, RecordResult::Draw)
            .to_bytes();
        assert_eq!(bytes[0..8], 0xffff_0000_0000_ffffu64.to_le_bytes());
        // a1 R, b1 N, c1 B, d1 Q, e1 K, f1 B, g1 N, h1 R: low nibble first.
        assert_eq!(bytes[8..12], [0x13, 0x42, 0x25, 0x31]);
        assert_eq!(bytes[12..16], [0x00; 4], "white pawns");
        assert_eq!(bytes[16..20], [0x88; 4], "black pawns");
        assert_eq!(bytes[20..24], [0x9b, 0xca, 0xad, 0xb9]);
        assert_eq!(bytes[24..26], (-17i16).to_le_bytes());
        assert_eq!(bytes[26..32], [1, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn positions_round_trip_through_bytes_and_fen() {
        let cases = [
            // 32 pieces, every kind, White to move.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                0,
                RecordResult::Draw,
            ),
            // Black to move, a negative score.
            (
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b - - 3 9",
                -250,
                RecordResult::BlackWin,
            ),
            // Few pieces, extreme scores and counters.
            (
                "8/8/4k3/8/8/3QK3/8/8 w - - 99 187",
                i16::MAX,
                RecordResult::WhiteWin,
            ),
            (
                "8/5k2/8/8/8/8/1K6/8 b - - 200 300",
                i16::MIN,
                RecordResult::Draw,
            ),
            // Promoted pieces: three white knights, two black queens.
            (
                "1q2k2q/8/8/8/8/8/8/NNN1K3 w - - 0 60",
                -32000,
                RecordResult::BlackWin,
            ),
        ];
        for (fen, score, result) in cases {
            let rec = record(fen, score, result);
            let back = TrainingRecord::from_bytes(&rec.to_bytes()).unwrap();
            assert_eq!(back, rec, "{fen}");
            assert_eq!(back.to_fen(), fen);
            assert_eq!(back.to_position().unwrap().fen(), fen);
            assert_eq!(back.score(), score);
            assert_eq!(back.result(), result);
            assert_eq!(
                back.piece_count(),
                Position::from_fen(fen).unwrap().piece_count()
            );
        }
    }

    #[test]
    fn castling_and_en_passant_are_dropped_and_counters_saturate() {
        let mut pos =
            Position::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
                .unwrap();
        let rec = TrainingRecord::from_position(&pos, 30, RecordResult::WhiteWin);
        assert_eq!(
            rec.to_fen(),
            "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w - - 0 3"
        );
        pos = Position::from_fen("8/5k2/8/8/8/8/1K6/8 b - - 1000 65000").unwrap();
        let rec = TrainingRecord::from_position(&pos, 0, RecordResult::Draw);
        assert_eq!((rec.halfmove_clock(), rec.fullmove_number()), (255, 65000));
    }

    #[test]
    fn score_from_the_side_to_move() {
        let rec = record("8/5k2/8/8/8/8/1K6/8 b - - 0 1", -40, RecordResult::Draw);
        assert_eq!(rec.score_stm(), 40);
        let rec = record(
            "8/5k2/8/8/8/8/1K6/8 b - - 0 1",
            i16::MIN,
            RecordResult::Draw,
        );
        assert_eq!(rec.score_stm(), i16::MAX);
    }

    #[test]
    fn damaged_bytes_are_refused_with_the_field_named() {
        let good = record("8/5k2/8/8/8/8/1K6/8 b - - 0 1", 0, RecordResult::Draw).to_bytes();
        let mut bad = good;
        bad[26] = 3;
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::Result(3))
        );
        bad = good;
        bad[27] = 2;
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::SideToMove(2))
        );
        bad = good;
        bad[31] = 1;
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::Reserved(1))
        );
        bad = good;
        bad[8] = 0x06; // the first piece (b2) becomes nibble 6.
        assert!(matches!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::PieceNibble { nibble: 6, .. })
        ));
        bad = good;
        bad[9] = 0x10; // nibble 3 is past the two kings.
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::UnusedNibble {
                index: 3,
                nibble: 1
            })
        );
        bad = [0u8; RECORD_SIZE];
        bad[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::TooManyPieces(64))
        );
        // Not exactly one king a side: an empty board (all zeros), two
        // white pawns, two kings of one colour.
        bad = [0u8; RECORD_SIZE];
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::Kings { white: 0, black: 0 })
        );
        bad[0] = 0b11;
        bad[8] = 0x00;
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::Kings { white: 0, black: 0 })
        );
        bad[8] = 0xd5;
        assert!(TrainingRecord::from_bytes(&bad).is_ok(), "one king each");
        bad[8] = 0x55;
        assert_eq!(
            TrainingRecord::from_bytes(&bad),
            Err(RecordError::Kings { white: 2, black: 0 })
        );
        // Decodable with a king each, but not chess: kings side by side.
        bad[0] = 0b11;
        bad[8] = 0xd5;
        let rec = TrainingRecord::from_bytes(&bad).unwrap();
        assert!(matches!(rec.to_position(), Err(RecordError::Position(_))));
    }

    #[test]
    fn result_conversions() {
        for r in [
            RecordResult::BlackWin,
            RecordResult::Draw,
            RecordResult::WhiteWin,
        ] {
            assert_eq!(RecordResult::from_byte(r.to_byte()), Some(r));
            assert_eq!(RecordResult::from_pgn(r.pgn()), Some(r));
        }
        assert_eq!(
            RecordResult::from_winner(Some(Color::Black)),
            RecordResult::BlackWin
        );
        assert_eq!(RecordResult::WhiteWin.white_score(), 1.0);
        assert_eq!(RecordResult::from_pgn("*"), None);
    }
}
