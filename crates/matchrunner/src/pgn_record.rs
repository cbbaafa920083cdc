//! A finished game as PGN, as fastchess writes it (its `PgnBuilder` and
//! `PGNGenerator`), so that a file from `kestrel match` reads line for line
//! as fastchess's: the Seven Tag Roster, the engines' own names and authors
//! (`EngineWhiteName`, ...), `SetUp` and `FEN` for a position other than
//! the standard start, Chess960's `Variant`, `GameDuration`,
//! `GameStartTime`, `GameEndTime`, `PlyCount`, `Termination` (`normal`
//! too) and `TimeControl` (or `WhiteTimeControl` and `BlackTimeControl`
//! when they differ); book moves commented `{book}`, each engine move with
//! its comment and the reason after the last one's figures; the movetext
//! laid out in lines of at most 80 columns without splitting a move from
//! its comment. fastchess's `ECO` and `Opening` tags (from its own table
//! of openings) are not written.

use crate::game_play::GameRecord;
use crate::variant;
use chess::{CastlingMode, Color, Position};
use matchcore::ending::Termination;
use pgn::Notation;
use std::fmt::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// Today's date (UTC) as PGN writes it: `2026.11.22`.
pub use pgn::today;

/// The tags of one game.
pub struct GameTags<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Site`.
    pub site: &'a str,
    /// `Round`: fastchess's, the game's encounter of its round counted
    /// over the run from 1 (both games of a pair share it).
    pub round: String,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// What White's and Black's engines call themselves (`id name`, `id
    /// author`; empty when unknown).
    pub ids: [(&'a str, &'a str); 2],
    /// White's and Black's `TimeControl` (one tag when they agree).
    pub time_controls: [String; 2],
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

/// fastchess's `Termination` tag: a stalled engine is `abandoned` too.
pub fn termination_tag(t: Termination) -> &'static str {
    match t {
        Termination::Normal => "normal",
        Termination::Adjudication => "adjudication",
        Termination::TimeForfeit => "time forfeit",
        Termination::IllegalMove => "illegal move",
        Termination::Abandoned | Termination::StalledConnection => "abandoned",
    }
}

/// The termination a `Termination` tag of this writer's (or of an earlier
/// Kestrel's) names.
pub fn termination_of(tag: Option<&str>) -> Termination {
    match tag {
        Some("abandoned") => Termination::Abandoned,
        other => Termination::from_tag(other),
    }
}

/// Lays out movetext as fastchess's generator does: units joined by a
/// space, a new line before a unit that would pass column 80.
#[derive(Default)]
struct Lines {
    text: String,
    column: usize,
}

impl Lines {
    fn push(&mut self, unit: &str) {
        if self.column > 0 && self.column + unit.len() + 1 > 80 {
            self.text.push('\n');
            self.column = 0;
        }
        if self.column > 0 {
            self.text.push(' ');
            self.column += 1;
        }
        self.text.push_str(unit);
        self.column += unit.len();
    }
}

/// A move as `notation` spells it in `pos` (castling king takes rook in
/// UCI for Chess960).
fn spell(pos: &Position, mv: chess::Move, notation: Notation, variant: CastlingMode) -> String {
    match notation {
        Notation::San => pos.san(mv),
        Notation::Lan => pos.lan(mv),
        Notation::Uci => match variant {
            CastlingMode::Chess960 => mv.to_uci(CastlingMode::Chess960).to_string(),
            CastlingMode::Standard => mv.to_uci(pos.castling_mode()).to_string(),
        },
    }
}

