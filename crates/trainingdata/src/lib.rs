//! Kestrel's training data: positions labelled with a search score and the
//! game's result, stored as fixed 32-byte records.
//!
//! # File format
//!
//! A training-data file is a headerless sequence of 32-byte records. With no
//! header, shards merge by concatenation (`cat a.bin b.bin > all.bin`), and a
//! file cut short by a crash or Ctrl-C, once truncated to a multiple of 32
//! bytes, is a valid file; [`RecordReader`] ignores (and reports) a trailing
//! partial record instead of failing.
//!
//! Each record is, little-endian:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 8  | occupancy: `u64`, bit *i* set when square *i* is occupied (a1 = 0, b1 = 1, ..., h8 = 63) |
//! | 8  | 16 | pieces: one 4-bit nibble per occupied square in increasing square order, the first piece in the low nibble of byte 8; nibble = role (0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king) + 8 if Black; unused nibbles 0 |
//! | 24 | 2  | score: `i16`, centipawns, from White's point of view (the score of a fixed-node search) |
//! | 26 | 1  | result: 0 Black won, 1 draw, 2 White won |
//! | 27 | 1  | side to move: 0 White, 1 Black |
//! | 28 | 2  | fullmove number: `u16` |
//! | 30 | 1  | halfmove clock: `u8` (saturating at 255) |
//! | 31 | 1  | reserved, 0 |
//!
//! Castling rights and the en-passant square are not stored: a record turned
//! back into a [`chess::Position`] has neither. Trainers that only need the
//! pieces and the side to move read them with [`TrainingRecord::pieces`]
//! without building a position.

pub mod bullet;
pub mod compact;
pub mod filter;
pub mod games_file;
mod record;
pub mod source;
pub mod store;
pub mod store_history;
pub mod viriformat;

pub use filter::{PositionFilter, Skip, SkipCounts};
pub use record::{
    read_file, ReadError, RecordError, RecordFile, RecordReader, RecordResult, RecordWriter,
    TrainingRecord, RECORD_SIZE,
};
