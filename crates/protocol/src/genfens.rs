//! OpenBench's `genfens` command: random openings for DATAGEN workloads.
//!
//! OpenBench's client runs `./kestrel "genfens N seed S book <None|FILE> [extra]" "quit"`
//! and reads the lines `info string genfens <FEN>`: N openings, the same
//! ones for the same seed. Each is the start position followed by 8 or 9
//! random plies, or a random book position followed by 2 or 3 (both an
//! even and an odd count, so that both sides get to move first), that is
//! not over, not in check, and that a short search does not call lost for
//! either side. The client needs every FEN with all six fields; words after
//! the book are accepted and ignored.

use std::ops::RangeInclusive;
use std::path::PathBuf;

use chess::Position;
use engine::{soft_nodes, Engine};
use matchcore::openings::OpeningsError;
use rand::rngs::SmallRng;
use rand::SeedableRng;

use matchcore::random_openings::OpeningSource;

/// Random plies after the start position.
pub const STARTPOS_PLIES: RangeInclusive<usize> = 8..=9;
/// Random plies after a book position.
pub const BOOK_PLIES: RangeInclusive<usize> = 2..=3;
/// Soft node limit of the check search.
const CHECK_NODES: u64 = 4000;
/// Openings the check search scores this far from zero (centipawns) or
/// further are replaced: a game from a lost position teaches little.
pub const MAX_OPENING_SCORE: i32 = 600;

/// A parsed `genfens` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    /// How many openings.
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// The EPD book (`None`: the start position).
    pub book: Option<PathBuf>,
}

