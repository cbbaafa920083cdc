//! A finished game as PGN, with the tags cutechess-cli and fastchess write:
//! the Seven Tag Roster, fastchess's `GameDuration`, `GameStartTime` and
//! `GameEndTime`, `PlyCount`, `TimeControl`, `Termination`, the start
//! position, and Chess960's `Variant`.

use crate::game_play::GameRecord;
use crate::variant;
use chess::CastlingMode;
use pgn::PgnGame;
use std::time::{SystemTime, UNIX_EPOCH};

/// Today's date (UTC) as PGN writes it: `2026.11.22`.
pub use pgn::today;

/// The tags of one game.
pub struct GameTags<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Site`.
    pub site: &'a str,
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
    /// When the game started and ended.
    pub times: Option<&'a GameTimes>,
    /// The variant: Chess960 games get `SetUp`, a Shredder-FEN `FEN` and
    /// `Variant "Chess960"`, where fastchess writes them.
    pub variant: CastlingMode,
}

/// When a game started and ended (UTC), for fastchess's tags.
#[derive(Clone, Debug)]
pub struct GameTimes {
    start: (SystemTime, String),
    end: (SystemTime, String),
}

impl GameTimes {
    /// The clock and the day now: call as the game starts.
    pub fn start() -> GameTimes {
        let now = (SystemTime::now(), today());
        GameTimes {
            start: now.clone(),
            end: now,
        }
    }

    /// Notes the end: call as the game ends.
    pub fn end(&mut self) {
        self.end = (SystemTime::now(), today());
    }

    /// `GameStartTime`: `2026-11-26T22:59:15 +0000`, as fastchess writes it.
    pub fn start_tag(&self) -> String {
        stamp(&self.start)
    }

    /// `GameEndTime`.
    pub fn end_tag(&self) -> String {
        stamp(&self.end)
    }

    /// `GameDuration`: `00:01:05` (hours, minutes, seconds).
    pub fn duration_tag(&self) -> String {
        let secs = self
            .end
            .0
            .duration_since(self.start.0)
            .map_or(0, |d| d.as_secs());
        format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    }
}

/// A moment as fastchess's time tags write it, from its day (`2026.11.26`,
/// as [`today`] gave it at that moment) and its time of day.
fn stamp((time, day): &(SystemTime, String)) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02} +0000",
        day.replace('.', "-"),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// The PGN game for `record`.
pub fn to_pgn(record: &GameRecord, tags: &GameTags) -> PgnGame {
    let mut g = PgnGame::new(record.start);
    let mut tag = |n: &str, v: &str| g.tags.push((n.to_string(), v.to_string()));
    tag("Event", tags.event);
    tag("Site", tags.site);
    tag("Date", tags.date);
    tag("Round", &tags.round);
    tag("White", tags.white);
    tag("Black", tags.black);
    if tags.variant == CastlingMode::Chess960 {
        tag("SetUp", "1");
        tag("FEN", &variant::fen(&record.start, tags.variant));
        tag("Variant", "Chess960");
    }
    if let Some(times) = tags.times {
        tag("GameDuration", &times.duration_tag());
        tag("GameStartTime", &times.start_tag());
        tag("GameEndTime", &times.end_tag());
    }
    tag("PlyCount", &record.moves.len().to_string());
    tag("TimeControl", &tags.time_control);
    if let Some(t) = record.termination.tag() {
        tag("Termination", t);
    }
    g.moves = record.moves.clone();
    g.result = record.result;
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn time_tags_read_as_fastchess_writes_them() {
        let start = UNIX_EPOCH + Duration::from_secs(20_418 * 86_400 + 22 * 3600 + 59 * 60 + 15);
        let times = GameTimes {
            start: (start, "2025.11.26".to_string()),
            end: (start + Duration::from_secs(3725), "2025.11.27".to_string()),
        };
        assert_eq!(times.start_tag(), "2025-11-26T22:59:15 +0000");
        assert_eq!(times.end_tag(), "2025-11-27T00:01:20 +0000");
        assert_eq!(times.duration_tag(), "01:02:05");
    }
}
