//! Building a book from PGN game collections, the way Polyglot's `make-book`
//! and GNU Chess's `book add` do: every position of every game up to a ply
//! limit counts the move played with the game's result from the mover's view;
//! weight = 2 x wins + draws; entries seen in too few games, or scoring too
//! little, are dropped.
//!
//! The input is cut into blocks of whole games (cheap: no parsing), and the
//! blocks are read on all threads (rayon): plain games straight from the
//! block's text, the others split off and parsed, each replayed once, each
//! worker filing its records into 256 buckets by key as it makes them. Each
//! bucket is then sorted and counted on its own, the workers' parts of it
//! gathered into one buffer per thread that stays in cache, so that no step
//! of the build runs on one thread alone and the records are stored once.

use crate::{Book, BookError, BookMove, PolyMove};
use chess::Color;
use pgn::{Blocks, GameResult, PgnError, ReadOptions};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

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

/// Outcome codes, from the mover's view, and the code of a record that
/// does not count (its game was not read to the end, or `only_winners`
/// leaves it out).
const WIN: u8 = 0;
const DRAW: u8 = 1;
const LOSS: u8 = 2;
const UNKNOWN: u8 = 3;
const SKIP: u8 = 4;

/// How a game ended, as kept per game id: the results, and `VOID` for an id
/// whose game was not read to the end (its records do not count).
const WHITE_WINS: u8 = 0;
const BLACK_WINS: u8 = 1;
const DRAWN: u8 = 2;
const UNFINISHED: u8 = 3;
const VOID: u8 = 4;

fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::WhiteWins => WHITE_WINS,
        GameResult::BlackWins => BLACK_WINS,
        GameResult::Draw => DRAWN,
        GameResult::Unknown => UNFINISHED,
    }
}

/// The outcome code of a record, by its game's result code and its mover
/// (0 White, 1 Black).
type OutcomeTable = [[u8; 2]; 5];

fn outcome_table(options: &BuildOptions) -> OutcomeTable {
    let decisive = |winner: usize| {
        let mut row = [LOSS; 2];
        row[winner] = WIN;
        if options.only_winners {
            row[1 - winner] = SKIP;
        }
        row
    };
    let undecided = |code| {
        if options.only_winners {
            [SKIP; 2]
        } else {
            [code; 2]
        }
    };
    [
        decisive(0),
        decisive(1),
        undecided(DRAW),
        undecided(UNKNOWN),
        [SKIP; 2],
    ]
}

/// Games get ids below this (40 bits in a record).
const MAX_GAMES: u64 = 1 << 40;

/// One position-move occurrence packed for sorting: key in the high 64
/// bits, then the Polyglot move, the game's id and the mover (0 White, 1
/// Black). Records are made as moves are replayed, before the game's result
/// is known; the result is looked up by the game's id when counting.
fn record(key: u64, mv: u16, game: u64, mover: Color) -> u128 {
    debug_assert!(game < MAX_GAMES);
    u128::from(key) << 64 | u128::from(mv) << 48 | u128::from(game) << 8 | mover.index() as u128
}

/// A record's outcome code: its game's result seen from its mover.
#[inline]
fn record_outcome(r: u128, results: &[u8], table: &OutcomeTable) -> u8 {
    table[usize::from(results[record_game(r)])][(r & 1) as usize]
}

/// The game id of a record (masked as `u64`: `usize` may be 32 bits, as
/// in WebAssembly, where a build holds far fewer games anyway).
fn record_game(r: u128) -> usize {
    ((r >> 8) as u64 & (MAX_GAMES - 1)) as usize
}

/// A main-line move as the parser replays it: what a record needs before
/// the game's result is known.
#[derive(Clone, Copy)]
struct Seen {
    key: u64,
    mv: chess::Move,
    mover: Color,
}

impl Seen {
    fn new(pos: &chess::Position, mv: chess::Move) -> Seen {
        Seen {
            key: pos.key(),
            mv,
            mover: pos.turn(),
        }
    }
}

