//! What can be wrong with a game in a PGN file, and where.

use chess::{FenError, SanError};
use thiserror::Error;

/// Why a game was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    /// A move that is malformed, illegal or ambiguous on the board.
    #[error("{0}")]
    Move(SanError),
    /// A null move (`--`, `Z0`) played while in check.
    #[error("a null move (pass) while in check is impossible")]
    NullMove,
    /// The `FEN` tag does not hold a valid position.
    #[error("bad FEN tag: {0}")]
    Fen(FenError),
    /// A `Variant` tag naming a variant other than standard chess or Chess960.
    #[error("variant '{0}' is not supported (only standard chess and Chess960)")]
    Variant(String),
    /// A `{` comment that is never closed.
    #[error("a comment opened with '{{' is never closed")]
    UnclosedComment,
    /// A tag pair line that is not `[Name "value"]`.
    #[error("malformed tag pair; write it as [Name \"value\"]")]
    BadTag,
    /// A stray character.
    #[error("unexpected character")]
    Unexpected,
    /// A `(` with no matching `)`.
    #[error("a variation opened with '(' is never closed")]
    UnclosedVariation,
    /// A `)` with no matching `(`.
    #[error("')' closes no variation")]
    UnmatchedClose,
    /// A `(` before any move of its line.
    #[error("a variation must follow the move it replaces")]
    VariationWithoutMove,
    /// A result inside a variation.
    #[error("a game result inside a variation")]
    ResultInVariation,
    /// A tag pair after the movetext began.
    #[error("a tag pair inside the movetext (is the previous game's result missing?)")]
    TagInMovetext,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`](crate::MAX_VARIATION_DEPTH)
    /// (kept variations only: skipped ones may nest as deep as they like).
    #[error("variations nested deeper than {0} levels")]
    TooDeep(usize),
    /// A game whose text is longer than [`MAX_GAME_BYTES`](crate::MAX_GAME_BYTES):
    /// skipped unread, up to the next tag line.
    #[error("a game longer than {0} bytes is skipped")]
    TooLong(usize),
    /// The input could not be read.
    #[error("read error: {0}")]
    Io(String),
}

/// A rejected game: its number in the file (1-based), the line where the
/// problem is, the offending text and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("game {game}, line {line}, at '{text}': {kind}")]
pub struct PgnError {
    /// The game's number in the input, counting good and bad games from 1.
    pub game: usize,
    /// The line of the input the problem is on.
    pub line: usize,
    /// The offending text (escaped when it is not printable).
    pub text: String,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// An error at `line` about `text` (bytes from the file, shown escaped).
    pub fn new(line: usize, text: &[u8], kind: PgnErrorKind) -> PgnError {
        let shown: String = String::from_utf8_lossy(&text[..text.len().min(60)])
            .chars()
            .flat_map(char::escape_debug)
            .collect();
        PgnError {
            game: 0,
            line,
            text: shown,
            kind,
        }
    }
}
