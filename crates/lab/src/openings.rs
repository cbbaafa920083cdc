//! Opening positions for a match: from an EPD/FEN file (one position per
//! line) or from PGN games (the first N plies), in file order or shuffled.

use crate::cli_args::{OpeningFormat, OpeningOrder, OpeningsSpec};
use chess::{Move, Position};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fs;
use std::io::BufReader;
use thiserror::Error;

/// Where a game starts: a position and the book moves played from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The first position.
    pub start: Position,
    /// Moves played before the engines think.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard starting position, no moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }
}

/// An openings file that cannot be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// It cannot be read.
    #[error("cannot read openings file {file}: {reason}")]
    Read {
        /// The file.
        file: String,
        /// The system's reason.
        reason: String,
    },
    /// A line is not a position.
    #[error("{file}:{line}: not a FEN/EPD position ({reason})")]
    BadLine {
        /// The file.
        file: String,
        /// The line number.
        line: usize,
        /// Why.
        reason: String,
    },
    /// A PGN game is broken.
    #[error("{file}: {reason}")]
    BadGame {
        /// The file.
        file: String,
        /// The reader's message.
        reason: String,
    },
    /// Nothing in it.
    #[error("openings file {0} holds no openings")]
    Empty(String),
}

/// The position of an EPD line: its first four fields (operations and the
/// counters, if present, follow); a full six-field FEN keeps its counters.
pub fn epd_position(line: &str) -> Result<Position, chess::FenError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let counters = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let take = if counters { 6 } else { fields.len().min(4) };
    let text: Vec<&str> = fields[..take]
        .iter()
        .map(|f| f.trim_end_matches(';'))
        .collect();
    Position::from_fen(&text.join(" "))
}

/// Reads the openings `spec` names, ordered as it asks (`seed` shuffles).
pub fn load(spec: &OpeningsSpec, seed: u64) -> Result<Vec<Opening>, OpeningsError> {
    let name = spec.file.display().to_string();
    let read_err = |e: std::io::Error| OpeningsError::Read {
        file: name.clone(),
        reason: e.to_string(),
    };
    let mut openings = Vec::new();
    match spec.format {
        OpeningFormat::Epd => {
            let text = fs::read_to_string(&spec.file).map_err(read_err)?;
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let start = epd_position(line).map_err(|e| OpeningsError::BadLine {
                    file: name.clone(),
                    line: i + 1,
                    reason: e.to_string(),
                })?;
                openings.push(Opening {
                    start,
                    moves: Vec::new(),
                });
            }
        }
        OpeningFormat::Pgn => {
            let file = fs::File::open(&spec.file).map_err(read_err)?;
            for game in pgn::PgnReader::new(BufReader::new(file)) {
                let game = game.map_err(|e| OpeningsError::BadGame {
                    file: name.clone(),
                    reason: e.to_string(),
                })?;
                let plies = spec.plies.unwrap_or(usize::MAX);
                let moves: Vec<Move> = game
                    .moves
                    .iter()
                    .map(|m| m.mv)
                    .take_while(|m| !m.is_null())
                    .take(plies)
                    .collect();
                openings.push(Opening {
                    start: game.start,
                    moves,
                });
            }
        }
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty(name));
    }
    if spec.order == OpeningOrder::Random {
        openings.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    }
    // start=N begins at the Nth opening and wraps around.
    let first = (spec.start - 1) % openings.len();
    openings.rotate_left(first);
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn spec(file: &str, format: OpeningFormat, order: OpeningOrder) -> OpeningsSpec {
        OpeningsSpec {
            file: PathBuf::from(file),
            format,
            order,
            plies: Some(3),
            start: 1,
        }
    }

    fn temp(name: &str, text: &str) -> String {
        let path = std::env::temp_dir().join(format!("kestrel-lab-{}-{name}", std::process::id()));
        fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn epd_lines_and_pgn_prefixes() {
        let epd = temp(
            "o.epd",
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n\
             8/8/8/8/8/8/8/K1k5 w - - 3 40\n",
        );
        let o = load(&spec(&epd, OpeningFormat::Epd, OpeningOrder::Sequential), 0).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].start.fullmove_number(), 40);
        let pgn = temp("o.pgn", "1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 *\n");
        let o = load(&spec(&pgn, OpeningFormat::Pgn, OpeningOrder::Sequential), 0).unwrap();
        assert_eq!(o[0].moves.len(), 3);
        assert_eq!(o[1].moves.len(), 2);
        let shuffled =
            |seed| load(&spec(&epd, OpeningFormat::Epd, OpeningOrder::Random), seed).unwrap();
        assert_eq!(shuffled(5), shuffled(5), "a seed gives one order");
    }

    #[test]
    fn bad_lines_name_the_line() {
        let epd = temp("bad.epd", "8/8/8/8/8/8/8/K1k5 w - -\nnot a fen\n");
        let e = load(&spec(&epd, OpeningFormat::Epd, OpeningOrder::Sequential), 0).unwrap_err();
        assert!(e.to_string().contains(":2: not a FEN"), "{e}");
        let empty = temp("empty.epd", "\n");
        assert!(load(
            &spec(&empty, OpeningFormat::Epd, OpeningOrder::Sequential),
            0
        )
        .is_err());
    }
}
