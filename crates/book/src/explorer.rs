//! An opening explorer over a collection of games, as lichess's masters
//! explorer is: for a position, every move played in it with how those
//! games ended (White won, drawn, Black won) and its players' average
//! rating, and the best-rated games that passed through it. Positions are
//! found by their key, so transpositions meet.
//!
//! The collection is indexed once: one record (position, move, game) per
//! ply up to a ply limit, sorted, so that a position's moves are one binary
//! search away. Each game keeps its players, event and main line, so that
//! any of them can be written back as PGN and studied. Kestrel ships the
//! master games it built its default book from ([`Explorer::masters`]).

use std::io::{BufRead, BufReader, Cursor};
use std::ops::Range;

use chess::{Move, Position};
use pgn::{GameResult, PgnError, PgnGame, PgnMove, PgnReader, ReadOptions};

use crate::embedded::MASTERS_PGN;
use crate::poly_move::{uci, PolyMove};

/// What goes into an explorer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExplorerOptions {
    /// Positions up to this many plies from the start are indexed (the
    /// games' later moves are kept for their PGN, not indexed).
    pub max_ply: usize,
    /// Games read at most; the rest of the collection is left unread (the
    /// index takes about 16 bytes a position, so this bounds its memory).
    pub max_games: usize,
    /// Keep at most this many errors in the summary (all are counted).
    pub max_errors_kept: usize,
}

/// How many plies from the start an explorer indexes unless told
/// otherwise: move 30, well past where master games leave known theory
/// (issue 63: the master games' index is 16.2 MiB at 60 plies, 12.8 MiB at
/// 40; docs/gui.md, "Explorer").
pub const DEFAULT_EXPLORER_PLIES: usize = 60;

impl Default for ExplorerOptions {
    /// The first [`DEFAULT_EXPLORER_PLIES`] plies of up to a million games.
    fn default() -> ExplorerOptions {
        ExplorerOptions {
            max_ply: DEFAULT_EXPLORER_PLIES,
            max_games: 1_000_000,
            max_errors_kept: 20,
        }
    }
}

/// What indexing a collection did.
#[derive(Clone, Debug, Default)]
pub struct ExplorerSummary {
    /// Games indexed.
    pub games: usize,
    /// Games that could not be read (each error's game counted once).
    pub bad_games: usize,
    /// Games left out because they start from a set-up position.
    pub set_up: usize,
    /// Games left out because they have no result (`*`).
    pub unfinished: usize,
    /// Games left out because they have no move (a forfeit, an empty record).
    pub empty: usize,
    /// True when the collection had more than `max_games` games.
    pub truncated: bool,
    /// The first errors, up to `max_errors_kept`.
    pub errors: Vec<PgnError>,
}

/// One game of the collection: its facts and where its moves are.
#[derive(Clone, Debug)]
pub struct ExplorerGame {
    /// The `Event` tag.
    pub event: Box<str>,
    /// The `Site` tag.
    pub site: Box<str>,
    /// The `Date` tag as written (`1985.11.09`, `1985.??.??`).
    pub date: Box<str>,
    /// The `Round` tag.
    pub round: Box<str>,
    /// White's name.
    pub white: Box<str>,
    /// Black's name.
    pub black: Box<str>,
    /// White's rating, when given.
    pub white_elo: Option<u16>,
    /// Black's rating, when given.
    pub black_elo: Option<u16>,
    /// The `ECO` tag, when given.
    pub eco: Option<Box<str>>,
    /// How it ended.
    pub result: GameResult,
    /// Its main line in the explorer's move store.
    moves: Range<u32>,
}

impl ExplorerGame {
    /// The year, when the date has one.
    pub fn year(&self) -> Option<u16> {
        let year = self.date.get(..4)?;
        if year.bytes().all(|b| b.is_ascii_digit()) {
            year.parse().ok()
        } else {
            None
        }
    }

    /// The players' mean rating, when both have one.
    pub fn average_rating(&self) -> Option<u16> {
        Some(((u32::from(self.white_elo?) + u32::from(self.black_elo?)) / 2) as u16)
    }
}

/// A game's number in its explorer.
pub type GameId = u32;

/// One position-move occurrence: the position's key, the move in Polyglot's
/// encoding, the game it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Occurrence {
    key: u64,
    mv: u16,
    game: GameId,
}

