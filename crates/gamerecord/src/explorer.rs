//! The opening explorer the page shows beside the book: the master games
//! shipped with Kestrel ([`book::Explorer::masters`]), indexed once, on
//! first use (or when the server starts, off its own thread),
//! and what they say about a position in the form the page draws: each
//! move with its games and a White/draw/Black bar, and the best-rated
//! games through the position, any of which loads as a PGN ([`game_pgn`]);
//! the games counted filtered, as lichess's, by rating and year
//! ([`ExplorerQuery`]). A second collection, the player's own PGN files
//! ([`OwnGames`]: `kestrel gui --explorer FILE...`, or a file chosen in the
//! page without a server), is explored the same way, within limits of
//! size and games ([`MAX_OWN_BYTES`], [`MAX_OWN_GAMES`]).

use std::io::BufRead;
use std::sync::OnceLock;

use book::{Explorer, ExplorerFilter, ExplorerOptions, ExplorerSummary, GameId};
use chess::Position;
use serde::{Deserialize, Serialize};

use crate::error::{GameError, Invalid};

/// The master games, indexed on first use.
pub fn masters() -> &'static Explorer {
    static MASTERS: OnceLock<Explorer> = OnceLock::new();
    MASTERS.get_or_init(Explorer::masters)
}

/// The most bytes of PGN the player's own games may take (the files'
/// sizes on disk together, or the chosen file's): about seven times the
/// 9.3 MB of master games of ../shared/data, whose index at 60 plies holds
/// 16.2 MiB (docs/gui.md, "Explorer"), so about 120 MiB at most.
pub const MAX_OWN_BYTES: u64 = 64 << 20;
/// The most games of the player's own that are indexed (the same bound
/// for PGN compressed on disk, which the size does not bound).
pub const MAX_OWN_GAMES: usize = 100_000;
/// How many plies from the start the player's own games are indexed, as
/// the master games are.
pub const EXPLORER_PLIES: usize = book::DEFAULT_EXPLORER_PLIES;

/// The player's own games, indexed as the master games are.
pub struct OwnGames {
    /// Their index.
    pub explorer: Explorer,
    /// The files' names, as the page shows them.
    pub files: Vec<String>,
    /// What indexing them left out.
    pub summary: ExplorerSummary,
}

/// What the page is told of the player's own games.
#[derive(Serialize, Debug, Clone)]
pub struct OwnGamesView {
    /// The files' names.
    pub files: Vec<String>,
    /// Games indexed.
    pub games: usize,
    /// Games left out: unreadable, from a set-up position, unfinished or
    /// without a move.
    pub left_out: usize,
    /// Plies indexed from the start.
    pub max_ply: usize,
}

impl OwnGames {
    /// Indexes the games `reader` holds, `bytes` long in all, from the
    /// files named `files`: refused, saying what to do, past
    /// [`MAX_OWN_BYTES`] or [`MAX_OWN_GAMES`], or when no game can be
    /// explored (none finished from the start position).
    pub fn index<R: BufRead>(
        files: Vec<String>,
        bytes: u64,
        reader: R,
    ) -> Result<OwnGames, GameError> {
        own_size(bytes)?;
        let (explorer, summary) = Explorer::from_pgn(reader, own_options());
        OwnGames::checked(files, explorer, summary)
    }

    /// The games indexed elsewhere (files read by the host, with
    /// [`own_options`]), checked as [`OwnGames::index`] checks them.
    pub fn checked(
        files: Vec<String>,
        explorer: Explorer,
        summary: ExplorerSummary,
    ) -> Result<OwnGames, GameError> {
        if summary.truncated {
            return Err(Invalid::OwnGamesTooMany { max: MAX_OWN_GAMES }.into());
        }
        if summary.games == 0 {
            return Err(Invalid::OwnGamesNone {
                unreadable: summary.bad_games,
                set_up: summary.set_up,
                unfinished: summary.unfinished + summary.empty,
            }
            .into());
        }
        Ok(OwnGames {
            explorer,
            files,
            summary,
        })
    }

