//! The opening explorer the page shows beside the book: the master games
//! shipped with Kestrel ([`book::Explorer::masters`]), indexed once, on
//! first use (or when the server starts, off its async threads: 0.2 s),
//! and what they say about a position in the form the page draws: each
//! move with its games and a White/draw/Black bar, and the best-rated
//! games through the position, any of which loads as a PGN ([`game_pgn`]);
//! the games counted filtered, as lichess's, by rating and year
//! ([`ExplorerQuery`]).

use std::sync::OnceLock;

use book::{Explorer, ExplorerFilter, GameId};
use chess::Position;
use serde::{Deserialize, Serialize};

use crate::error::GameError;

/// The master games, indexed on first use.
pub fn masters() -> &'static Explorer {
    static MASTERS: OnceLock<Explorer> = OnceLock::new();
    MASTERS.get_or_init(Explorer::masters)
}

/// `GET /api/explorer`'s query: the game, and the page's filters, each
/// left out while open (every game counts).
#[derive(Deserialize, Debug, Default, Clone)]
pub struct ExplorerQuery {
    /// The game's id.
    pub game: String,
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
    /// The collection: `masters`.
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

/// The explorer's view of `pos`, counting the games `filter` admits.
pub fn view(explorer: &Explorer, pos: &Position, filter: &ExplorerFilter) -> ExplorerView {
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
        source: "masters",
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
        let v = view(masters(), &Position::startpos(), &ExplorerFilter::default());
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

    #[test]
    fn a_filter_counts_only_the_games_it_admits() {
        let query: ExplorerQuery = serde_json::from_value(
            serde_json::json!({"game": "g", "min_rating": 2600, "since": 2000}),
        )
        .expect("a query");
        let filter = query.filter();
        let all = view(masters(), &Position::startpos(), &ExplorerFilter::default());
        let some = view(masters(), &Position::startpos(), &filter);
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
