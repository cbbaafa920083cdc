//! The games the reader produces and the writer consumes: tags, a start
//! position, and a tree of moves with NAGs, comments and variations.

use chess::Position;
use std::fmt;

/// How a game ended, as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished or unknown.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN text of the result.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result as written in a `Result` tag; anything else is `Unknown`.
    pub fn from_tag(value: &str) -> GameResult {
        match value.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "1/2" | "½-½" => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Plays `m` on `pos`; `Move::NULL` (a null move, `--` or `Z0` in PGN) passes the turn.
pub fn play(pos: &mut Position, m: chess::Move) {
    if m.is_null() {
        pos.play_null();
    } else {
        pos.play_unchecked(m);
    }
}

/// One move of a game or variation, with what was written around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move, checked legal in the position before it; `Move::NULL` for a
    /// null move (a pass, `--` or `Z0` in PGN).
    pub mv: chess::Move,
    /// Numeric annotation glyphs (`$1` = `!`, ...), in the order written.
    pub nags: Vec<u8>,
    /// Comments written before the move (start of a variation, after another variation).
    pub comments_before: Vec<String>,
    /// Comments written after the move (`{+0.35/12 1.2s}`, `{[%clk 0:03:00]}`).
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line played from the position before it.
    pub variations: Vec<Vec<PgnMove>>,
}

impl PgnMove {
    /// A bare move with no annotations.
    pub fn new(mv: chess::Move) -> PgnMove {
        PgnMove {
            mv,
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A game read from PGN (or built to be written as PGN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in the order written (Seven Tag Roster first when written by Kestrel).
    pub tags: Vec<(String, String)>,
    /// The position the game starts from (the `FEN` tag, or the standard start).
    pub start: Position,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The result at the end of the movetext (or of the `Result` tag when the movetext has none).
    pub result: GameResult,
    /// The line of the file the game starts on (0 for games not read from a file).
    pub line: usize,
}

impl PgnGame {
    /// An empty game from `start` with no tags.
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: GameResult::Unknown,
            line: 0,
        }
    }

    /// The value of tag `name` (case-sensitive, as PGN specifies), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an existing value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The main line's moves, without annotations.
    pub fn mainline(&self) -> impl Iterator<Item = chess::Move> + '_ {
        self.moves.iter().map(|m| m.mv)
    }

    /// The position at the end of the main line.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start;
        for m in self.mainline() {
            play(&mut pos, m);
        }
        pos
    }

    /// Number of positions the game passes through in its main line (start included).
    pub fn position_count(&self) -> usize {
        self.moves.len() + 1
    }
}
