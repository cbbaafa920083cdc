//! A finished game as PGN, with the tags cutechess-cli writes: the Seven Tag
//! Roster, `TimeControl`, `PlyCount`, `Termination`, and the start position.

use crate::game_play::GameRecord;
use pgn::PgnGame;

/// Today's date (UTC) as PGN writes it: `2026.11.22`.
pub use pgn::today;

/// The tags of one game.
pub struct GameTags<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Round` (`round.game`).
    pub round: String,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// `TimeControl`.
    pub time_control: String,
    /// `Date`.
    pub date: &'a str,
}

/// The PGN game for `record`.
pub fn to_pgn(record: &GameRecord, tags: &GameTags) -> PgnGame {
    let mut g = PgnGame::new(record.start);
    let mut tag = |n: &str, v: &str| g.tags.push((n.to_string(), v.to_string()));
    tag("Event", tags.event);
    tag("Site", "?");
    tag("Date", tags.date);
    tag("Round", &tags.round);
    tag("White", tags.white);
    tag("Black", tags.black);
    tag("PlyCount", &record.moves.len().to_string());
    tag("TimeControl", &tags.time_control);
    if let Some(t) = record.termination.tag() {
        tag("Termination", t);
    }
    g.moves = record.moves.clone();
    g.result = record.result;
    g
}