/// A move of the position explored, with how its games went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredMove {
    /// The move.
    pub mv: Move,
    /// In SAN.
    pub san: String,
    /// In UCI notation (castling as the king's two-square move).
    pub uci: String,
    /// Games after it that White won.
    pub white: u32,
    /// Games after it that were drawn.
    pub draws: u32,
    /// Games after it that Black won.
    pub black: u32,
    /// The mean rating of its players (over the games with both ratings).
    pub average_rating: Option<u16>,
}

impl ExploredMove {
    /// Games in which it was played.
    pub fn games(&self) -> u32 {
        self.white + self.draws + self.black
    }
}

/// A game that passed through the position explored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopGame {
    /// Its number (for [`Explorer::game`] and [`Explorer::pgn`]).
    pub id: GameId,
    /// The move it played here, in SAN.
    pub san: String,
    /// That move in UCI notation.
    pub uci: String,
}

/// What the collection says about one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explored {
    /// The moves played, most played first.
    pub moves: Vec<ExploredMove>,
    /// Up to [`TOP_GAMES`] games through the position, best rated first.
    pub top_games: Vec<TopGame>,
}

impl Explored {
    /// Games through the position: (White won, drawn, Black won).
    pub fn totals(&self) -> (u32, u32, u32) {
        self.moves.iter().fold((0, 0, 0), |(w, d, b), m| {
            (w + m.white, d + m.draws, b + m.black)
        })
    }
}

/// How many games [`Explorer::explore`] lists.
pub const TOP_GAMES: usize = 8;

/// Which games [`Explorer::explore_with`] counts, as lichess's explorer
/// filters them: by the players' mean rating and by the year played. A
/// bound left open (`None`) lets every game through, unrated or undated
/// ones included; a game with no rating (or no year) never passes a bound
/// set on it, since nothing says it is within.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExplorerFilter {
    /// The players' mean rating is at least this.
    pub min_rating: Option<u16>,
    /// It is at most this.
    pub max_rating: Option<u16>,
    /// Played in this year or later.
    pub since: Option<u16>,
    /// Played in this year or earlier.
    pub until: Option<u16>,
}

impl ExplorerFilter {
    /// Every game counts.
    pub fn is_open(&self) -> bool {
        *self == ExplorerFilter::default()
    }

    /// `game` counts.
    pub fn admits(&self, game: &ExplorerGame) -> bool {
        let within = |value: Option<u16>, low: Option<u16>, high: Option<u16>| {
            (low.is_none() && high.is_none())
                || value.is_some_and(|v| low.is_none_or(|l| v >= l) && high.is_none_or(|h| v <= h))
        };
        within(game.average_rating(), self.min_rating, self.max_rating)
            && within(game.year(), self.since, self.until)
    }
}

/// A collection of games indexed by position.
pub struct Explorer {
    records: Vec<Occurrence>,
    games: Vec<ExplorerGame>,
    moves: Vec<Move>,
    max_ply: usize,
}

impl Explorer {
    /// Indexes the games of a PGN stream (compressed streams are for the
    /// caller to unwrap: [`pgn::decompress`]). Games that cannot be read
    /// are counted and skipped, as are games from a set-up position and
    /// unfinished ones, whose results cannot count.
    pub fn from_pgn<R: BufRead>(
        reader: R,
        options: ExplorerOptions,
    ) -> (Explorer, ExplorerSummary) {
        let mut explorer = Explorer {
            records: Vec::new(),
            games: Vec::new(),
            moves: Vec::new(),
            max_ply: options.max_ply,
        };
        let mut summary = ExplorerSummary::default();
        let start = Position::startpos();
        let games = PgnReader::with_options(reader, ReadOptions::mainline());
        for item in games {
            let game = match item {
                Ok(game) => game,
                Err(e) => {
                    summary.bad_games += 1;
                    if summary.errors.len() < options.max_errors_kept {
                        summary.errors.push(e);
                    }
                    continue;
                }
            };
            if game.start.key() != start.key() {
                summary.set_up += 1;
                continue;
            }
            if game.result == GameResult::Unknown {
                summary.unfinished += 1;
                continue;
            }
            if game.moves.is_empty() {
                summary.empty += 1;
                continue;
            }
            if explorer.games.len() >= options.max_games.min(GameId::MAX as usize) {
                summary.truncated = true;
                break;
            }
            explorer.add(&game);
        }
        explorer.records.sort_unstable();
        explorer.records.shrink_to_fit();
        explorer.moves.shrink_to_fit();
        summary.games = explorer.games.len();
        (explorer, summary)
    }

