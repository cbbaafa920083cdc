//! Cutting a PGN stream into blocks of whole games, so that several threads
//! can split and parse the blocks at once and get exactly what one pass of
//! [`RawGames`] over the whole stream gets.
//!
//! A block ends just before a line that the splitter always treats as the
//! start of a new game, whatever state it is in: a well-formed tag line whose
//! nearest non-blank line before it is movetext (it starts with neither `[`
//! nor `%`, so it is movetext inside a comment or out of one). The splitter
//! then cuts there too, and starts the next game in the same state a fresh
//! splitter starts in.

use crate::mainline::{scan_plain, MainLine};
use crate::split::{is_tag_line, RawGames, MAX_GAME_BYTES};
use crate::RawGame;
use chess::{Move, Position};
use std::io::{self, BufRead, Read};

/// Bytes read per block (a block ends at the next safe cut after this).
pub const BLOCK_SIZE: usize = 64 * 1024;

/// Whole games from a PGN stream, with their place in the stream.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Blocks are numbered from 0 in stream order.
    pub index: usize,
    /// The line of the stream this block starts on (1-based).
    pub first_line: usize,
    /// The text, ending at a line end (or the end of the stream, or inside
    /// a line longer than [`MAX_GAME_BYTES`]).
    pub text: Vec<u8>,
}

impl Block {
    /// The games of this block, as [`RawGames`] would cut them from the whole
    /// stream (line numbers included).
    pub fn raw_games(&self) -> impl Iterator<Item = RawGame> + '_ {
        RawGames::starting_at_line(&self.text[..], self.first_line)
            .unbounded()
            // Reading from memory cannot fail.
            .map_while(Result::ok)
    }

    /// The games of this block, plain ones read in place (see [`GameCursor`]).
    pub fn games(&self) -> GameCursor<'_> {
        GameCursor {
            text: &self.text,
            offset: 0,
            line: self.first_line,
        }
    }
}

/// One game of a block, as [`GameCursor`] hands it out.
#[derive(Clone, Debug)]
pub enum BlockGame {
    /// A plain game, read straight from the block's text; its moves went to
    /// the visitor.
    Plain(MainLine),
    /// Any other game, split off as [`RawGames`] would; the moves the
    /// visitor saw are to be forgotten.
    Raw(RawGame),
}

/// Walks the games of a block, reading plain games in place (one pass over
/// their bytes, no copy) and splitting off the others: the same games, in
/// the same order, as [`Block::raw_games`].
pub struct GameCursor<'a> {
    text: &'a [u8],
    offset: usize,
    line: usize,
}

impl GameCursor<'_> {
    /// The next game, or `None` at the end of the block. For a plain game,
    /// `visit` has seen the position before each main-line move up to
    /// `max_plies`, and the move.
    pub fn next_game(
        &mut self,
        max_plies: Option<usize>,
        visit: &mut impl FnMut(&Position, Move),
    ) -> Option<BlockGame> {
        let text = &self.text[self.offset..];
        if text.is_empty() {
            return None;
        }
        // A game that starts with a byte-order mark (the stream's first, or
        // one after files put together) goes to the splitter, which drops it.
        if !text.starts_with(b"\xef\xbb\xbf") {
            if let Some(game) = scan_plain(text, self.line, max_plies, visit) {
                self.offset += game.len;
                self.line = game.next_line;
                return Some(BlockGame::Plain(game.line));
            }
        }
        let mut split = RawGames::starting_at_line(text, self.line).unbounded();
        // Reading from memory cannot fail.
        let raw = split.next().and_then(Result::ok);
        let (left, line) = split.rest();
        self.offset = self.text.len() - left;
        self.line = line;
        raw.map(BlockGame::Raw)
    }
}

/// An iterator over the blocks of a PGN stream. A read error is the last item.
pub struct Blocks<R> {
    reader: R,
    /// Bytes read but not yet handed out.
    pending: Vec<u8>,
    block_size: usize,
    next_line: usize,
    index: usize,
    eof: bool,
    done: bool,
    /// Bytes of `pending` already searched for line ends.
    scanned: usize,
    /// Where the last line of `pending` starts (it may be incomplete): safe
    /// cuts before it were looked for.
    line_start: usize,
}

