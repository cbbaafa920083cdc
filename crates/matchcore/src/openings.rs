//! Opening positions read from files: EPD/FEN (one position a line) or PGN
//! games (the first N plies), taken in file order or shuffled by a seed, and
//! a small set compiled in. `kestrel match`, SPSA, the arena, ablation, the
//! GA and datagen's `--openings` all read their openings here.

use std::path::{Path, PathBuf};

use chess::{Move, Position};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
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

/// The order openings are taken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    /// As in the file.
    Sequential,
    /// Shuffled with a seed.
    Random,
}

/// The format of an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One FEN or EPD position per line.
    Epd,
    /// PGN games, of which the first `plies` moves are played.
    Pgn,
}

impl OpeningFormat {
    /// The format a file's name suggests: PGN for `.pgn`, else EPD.
    pub fn of_file(file: &Path) -> OpeningFormat {
        let pgn = file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if pgn {
            OpeningFormat::Pgn
        } else {
            OpeningFormat::Epd
        }
    }
}

/// Which openings to read and in what order (`kestrel match -openings`).
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsSpec {
    /// The file.
    pub file: PathBuf,
    /// Its format.
    pub format: OpeningFormat,
    /// Taken in file order or shuffled.
    pub order: OpeningOrder,
    /// For PGN, how many plies of each game (all when `None`).
    pub plies: Option<usize>,
    /// The first opening to use, counting from 1.
    pub start: usize,
}

impl OpeningsSpec {
    /// All of `file` in file order, its format from its name.
    pub fn file(file: PathBuf) -> OpeningsSpec {
        OpeningsSpec {
            format: OpeningFormat::of_file(&file),
            file,
            order: OpeningOrder::Sequential,
            plies: None,
            start: 1,
        }
    }
}

/// An openings file that cannot be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// It cannot be read.
    #[error("cannot read openings file {file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A line is not a position a game can start from.
    #[error("{file}:{line}: not a FEN or EPD position ({reason}): {text}")]
    BadLine {
        /// The file.
        file: String,
        /// The line number, from 1.
        line: usize,
        /// Why.
        reason: String,
        /// The line (its first 120 characters).
        text: String,
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
/// counters, if present, follow); a full six-field FEN keeps its counters,
/// and so does an EPD line with the `hmvc` (halfmove clock) and `fmvn`
/// (fullmove number) operations, as OpenBench's books and fastchess read
/// them (`... w - - hmvc 0; fmvn 10;` is move 10).
pub fn epd_position(line: &str) -> Result<Position, chess::FenError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let counters = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let take = if counters { 6 } else { fields.len().min(4) };
    let mut text: Vec<&str> = fields[..take]
        .iter()
        .map(|f| f.trim_end_matches(';'))
        .collect();
    if !counters && fields.len() > 4 {
        let operand = |op: &str| {
            fields[4..]
                .windows(2)
                .find(|w| w[0] == op)
                .map(|w| w[1].trim_end_matches(';'))
                .filter(|v| v.parse::<u32>().is_ok())
        };
        let (hmvc, fmvn) = (operand("hmvc"), operand("fmvn"));
        if hmvc.is_some() || fmvn.is_some() {
            text.push(hmvc.unwrap_or("0"));
            text.push(fmvn.unwrap_or("1"));
        }
    }
    Position::from_fen(&text.join(" "))
}

