//! Building a book from PGN game collections, the way Polyglot's `make-book`
//! and GNU Chess's `book add` do: every position of every game up to a ply
//! limit counts the move played with the game's result from the mover's view;
//! weight = 2 x wins + draws; entries seen in too few games, or scoring too
//! little, are dropped.
//!
//! The games are cut apart on one thread and parsed, replayed and counted on
//! all of them (rayon), each worker with its own table, merged at the end.

use crate::{Book, BookError, BookMove, PolyMove};
use chess::Color;
use pgn::{GameResult, PgnError, RawGames, ReadOptions};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Games handed to a worker at a time.
const BATCH: usize = 64;

/// What goes into the book.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    /// Only positions up to this many plies from the game's start.
    pub max_ply: usize,
    /// Only moves played in at least this many games.
    pub min_games: u32,
    /// Only moves scoring at least this much for the side playing them
    /// ((wins + draws / 2) / games, from 0.0 to 1.0).
    pub min_score: f64,
    /// Only moves played by the side that went on to win the game.
    pub only_winners: bool,
    /// Keep at most this many errors in the summary (all are counted).
    pub max_errors_kept: usize,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 30,
            min_games: 1,
            min_score: 0.0,
            only_winners: false,
            max_errors_kept: 100,
        }
    }
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct BuildSummary {
    /// Games read and used.
    pub games: u64,
    /// Games skipped because they could not be read or replayed.
    pub bad_games: u64,
    /// Positions counted (at most `max_ply` per game).
    pub positions: u64,
    /// Distinct positions seen before filtering.
    pub unique_positions: u64,
    /// Distinct (position, move) pairs seen before filtering.
    pub entries_seen: u64,
    /// (position, move) entries in the finished book.
    pub entries: u64,
    /// Positions in the finished book.
    pub book_positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The first errors (file, error), up to `max_errors_kept`. Game numbers
    /// count tag sections (games without tags between two tagged games share
    /// the number of the text they are in).
    pub errors: Vec<(PathBuf, PgnError)>,
}

impl BuildSummary {
    /// Games (good and bad) per second.
    pub fn games_per_second(&self) -> f64 {
        (self.games + self.bad_games) as f64 / self.seconds.max(1e-9)
    }
}

/// Counts of one (position, move) pair.
#[derive(Clone, Copy, Default)]
struct Counts {
    wins: u32,
    draws: u32,
    losses: u32,
    unknown: u32,
}

impl Counts {
    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses + self.unknown
    }
}

/// Outcome codes of a record, from the mover's view.
const WIN: u8 = 0;
const DRAW: u8 = 1;
const LOSS: u8 = 2;
const UNKNOWN: u8 = 3;

/// One position-move-outcome occurrence packed for sorting: key in the high
/// 64 bits, then the Polyglot move, then the outcome code.
fn record(key: u64, mv: u16, outcome: u8) -> u128 {
    u128::from(key) << 64 | u128::from(mv) << 8 | u128::from(outcome)
}

/// One worker's tally. Occurrences are collected as packed records and
/// counted by sorting them, which is several times faster than a hash
/// table when most (position, move) pairs occur once.
#[derive(Default)]
struct Tally {
    records: Vec<u128>,
    games: u64,
    bad_games: u64,
    positions: u64,
    errors: Vec<(usize, PgnError)>,
}

impl Tally {
    fn merge(mut self, mut other: Tally, keep: usize) -> Tally {
        if other.records.len() > self.records.len() {
            std::mem::swap(&mut self.records, &mut other.records);
        }
        self.records.append(&mut other.records);
        self.games += other.games;
        self.bad_games += other.bad_games;
        self.positions += other.positions;
        self.errors.extend(other.errors);
        self.errors.sort_by_key(|(n, _)| *n);
        self.errors.truncate(keep);
        self
    }

    /// Counts the games of one raw chunk (game number `number` in its file).
    fn count(&mut self, raw: &pgn::RawGame, number: usize, options: &BuildOptions) {
        let read = ReadOptions {
            max_plies: Some(options.max_ply),
            ..ReadOptions::mainline()
        };
        for item in pgn::parse_games(raw, read) {
            let game = match item {
                Ok(g) => g,
                Err(mut e) => {
                    self.bad_games += 1;
                    e.game = number;
                    if self.errors.len() < options.max_errors_kept {
                        self.errors.push((number, e));
                    }
                    continue;
                }
            };
            self.games += 1;
            let winner = match game.result {
                GameResult::WhiteWins => Some(Color::White),
                GameResult::BlackWins => Some(Color::Black),
                _ => None,
            };
            if options.only_winners && winner.is_none() {
                continue;
            }
            let mut pos = game.start;
            for m in game.moves.iter().take(options.max_ply) {
                if m.mv.is_null() {
                    // After a pass the positions are no longer from play.
                    break;
                }
                let mover = pos.turn();
                if !options.only_winners || winner == Some(mover) {
                    let outcome = match (game.result, winner) {
                        (GameResult::Draw, _) => DRAW,
                        (GameResult::Unknown, _) => UNKNOWN,
                        (_, Some(w)) if w == mover => WIN,
                        _ => LOSS,
                    };
                    self.records
                        .push(record(pos.key(), PolyMove::from_move(m.mv).0, outcome));
                    self.positions += 1;
                }
                pos.play(m.mv);
            }
        }
    }
}

