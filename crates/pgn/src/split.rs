//! Cutting a PGN stream into games without parsing them, so that games can be
//! parsed in parallel and a broken game cannot swallow the ones after it.
//!
//! A game ends where a tag line (`[Name "value"]`) follows movetext. Braces are
//! tracked across lines so that a `[` inside a comment does not cut a game,
//! except that a well-formed tag line always starts a new game once movetext
//! was seen: an unclosed `{` then breaks only its own game.

use std::io::{self, BufRead};
use types::lines::read_line_capped;

/// The longest game text a reader holds: a game whose text (tags, movetext
/// and the blank lines inside it) is longer is skipped unread up to the next
/// tag line, and reported as [`GameTooLong`]. The longest real games are well
/// under a megabyte (120,000 plies take 889 KB); the bound keeps a reader's
/// memory small whatever it is given (a gigabyte of spaces, a huge tag value
/// or comment, a decompression bomb).
pub const MAX_GAME_BYTES: usize = 16 << 20;

/// A game longer than [`MAX_GAME_BYTES`]: the inner error of the
/// [`io::Error`] (of kind [`io::ErrorKind::InvalidData`]) that [`RawGames`]
/// gives in its place. Splitting goes on at the next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game on line {line} is longer than {max} bytes: skipped up to the next tag line")]
pub struct GameTooLong {
    /// The line the game starts on.
    pub line: usize,
    /// The bound it passed.
    pub max: usize,
}

/// The unparsed text of one game (or of several headerless games).
#[derive(Clone, Debug, Default)]
pub struct RawGame {
    /// The line of the file this text starts on (1-based).
    pub first_line: usize,
    /// The bytes, lines included with their terminators.
    pub text: Vec<u8>,
}

/// An iterator over the games of a PGN stream, as raw text.
pub struct RawGames<R> {
    reader: R,
    line: usize,
    in_comment: bool,
    /// The tag line that ended the previous game and starts the next one.
    carry: Option<(usize, Vec<u8>)>,
    done: bool,
    /// The longest game text kept ([`MAX_GAME_BYTES`] unless the text is
    /// already in memory).
    max_bytes: usize,
}

impl<R: BufRead> RawGames<R> {
    /// Splits the stream `reader` into games.
    pub fn new(reader: R) -> RawGames<R> {
        RawGames {
            reader,
            line: 0,
            in_comment: false,
            carry: None,
            done: false,
            max_bytes: MAX_GAME_BYTES,
        }
    }

    /// Splits `reader` keeping games of any length: for text already in
    /// memory (a block of games), whose length bounds the games'.
    pub(crate) fn unbounded(mut self) -> RawGames<R> {
        self.max_bytes = usize::MAX;
        self
    }

    /// Splits `reader`, a part of a stream that starts at line `first_line`
    /// (1-based) at the start of a game, so that line numbers are the stream's.
    pub fn starting_at_line(reader: R, first_line: usize) -> RawGames<R> {
        RawGames {
            line: first_line.saturating_sub(1),
            ..RawGames::new(reader)
        }
    }
}

impl RawGames<&[u8]> {
    /// What of the text is not yet in a game returned: its length in bytes
    /// and the line it starts on.
    pub fn rest(&self) -> (usize, usize) {
        match &self.carry {
            Some((line, text)) => (self.reader.len() + text.len(), *line),
            None => (self.reader.len(), self.line + 1),
        }
    }
}

/// True for a line that is a well-formed tag pair `[Name "value"]`.
pub(crate) fn is_tag_line(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    line.len() >= 5
        && line[0] == b'['
        && line[line.len() - 1] == b']'
        && line[1].is_ascii_alphabetic()
        && line.iter().filter(|&&b| b == b'"').count() >= 2
}

/// Drops a byte-order mark that starts the line at `start` of `text`.
/// Files that each start with one, put one after the other (`cat a.pgn
/// b.pgn`), have one at the start of a line in the middle of the stream:
/// it is dropped there as at the stream's start, so that the tag line it
/// precedes starts a game.
fn drop_byte_order_mark(text: &mut Vec<u8>, start: usize) {
    if text[start..].starts_with(b"\xef\xbb\xbf") {
        text.drain(start..start + 3);
    }
}

/// What a line holds, for the splitter.
enum LineKind {
    Blank,
    Tag,
    Movetext,
}

impl<R: BufRead> RawGames<R> {
    /// Classifies `line` and updates the comment state.
    fn classify(&mut self, line: &[u8]) -> LineKind {
        let first = line.iter().position(|b| !b.is_ascii_whitespace());
        let Some(first) = first else {
            return LineKind::Blank;
        };
        if !self.in_comment && line[first] == b'%' {
            return LineKind::Blank;
        }
        let tag = !self.in_comment && line[first] == b'[';
        let mut i = first;
        while i < line.len() {
            let b = line[i];
            if self.in_comment {
                if b == b'}' {
                    self.in_comment = false;
                }
            } else if b == b'{' {
                self.in_comment = true;
            } else if b == b';' {
                break;
            } else if tag && b == b'"' {
                // Skip the quoted value: it may hold braces.
                i += 1;
                while i < line.len() && line[i] != b'"' {
                    i += 1 + usize::from(line[i] == b'\\');
                }
            }
            i += 1;
        }
        if tag {
            LineKind::Tag
        } else {
            LineKind::Movetext
        }
    }
}

