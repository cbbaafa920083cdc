//! Opening positions for matches: a small set compiled in, or a file of
//! FEN/EPD lines (`../shared/data/openings.epd` has 34,700 balanced ones).

use std::path::Path;

use chess::Position;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// An openings file Kestrel cannot use.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("cannot read openings file {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a position.
    #[error("{path}, line {line}: not a FEN or EPD position ({reason}): {text}")]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What the FEN parser said.
        reason: String,
        /// The line.
        text: String,
    },
    /// No positions in the file.
    #[error("{0} holds no positions (one FEN or EPD position a line expected)")]
    Empty(String),
}

const EMBEDDED: &str = include_str!("../data/openings.epd");

/// The 64 compiled-in openings (balanced 16-ply lines from "8moves_v3").
pub fn embedded() -> Vec<Position> {
    parse(EMBEDDED, "<embedded>").expect("the embedded openings are valid")
}

/// Reads a file of positions, one a line: a FEN (4 to 6 fields) or an EPD
/// line (4 fields, then operations, which are ignored). Blank lines and
/// lines starting with `#` are skipped. Positions with no legal move are
/// refused (a game cannot start there).
pub fn load(path: &Path) -> Result<Vec<Position>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
        path: path.display().to_string(),
        source,
    })?;
    parse(&text, &path.display().to_string())
}

fn parse(text: &str, name: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        // EPD: 4 fields then operations; FEN: the counters follow.
        let counters = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
        let fen = if counters {
            fields[..6].join(" ").trim_end_matches(';').to_string()
        } else {
            fields[..fields.len().min(4)].join(" ")
        };
        let bad = |reason: String| OpeningsError::Line {
            path: name.to_string(),
            line: n + 1,
            reason,
            text: line.chars().take(120).collect(),
        };
        let pos = Position::from_fen(&fen).map_err(|e| bad(e.to_string()))?;
        if !pos.has_legal_moves() {
            return Err(bad("the game is already over".into()));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty(name.to_string()));
    }
    Ok(out)
}

/// `count` openings drawn from `all` in a random order fixed by `seed`
/// (cycling through the set again when more are wanted than it holds).
pub fn pick(all: &[Position], count: usize, seed: u64) -> Vec<Position> {
    let mut order: Vec<&Position> = all.iter().collect();
    order.shuffle(&mut SmallRng::seed_from_u64(seed));
    order.iter().cycle().take(count).map(|p| **p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_openings_are_playable() {
        let all = embedded();
        assert_eq!(all.len(), 64);
        assert!(all.iter().all(|p| p.has_legal_moves()));
    }

    #[test]
    fn fen_and_epd_lines_are_read() {
        let text = "# a comment\n\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
            2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
            8/8/4k3/8/2K1P3/8/8/8 w - -\n";
        let all = parse(text, "t").unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].turn(), chess::Color::Black);
    }

    #[test]
    fn bad_lines_name_the_line() {
        let e = parse("8/8/4k3/8/2K1P3/8/8/8 w - -\nnot a fen\n", "f.epd").unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("f.epd, line 2"), "{msg}");
        assert!(matches!(
            parse("# nothing\n", "e").unwrap_err(),
            OpeningsError::Empty(_)
        ));
        // Mated: no game can start here.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert!(parse(mated, "m").is_err());
        assert!(load(Path::new("/nonexistent/openings.epd")).is_err());
    }

    #[test]
    fn pick_is_reproducible_and_cycles() {
        let all = embedded();
        let a = pick(&all, 100, 7);
        let b = pick(&all, 100, 7);
        assert_eq!(a.len(), 100);
        assert!(a.iter().zip(&b).all(|(x, y)| x.key() == y.key()));
        assert_eq!(a[0].key(), a[64].key());
    }
}