/// The positions of EPD/FEN `text` (`name` for messages): one a line, blank
/// lines and lines starting with `#` skipped. Positions with no legal move
/// are refused: no game can start there.
pub fn parse_positions(text: &str, name: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| OpeningsError::BadLine {
            file: name.to_string(),
            line: n + 1,
            reason,
            text: line.chars().take(120).collect(),
        };
        let pos = epd_position(line).map_err(|e| bad(e.to_string()))?;
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

/// Reads a file of EPD/FEN positions (see [`parse_positions`]).
pub fn read_positions(path: &Path) -> Result<Vec<Position>, OpeningsError> {
    let text = types::file::read_regular_text(path, MAX_EPD_FILE_LEN).map_err(|source| {
        OpeningsError::Read {
            file: path.display().to_string(),
            source,
        }
    })?;
    parse_positions(&text, &path.display().to_string())
}

/// The longest EPD openings file read (a regular file; about four million
/// positions), so that a device or a runaway file cannot fill the memory.
pub const MAX_EPD_FILE_LEN: u64 = 256 << 20;

const EMBEDDED: &str = include_str!("../data/openings.epd");

/// The 64 compiled-in openings (balanced 16-ply lines from "8moves_v3").
pub fn embedded() -> Vec<Position> {
    parse_positions(EMBEDDED, "<embedded>").expect("the embedded openings are valid")
}

/// `count` openings drawn from `all` in a random order fixed by `seed`
/// (cycling through the set again when more are wanted than it holds).
pub fn pick(all: &[Position], count: usize, seed: u64) -> Vec<Position> {
    let mut order: Vec<&Position> = all.iter().collect();
    // SmallRng (not load's StdRng): the arena's and the GA's orders for a
    // seed stay what they were before the two readers were merged.
    order.shuffle(&mut SmallRng::seed_from_u64(seed));
    order.iter().cycle().take(count).map(|p| **p).collect()
}

/// C++'s `std::mt19937_64`, the 64-bit Mersenne Twister (fastchess's
/// opening generator), so that a seed draws what it draws there.
struct Mt19937_64 {
    state: [u64; 312],
    next: usize,
}

impl Mt19937_64 {
    const N: usize = 312;
    const M: usize = 156;

    /// Seeded as `std::mt19937_64::seed(seed)` seeds it.
    fn new(seed: u64) -> Mt19937_64 {
        let mut state = [0u64; Self::N];
        state[0] = seed;
        for i in 1..Self::N {
            let prev = state[i - 1];
            state[i] = 6_364_136_223_846_793_005u64
                .wrapping_mul(prev ^ (prev >> 62))
                .wrapping_add(i as u64);
        }
        Mt19937_64 {
            state,
            next: Self::N,
        }
    }

    fn twist(&mut self) {
        const UPPER: u64 = 0xFFFF_FFFF_8000_0000;
        const LOWER: u64 = 0x7FFF_FFFF;
        const MATRIX: u64 = 0xB502_6F5A_A966_19E9;
        for i in 0..Self::N {
            let x = (self.state[i] & UPPER) | (self.state[(i + 1) % Self::N] & LOWER);
            let mag = if x & 1 == 1 { MATRIX } else { 0 };
            self.state[i] = self.state[(i + Self::M) % Self::N] ^ (x >> 1) ^ mag;
        }
        self.next = 0;
    }

    fn next_u64(&mut self) -> u64 {
        if self.next >= Self::N {
            self.twist();
        }
        let mut x = self.state[self.next];
        self.next += 1;
        x ^= (x >> 29) & 0x5555_5555_5555_5555;
        x ^= (x << 17) & 0x71D6_7FFF_EDA6_0000;
        x ^= (x << 37) & 0xFFF7_EEE0_0000_0000;
        x ^ (x >> 43)
    }
}

/// fastchess's shuffle of an opening book (its `Openings::shuffle`): a
/// Fisher-Yates pass from the front, each index drawn from a fresh
/// `std::mt19937_64` seeded with `seed` as `i + r % (n - i)`, so that
/// `-srand N order=random` takes the openings fastchess takes.
pub fn fastchess_shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = Mt19937_64::new(seed);
    let n = items.len();
    for i in 0..n.saturating_sub(1) {
        let j = i + (rng.next_u64() % (n - i) as u64) as usize;
        items.swap(i, j);
    }
}

/// Reads the openings `spec` names, ordered as it asks (`seed` shuffles as
/// fastchess does: [`fastchess_shuffle`]).
pub fn load(spec: &OpeningsSpec, seed: u64) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = match spec.format {
        OpeningFormat::Epd => read_positions(&spec.file)?
            .into_iter()
            .map(|start| Opening {
                start,
                moves: Vec::new(),
            })
            .collect(),
        OpeningFormat::Pgn => read_pgn(spec)?,
    };
    if spec.order == OpeningOrder::Random {
        fastchess_shuffle(&mut openings, seed);
    }
    // start=N begins at the Nth opening and wraps around.
    let first = (spec.start.max(1) - 1) % openings.len();
    openings.rotate_left(first);
    Ok(openings)
}

