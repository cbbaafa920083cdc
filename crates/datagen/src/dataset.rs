//! Labelled positions: a position and the result of the game it came from.
//! Read from text files (`FEN | 1.0`, `FEN [0.5]`, EPD `c9 "1-0";` and
//! similar formats other tuners write) or taken from PGN games.

use std::io::Write;
use std::path::{Path, PathBuf};

use chess::Position;
use pgn::{GameResult, PgnReader, ReadOptions};
use trainingdata::source::{read_text_line, TextLine, MAX_TEXT_LINE};

use crate::quiet::quiet_leaf;

/// A position with the result of its game, from White's view (1, ½, 0).
#[derive(Clone, Copy, Debug)]
pub struct LabelledPosition {
    /// The position.
    pub pos: Position,
    /// White's score in the game: 1.0, 0.5 or 0.0.
    pub result: f32,
}

/// Training data Kestrel cannot read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file cannot be opened or read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A line is not a position with a result.
    #[error("{path}:{line}: {message} (expected `FEN | 1.0`, `FEN [0.5]` or `FEN c9 \"1-0\";`)")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Reads a result written as `1-0`, `0-1`, `1/2-1/2`, or a number 0, 0.5, 1.
fn parse_result(text: &str) -> Option<f32> {
    let t = text
        .trim()
        .trim_matches(|c| c == '"' || c == ';' || c == '[' || c == ']')
        .trim();
    match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "1/2" | "½-½" => Some(0.5),
        _ => t
            .parse::<f32>()
            .ok()
            .filter(|v| [0.0, 0.5, 1.0].contains(v)),
    }
}

/// Splits one line into its FEN and result.
fn parse_line(line: &str) -> Result<(Position, f32), String> {
    let (fen, result) = if let Some(i) = line.rfind('|') {
        (&line[..i], &line[i + 1..])
    } else if let Some(i) = line.rfind('[') {
        (&line[..i], &line[i..])
    } else if let Some(i) = line.find(" c9 ") {
        (&line[..i], &line[i + 4..])
    } else {
        // A FEN's six fields followed by the result.
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 2 {
            return Err("no result on the line".into());
        }
        let (fen, result) = fields.split_at(fields.len() - 1);
        return parse_line(&format!("{} | {}", fen.join(" "), result[0]));
    };
    let result =
        parse_result(result).ok_or_else(|| format!("`{}` is not a result", result.trim()))?;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    // EPD lines carry four fields; give them counters.
    let fen = if fields.len() == 4 {
        format!("{} 0 1", fields.join(" "))
    } else {
        fields.join(" ")
    };
    let pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN `{fen}`: {e}"))?;
    Ok((pos, result))
}

/// Reads a text file of labelled positions (empty lines and `#` comments skipped).
pub fn read_text(path: &Path) -> Result<Vec<LabelledPosition>, DataError> {
    let io = |e: std::io::Error| DataError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    // A file or a pipe; a device such as /dev/zero is refused at once.
    let file = engine::file::open_stream(path).map_err(io)?;
    let mut reader = std::io::BufReader::new(file);
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for n in 1.. {
        let read = read_text_line(&mut reader, &mut buf).map_err(io)?;
        let bad = |message: String| DataError::BadLine {
            path: path.to_path_buf(),
            line: n,
            message,
        };
        match read {
            TextLine::End => break,
            TextLine::TooLong => {
                return Err(bad(format!(
                    "the line is longer than {MAX_TEXT_LINE} bytes"
                )))
            }
            TextLine::Line => {}
        }
        let line = std::str::from_utf8(&buf).map_err(|_| bad("the line is not UTF-8".into()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, result) = parse_line(line).map_err(bad)?;
        out.push(LabelledPosition { pos, result });
    }
    Ok(out)
}

/// Writes positions as `FEN | result` lines.
pub fn write_text(out: &mut dyn Write, data: &[LabelledPosition]) -> std::io::Result<()> {
    for p in data {
        writeln!(out, "{} | {:.1}", p.pos.fen(), p.result)?;
    }
    Ok(())
}

/// Positions from the games of PGN files with a known result: every
/// position from ply `skip_plies` on, replaced by its quiet leaf (positions
/// in check are left out). Unreadable games are skipped and counted;
/// returns the positions, the games used and the games skipped.
pub fn from_pgn(
    paths: &[PathBuf],
    skip_plies: usize,
) -> Result<(Vec<LabelledPosition>, usize, usize), DataError> {
    let mut out = Vec::new();
    let mut games = 0;
    let mut skipped = 0;
    for path in paths {
        let reader = PgnReader::open(path, ReadOptions::mainline()).map_err(|e| DataError::Io {
            path: path.clone(),
            message: e.to_string(),
        })?;
        for game in reader {
            let Ok(game) = game else {
                skipped += 1;
                continue;
            };
            let result = match game.result {
                GameResult::WhiteWins => 1.0,
                GameResult::BlackWins => 0.0,
                GameResult::Draw => 0.5,
                GameResult::Unknown => continue,
            };
            games += 1;
            let mut pos = game.start;
            for (ply, m) in game.mainline().enumerate() {
                if ply >= skip_plies {
                    if let Some(leaf) = quiet_leaf(&pos) {
                        out.push(LabelledPosition { pos: leaf, result });
                    }
                }
                pgn::play(&mut pos, m);
            }
        }
    }
    Ok((out, games, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_format_is_read() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (line, want) in [
            (format!("{start} | 1.0"), 1.0),
            (format!("{start} [0.5]"), 0.5),
            (format!("{start} 0-1"), 0.0),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";".to_string(),
                0.5,
            ),
            (format!("{start}; 1"), 1.0),
        ] {
            let line = line.replace("; 1", " | 1");
            let (pos, r) = parse_line(&line).unwrap();
            assert_eq!(pos.fen(), start);
            assert_eq!(r, want, "{line}");
        }
        assert!(parse_line(&format!("{start} | 2"))
            .unwrap_err()
            .contains("not a result"));
        assert!(parse_line("nonsense | 1.0")
            .unwrap_err()
            .contains("bad FEN"));
    }

    #[test]
    fn a_file_is_read_line_by_line_and_an_endless_line_refused() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let path = std::env::temp_dir().join(format!("kestrel-dataset-{}.txt", std::process::id()));
        std::fs::write(&path, format!("# labelled\n\n{start} | 1.0\n{start} [0.5]")).unwrap();
        let read = read_text(&path).unwrap();
        assert_eq!(
            read.iter().map(|p| p.result).collect::<Vec<_>>(),
            [1.0, 0.5]
        );
        // 64 MiB without a line break: refused at its first line, and read
        // no further than the cap.
        let mut text = format!("{start} | 1.0\n").into_bytes();
        text.resize(64 << 20, b'x');
        std::fs::write(&path, &text).unwrap();
        let e = read_text(&path).unwrap_err().to_string();
        assert!(
            e.contains(":2:") && e.contains("longer than 512 bytes"),
            "{e}"
        );
        std::fs::write(&path, b"\xff\xfe | 1.0\n").unwrap();
        let e = read_text(&path).unwrap_err().to_string();
        assert!(e.contains(":1:") && e.contains("not UTF-8"), "{e}");
        let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("device"), "{e}");
        std::fs::remove_file(&path).ok();
    }
}