/// What is wrong with a `genfens` command.
#[derive(Debug, thiserror::Error)]
pub enum GenfensError {
    /// The count is missing or not a number.
    #[error("genfens needs a count: genfens N seed S book <None|FILE>; got '{0}'")]
    Count(String),
    /// A keyword has no value.
    #[error("genfens: '{0}' needs a value")]
    MissingValue(&'static str),
    /// The seed is not a number.
    #[error("genfens: seed '{0}' is not a number from 0 to 2^64-1")]
    Seed(String),
    /// The book cannot be used.
    #[error("genfens: {0}")]
    Book(#[from] OpeningsError),
    /// No playable opening could be made.
    #[error("genfens: no playable opening found after {0} attempts; try another book")]
    NoOpening(usize),
}

impl GenfensRequest {
    /// Parses the words after `genfens`: `N seed S book <None|FILE> [extra]`
    /// (`seed` and `book` in any order; both optional).
    pub fn parse(words: &[&str]) -> Result<GenfensRequest, GenfensError> {
        let first = words.first().copied().unwrap_or("");
        let count = first
            .parse::<usize>()
            .map_err(|_| GenfensError::Count(first.to_string()))?;
        let mut request = GenfensRequest {
            count,
            seed: 0,
            book: None,
        };
        let mut i = 1;
        while i < words.len() {
            match words[i] {
                "seed" => {
                    let value = words.get(i + 1).ok_or(GenfensError::MissingValue("seed"))?;
                    request.seed = value
                        .parse()
                        .map_err(|_| GenfensError::Seed(value.to_string()))?;
                    i += 2;
                }
                "book" => {
                    let value = words.get(i + 1).ok_or(GenfensError::MissingValue("book"))?;
                    request.book =
                        (!value.eq_ignore_ascii_case("none")).then(|| PathBuf::from(value));
                    i += 2;
                }
                // Extra words (OpenBench passes the workload's own options).
                _ => i += 1,
            }
        }
        Ok(request)
    }
}

/// Makes the openings `request` asks for and hands each FEN to `emit` as
/// soon as it is made (OpenBench's client waits at most 15 s for each
/// line, not for all of them). With an engine, each opening is checked by a
/// short search and replaced when it looks lost for either side; the
/// engine's table and history are cleared before each check, so the output
/// depends only on the request (and the engine's options).
pub fn generate(
    request: &GenfensRequest,
    mut engine: Option<&mut Engine>,
    mut emit: impl FnMut(String),
) -> Result<(), GenfensError> {
    let source = match &request.book {
        Some(path) => OpeningSource::from_book(path, BOOK_PLIES)?,
        None => OpeningSource::random(STARTPOS_PLIES),
    };
    let mut rng = SmallRng::seed_from_u64(request.seed);
    let attempts = 100 * request.count.max(1);
    let (mut made, mut tried) = (0, 0);
    while made < request.count {
        if tried == attempts {
            return Err(GenfensError::NoOpening(attempts));
        }
        tried += 1;
        let Some(game) = source.generate(&mut rng) else {
            continue;
        };
        let pos: Position = *game.position();
        if let Some(engine) = engine.as_deref_mut() {
            engine.new_game();
            let found = soft_nodes::search(engine, &pos, &[], CHECK_NODES);
            if found.score.abs() >= MAX_OPENING_SCORE {
                continue;
            }
        }
        emit(pos.fen());
        made += 1;
    }
    Ok(())
}

/// The openings `request` asks for, as FENs (see [`generate`]).
pub fn fens(
    request: &GenfensRequest,
    engine: Option<&mut Engine>,
) -> Result<Vec<String>, GenfensError> {
    let mut fens = Vec::with_capacity(request.count);
    generate(request, engine, |fen| fens.push(fen))?;
    Ok(fens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(text: &str) -> GenfensRequest {
        let words: Vec<&str> = text.split_whitespace().collect();
        GenfensRequest::parse(&words).unwrap()
    }

    #[test]
    fn openbench_commands_parse() {
        let r = request("10 seed 5 book None ");
        assert_eq!(
            r,
            GenfensRequest {
                count: 10,
                seed: 5,
                book: None
            }
        );
        let r = request("3 seed 18446744073709551615 book Books/UHO.epd extra words");
        assert_eq!(r.seed, u64::MAX);
        assert_eq!(r.book, Some(PathBuf::from("Books/UHO.epd")));
        assert!(GenfensRequest::parse(&["x"]).is_err());
        assert!(GenfensRequest::parse(&["3", "seed"]).is_err());
        assert!(GenfensRequest::parse(&["3", "seed", "-1"]).is_err());
    }

    #[test]
    fn openings_are_deterministic_per_seed() {
        let a = fens(&request("12 seed 5 book None"), None).unwrap();
        let b = fens(&request("12 seed 5 book None"), None).unwrap();
        let c = fens(&request("12 seed 6 book None"), None).unwrap();
        assert_eq!(a.len(), 12);
        assert_eq!(a, b);
        assert_ne!(a, c);
        for fen in &a {
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
            let pos = Position::from_fen(fen).unwrap();
            assert!(pos.has_legal_moves() && !pos.in_check());
        }
        let white = a.iter().filter(|f| f.contains(" w ")).count();
        assert!(white > 0 && white < a.len(), "both sides to move: {a:?}");
    }

    #[test]
    fn checked_openings_are_balanced_and_deterministic() {
        let mut engine = Engine::new();
        let a = fens(&request("4 seed 9 book None"), Some(&mut engine)).unwrap();
        let b = fens(&request("4 seed 9 book None"), Some(&mut engine)).unwrap();
        assert_eq!(a, b);
        for fen in &a {
            let pos = Position::from_fen(fen).unwrap();
            engine.new_game();
            let found = soft_nodes::search(&mut engine, &pos, &[], CHECK_NODES);
            assert!(found.score.abs() < MAX_OPENING_SCORE);
        }
    }

    #[test]
    fn a_book_is_sampled_and_a_missing_one_named() {
        let dir = std::env::temp_dir().join(format!("genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.epd");
        std::fs::write(
            &book,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
             rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
        )
        .unwrap();
        let text = format!("5 seed 1 book {}", book.display());
        let made = fens(&request(&text), None).unwrap();
        assert_eq!(made.len(), 5);
        for fen in &made {
            assert!(fen.ends_with(" 2") || fen.ends_with(" 3"), "{fen}");
        }
        let e = fens(&request("1 seed 1 book /nonexistent/book.epd"), None).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/book.epd"), "{e}");
    }
}