    /// Indexes the games of PGN files read one after the other (each a
    /// regular file, compressed or not, or `-` for standard input: see
    /// [`pgn::open`]), as [`Explorer::from_pgn`]; a file that cannot be
    /// opened is refused with its error.
    pub fn from_files(
        paths: &[std::path::PathBuf],
        options: ExplorerOptions,
    ) -> std::io::Result<(Explorer, ExplorerSummary)> {
        use std::io::Read;
        let mut reader: Box<dyn BufRead + Send> = Box::new(std::io::empty());
        for path in paths {
            let file = pgn::open(path)?;
            // A blank line between files, so that one's last line never
            // runs into the next one's first tag.
            reader = Box::new(reader.chain(&b"\n\n"[..]).chain(file));
        }
        Ok(Explorer::from_pgn(reader, options))
    }

    /// The memory the index holds, in bytes: its records, the games' moves
    /// and their facts (names, event, date) with their allocations.
    pub fn heap_bytes(&self) -> usize {
        let text = |s: &str| s.len();
        let facts: usize = self
            .games
            .iter()
            .map(|g| {
                text(&g.event)
                    + text(&g.site)
                    + text(&g.date)
                    + text(&g.round)
                    + text(&g.white)
                    + text(&g.black)
                    + g.eco.as_deref().map_or(0, text)
            })
            .sum();
        self.records.capacity() * std::mem::size_of::<Occurrence>()
            + self.moves.capacity() * std::mem::size_of::<Move>()
            + self.games.capacity() * std::mem::size_of::<ExplorerGame>()
            + facts
    }

    /// The master games shipped with Kestrel (`crates/book/data/masters.pgn.zst`:
    /// 12,841 games, 12,825 of them finished with a move played; sources
    /// and licences in that folder's README), indexed to the default ply
    /// limit (0.6 to 0.8 s at 60 plies on a loaded 2-core machine).
    pub fn masters() -> Explorer {
        Explorer::masters_with(ExplorerOptions::default()).0
    }

    /// The shipped master games indexed with `options`.
    pub fn masters_with(options: ExplorerOptions) -> (Explorer, ExplorerSummary) {
        // Compiled in and read whole by a test: a bad stream is a broken
        // build, not input.
        let decoder = ruzstd::decoding::StreamingDecoder::new(Cursor::new(MASTERS_PGN))
            .expect("the shipped master games are a zstd stream");
        Explorer::from_pgn(BufReader::new(decoder), options)
    }

    /// Files one game: its facts, its moves, and its first positions.
    fn add(&mut self, game: &PgnGame) {
        let id = self.games.len() as GameId;
        let first = self.moves.len() as u32;
        let mut pos = game.start;
        for (ply, m) in game.mainline().enumerate() {
            // After a pass the positions are no longer from play.
            if m.is_null() {
                break;
            }
            if ply < self.max_ply {
                self.records.push(Occurrence {
                    key: pos.key(),
                    mv: PolyMove::from_move(m).0,
                    game: id,
                });
            }
            self.moves.push(m);
            pos.play_unchecked(m);
        }
        let tag = |name: &str| -> Box<str> { game.tag(name).unwrap_or("?").into() };
        let rating = |name: &str| game.tag(name).and_then(|v| v.trim().parse::<u16>().ok());
        self.games.push(ExplorerGame {
            event: tag("Event"),
            site: tag("Site"),
            date: tag("Date"),
            round: tag("Round"),
            white: tag("White"),
            black: tag("Black"),
            white_elo: rating("WhiteElo").filter(|&r| r > 0),
            black_elo: rating("BlackElo").filter(|&r| r > 0),
            eco: game.tag("ECO").filter(|v| !v.is_empty()).map(Into::into),
            result: game.result,
            moves: first..self.moves.len() as u32,
        });
    }

    /// Games indexed.
    pub fn game_count(&self) -> usize {
        self.games.len()
    }

    /// Positions indexed per game (plies from the start).
    pub fn max_ply(&self) -> usize {
        self.max_ply
    }

