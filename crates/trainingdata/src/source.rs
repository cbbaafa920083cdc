//! Training positions from any of the formats Kestrel reads and writes:
//! viriformat games (a `.vf` or `.vf.zst` file, or a whole store folder),
//! Kestrel's 32-byte records, bullet's `ChessBoard` records and bullet's
//! text lines. Games are filtered as they are read ([`PositionFilter`]);
//! position formats were filtered when they were made.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::bullet::{self, ChessBoardError, TextError, CHESSBOARD_SIZE};
use crate::games_file;
use crate::store::{Store, StoreError};
use crate::viriformat::GameReadError;
use crate::{PositionFilter, ReadError, RecordReader, SkipCounts, TrainingRecord};

/// The longest text line read: a FEN with its score and result is under
/// 120 bytes.
pub const MAX_TEXT_LINE: usize = 512;

/// What [`read_text_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextLine {
    /// The end of the input.
    End,
    /// A line, in the buffer (with its line break, if it had one).
    Line,
    /// A line longer than [`MAX_TEXT_LINE`] bytes (the buffer holds its start).
    TooLong,
}

/// Reads the next line of a text file into `buf` (cleared first), at most
/// [`MAX_TEXT_LINE`] bytes of it: a file with no line breaks is refused by
/// the caller, never held in memory.
pub fn read_text_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<TextLine> {
    buf.clear();
    let n = reader
        .take(MAX_TEXT_LINE as u64 + 1)
        .read_until(b'\n', buf)?;
    Ok(match n {
        0 => TextLine::End,
        n if n > MAX_TEXT_LINE => TextLine::TooLong,
        _ => TextLine::Line,
    })
}

/// A training-data format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// Whole games in viriformat (`.vf`, `.vf.zst`, or a store folder).
    Viriformat,
    /// Kestrel's 32-byte position records (any other name).
    Kestrel,
    /// bullet's 32-byte `ChessBoard` records (`.bullet`).
    Bullet,
    /// bullet's text lines, `FEN | score | result` (`.txt`, `.text`).
    Text,
}

impl DataFormat {
    /// Whether the format's positions are the side to move's rather than
    /// the board's (bullet's `ChessBoard`: a Black-to-move position is
    /// stored mirrored with the colours swapped, so it reads back with
    /// White to move, its score and result the side to move's).
    pub fn is_side_relative(self) -> bool {
        self == DataFormat::Bullet
    }

    /// The format a path's name implies: a folder is a store, `.vf` and
    /// `.vf.zst` viriformat, `.bullet` bullet records, `.txt`/`.text`
    /// bullet text, anything else Kestrel's records.
    pub fn of_path(path: &Path) -> DataFormat {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if path.is_dir() || games_file::is_viriformat(path) {
            DataFormat::Viriformat
        } else if name.ends_with(".bullet") {
            DataFormat::Bullet
        } else if name.ends_with(".txt") || name.ends_with(".text") {
            DataFormat::Text
        } else {
            DataFormat::Kestrel
        }
    }

    /// The format's name as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Viriformat => "viriformat",
            DataFormat::Kestrel => "kestrel",
            DataFormat::Bullet => "bullet",
            DataFormat::Text => "text",
        }
    }
}

/// What reading a source found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    /// Games read (viriformat only).
    pub games: u64,
    /// Positions read, before the filter.
    pub positions: u64,
    /// Positions that passed the filter (all of them for position formats).
    pub kept: u64,
    /// Positions the filter left out, by reason.
    pub skipped: SkipCounts,
    /// Bytes of a partial last record, ignored (record formats).
    pub trailing_bytes: u64,
}

impl ReadCounts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &ReadCounts) {
        self.games += other.games;
        self.positions += other.positions;
        self.kept += other.kept;
        self.skipped.add(&other.skipped);
        self.trailing_bytes += other.trailing_bytes;
    }
}