impl<R: BufRead> Blocks<R> {
    /// Cuts `reader` into blocks of about [`BLOCK_SIZE`] bytes.
    pub fn new(reader: R) -> Blocks<R> {
        Blocks::with_size(reader, BLOCK_SIZE)
    }

    /// Cuts `reader` into blocks of about `block_size` bytes (at least 1).
    pub fn with_size(reader: R, block_size: usize) -> Blocks<R> {
        Blocks {
            reader,
            pending: Vec::with_capacity(block_size),
            block_size: block_size.max(1),
            next_line: 1,
            index: 0,
            eof: false,
            done: false,
            scanned: 0,
            line_start: 0,
        }
    }

    /// Reads up to `n` more bytes into `pending`.
    fn fill(&mut self, n: usize) -> io::Result<()> {
        let got = self
            .reader
            .by_ref()
            .take(n as u64)
            .read_to_end(&mut self.pending)?;
        if got == 0 {
            self.eof = true;
        }
        Ok(())
    }

    fn emit(&mut self, end: usize) -> Block {
        // The next block's buffer, with room for the next read: filling it
        // then needs no reallocation (each one copies the block and, at
        // this size, maps fresh pages).
        let mut rest = Vec::with_capacity(self.pending.len() - end + self.block_size);
        rest.extend_from_slice(&self.pending[end..]);
        self.pending.truncate(end);
        let text = std::mem::replace(&mut self.pending, rest);
        self.scanned = self.scanned.saturating_sub(end);
        self.line_start = self.line_start.saturating_sub(end);
        let block = Block {
            index: self.index,
            first_line: self.next_line,
            text,
        };
        self.index += 1;
        self.next_line += block.text.iter().filter(|&&b| b == b'\n').count();
        block
    }
}

/// The last safe cut in `buf` at or after `from`: the start of a line that
/// begins a game in every splitter state (see the module comment).
fn last_safe_cut(buf: &[u8], from: usize) -> Option<usize> {
    let mut i = buf.len();
    while i > from.max(1) {
        i -= 1;
        if buf[i] != b'[' || buf[i - 1] != b'\n' {
            continue;
        }
        // The tag line must be complete to be judged.
        let Some(len) = buf[i..].iter().position(|&b| b == b'\n') else {
            continue;
        };
        if !is_tag_line(&buf[i..i + len]) {
            continue;
        }
        let before = &buf[..i];
        let previous = before
            .split(|&b| b == b'\n')
            .rev()
            // A byte-order mark is dropped before the first line is read.
            .map(|line| line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line))
            .find_map(|line| line.iter().find(|b| !b.is_ascii_whitespace()));
        if previous.is_some_and(|&b| b != b'[' && b != b'%') {
            return Some(i);
        }
    }
    None
}

impl<R: BufRead> Iterator for Blocks<R> {
    type Item = io::Result<Block>;