    /// Game `id`, if there is one.
    pub fn game(&self, id: GameId) -> Option<&ExplorerGame> {
        self.games.get(id as usize)
    }

    /// Game `id`'s main line.
    pub fn moves_of(&self, id: GameId) -> Option<&[Move]> {
        let game = self.game(id)?;
        self.moves
            .get(game.moves.start as usize..game.moves.end as usize)
    }

    /// Game `id` as PGN: its facts as tags and its main line.
    pub fn pgn(&self, id: GameId) -> Option<String> {
        let info = self.game(id)?;
        let mut game = PgnGame::new(Position::startpos());
        for (name, value) in [
            ("Event", &info.event),
            ("Site", &info.site),
            ("Date", &info.date),
            ("Round", &info.round),
            ("White", &info.white),
            ("Black", &info.black),
        ] {
            game.set_tag(name, value);
        }
        for (name, rating) in [("WhiteElo", info.white_elo), ("BlackElo", info.black_elo)] {
            if let Some(r) = rating {
                game.set_tag(name, &r.to_string());
            }
        }
        if let Some(eco) = &info.eco {
            game.set_tag("ECO", eco);
        }
        game.result = info.result;
        game.moves = self
            .moves_of(id)?
            .iter()
            .map(|&m| PgnMove::new(m))
            .collect();
        Some(pgn::write_game(&game))
    }

    /// The records of the position with this key.
    fn records_of(&self, key: u64) -> &[Occurrence] {
        let begin = self.records.partition_point(|r| r.key < key);
        let end = begin + self.records[begin..].partition_point(|r| r.key == key);
        &self.records[begin..end]
    }

    /// What the collection says about `pos`: its moves (most played
    /// first, then by score for the side to move) and its best-rated games.
    /// A position past the ply limit, or one no game reached, has none.
    pub fn explore(&self, pos: &Position) -> Explored {
        self.explore_with(pos, &ExplorerFilter::default())
    }

    /// What the games `filter` admits say about `pos`, as
    /// [`Explorer::explore`] says it of all of them.
    pub fn explore_with(&self, pos: &Position, filter: &ExplorerFilter) -> Explored {
        let all = self.records_of(pos.key());
        let kept: Vec<Occurrence>;
        let records = if filter.is_open() {
            all
        } else {
            kept = all
                .iter()
                .filter(|r| filter.admits(&self.games[r.game as usize]))
                .copied()
                .collect();
            &kept[..]
        };
        let legal = pos.legal_moves();
        let mut out = Explored::default();
        // Records come sorted by move: one run per move.
        for run in records.chunk_by(|a, b| a.mv == b.mv) {
            let Some(&mv) = legal
                .iter()
                .find(|&&m| PolyMove::from_move(m).0 == run[0].mv)
            else {
                continue; // another position with the same key: not this one's
            };
            let mut explored = ExploredMove {
                mv,
                san: pos.san(mv),
                uci: uci(pos, mv),
                white: 0,
                draws: 0,
                black: 0,
                average_rating: None,
            };
            let (mut rating_sum, mut rated) = (0u64, 0u64);
            for r in run {
                let game = &self.games[r.game as usize];
                match game.result {
                    GameResult::WhiteWins => explored.white += 1,
                    GameResult::BlackWins => explored.black += 1,
                    GameResult::Draw => explored.draws += 1,
                    GameResult::Unknown => {}
                }
                if let Some(avg) = game.average_rating() {
                    rating_sum += u64::from(avg);
                    rated += 1;
                }
            }
            explored.average_rating = (rated > 0).then(|| (rating_sum / rated) as u16);
            out.moves.push(explored);
        }
        // Among moves played equally often, the better scoring first (a
        // book's weight: two points a win, one a draw).
        let mover_score = |m: &ExploredMove| {
            let mine = if pos.turn() == chess::Color::White {
                m.white
            } else {
                m.black
            };
            2 * u64::from(mine) + u64::from(m.draws)
        };
        out.moves.sort_by(|a, b| {
            b.games()
                .cmp(&a.games())
                .then_with(|| mover_score(b).cmp(&mover_score(a)))
        });
        out.top_games = self.top_games(records, &out.moves);
        out
    }