/// How many buckets the records are filed in: one per top byte of the key.
const BUCKETS: usize = 256;

/// Records are stored in chunks of this many (64 KB): a full chunk is set
/// aside and a new one started, so records are never copied to grow a
/// vector.
const CHUNK: usize = 4096;

/// One worker's records filed by [`bucket_of`], so that each bucket can be
/// counted on its own without a pass to regroup them.
struct Buckets {
    /// Each bucket's chunk being filled.
    open: Vec<Vec<u128>>,
    /// Each bucket's full chunks.
    full: Vec<Vec<Vec<u128>>>,
}

impl Default for Buckets {
    fn default() -> Buckets {
        Buckets {
            open: vec![Vec::new(); BUCKETS],
            full: vec![Vec::new(); BUCKETS],
        }
    }
}

impl Buckets {
    #[inline(always)]
    fn push(&mut self, r: u128) {
        let b = bucket_of(&r);
        if self.open[b].len() == self.open[b].capacity() {
            self.new_chunk(b);
        }
        self.open[b].push(r);
    }

    /// Sets bucket `b`'s full chunk aside and starts a new one.
    #[cold]
    fn new_chunk(&mut self, b: usize) {
        let chunk = std::mem::replace(&mut self.open[b], Vec::with_capacity(CHUNK));
        if !chunk.is_empty() {
            self.full[b].push(chunk);
        }
    }

    /// Bucket `b`'s records, chunk by chunk.
    fn chunks(&self, b: usize) -> impl Iterator<Item = &[u128]> {
        self.full[b]
            .iter()
            .chain([&self.open[b]])
            .map(Vec::as_slice)
    }
}

/// One worker's tally. Occurrences are collected as packed records and
/// counted by sorting them, which is several times faster than a hash
/// table when most (position, move) pairs occur once.
#[derive(Default)]
struct Tally {
    records: Buckets,
    /// The result code of each game read to the end, by id.
    results: Vec<(u64, u8)>,
    games: u64,
    bad_games: u64,
    /// Errors with the block they are in and their game number in it.
    errors: Vec<((usize, usize), PgnError)>,
    /// The moves of the text being parsed (reused, to allocate once).
    seen: Vec<Seen>,
}

impl Tally {
    /// Counts the games of one raw chunk, game number `number` of block `block`.
    fn count(
        &mut self,
        raw: &pgn::RawGame,
        block: usize,
        number: usize,
        ids: &AtomicU64,
        options: &BuildOptions,
    ) {
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        // Most games are plain: read their main line without building the
        // parsed game. The rest (and broken games) go through the full parser.
        let plain = pgn::scan_mainline(raw, Some(options.max_ply), &mut |pos, mv| {
            seen.push(Seen::new(pos, mv));
        });
        if let Some(line) = plain {
            self.count_game(&seen[..line.plies], line.result, ids, options);
            self.seen = seen;
            return;
        }
        seen.clear();
        let read = ReadOptions {
            max_plies: Some(options.max_ply),
            ..ReadOptions::mainline()
        };
        // The parser replays every move; the positions are taken as it goes
        // rather than replaying the game a second time. Games are parsed one
        // at a time: a text of games without tags may hold millions.
        let mut games = pgn::TextGames::new(raw, read);
        loop {
            seen.clear();
            let item = games.next_visiting(&mut |pos, mv| seen.push(Seen::new(pos, mv)));
            let Some(item) = item else { break };
            match item {
                Ok(game) => self.count_game(&seen[..game.moves.len()], game.result, ids, options),
                // A broken game is the text's last item; its visited moves
                // are left unused.
                Err(mut e) => {
                    self.bad_games += 1;
                    e.game = number;
                    if self.errors.len() < options.max_errors_kept {
                        self.errors.push(((block, number), e));
                    }
                }
            }
        }
        self.seen = seen;
    }