/// The game as fastchess writes it, ending with a blank line; `min` (its
/// `-pgnout min=true`) leaves out the engine names, the times, `PlyCount`,
/// `Termination`, `TimeControl` and every comment.
pub fn write(record: &GameRecord, tags: &GameTags, notation: Notation, min: bool) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        // fastchess leaves out a tag with no value.
        if !value.is_empty() {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(out, "[{name} \"{value}\"]").expect("writing to a String");
        }
    };
    let result = record.result.as_str();
    tag("Event", tags.event);
    tag("Site", tags.site);
    tag("Date", tags.date);
    tag("Round", &tags.round);
    tag("White", tags.white);
    tag("Black", tags.black);
    tag("Result", result);
    if !min {
        for ((name, author), side) in tags.ids.iter().zip(["White", "Black"]) {
            tag(&format!("Engine{side}Name"), name);
            tag(&format!("Engine{side}Author"), author);
        }
    }
    let chess960 = tags.variant == CastlingMode::Chess960;
    if record.start != Position::startpos() || chess960 {
        tag("SetUp", "1");
        tag("FEN", &variant::fen(&record.start, tags.variant));
    }
    if chess960 {
        tag("Variant", "Chess960");
    }
    if !min {
        if let Some(times) = tags.times {
            tag("GameDuration", &times.duration_tag());
            tag("GameStartTime", &times.start_tag());
            tag("GameEndTime", &times.end_tag());
        }
        tag("PlyCount", &record.moves.len().to_string());
        tag("Termination", termination_tag(record.termination));
        match &tags.time_controls {
            [w, b] if w == b => tag("TimeControl", w),
            [w, b] => {
                tag("WhiteTimeControl", w);
                tag("BlackTimeControl", b);
            }
        }
    }
    out.push('\n');
    let mut lines = Lines::default();
    let mut pos = record.start;
    let last = record.moves.len().saturating_sub(1);
    let mut reason = record.reason.clone();
    if let Some(illegal) = &record.illegal {
        write!(reason, ": {illegal}").expect("writing to a String");
    }
    if record.moves.is_empty() && record.illegal.is_some() && !min {
        // An illegal first move: the reason alone, as fastchess writes it.
        lines.push(&format!("{{{reason}}}"));
    }
    for (i, m) in record.moves.iter().enumerate() {
        let mut unit = match pos.turn() {
            Color::White => format!("{}. ", pos.fullmove_number()),
            Color::Black if i == 0 => format!("{}... ", pos.fullmove_number()),
            Color::Black => String::new(),
        };
        unit.push_str(&spell(&pos, m.mv, notation, tags.variant));
        if !min {
            // A book move says only that, even as the game's last move.
            let comment = if i < record.book_plies {
                "book".to_string()
            } else if i == last {
                format!("{}, {reason}", m.comments.join(", "))
            } else {
                m.comments.join(", ")
            };
            write!(unit, " {{{comment}}}").expect("writing to a String");
        }
        lines.push(&unit);
        pos.play_unchecked(m.mv);
    }
    lines.push(result);
    out.push_str(&lines.text);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgn::{GameResult, PgnMove};
    use std::time::Duration;

    /// 1. e4 from the book, then engine moves, drawn by adjudication.
    fn record(engine_moves: &[&str]) -> GameRecord {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for (i, text) in ["e2e4"].iter().chain(engine_moves).enumerate() {
            let mv = pos.parse_uci_move(text, CastlingMode::Standard).unwrap();
            let mut m = PgnMove::new(mv);
            if i > 0 {
                m.comments.push("+0.35/12 0.123s".to_string());
            }
            moves.push(m);
            pos.play_unchecked(mv);
        }
        GameRecord {
            start: Position::startpos(),
            moves,
            book_plies: 1,
            result: GameResult::Draw,
            termination: Termination::Adjudication,
            reason: "Draw by adjudication".to_string(),
            illegal: None,
            broken: [false, false],
            failure: None,
        }
    }

    fn tags() -> GameTags<'static> {
        GameTags {
            event: "E",
            site: "?",
            round: "3".to_string(),
            white: "A",
            black: "B",
            ids: [("Kestrel", "The Kestrel developers"), ("", "")],
            time_controls: ["10+0.1".to_string(), "10+0.1".to_string()],
            date: "2026.12.01",
            times: None,
            variant: CastlingMode::Standard,
        }
    }

    #[test]
    fn games_are_written_as_fastchess_writes_them() {
        let moves = ["e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"];
        let text = write(&record(&moves), &tags(), Notation::San, false);
        let want = "[Event \"E\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"3\"]\n\
            [White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\
            [EngineWhiteName \"Kestrel\"]\n[EngineWhiteAuthor \"The Kestrel developers\"]\n\
            [PlyCount \"7\"]\n[Termination \"adjudication\"]\n[TimeControl \"10+0.1\"]\n\n\
            1. e4 {book} e5 {+0.35/12 0.123s} 2. Nf3 {+0.35/12 0.123s} Nc6 {+0.35/12 0.123s}\n\
            3. Bb5 {+0.35/12 0.123s} a6 {+0.35/12 0.123s}\n\
            4. Ba4 {+0.35/12 0.123s, Draw by adjudication} 1/2-1/2\n\n";
        assert_eq!(text, want);
        // min: the roster, no engine names, no times, no comments.
        let min = write(&record(&moves), &tags(), Notation::Uci, true);
        assert!(
            min.ends_with("[Result \"1/2-1/2\"]\n\n1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. b5a4 1/2-1/2\n\n"),
            "{min}"
        );
        // A game from Black's move, and time controls that differ.
        let mut black_first = record(&["e7e5"]);
        let e4 = black_first.moves.remove(0).mv;
        black_first.start.play_unchecked(e4);
        black_first.book_plies = 0;
        let mut t = tags();
        t.time_controls[1] = "-".to_string();
        let text = write(&black_first, &t, Notation::San, false);
        for line in [
            "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n",
            "[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"-\"]\n",
            "\n1... e5 {+0.35/12 0.123s, Draw by adjudication} 1/2-1/2\n",
        ] {
            assert!(text.contains(line), "{line} in\n{text}");
        }
    }

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