    fn next(&mut self) -> Option<io::Result<Block>> {
        if self.done {
            return None;
        }
        loop {
            if !self.eof {
                if let Err(e) = self.fill(self.block_size) {
                    self.done = true;
                    return Some(Err(e));
                }
            }
            if self.eof {
                self.done = true;
                if self.pending.is_empty() {
                    return None;
                }
                let end = self.pending.len();
                return Some(Ok(self.emit(end)));
            }
            // Only the bytes just read are searched for line ends, and only
            // the lines they complete for cuts: every byte is looked at a
            // bounded number of times, however long its line.
            let complete = match self.pending[self.scanned..]
                .iter()
                .rposition(|&b| b == b'\n')
            {
                Some(i) => self.scanned + i + 1,
                None => self.line_start,
            };
            self.scanned = self.pending.len();
            let from = std::mem::replace(&mut self.line_start, complete);
            if let Some(cut) = last_safe_cut(&self.pending[..complete], from).filter(|&c| c > 0) {
                return Some(Ok(self.emit(cut)));
            }
            if self.pending.len() > MAX_GAME_BYTES {
                // No game is this long: cut at the last line end (or here,
                // in a line longer than the bound), so that memory stays
                // bounded. The games on either side of the cut are broken
                // and reported as such.
                let cut = if complete > 0 {
                    complete
                } else {
                    self.pending.len()
                };
                return Some(Ok(self.emit(cut)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of every block, in order, as (first line, text).
    fn by_blocks(text: &[u8], size: usize) -> Vec<(usize, Vec<u8>)> {
        Blocks::with_size(text, size)
            .flat_map(|b| {
                let b = b.expect("in-memory read");
                b.raw_games()
                    .map(|g| (g.first_line, g.text))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn whole(text: &[u8]) -> Vec<(usize, Vec<u8>)> {
        RawGames::new(text)
            .map(|g| {
                let g = g.expect("in-memory read");
                (g.first_line, g.text)
            })
            .collect()
    }

    #[test]
    fn blocks_cut_like_one_pass() {
        let text = "\u{feff}[A \"1\"]\n[B \"2\"]\n\n1. e4 {a [b]\n[C \"x\"]\n} *\n\n\
                    [A \"3\"]\n1. d4 {open\n\n[A \"4\"]\n1. c4 *\n%escape\n[A \"5\"]\n1. Nf3 *\n\
                    [bad\n1. e4 *\n[A \"6\"]\n\n  [A \"7\"]\n1. g3 ; [A \"x\"]\n[A \"8\"]\n1. b3 *";
        let expected = whole(text.as_bytes());
        assert!(expected.len() >= 6);
        for size in 1..text.len() + 2 {
            assert_eq!(
                by_blocks(text.as_bytes(), size),
                expected,
                "block size {size}"
            );
        }
    }

    /// The cursor's games, each as the raw text it stands for: a plain
    /// game's moves and result must be what the splitter's text gives.
    fn by_cursor(text: &[u8], size: usize) -> Vec<(usize, Vec<u8>)> {
        let whole = whole(text);
        let mut out = Vec::new();
        for block in Blocks::with_size(text, size) {
            let block = block.expect("in-memory read");
            let mut cursor = block.games();
            loop {
                let mut moves = Vec::new();
                let Some(game) = cursor.next_game(None, &mut |_, m| moves.push(m)) else {
                    break;
                };
                let expected = whole.get(out.len()).cloned().expect("no more games");
                match game {
                    BlockGame::Raw(raw) => out.push((raw.first_line, raw.text)),
                    BlockGame::Plain(line) => {
                        let raw = RawGame {
                            first_line: expected.0,
                            text: expected.1.clone(),
                        };
                        let mut again = Vec::new();
                        let read = crate::scan_mainline(&raw, None, &mut |_, m| again.push(m));
                        assert_eq!(read, Some(line), "line {}", expected.0);
                        assert_eq!(again, moves, "line {}", expected.0);
                        out.push(expected);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn cursor_reads_the_games_of_one_pass() {
        let text = "\u{feff}[A \"1\"]\n1. e4 *\n\n[A \"2\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    %escape\n[A \"3\"]\n1. d4 {x\n[B \"y\"]\n} d5 *\n[A \"4\"]\n1. c4 e5\n\
                    [A \"5\"]\n1. Nf3 * 1. e4 *\n[A \"6\"]\n1. g3 1/2-1/2";
        let expected = whole(text.as_bytes());
        for size in 1..text.len() + 2 {
            assert_eq!(
                by_cursor(text.as_bytes(), size),
                expected,
                "block size {size}"
            );
        }
    }

    #[test]
    fn messy_files_cut_like_one_pass() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).expect("test data") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "pgn") {
                let text = std::fs::read(&path).expect("read");
                let expected = whole(&text);
                for size in [1, 100, 1000, 5000] {
                    assert_eq!(
                        by_blocks(&text, size),
                        expected,
                        "{} at block size {size}",
                        path.display()
                    );
                    assert_eq!(
                        by_cursor(&text, size),
                        expected,
                        "{} read by the cursor at block size {size}",
                        path.display()
                    );
                }
                files += 1;
            }
        }
        assert!(files > 0, "no PGN files in {}", dir.display());
    }
}
