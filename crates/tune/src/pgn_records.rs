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
use pgn::{PgnGame, PgnReader, ReadOptions};
use trainingdata::{GameResult, RecordWriter, TrainingRecord};

use crate::datagen::SkipCounts;
use crate::filter::PositionFilter;

/// A score read from a move comment, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The score at the start of a move comment: `+0.35`, `-1.20/12 0.2s`,
/// `0.00/0`, `+M5/20`, `-M3`; `None` for any other comment (`book`, text).
pub fn parse_comment_score(comment: &str) -> Option<CommentScore> {
    let first = comment.split_whitespace().next()?;
    let value = first.split('/').next()?.trim_end_matches(',');
    let (negative, digits) = match value.as_bytes().first()? {
        b'+' => (false, &value[1..]),
        b'-' => (true, &value[1..]),
        _ => (false, value),
    };
    if let Some(moves) = digits
        .strip_prefix('M')
        .or_else(|| digits.strip_prefix('#'))
    {
        let n: i32 = moves.parse().ok()?;
        return Some(CommentScore::Mate(if negative { -n } else { n }));
    }
    // Pawns with a decimal point: the digits before and after it.
    let (whole, frac) = digits.split_once('.')?;
    if whole.is_empty()
        || frac.is_empty()
        || !(whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let pawns: f64 = digits.parse().ok()?;
    let cp = (pawns * 100.0).round();
    if !(0.0..=1e6).contains(&cp) {
        return None;
    }
    let cp = cp as i32;
    Some(CommentScore::Cp(if negative { -cp } else { cp }))
}

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
        pgn::GameResult::WhiteWins => GameResult::WhiteWin,
        pgn::GameResult::BlackWins => GameResult::BlackWin,
        pgn::GameResult::Draw => GameResult::Draw,
        pgn::GameResult::Unknown => {
            counts.games_without_result += 1;
            return Vec::new();
        }
    };
    let mut records = Vec::new();
    let mut pos = game.start;
    for m in &game.moves {
        let score = m.comments.iter().find_map(|c| parse_comment_score(c));
        match score {
            None => counts.unscored_moves += 1,
            Some(score) if !m.mv.is_null() => {
                // Mates are filtered out like the engine's own mate scores.
                let cp = match score {
                    CommentScore::Cp(cp) => cp,
                    CommentScore::Mate(_) => i32::MAX,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_scores_in_the_usual_forms() {
        use CommentScore::*;
        assert_eq!(parse_comment_score("+0.35/12 0.2s"), Some(Cp(35)));
        assert_eq!(parse_comment_score("-1.20/9 0.105s"), Some(Cp(-120)));
        assert_eq!(parse_comment_score("0.00/0 0s"), Some(Cp(0)));
        assert_eq!(parse_comment_score("+12.07/30"), Some(Cp(1207)));
        assert_eq!(parse_comment_score("-0.05"), Some(Cp(-5)));
        assert_eq!(parse_comment_score("+M5/20 0.1s"), Some(Mate(5)));
        assert_eq!(parse_comment_score("-M3"), Some(Mate(-3)));
        assert_eq!(parse_comment_score("+0.35/12, 0.2s"), Some(Cp(35)));
        assert_eq!(parse_comment_score("book"), None);
        assert_eq!(parse_comment_score("White mates"), None);
        assert_eq!(parse_comment_score("1.5s"), None);
        assert_eq!(parse_comment_score("12"), None);
        assert_eq!(parse_comment_score(""), None);
    }
}
