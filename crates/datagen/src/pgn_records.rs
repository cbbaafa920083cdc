//! Training records from PGN games whose moves carry the engine's score in
//! a comment, as OpenBench's DATAGEN workers, cutechess-cli, fastchess and
//! `kestrel match -pgnout` write them: `{+0.35/12 0.2s}`, `{-1.20/9}`,
//! `{+M5/20 0.1s}`. The score is the mover's, from the position before the
//! move; the move played stands for the best move in the filter. Moves
//! without a score (book moves) are skipped, and so are games without a
//! result.

use std::io::Write;
use std::path::{Path, PathBuf};

use chess::Color;
use engine::Score;
use pgn::{PgnGame, PgnReader, ReadOptions};
use trainingdata::{RecordResult, RecordWriter, TrainingRecord};

use trainingdata::PositionFilter;
use trainingdata::SkipCounts;

/// Counts of one conversion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnConversion {
    /// Games read.
    pub games: u64,
    /// Games skipped: no result (`*`).
    pub games_without_result: u64,
    /// Games the PGN reader refused (reported to `warn`).
    pub bad_games: u64,
    /// Records written.
    pub records: u64,
    /// Moves without a score comment.
    pub unscored_moves: u64,
    /// Scored positions left out by the filter.
    pub skipped: SkipCounts,
}

/// The records of one game (empty for a game without a result).
pub fn game_records(
    game: &PgnGame,
    filter: &PositionFilter,
    counts: &mut PgnConversion,
) -> Vec<TrainingRecord> {
    let result = match game.result {
        pgn::GameResult::WhiteWins => RecordResult::WhiteWin,
        pgn::GameResult::BlackWins => RecordResult::BlackWin,
        pgn::GameResult::Draw => RecordResult::Draw,
        pgn::GameResult::Unknown => {
            counts.games_without_result += 1;
            return Vec::new();
        }
    };
    let mut records = Vec::new();
    let mut pos = game.start;
    for m in &game.moves {
        let score = m.comments.iter().find_map(|c| Score::from_pgn_comment(c));
        match score {
            None => counts.unscored_moves += 1,
            Some(score) if !m.mv.is_null() => {
                // Mates are filtered out like the engine's own mate scores.
                let cp = match score {
                    Score::Cp(cp) => cp,
                    Score::Mate(_) => i32::MAX,
                };
                match filter.check(&pos, m.mv, cp) {
                    Ok(()) => {
                        let white = if pos.turn() == Color::White { cp } else { -cp };
                        records.push(TrainingRecord::from_position(&pos, white as i16, result));
                    }
                    Err(skip) => counts.skipped.count(skip),
                }
            }
            Some(_) => {}
        }
        pgn::play(&mut pos, m.mv);
    }
    records
}

/// Converts the games of `inputs` to records appended to `writer`; games
/// the reader refuses are described to `warn` and skipped.
pub fn convert<W: Write>(
    inputs: &[PathBuf],
    filter: &PositionFilter,
    writer: &mut RecordWriter<W>,
    mut warn: impl FnMut(&Path, &pgn::PgnError),
) -> Result<PgnConversion, PgnConvertError> {
    let mut counts = PgnConversion::default();
    let options = ReadOptions {
        variations: false,
        comments: true,
        max_plies: None,
    };
    for input in inputs {
        let reader = PgnReader::open(input, options).map_err(|source| PgnConvertError::Open {
            path: input.clone(),
            source,
        })?;
        for game in reader {
            counts.games += 1;
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    counts.bad_games += 1;
                    warn(input, &e);
                    continue;
                }
            };
            for record in game_records(&game, filter, &mut counts) {
                writer.write(&record).map_err(PgnConvertError::Write)?;
                counts.records += 1;
            }
        }
    }
    writer.flush().map_err(PgnConvertError::Write)?;
    Ok(counts)
}

/// Why a PGN conversion stopped.
#[derive(Debug, thiserror::Error)]
pub enum PgnConvertError {
    /// A PGN file cannot be opened.
    #[error("cannot open PGN {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The output cannot be written.
    #[error("cannot write the training data: {0}")]
    Write(std::io::Error),
}