    /// What the page is told of them.
    pub fn view(&self) -> OwnGamesView {
        let s = &self.summary;
        OwnGamesView {
            files: self.files.clone(),
            games: s.games,
            left_out: s.bad_games + s.set_up + s.unfinished + s.empty,
            max_ply: self.explorer.max_ply(),
        }
    }

    /// Game `id` as PGN; a number they have not got is refused.
    pub fn game_pgn(&self, id: GameId) -> Result<String, GameError> {
        self.explorer.pgn(id).ok_or(GameError::NoOwnGame {
            id,
            count: self.explorer.game_count(),
        })
    }
}

/// How the player's own games are indexed: to [`EXPLORER_PLIES`], at
/// most [`MAX_OWN_GAMES`] (one more is read, to tell that there are more).
pub fn own_options() -> ExplorerOptions {
    ExplorerOptions {
        max_ply: EXPLORER_PLIES,
        max_games: MAX_OWN_GAMES,
        ..ExplorerOptions::default()
    }
}

/// Refuses own games of `bytes` past [`MAX_OWN_BYTES`] (before they are read).
pub fn own_size(bytes: u64) -> Result<(), GameError> {
    if bytes > MAX_OWN_BYTES {
        return Err(Invalid::OwnGamesTooLarge {
            bytes,
            max: MAX_OWN_BYTES,
        }
        .into());
    }
    Ok(())
}

/// Which collection a request explores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Database {
    /// The master games shipped with Kestrel.
    Masters,
    /// The player's own ([`OwnGames`]).
    Mine,
}

impl Database {
    /// The name a query gives (`?db=`): `masters` (or none) or `mine`.
    pub fn named(name: Option<&str>) -> Result<Database, GameError> {
        match name {
            None | Some("masters") => Ok(Database::Masters),
            Some("mine") => Ok(Database::Mine),
            Some(other) => Err(Invalid::NoDatabase(other.to_string()).into()),
        }
    }

    /// Its name in answers.
    pub fn name(self) -> &'static str {
        match self {
            Database::Masters => "masters",
            Database::Mine => "mine",
        }
    }
}

/// The explorer `db` asks for: the master games, or the player's own
/// (refused, saying how to give them, when there are none).
pub fn collection(db: Database, own: Option<&OwnGames>) -> Result<&Explorer, GameError> {
    match db {
        Database::Masters => Ok(masters()),
        Database::Mine => own.map(|o| &o.explorer).ok_or(GameError::NoOwnGames),
    }
}

/// Game `id` of collection `db` as PGN.
pub fn collection_pgn(
    db: Database,
    own: Option<&OwnGames>,
    id: GameId,
) -> Result<String, GameError> {
    match db {
        Database::Masters => game_pgn(id),
        Database::Mine => own.ok_or(GameError::NoOwnGames)?.game_pgn(id),
    }
}

/// `GET /api/explorer`'s query: the game, the collection, and the page's
/// filters, each left out while open (every game counts).
#[derive(Deserialize, Debug, Default, Clone)]
pub struct ExplorerQuery {
    /// The game's id.
    pub game: String,
    /// The collection: `masters` (the default) or `mine`.
    #[serde(default)]
    pub db: Option<String>,
    /// Only games whose players' mean rating is at least this.
    #[serde(default)]
    pub min_rating: Option<u16>,
    /// At most this.
    #[serde(default)]
    pub max_rating: Option<u16>,
    /// Only games played in this year or later.
    #[serde(default)]
    pub since: Option<u16>,
    /// In this year or earlier.
    #[serde(default)]
    pub until: Option<u16>,
}

impl ExplorerQuery {
    /// The collection it asks for.
    pub fn database(&self) -> Result<Database, GameError> {
        Database::named(self.db.as_deref())
    }

    /// The games it asks for.
    pub fn filter(&self) -> ExplorerFilter {
        ExplorerFilter {
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            since: self.since,
            until: self.until,
        }
    }
}

/// What the explorer says about one position.
#[derive(Serialize, Debug)]
pub struct ExplorerView {
    /// The collection: `masters` or `mine`.
    pub source: &'static str,
    /// Games in the collection.
    pub collection: usize,
    /// Plies from the start that are indexed (later positions have no moves).
    pub max_ply: usize,
    /// Some games are left out by the filters.
    pub filtered: bool,
    /// Games through the position that White won.
    pub white: u32,
    /// That were drawn.
    pub draws: u32,
    /// That Black won.
    pub black: u32,
    /// The moves played, most played first.
    pub moves: Vec<MoveRow>,
    /// The best-rated games through the position.
    pub top_games: Vec<GameRow>,
}