/// Builds a book from PGN files (`-` for standard input; compressed files
/// are recognised). `progress` is called now and then with the bytes of PGN
/// read so far. Broken games are counted and skipped; only a file that
/// cannot be read at all is an error.
pub fn build_from_pgn(
    paths: &[PathBuf],
    options: &BuildOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Book, BuildSummary), BookError> {
    let start = Instant::now();
    let bytes_done = AtomicU64::new(0);
    let mut total = Tally::default();
    let mut errors = Vec::new();
    for path in paths {
        let tally = build_file(path, options, &bytes_done, progress)?;
        errors.extend(tally.errors.iter().map(|(_, e)| (path.clone(), e.clone())));
        total = total.merge(tally, usize::MAX);
    }
    errors.truncate(options.max_errors_kept);

    let mut records = total.records;
    records.par_sort_unstable();
    let mut summary = BuildSummary {
        games: total.games,
        bad_games: total.bad_games,
        positions: total.positions,
        errors,
        ..BuildSummary::default()
    };
    let mut entries = Vec::new();
    let mut last_key = None;
    for run in records.chunk_by(|a, b| a >> 8 == b >> 8) {
        let key = (run[0] >> 64) as u64;
        let mv = (run[0] >> 8) as u16;
        if last_key != Some(key) {
            last_key = Some(key);
            summary.unique_positions += 1;
        }
        summary.entries_seen += 1;
        let mut c = Counts::default();
        for r in run {
            match (r & 0xff) as u8 {
                WIN => c.wins += 1,
                DRAW => c.draws += 1,
                LOSS => c.losses += 1,
                _ => c.unknown += 1,
            }
        }
        if c.games() < options.min_games {
            continue;
        }
        let decided = c.wins + c.draws + c.losses;
        let score = if decided == 0 {
            0.0
        } else {
            (f64::from(c.wins) + f64::from(c.draws) / 2.0) / f64::from(decided)
        };
        if score < options.min_score {
            continue;
        }
        entries.push((
            key,
            BookMove {
                mv: PolyMove(mv),
                weight: 2 * c.wins + c.draws,
                learn: 0,
                wins: c.wins,
                draws: c.draws,
                losses: c.losses,
            },
        ));
    }
    let book = Book::from_entries(entries);
    summary.entries = book.entry_count() as u64;
    summary.book_positions = book.position_count() as u64;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok((book, summary))
}

fn build_file(
    path: &Path,
    options: &BuildOptions,
    bytes_done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, BookError> {
    let reader = pgn::open(path).map_err(|source| BookError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let read_error = std::sync::Mutex::new(None);
    let keep = options.max_errors_kept;
    let mut raw_games = RawGames::new(reader).enumerate();
    // Games go to the workers in batches: one hand-over per game costs more
    // than counting a short game.
    let batches = std::iter::from_fn(|| {
        let mut batch = Vec::with_capacity(BATCH);
        for (i, raw) in raw_games.by_ref() {
            match raw {
                Ok(raw) => batch.push((i + 1, raw)),
                Err(e) => {
                    if let Ok(mut slot) = read_error.lock() {
                        *slot = Some(e);
                    }
                    break;
                }
            }
            if batch.len() == BATCH {
                break;
            }
        }
        (!batch.is_empty()).then_some(batch)
    });
    let tally = batches
        .par_bridge()
        .fold(Tally::default, |mut tally, batch| {
            let mut bytes = 0;
            for (number, raw) in &batch {
                tally.count(raw, *number, options);
                bytes += raw.text.len() as u64;
            }
            let done = bytes_done.fetch_add(bytes, Ordering::Relaxed);
            progress(done + bytes);
            tally
        })
        .reduce(Tally::default, |a, b| a.merge(b, keep));
    progress(bytes_done.load(Ordering::Relaxed));
    if let Some(e) = read_error.into_inner().ok().flatten() {
        return Err(BookError::Pgn {
            path: path.to_path_buf(),
            message: format!("read error after the games counted so far: {e}"),
        });
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;
    use std::io::Write;

    #[test]
    fn counts_results_from_the_movers_view() {
        let dir = std::env::temp_dir().join(format!("kestrel-book-build-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("g.pgn");
        let mut f = std::fs::File::create(&path).expect("create");
        write!(
            f,
            "[Result \"1-0\"]\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n1. e4 c5 0-1\n\n\
             [Result \"1/2-1/2\"]\n1. d4 d5 1/2-1/2\n\n[Result \"*\"]\n1. e4 Ke7?? *\n"
        )
        .expect("write");
        drop(f);
        let (book, summary) = build_from_pgn(
            std::slice::from_ref(&path),
            &BuildOptions::default(),
            &|_| {},
        )
        .expect("build");
        assert_eq!((summary.games, summary.bad_games), (3, 1));
        assert_eq!(summary.errors[0].1.game, 4);
        let start = Position::startpos();
        let c = book.candidates(&start);
        assert_eq!(c[0].san, "e4");
        assert_eq!((c[0].wins, c[0].draws, c[0].losses), (1, 0, 1));
        assert_eq!(c[0].weight, 2);
        assert_eq!((c[1].san.as_str(), c[1].weight), ("d4", 1));

        let only = BuildOptions {
            only_winners: true,
            ..BuildOptions::default()
        };
        let (book, _) = build_from_pgn(std::slice::from_ref(&path), &only, &|_| {}).expect("build");
        let mut after_e4 = start;
        after_e4.play(start.parse_san("e4").expect("legal"));
        let c = book.candidates(&after_e4);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].san, "c5");

        let strict = BuildOptions {
            min_games: 2,
            ..BuildOptions::default()
        };
        let (book, summary) = build_from_pgn(&[path], &strict, &|_| {}).expect("build");
        assert_eq!((summary.entries, book.entry_count()), (1, 1));
        std::fs::remove_dir_all(&dir).ok();
    }
}
