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

/// The most bytes of the offending text an error quotes (in
/// [`PgnError::text`] and in its kind): a token may be megabytes long (a
/// game may be up to [`MAX_GAME_BYTES`](crate::MAX_GAME_BYTES)), and an
/// error that kept it whole would hold, and print, all of it. A longer
/// text is cut there and ends with `...`.
pub const MAX_EXCERPT: usize = 60;

/// What an error shows of `text` (bytes from the file): at most
/// [`MAX_EXCERPT`] bytes, escaped where not printable, `...` when cut.
fn excerpt(text: &[u8]) -> String {
    let mut shown: String = String::from_utf8_lossy(&text[..text.len().min(MAX_EXCERPT)])
        .chars()
        .flat_map(char::escape_debug)
        .collect();
    if text.len() > MAX_EXCERPT {
        shown.push_str("...");
    }
    shown
}

/// `text` (already shown, unescaped) cut to at most [`MAX_EXCERPT`] bytes
/// and `...`; a text cut before comes back the same.
fn cut(text: String) -> String {
    if text.len() <= MAX_EXCERPT {
        return text;
    }
    let mut end = MAX_EXCERPT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut shown = text[..end].to_string();
    shown.push_str("...");
    shown
}

impl PgnErrorKind {
    /// The kind with every text it quotes cut to [`MAX_EXCERPT`] bytes.
    fn excerpted(self) -> PgnErrorKind {
        match self {
            PgnErrorKind::Move(e) => PgnErrorKind::Move(match e {
                SanError::Malformed(s) => SanError::Malformed(cut(s)),
                SanError::Illegal(s) => SanError::Illegal(cut(s)),
                SanError::MissingPromotion(s) => SanError::MissingPromotion(cut(s)),
                SanError::Ambiguous { san, candidates } => SanError::Ambiguous {
                    san: cut(san),
                    candidates,
                },
                e @ SanError::Empty => e,
            }),
            PgnErrorKind::Fen(e) => PgnErrorKind::Fen(match e {
                FenError::Turn(s) => FenError::Turn(cut(s)),
                FenError::Castling(s) => FenError::Castling(cut(s)),
                FenError::EnPassant(s) => FenError::EnPassant(cut(s)),
                FenError::HalfmoveClock(s) => FenError::HalfmoveClock(cut(s)),
                FenError::FullmoveNumber(s) => FenError::FullmoveNumber(cut(s)),
                e => e,
            }),
            PgnErrorKind::Variant(s) => PgnErrorKind::Variant(cut(s)),
            kind => kind,
        }
    }
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
    /// The offending text: at most [`MAX_EXCERPT`] bytes of it, escaped
    /// when not printable, `...` when cut.
    pub text: String,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// An error at `line` about `text` (bytes from the file): both it and
    /// the texts `kind` quotes are cut to [`MAX_EXCERPT`] bytes.
    pub fn new(line: usize, text: &[u8], kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: 0,
            line,
            text: excerpt(text),
            kind: kind.excerpted(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_cut_on_a_character_and_cut_once() {
        assert_eq!(cut("e4".to_string()), "e4");
        let long = "é".repeat(MAX_EXCERPT);
        let once = cut(long);
        assert!(
            once.len() <= MAX_EXCERPT + 3 && once.ends_with("..."),
            "{once}"
        );
        assert_eq!(cut(once.clone()), once);
        let e = PgnError::new(
            1,
            "N".repeat(1000).as_bytes(),
            PgnErrorKind::Move(SanError::Malformed("N".repeat(1000))),
        );
        assert_eq!(e.text, format!("{}...", "N".repeat(MAX_EXCERPT)));
        assert_eq!(
            e.kind,
            PgnErrorKind::Move(SanError::Malformed(e.text.clone()))
        );
    }
}