    /// Counts one good game's main-line moves (up to the ply limit, and up
    /// to a null move: after a pass the positions are no longer from play).
    fn count_game(
        &mut self,
        moves: &[Seen],
        result: GameResult,
        ids: &AtomicU64,
        options: &BuildOptions,
    ) {
        let game = ids.fetch_add(1, Ordering::Relaxed);
        for m in moves.iter().take(options.max_ply) {
            if m.mv.is_null() {
                break;
            }
            let mv = PolyMove::from_move(m.mv).0;
            self.records.push(record(m.key, mv, game, m.mover));
        }
        self.finish_game(game, result);
    }

    /// Game `game`, whose records are made, ended with `result`.
    fn finish_game(&mut self, game: u64, result: GameResult) {
        self.games += 1;
        self.results.push((game, result_code(result)));
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
    // Game ids, one per game read (and per attempt at reading one).
    let ids = AtomicU64::new(0);
    let mut summary = BuildSummary::default();
    // Each worker's records, counted together at the end.
    let mut parts = Vec::new();
    let mut finished = Vec::new();
    for path in paths {
        for mut tally in build_file(path, options, &ids, &bytes_done, progress)? {
            summary.games += tally.games;
            summary.bad_games += tally.bad_games;
            finished.append(&mut tally.results);
            let errors = tally.errors.iter().map(|(_, e)| (path.clone(), e.clone()));
            summary.errors.extend(errors);
            parts.push(std::mem::take(&mut tally.records));
        }
    }
    summary.errors.truncate(options.max_errors_kept);
    let ids = ids.into_inner();
    if ids > MAX_GAMES {
        return Err(BookError::Pgn {
            path: paths.last().cloned().unwrap_or_default(),
            message: format!("more than {MAX_GAMES} games: build the book in parts"),
        });
    }
    let mut results = vec![VOID; ids as usize];
    for (game, code) in finished {
        results[game as usize] = code;
    }
    let table = outcome_table(options);

    let counted: Vec<Counted> = (0..BUCKETS)
        .into_par_iter()
        .map_init(Scratch::default, |scratch, b| {
            let bucket: Vec<&[u128]> = parts.iter().flat_map(|p: &Buckets| p.chunks(b)).collect();
            count_sorted(sort_bucket(&bucket, scratch), &results, &table, options)
        })
        .collect();
    let mut entries = Vec::with_capacity(counted.iter().map(|c| c.entries.len()).sum());
    for c in counted {
        summary.positions += c.positions;
        summary.unique_positions += c.unique_positions;
        summary.entries_seen += c.entries_seen;
        entries.extend(c.entries);
    }
    let book = Book::from_entries(entries);
    summary.entries = book.entry_count() as u64;
    summary.book_positions = book.position_count() as u64;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok((book, summary))
}

/// The book entries of a run of sorted records, with what was seen.
#[derive(Default)]
struct Counted {
    entries: Vec<(u64, BookMove)>,
    positions: u64,
    unique_positions: u64,
    entries_seen: u64,
}

impl Counted {
    /// Counts a (position, move) pair played in `games` games; `last_key`
    /// is the position of the pair counted before (pairs come sorted).
    fn saw(&mut self, key: u64, games: u32, last_key: &mut Option<u64>) {
        if *last_key != Some(key) {
            *last_key = Some(key);
            self.unique_positions += 1;
        }
        self.entries_seen += 1;
        self.positions += u64::from(games);
    }
}

/// Counts sorted records: one entry per (position, move) that passes the
/// filters. The records of one position must all be in `records`. A
/// record's outcome is `table[results[its game]][its mover]`; those that do
/// not count are left out of every figure.
fn count_sorted(
    records: &[u128],
    results: &[u8],
    table: &OutcomeTable,
    options: &BuildOptions,
) -> Counted {
    let mut out = Counted::default();
    let mut last_key = None;
    let mut i = 0;
    while i < records.len() {
        // Key (the high word: no 128-bit shifts) and move.
        let key = (records[i] >> 64) as u64;
        let mv = (records[i] >> 48) as u16;
        // Most pairs occur once; when they cannot make the book, only the
        // figures need them.
        let single = records
            .get(i + 1)
            .is_none_or(|&r| r >> 48 != records[i] >> 48);
        if single && options.min_games > 1 {
            let r = records[i];
            i += 1;
            if record_outcome(r, results, table) != SKIP {
                out.saw(key, 1, &mut last_key);
            }
            continue;
        }
        // Games by outcome code (SKIP last).
        let mut by_outcome = [0u32; 5];
        for &r in &records[i..] {
            if (r >> 64) as u64 != key || (r >> 48) as u16 != mv {
                break;
            }
            let outcome = record_outcome(r, results, table);
            by_outcome[usize::from(outcome)] += 1;
            i += 1;
        }
        let c = Counts {
            wins: by_outcome[usize::from(WIN)],
            draws: by_outcome[usize::from(DRAW)],
            losses: by_outcome[usize::from(LOSS)],
            unknown: by_outcome[usize::from(UNKNOWN)],
        };
        if c.games() == 0 {
            continue;
        }
        out.saw(key, c.games(), &mut last_key);
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
        out.entries.push((
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
    out
}

/// The top byte of a record's key: records are counted in 256 buckets of
/// whole positions, each on whichever thread is free.
fn bucket_of(r: &u128) -> usize {
    (r >> 120) as usize
}

/// Buffers one thread reuses from bucket to bucket, so that they stay in
/// cache and their pages are touched once.
#[derive(Default)]
struct Scratch {
    /// Room for the largest bucket so far; a bucket's records are sorted
    /// in its first part.
    sorted: Vec<u128>,
    /// Where each radix digit's records go.
    starts: Vec<usize>,
}

/// Sorts one bucket's records, the workers' `parts` of it, in `scratch`,
/// and returns them: scattered by the key bits below the top byte (log2 of
/// the bucket's size of them, so that most runs hold a record or two), then
/// each run sorted on its own. The top byte is the bucket's.
fn sort_bucket<'s>(parts: &[&[u128]], scratch: &'s mut Scratch) -> &'s [u128] {
    const SMALL: usize = 256;
    let n: usize = parts.iter().map(|p| p.len()).sum();
    // The buffer only grows: every record in it is overwritten anyway.
    if scratch.sorted.len() < n {
        scratch.sorted.resize(n, 0);
    }
    let out = &mut scratch.sorted[..n];
    if n <= SMALL {
        let mut at = 0;
        for p in parts {
            out[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
        out.sort_unstable();
        return out;
    }
    let bits = n.ilog2().clamp(8, 16);
    // The key bits just below the top byte, taken from the high word.
    let shift = 56 - bits;
    let digit = |r: &u128| ((r >> 64) as u64 >> shift) as usize & ((1 << bits) - 1);
    let starts = &mut scratch.starts;
    starts.clear();
    starts.resize((1 << bits) + 1, 0);
    // Plain nested loops: a flattening iterator costs more per record here
    // than the work itself.
    for part in parts {
        for r in *part {
            starts[digit(r) + 1] += 1;
        }
    }
    for d in 1..starts.len() {
        starts[d] += starts[d - 1];
    }
    // Each digit's start moves on as its records are placed, ending where
    // the next digit's records start.
    for part in parts {
        for r in *part {
            let d = digit(r);
            out[starts[d]] = *r;
            starts[d] += 1;
        }
    }
    let mut begin = 0;
    for &end in &starts[..1 << bits] {
        if end - begin > 1 {
            out[begin..end].sort_unstable();
        }
        begin = end;
    }
    out
}

fn build_file(
    path: &Path,
    options: &BuildOptions,
    ids: &AtomicU64,
    bytes_done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Tally>, BookError> {
    let reader = pgn::open(path).map_err(|source| BookError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let read_error = std::sync::Mutex::new(None);
    // Raw games in each block, to number games across blocks at the end.
    let games_in_block = std::sync::Mutex::new(Vec::new());
    let blocks = Blocks::new(reader).map_while(|block| match block {
        Ok(b) => Some(b),
        Err(e) => {
            if let Ok(mut slot) = read_error.lock() {
                *slot = Some(e);
            }
            None
        }
    });
    let mut tallies: Vec<Tally> = blocks
        .par_bridge()
        .fold(Tally::default, |mut tally, block| {
            let mut games = 0;
            let mut cursor = block.games();
            loop {
                // Plain games are read in place, their records made as the
                // moves are replayed, under an id whose result is set at
                // the end. When a game turns out not to be plain, its id
                // stays void and the full parser reads it again.
                let id = ids.fetch_add(1, Ordering::Relaxed);
                let records = &mut tally.records;
                let game = cursor.next_game(Some(options.max_ply), &mut |pos, mv| {
                    let mv = PolyMove::from_move(mv).0;
                    records.push(record(pos.key(), mv, id, pos.turn()));
                });
                let Some(game) = game else { break };
                games += 1;
                match game {
                    pgn::BlockGame::Plain(line) => tally.finish_game(id, line.result),
                    pgn::BlockGame::Raw(raw) => {
                        tally.count(&raw, block.index, games, ids, options);
                    }
                }
            }
            if let Ok(mut counts) = games_in_block.lock() {
                if counts.len() <= block.index {
                    counts.resize(block.index + 1, 0);
                }
                counts[block.index] = games;
            }
            let bytes = block.text.len() as u64;
            let done = bytes_done.fetch_add(bytes, Ordering::Relaxed);
            progress(done + bytes);
            tally
        })
        .collect();
    progress(bytes_done.load(Ordering::Relaxed));
    // Game numbers in the file: the games of the blocks before, plus the
    // number in the block.
    let counts = games_in_block.into_inner().unwrap_or_default();
    for tally in &mut tallies {
        for ((block, number), e) in &mut tally.errors {
            e.game = counts.iter().take(*block).sum::<usize>() + *number;
        }
    }
    // Errors in file order, at most the number kept.
    let mut errors: Vec<_> = tallies
        .iter_mut()
        .flat_map(|t| std::mem::take(&mut t.errors))
        .collect();
    errors.sort_by_key(|(n, _)| *n);
    errors.truncate(options.max_errors_kept);
    if let Some(first) = tallies.first_mut() {
        first.errors = errors;
    }
    if let Some(e) = read_error.into_inner().ok().flatten() {
        return Err(BookError::Pgn {
            path: path.to_path_buf(),
            message: format!("read error after the games counted so far: {e}"),
        });
    }
    Ok(tallies)
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
        after_e4.play_unchecked(start.parse_san("e4").expect("legal"));
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

    /// (key, move) -> (wins, draws, losses, unknown), counted the plain way:
    /// the streaming reader, one game after another, each replayed again.
    fn reference(
        path: &Path,
        max_ply: usize,
    ) -> (std::collections::BTreeMap<(u64, u16), [u32; 4]>, u64, u64) {
        let read = ReadOptions {
            max_plies: Some(max_ply),
            ..ReadOptions::mainline()
        };
        let mut counts = std::collections::BTreeMap::new();
        let (mut good, mut bad) = (0, 0);
        for item in pgn::PgnReader::open(path, read).expect("open") {
            let Ok(game) = item else {
                bad += 1;
                continue;
            };
            good += 1;
            let mut pos = game.start;
            for m in &game.moves {
                if m.mv.is_null() {
                    break;
                }
                let slot = match (game.result, pos.turn()) {
                    (GameResult::Draw, _) => 1,
                    (GameResult::Unknown, _) => 3,
                    (GameResult::WhiteWins, Color::White)
                    | (GameResult::BlackWins, Color::Black) => 0,
                    _ => 2,
                };
                let c: &mut [u32; 4] = counts
                    .entry((pos.key(), PolyMove::from_move(m.mv).0))
                    .or_default();
                c[slot] += 1;
                pos.play_unchecked(m.mv);
            }
        }
        (counts, good, bad)
    }

    #[test]
    fn buckets_sort_like_a_plain_sort() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        // 200,000 records: buckets of about 670 (digits of 9 bits), and the
        // repeated key's bucket of about 29,000 (14 bits).
        let mut records: Vec<u128> = (0..200_000)
            .map(|i| {
                // xorshift: keys spread over every bucket, some repeated.
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                record(
                    if i % 7 == 0 { 42 } else { x },
                    (x >> 3) as u16,
                    x % 1000,
                    [Color::White, Color::Black][(x % 2) as usize],
                )
            })
            .collect();
        // Three workers' parts of unequal size, one of them empty.
        let mut parts: Vec<Buckets> = (0..3).map(|_| Buckets::default()).collect();
        for (i, r) in records.iter().enumerate() {
            parts[if i < 10_000 { 0 } else { 2 }].push(*r);
        }
        let mut sorted = Vec::new();
        let mut scratch = Scratch {
            sorted: vec![7],
            ..Scratch::default()
        };
        for b in 0..BUCKETS {
            let bucket: Vec<&[u128]> = parts.iter().flat_map(|p| p.chunks(b)).collect();
            let bucket_sorted = sort_bucket(&bucket, &mut scratch);
            assert!(bucket_sorted.iter().all(|r| bucket_of(r) == b));
            sorted.extend_from_slice(bucket_sorted);
        }
        records.sort_unstable();
        assert_eq!(sorted, records);
        assert!(sort_bucket(&[], &mut scratch).is_empty());
    }

    /// The parallel build (blocks, one replay) counts what the plain way counts.
    #[test]
    fn parallel_build_counts_like_the_plain_way() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<PathBuf> = std::fs::read_dir(here.join("../pgn/tests/data"))
            .expect("pgn test data")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        let masters = here.join("../../../shared/data/pgn/masters");
        match std::fs::read_dir(&masters) {
            Ok(dir) => files.extend(dir.map(|e| e.expect("entry").path()).take(1)),
            Err(_) => eprintln!("skipping the master games: {} not found", masters.display()),
        }
        assert!(files.len() >= 3);
        for (path, max_ply) in files.iter().flat_map(|p| [(p, 1000), (p, 3)]) {
            let (expected, good, bad) = reference(path, max_ply);
            let options = BuildOptions {
                max_ply,
                ..BuildOptions::default()
            };
            let (book, summary) =
                build_from_pgn(std::slice::from_ref(path), &options, &|_| {}).expect("build");
            let name = format!("{} up to ply {max_ply}", path.display());
            assert_eq!((summary.games, summary.bad_games), (good, bad), "{name}");
            let mut got = std::collections::BTreeMap::new();
            for (key, moves) in book.iter() {
                for m in moves {
                    let unknown = expected.get(&(key, m.mv.0)).map_or(0, |c| c[3]);
                    got.insert((key, m.mv.0), [m.wins, m.draws, m.losses, unknown]);
                }
            }
            assert_eq!(got, expected, "{name}");
            let positions: u32 = expected.values().map(|c| c.iter().sum::<u32>()).sum();
            assert_eq!(summary.positions, u64::from(positions), "{name}");
            assert_eq!(summary.entries_seen, expected.len() as u64, "{name}");

            // Fewer entries kept, the same figures (taken before filtering).
            let strict = BuildOptions {
                min_games: 2,
                ..options
            };
            let (kept, strict_summary) =
                build_from_pgn(std::slice::from_ref(path), &strict, &|_| {}).expect("build");
            let twice = expected.values().filter(|c| c.iter().sum::<u32>() >= 2);
            assert_eq!(kept.entry_count(), twice.count(), "{name}");
            assert_eq!(
                (strict_summary.positions, strict_summary.unique_positions),
                (summary.positions, summary.unique_positions),
                "{name}"
            );
            assert_eq!(strict_summary.entries_seen, summary.entries_seen, "{name}");
        }
    }
}