/// Why a source could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Kestrel records.
    #[error(transparent)]
    Records(#[from] ReadError),
    /// Viriformat games.
    #[error(transparent)]
    Games(#[from] GameReadError),
    /// The store.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A damaged bullet record.
    #[error("{path}: record {index} (byte {offset}) is damaged: {source}")]
    ChessBoard {
        /// The file.
        path: PathBuf,
        /// The record's index.
        index: u64,
        /// Its byte offset.
        offset: u64,
        /// What is wrong.
        source: ChessBoardError,
    },
    /// A bad text line.
    #[error("{path}:{line}: {source}")]
    Text {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: u64,
        /// What is wrong.
        source: TextError,
    },
}

/// Reads every position of `path` (in `format`) that passes `filter` (games
/// only), handing each to `f`; the counts.
pub fn read_positions(
    path: &Path,
    format: DataFormat,
    filter: &PositionFilter,
    mut f: impl FnMut(TrainingRecord),
) -> Result<ReadCounts, SourceError> {
    read_into(path, format, filter, &mut f)
}

/// [`read_positions`] with the callback as a trait object, so that a store
/// can read its shards through the same function.
fn read_into(
    path: &Path,
    format: DataFormat,
    filter: &PositionFilter,
    f: &mut dyn FnMut(TrainingRecord),
) -> Result<ReadCounts, SourceError> {
    let io_err = |source| SourceError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut counts = ReadCounts::default();
    match format {
        DataFormat::Viriformat if path.is_dir() => {
            let store = Store::open(path)?;
            for shard in store.shard_paths()? {
                counts.add(&read_into(&shard, format, filter, f)?);
            }
        }
        DataFormat::Viriformat => {
            for game in games_file::open_games(path)? {
                let game = game?;
                counts.games += 1;
                for (pos, m, score) in game.positions() {
                    counts.positions += 1;
                    match filter.check(&pos, m, i32::from(score)) {
                        Ok(()) => {
                            counts.kept += 1;
                            f(TrainingRecord::from_position(&pos, score, game.result));
                        }
                        Err(skip) => counts.skipped.count(skip),
                    }
                }
            }
        }
        DataFormat::Kestrel => {
            let mut reader = RecordReader::open(path)?;
            for record in reader.by_ref() {
                counts.positions += 1;
                counts.kept += 1;
                f(record?);
            }
            counts.trailing_bytes = reader.trailing_bytes() as u64;
        }
        DataFormat::Bullet => {
            let file = types::file::open_regular(path, None).map_err(io_err)?;
            let mut reader = BufReader::with_capacity(1 << 16, file);
            let mut bytes = [0u8; CHESSBOARD_SIZE];
            loop {
                let got = crate::record::fill(&mut reader, &mut bytes).map_err(io_err)?;
                if got < CHESSBOARD_SIZE {
                    counts.trailing_bytes = got as u64;
                    break;
                }
                let index = counts.positions;
                let record =
                    bullet::from_chessboard(&bytes).map_err(|source| SourceError::ChessBoard {
                        path: path.to_path_buf(),
                        index,
                        offset: index * CHESSBOARD_SIZE as u64,
                        source,
                    })?;
                counts.positions += 1;
                counts.kept += 1;
                f(record);
            }
        }
        DataFormat::Text => {
            let file = types::file::open_regular(path, None).map_err(io_err)?;
            let mut reader = BufReader::new(file);
            let mut buf = Vec::new();
            for line_number in 1.. {
                let read = read_text_line(&mut reader, &mut buf).map_err(io_err)?;
                let text_err = |source| SourceError::Text {
                    path: path.to_path_buf(),
                    line: line_number,
                    source,
                };
                match read {
                    TextLine::End => break,
                    TextLine::TooLong => return Err(text_err(TextError::TooLong(MAX_TEXT_LINE))),
                    TextLine::Line => {}
                }
                let line = String::from_utf8_lossy(&buf);
                if line.trim().is_empty() {
                    continue;
                }
                let record = bullet::from_text(&line).map_err(text_err)?;
                counts.positions += 1;
                counts.kept += 1;
                f(record);
            }
        }
    }
    Ok(counts)
}