/// One move of the position, with its games.
#[derive(Serialize, Debug)]
pub struct MoveRow {
    /// In SAN.
    pub san: String,
    /// In UCI notation.
    pub uci: String,
    /// Games after it: White won.
    pub white: u32,
    /// Drawn.
    pub draws: u32,
    /// Black won.
    pub black: u32,
    /// All of them.
    pub games: u32,
    /// The players' mean rating, where the games give ratings.
    pub rating: Option<u16>,
}

/// One game through the position.
#[derive(Serialize, Debug)]
pub struct GameRow {
    /// Its number, for `GET /api/explorer/game?id=`.
    pub id: GameId,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's rating.
    pub white_elo: Option<u16>,
    /// Black's rating.
    pub black_elo: Option<u16>,
    /// The year it was played.
    pub year: Option<u16>,
    /// The event.
    pub event: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// The move it played in this position, in SAN.
    pub san: String,
    /// That move in UCI notation.
    pub uci: String,
}

/// Game `id` of the master games as PGN; a number the collection has not
/// got is refused with how many it has.
pub fn game_pgn(id: GameId) -> Result<String, GameError> {
    let masters = masters();
    masters.pgn(id).ok_or(GameError::NoMasterGame {
        id,
        count: masters.game_count(),
    })
}

/// The explorer's view of `pos` in collection `db`, counting the games
/// `filter` admits.
pub fn view(
    explorer: &Explorer,
    db: Database,
    pos: &Position,
    filter: &ExplorerFilter,
) -> ExplorerView {
    let found = explorer.explore_with(pos, filter);
    let (white, draws, black) = found.totals();
    let moves = found
        .moves
        .iter()
        .map(|m| MoveRow {
            san: m.san.clone(),
            uci: m.uci.clone(),
            white: m.white,
            draws: m.draws,
            black: m.black,
            games: m.games(),
            rating: m.average_rating,
        })
        .collect();
    let top_games = found
        .top_games
        .iter()
        .filter_map(|t| {
            let game = explorer.game(t.id)?;
            Some(GameRow {
                id: t.id,
                white: game.white.to_string(),
                black: game.black.to_string(),
                white_elo: game.white_elo,
                black_elo: game.black_elo,
                year: game.year(),
                event: game.event.to_string(),
                result: game.result.as_str(),
                san: t.san.clone(),
                uci: t.uci.clone(),
            })
        })
        .collect();
    ExplorerView {
        source: db.name(),
        collection: explorer.game_count(),
        max_ply: explorer.max_ply(),
        filtered: !filter.is_open(),
        white,
        draws,
        black,
        moves,
        top_games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_view_adds_up() {
        let v = view(
            masters(),
            Database::Masters,
            &Position::startpos(),
            &ExplorerFilter::default(),
        );
        assert_eq!(v.collection, masters().game_count());
        assert_eq!((v.white + v.draws + v.black) as usize, v.collection);
        let sum: u32 = v.moves.iter().map(|m| m.games).sum();
        assert_eq!(sum as usize, v.collection);
        assert!(v.moves.windows(2).all(|w| w[0].games >= w[1].games));
        assert!(!v.top_games.is_empty());
        for g in &v.top_games {
            assert!(game_pgn(g.id).is_ok());
        }
        let missing = game_pgn(u32::MAX).expect_err("no such game");
        assert_eq!(missing.kind(), crate::ErrorKind::Missing);
        assert!(missing
            .to_string()
            .starts_with(&format!("no master game {}", u32::MAX)));
    }

    const OWN: &str = "[Event \"Club\"]\n[White \"Me\"]\n[Black \"You\"]\n[Date \"2024.05.01\"]\n[WhiteElo \"1800\"]\n[BlackElo \"1700\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
        [Event \"Club\"]\n[White \"You\"]\n[Black \"Me\"]\n[Date \"2025.01.02\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n\
        [Event \"Unfinished\"]\n[Result \"*\"]\n\n1. c4 *\n";

    #[test]
    fn own_games_are_explored_as_the_masters_are() {
        let own = OwnGames::index(vec!["club.pgn".into()], OWN.len() as u64, OWN.as_bytes())
            .expect("indexed");
        let v = own.view();
        assert_eq!(
            (v.games, v.left_out, v.files.clone()),
            (2, 1, vec!["club.pgn".to_string()])
        );
        let db = Database::named(Some("mine")).expect("mine");
        let explorer = collection(db, Some(&own)).expect("own games");
        let start = view(
            explorer,
            db,
            &Position::startpos(),
            &ExplorerFilter::default(),
        );
        assert_eq!(start.source, "mine");
        assert_eq!(
            start
                .moves
                .iter()
                .map(|m| m.san.as_str())
                .collect::<Vec<_>>(),
            ["e4", "d4"]
        );
        // The filters where the tags are: the rated game from 2024 only.
        let rated = ExplorerFilter {
            min_rating: Some(1700),
            ..ExplorerFilter::default()
        };
        let some = view(explorer, db, &Position::startpos(), &rated);
        assert_eq!((some.white, some.draws, some.black), (1, 0, 0));
        let since = ExplorerFilter {
            since: Some(2025),
            ..ExplorerFilter::default()
        };
        assert_eq!(view(explorer, db, &Position::startpos(), &since).black, 1);
        let pgn = collection_pgn(db, Some(&own), start.top_games[0].id).expect("a game");
        assert!(pgn.contains("[Event \"Club\"]"), "{pgn}");
        let missing = collection_pgn(db, Some(&own), 9).expect_err("two games");
        assert_eq!(missing.kind(), crate::ErrorKind::Missing);
    }

    #[test]
    fn own_games_past_the_limits_or_none_are_refused_saying_what_to_do() {
        let large = OwnGames::index(vec![], MAX_OWN_BYTES + 1, OWN.as_bytes())
            .err()
            .expect("too large");
        assert_eq!(large.kind(), crate::ErrorKind::Invalid);
        assert!(large.to_string().contains("smaller file"), "{large}");
        let many = OwnGames::checked(
            vec![],
            Explorer::from_pgn(OWN.as_bytes(), own_options()).0,
            ExplorerSummary {
                games: MAX_OWN_GAMES,
                truncated: true,
                ..ExplorerSummary::default()
            },
        )
        .err()
        .expect("too many");
        assert!(
            many.to_string()
                .contains(&format!("more than {MAX_OWN_GAMES} games")),
            "{many}"
        );
        let none = OwnGames::index(vec![], 20, "[Result \"*\"]\n\n1. e4 *\n".as_bytes())
            .err()
            .expect("nothing to explore");
        assert!(none.to_string().contains("1 unfinished"), "{none}");
        let asked = collection(Database::Mine, None).err().expect("none given");
        assert_eq!(asked.kind(), crate::ErrorKind::Missing);
        assert!(asked.to_string().contains("--explorer"), "{asked}");
        assert!(Database::named(Some("lichess")).is_err());
    }

    #[test]
    fn a_filter_counts_only_the_games_it_admits() {
        let query: ExplorerQuery = serde_json::from_value(
            serde_json::json!({"game": "g", "min_rating": 2600, "since": 2000}),
        )
        .expect("a query");
        let filter = query.filter();
        let all = view(
            masters(),
            Database::Masters,
            &Position::startpos(),
            &ExplorerFilter::default(),
        );
        let some = view(masters(), Database::Masters, &Position::startpos(), &filter);
        assert!(some.filtered && !all.filtered);
        let total = |v: &ExplorerView| v.white + v.draws + v.black;
        assert!(
            total(&some) > 0 && total(&some) < total(&all),
            "{} of {}",
            total(&some),
            total(&all)
        );
        for g in &some.top_games {
            let rating =
                (u32::from(g.white_elo.unwrap_or(0)) + u32::from(g.black_elo.unwrap_or(0))) / 2;
            assert!(rating >= 2600 && g.year >= Some(2000), "{g:?}");
        }
    }
}