/// The games of a PGN file, each cut to `spec.plies`; never empty.
fn read_pgn(spec: &OpeningsSpec) -> Result<Vec<Opening>, OpeningsError> {
    let name = spec.file.display().to_string();
    // A file or a pipe, compressed or not; a device is refused at once.
    let reader = pgn::open(&spec.file).map_err(|source| OpeningsError::Read {
        file: name.clone(),
        source,
    })?;
    let mut openings = Vec::new();
    for game in pgn::PgnReader::new(reader) {
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
    if openings.is_empty() {
        return Err(OpeningsError::Empty(name));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_at_once_as_epd_and_as_pgn() {
        let e = super::read_positions(std::path::Path::new("/dev/zero")).expect_err("a device");
        assert!(e.to_string().contains("a character device"), "{e}");
        let mut spec = super::OpeningsSpec::file("/dev/zero".into());
        spec.format = super::OpeningFormat::Pgn;
        let e = super::load(&spec, 1).expect_err("a device");
        assert!(e.to_string().contains("a character device"), "{e}");
    }

    use super::*;

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
        let path =
            std::env::temp_dir().join(format!("kestrel-matchcore-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn embedded_openings_are_playable() {
        let all = embedded();
        assert_eq!(all.len(), 64);
        assert!(all.iter().all(chess::Position::has_legal_moves));
    }

    #[test]
    fn fen_and_epd_lines_are_read() {
        let text = "# a comment\n\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
            2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
            8/8/4k3/8/2K1P3/8/8/8 w - -\n\
            8/8/8/8/8/8/8/K1k5 w - - 3 40;\n";
        let all = parse_positions(text, "t").unwrap();
        assert_eq!(all.len(), 4);
        assert_eq!(all[0].turn(), chess::Color::Black);
        assert_eq!(all[3].fullmove_number(), 40);
    }

    #[test]
    fn epd_move_counter_operations_are_kept() {
        // OpenBench's books: counters as hmvc/fmvn operations, in any order.
        let p =
            epd_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 3; fmvn 10;")
                .unwrap();
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 10"
        );
        let p = epd_position("8/8/4k3/8/2K1P3/8/8/8 w - - fmvn 57; id \"x\"; hmvc 12;").unwrap();
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (12, 57));
        let p = epd_position("8/8/4k3/8/2K1P3/8/8/8 w - - fmvn 57;").unwrap();
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 57));
        // No counters at all: 0 1, as before.
        let p = epd_position("8/8/4k3/8/2K1P3/8/8/8 w - - bm Kd5;").unwrap();
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1));
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
        let mut from_second = spec(&pgn, OpeningFormat::Pgn, OpeningOrder::Sequential);
        from_second.start = 2;
        let o = load(&from_second, 0).unwrap();
        assert_eq!(
            (o[0].moves.len(), o[1].moves.len()),
            (2, 3),
            "start=2 wraps"
        );
    }

    #[test]
    fn bad_lines_name_the_line() {
        let epd = temp("bad.epd", "8/8/8/8/8/8/8/K1k5 w - -\nnot a fen\n");
        let e = load(&spec(&epd, OpeningFormat::Epd, OpeningOrder::Sequential), 0).unwrap_err();
        assert!(e.to_string().contains(":2: not a FEN"), "{e}");
        let empty = temp("empty.epd", "\n");
        assert!(matches!(
            load(
                &spec(&empty, OpeningFormat::Epd, OpeningOrder::Sequential),
                0
            ),
            Err(OpeningsError::Empty(_))
        ));
        assert!(matches!(
            parse_positions("# nothing\n", "e").unwrap_err(),
            OpeningsError::Empty(_)
        ));
        // Mated: no game can start here.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert!(parse_positions(mated, "m").is_err());
        assert!(read_positions(Path::new("/nonexistent/openings.epd")).is_err());
        let pgn = temp("bad.pgn", "");
        assert!(load(&spec(&pgn, OpeningFormat::Pgn, OpeningOrder::Sequential), 0).is_err());
    }

    #[test]
    fn the_twister_is_cpps_mt19937_64() {
        // The C++ standard's check: the 10000th number of a default-seeded
        // std::mt19937_64 (seed 5489).
        let mut rng = Mt19937_64::new(5489);
        let tenth_thousand = (0..10_000).map(|_| rng.next_u64()).last();
        assert_eq!(tenth_thousand, Some(9_981_545_732_273_789_042));
    }

    #[test]
    fn the_shuffle_moves_what_fastchess_moves() {
        // fastchess's loop over a seeded std::mt19937_64, run in C++ for
        // 0..10 and seed 42.
        let mut order: Vec<u32> = (0..10).collect();
        fastchess_shuffle(&mut order, 42);
        assert_eq!(order, [6, 0, 4, 7, 9, 8, 1, 3, 5, 2]);
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