impl<R: BufRead> RawGames<R> {
    /// Passes over the rest of a game too long to keep (it started on line
    /// `first_line`), up to the tag line that starts the next game (a tag
    /// line after a line that is not one), and gives the error in its place.
    /// `after_movetext`: whether a line that is not a tag line was read.
    fn skip_game(&mut self, first_line: usize, mut after_movetext: bool) -> io::Error {
        let too_long = io::Error::new(
            io::ErrorKind::InvalidData,
            GameTooLong {
                line: first_line,
                max: self.max_bytes,
            },
        );
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = match read_line_capped(&mut self.reader, &mut line, self.max_bytes) {
                Ok(read) => read,
                Err(e) => {
                    self.done = true;
                    return e;
                }
            };
            if read.consumed == 0 {
                self.done = true;
                return too_long;
            }
            self.line += 1;
            drop_byte_order_mark(&mut line, 0);
            let first = line.iter().find(|b| !b.is_ascii_whitespace());
            if read.blank || first == Some(&b'%') {
                continue;
            }
            if read.whole && is_tag_line(&line) {
                if after_movetext {
                    self.in_comment = false;
                    self.carry = Some((self.line, line));
                    return too_long;
                }
            } else {
                after_movetext = true;
            }
        }
    }
}

impl<R: BufRead> Iterator for RawGames<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<io::Result<RawGame>> {
        if self.done {
            return None;
        }
        let mut game = RawGame::default();
        let mut seen_movetext = false;
        let mut seen_anything = false;
        // Blank lines inside the game not yet added to its text: they are
        // added (as bare line ends, which keep the line numbers) before the
        // next line of the game, and dropped at its end.
        let mut blank_lines = 0usize;
        if let Some((line, text)) = self.carry.take() {
            game.first_line = line;
            game.text = text;
            seen_anything = true;
        }
        loop {
            let start = game.text.len();
            let room = self.max_bytes.saturating_sub(start + blank_lines);
            let read = match read_line_capped(&mut self.reader, &mut game.text, room) {
                Ok(read) => read,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if read.consumed == 0 {
                self.done = true;
                return seen_anything.then_some(Ok(game));
            }
            self.line += 1;
            if !read.whole {
                if read.blank && !self.in_comment {
                    // Only spaces: a blank line, however long.
                    game.text.truncate(start);
                    blank_lines += usize::from(seen_anything);
                    continue;
                }
                let first_line = if seen_anything {
                    game.first_line
                } else {
                    self.line
                };
                let tag = game.text[start..].trim_ascii_start().starts_with(b"[");
                drop(game);
                return Some(Err(self.skip_game(first_line, seen_movetext || !tag)));
            }
            drop_byte_order_mark(&mut game.text, start);
            let line = &game.text[start..];
            if self.in_comment && seen_movetext && is_tag_line(line) {
                // An unclosed comment must not swallow the next game.
                self.in_comment = false;
            }
            let line = &game.text[start..];
            let kind = if self.in_comment {
                self.classify(line);
                LineKind::Movetext
            } else {
                self.classify(line)
            };
            match kind {
                LineKind::Blank => {
                    game.text.truncate(start);
                    blank_lines += usize::from(seen_anything);
                    continue;
                }
                LineKind::Tag if seen_movetext => {
                    let next = game.text.split_off(start);
                    self.carry = Some((self.line, next));
                    return Some(Ok(game));
                }
                LineKind::Tag => {}
                LineKind::Movetext => seen_movetext = true,
            }
            if blank_lines > 0 {
                game.text
                    .splice(start..start, std::iter::repeat_n(b'\n', blank_lines));
                blank_lines = 0;
            }
            if !seen_anything {
                seen_anything = true;
                game.first_line = self.line;
                // Drop the blank lines before the game.
                game.text.drain(..start);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<(usize, String)> {
        RawGames::new(s.as_bytes())
            .map(|g| {
                let g = g.expect("in-memory read");
                (g.first_line, String::from_utf8(g.text).expect("utf-8"))
            })
            .collect()
    }

    #[test]
    fn games_split_at_tags_after_movetext() {
        let games = split("\n[A \"1\"]\n[B \"2\"]\n\n1. e4 *\n\n[A \"3\"]\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].0, 2);
        assert!(games[0].1.starts_with("[A \"1\"]"));
        assert_eq!(games[1], (7, "[A \"3\"]\n1. d4 *\n".to_string()));
    }

    #[test]
    fn brackets_in_comments_do_not_split() {
        let games = split("[A \"1\"]\n1. e4 {see\n[diagram]} e5 *\n");
        assert_eq!(games.len(), 1);
    }

    #[test]
    fn unclosed_comment_breaks_only_its_game() {
        let games = split("[A \"1\"]\n1. e4 {oops\n\n[A \"2\"]\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].0, 4);
    }

    #[test]
    fn bom_and_empty_input() {
        assert_eq!(split("").len(), 0);
        assert_eq!(split("\n\n").len(), 0);
        let games = split("\u{feff}[A \"1\"]\n*\n");
        assert_eq!(games[0].1, "[A \"1\"]\n*\n");
    }
}