    /// The best-rated games among `records` (once each, even when a game
    /// came back to the position), then the most recent.
    fn top_games(&self, records: &[Occurrence], moves: &[ExploredMove]) -> Vec<TopGame> {
        // Each record with its move of `moves` (records of a same-key other
        // position have none and are dropped).
        let codes: Vec<u16> = moves.iter().map(|m| PolyMove::from_move(m.mv).0).collect();
        let mut picked: Vec<(&Occurrence, &ExploredMove)> = records
            .iter()
            .filter_map(|r| Some((r, &moves[codes.iter().position(|&c| c == r.mv)?])))
            .collect();
        // Rated games first (`None` sorts below every rating), then the
        // newer, then the collection's order.
        picked.sort_by(|(a, _), (b, _)| {
            let (ga, gb) = (&self.games[a.game as usize], &self.games[b.game as usize]);
            gb.average_rating()
                .cmp(&ga.average_rating())
                .then_with(|| gb.date.cmp(&ga.date))
                .then(a.game.cmp(&b.game))
        });
        let mut out: Vec<TopGame> = Vec::new();
        for (r, m) in picked {
            if out.len() == TOP_GAMES {
                break;
            }
            if out.iter().any(|t| t.id == r.game) {
                continue;
            }
            out.push(TopGame {
                id: r.game,
                san: m.san.clone(),
                uci: m.uci.clone(),
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = r#"[Event "A"]
[Site "?"]
[Date "2001.02.03"]
[Round "1"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]
[WhiteElo "2700"]
[BlackElo "2500"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0

[Event "B"]
[Site "?"]
[Date "2002.??.??"]
[Round "?"]
[White "Gamma"]
[Black "Delta"]
[Result "0-1"]
[WhiteElo "2400"]
[BlackElo "2400"]

1. Nf3 Nc6 2. e4 e5 3. d4 0-1

[Event "C"]
[Site "?"]
[Date "2003.01.01"]
[Round "?"]
[White "Eps"]
[Black "Zeta"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "Unfinished"]
[Site "?"]
[Date "?"]
[Round "?"]
[White "X"]
[Black "Y"]
[Result "*"]

1. e4 *

[Event "Set up"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
[SetUp "1"]
[Result "1-0"]

1. Rh8+ 1-0

[Event "Bad"]
[Result "1-0"]

1. e4 e4 1-0
"#;

    fn explorer(max_ply: usize) -> (Explorer, ExplorerSummary) {
        let options = ExplorerOptions {
            max_ply,
            ..ExplorerOptions::default()
        };
        Explorer::from_pgn(GAMES.as_bytes(), options)
    }

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for san in moves {
            let m = pgn::match_san(&pos, san.as_bytes()).expect("legal");
            pos.play_unchecked(m);
        }
        pos
    }

    #[test]
    fn each_kind_of_game_is_counted_where_it_belongs() {
        let (explorer, summary) = explorer(40);
        assert_eq!(summary.games, 3);
        assert_eq!(summary.unfinished, 1);
        assert_eq!(summary.set_up, 1);
        assert_eq!(summary.bad_games, 1);
        assert_eq!(summary.errors.len(), 1);
        assert!(!summary.truncated);
        assert_eq!(explorer.game_count(), 3);
    }

    #[test]
    fn the_start_lists_each_first_move_with_its_results() {
        let (explorer, _) = explorer(40);
        let found = explorer.explore(&Position::startpos());
        let rows: Vec<(&str, u32, u32, u32)> = found
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.white, m.draws, m.black))
            .collect();
        // One game each: the black win (Nf3) sorts after the white win for
        // White to move, the draw between them.
        assert_eq!(rows, [("e4", 1, 0, 0), ("d4", 0, 1, 0), ("Nf3", 0, 0, 1)]);
        assert_eq!(found.totals(), (1, 1, 1));
        assert_eq!(found.moves[0].uci, "e2e4");
        assert_eq!(found.moves[0].average_rating, Some(2600));
        assert_eq!(found.moves[1].average_rating, None);
    }

    #[test]
    fn transpositions_meet_and_top_games_are_best_rated_first() {
        let (explorer, _) = explorer(40);
        // 1.e4 e5 2.Nf3 Nc6 and 1.Nf3 Nc6 2.e4 e5 reach the same position.
        let found = explorer.explore(&after(&["e4", "e5", "Nf3", "Nc6"]));
        let sans: Vec<(&str, u32)> = found
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.games()))
            .collect();
        assert_eq!(sans, [("Bb5", 1), ("d4", 1)]);
        let top: Vec<(GameId, &str)> = found
            .top_games
            .iter()
            .map(|t| (t.id, t.san.as_str()))
            .collect();
        assert_eq!(top, [(0, "Bb5"), (1, "d4")]);
        assert_eq!(explorer.game(0).map(|g| &*g.white), Some("Alpha"));
        assert_eq!(explorer.game(1).and_then(ExplorerGame::year), Some(2002));
    }

    #[test]
    fn the_filters_keep_the_games_within_their_ratings_and_years() {
        let (explorer, _) = explorer(40);
        let start = Position::startpos();
        let sans = |filter: ExplorerFilter| -> Vec<String> {
            let found = explorer.explore_with(&start, &filter);
            found.moves.iter().map(|m| m.san.clone()).collect()
        };
        assert_eq!(sans(ExplorerFilter::default()), ["e4", "d4", "Nf3"]);
        // Mean ratings 2600 (e4), 2400 (Nf3) and none (d4).
        let rated = ExplorerFilter {
            min_rating: Some(2500),
            ..ExplorerFilter::default()
        };
        assert_eq!(sans(rated), ["e4"]);
        let below = ExplorerFilter {
            max_rating: Some(2500),
            ..ExplorerFilter::default()
        };
        assert_eq!(sans(below), ["Nf3"]);
        // Years 2001 (e4), 2002 (Nf3), 2003 (d4).
        let years = ExplorerFilter {
            since: Some(2002),
            until: Some(2003),
            ..ExplorerFilter::default()
        };
        assert_eq!(sans(years), ["d4", "Nf3"]);
        let found = explorer.explore_with(&start, &years);
        assert_eq!(found.totals(), (0, 1, 1));
        assert!(found.top_games.iter().all(|t| t.id != 0));
        let none = ExplorerFilter {
            since: Some(2010),
            ..ExplorerFilter::default()
        };
        assert_eq!(explorer.explore_with(&start, &none), Explored::default());
    }

    #[test]
    fn positions_past_the_ply_limit_are_not_indexed() {
        let (explorer, _) = explorer(2);
        assert_eq!(explorer.explore(&after(&["e4", "e5"])).moves.len(), 0);
        assert_eq!(explorer.explore(&after(&["e4"])).moves.len(), 1);
    }

    #[test]
    fn a_game_comes_back_as_pgn_that_reads_the_same() {
        let (explorer, _) = explorer(40);
        let text = explorer.pgn(0).expect("game 0");
        assert!(
            text.contains("[White \"Alpha\"]") && text.contains("[WhiteElo \"2700\"]"),
            "{text}"
        );
        let read: Vec<PgnGame> = PgnReader::new(text.as_bytes())
            .map(|g| g.expect("readable"))
            .collect();
        assert_eq!(read.len(), 1);
        let moves: Vec<Move> = read[0].mainline().collect();
        assert_eq!(moves, explorer.moves_of(0).expect("moves"));
        assert_eq!(read[0].result, GameResult::WhiteWins);
        assert_eq!(explorer.pgn(3), None);
    }

    #[test]
    fn the_games_read_stop_at_the_limit() {
        let options = ExplorerOptions {
            max_games: 2,
            ..ExplorerOptions::default()
        };
        let (explorer, summary) = Explorer::from_pgn(GAMES.as_bytes(), options);
        assert_eq!(explorer.game_count(), 2);
        assert!(summary.truncated);
    }

    #[test]
    fn the_shipped_masters_know_the_main_openings() {
        let explorer = Explorer::masters();
        assert!(explorer.game_count() > 12_000, "{}", explorer.game_count());
        let start = explorer.explore(&Position::startpos());
        let first: Vec<&str> = start.moves.iter().take(2).map(|m| m.san.as_str()).collect();
        assert!(first.contains(&"e4") && first.contains(&"d4"), "{first:?}");
        let (w, d, b) = start.totals();
        assert_eq!((w + d + b) as usize, explorer.game_count());
        assert_eq!(start.top_games.len(), TOP_GAMES);
        let sicilian = explorer.explore(&after(&["e4", "c5"]));
        assert!(sicilian.moves[0].san == "Nf3", "{:?}", sicilian.moves[0]);
    }
}
