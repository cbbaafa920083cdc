//! The PGN tokenizer: turns the bytes of one game into tag pairs, moves, NAGs,
//! comments, variation brackets and results, each with its line number.
//!
//! It is tolerant where real files are sloppy (`4..Be7`, `Bxe7,`, `0-0`,
//! `e4!?`, `%` escape lines, CRLF, Latin-1) and strict where guessing would
//! lose information (an unclosed comment or tag is an error). It never
//! allocates: every token borrows from the input.

use crate::GameResult;

/// One lexical element of PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `[Name "value"]`; the value still has its `\"` and `\\` escapes.
    Tag {
        /// The tag name.
        name: &'a [u8],
        /// The raw tag value between the quotes.
        value: &'a [u8],
    },
    /// A move as written (SAN, possibly with a `!?` suffix), move numbers removed.
    Move(&'a [u8]),
    /// A numeric annotation glyph: `$14`, or `!`, `?`, `!?`, `+-` ... mapped to their numbers.
    Nag(u8),
    /// The text of a `{}` or `;` comment.
    Comment(&'a [u8]),
    /// `(`: a variation begins.
    Open,
    /// `)`: a variation ends.
    Close,
    /// A game termination marker.
    Result(GameResult),
}

/// What the tokenizer cannot make sense of. The text is the start of the
/// broken token (a byte more than an error quotes), never all of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// A `{` comment that is never closed.
    UnclosedComment,
    /// A `[` tag pair that is not `[Name "value"]`: the start of its line.
    BadTag(String),
    /// A stray `]`, `}` or `"`, or a `$` without a number from 0 to 255.
    Unexpected(String),
}

/// Where a [`Tokenizer`] stands in its input, to go on from there later
/// ([`Tokenizer::resume`]) without borrowing the input in between.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    pos: usize,
    line: usize,
    at_line_start: bool,
}

/// Streams tokens out of one game's bytes.
pub struct Tokenizer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    at_line_start: bool,
}

/// Bytes that end a word, as a table: the word scan runs once per byte of
/// movetext, and a table lookup is cheaper there than a chain of compares.
const DELIMITERS: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b" \t\n\r\x0b\x0c{}()[];$\",";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

#[inline]
fn is_delimiter(b: u8) -> bool {
    DELIMITERS[b as usize]
}

/// The start of a broken token that its error quotes: one byte more than
/// an error shows ([`MAX_EXCERPT`](crate::MAX_EXCERPT)), so that it shows
/// it was cut, and never a copy of a whole line of megabytes.
fn head(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(crate::MAX_EXCERPT + 1)]
}

/// The NAG number of a symbolic annotation written on its own (`!?`, `+-`).
fn symbolic_nag(word: &[u8]) -> Option<u8> {
    Some(match word {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        b"=" => 10,
        b"+=" | b"+/=" => 14,
        b"=+" | b"=/+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        _ => return None,
    })
}

/// The game result a word stands for, if it is one.
fn result_word(word: &[u8]) -> Option<GameResult> {
    Some(match word {
        b"1-0" => GameResult::WhiteWins,
        b"0-1" => GameResult::BlackWins,
        b"1/2-1/2" | b"1/2" | b"\xc2\xbd-\xc2\xbd" => GameResult::Draw,
        b"*" => GameResult::Unknown,
        _ => return None,
    })
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `bytes`, whose first line is line `first_line` of the file.
    pub fn new(bytes: &'a [u8], first_line: usize) -> Tokenizer<'a> {
        Tokenizer {
            bytes,
            pos: 0,
            line: first_line,
            at_line_start: true,
        }
    }

    /// Where the tokenizer stands, to [`resume`](Self::resume) from.
    pub(crate) fn place(&self) -> Place {
        Place {
            pos: self.pos,
            line: self.line,
            at_line_start: self.at_line_start,
        }
    }

    /// A tokenizer over `bytes` going on from `place` (taken from a
    /// tokenizer over the same bytes).
    pub(crate) fn resume(bytes: &'a [u8], place: Place) -> Tokenizer<'a> {
        Tokenizer {
            bytes,
            pos: place.pos,
            line: place.line,
            at_line_start: place.at_line_start,
        }
    }

    /// The line the tokenizer has reached (the line of the last token returned).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The byte offset the tokenizer has reached (just past the last token).
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Skips the rest of the input: the next call returns `None`.
    pub fn skip_to_end(&mut self) {
        self.pos = self.bytes.len();
    }

    /// The next token with the line it starts on, `None` at the end of input.
    #[inline]
    pub fn next_token(&mut self) -> Option<Result<(Token<'a>, usize), (TokenError, usize)>> {
        // The common cases first, small enough to inline into the readers: a
        // move or a move number after spaces and line ends. Letters start
        // no other token; a digit starts a word (a move number, a glued
        // move, a result, `0-0`).
        loop {
            match *self.bytes.get(self.pos)? {
                b' ' => self.pos += 1,
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                    self.at_line_start = true;
                }
                b if b.is_ascii_alphabetic() => {
                    self.at_line_start = false;
                    let word = self.scan_word();
                    return Some(Ok((Token::Move(word), self.line)));
                }
                b if b.is_ascii_digit() => {
                    // A move number: skipped when it stands alone, and
                    // when glued to a move ("12.Nf3") the move is read
                    // next. Anything else is left to the general path.
                    let mut end = self.pos;
                    while end < self.bytes.len() && self.bytes[end].is_ascii_digit() {
                        end += 1;
                    }
                    let digits_end = end;
                    while end < self.bytes.len() && self.bytes[end] == b'.' {
                        end += 1;
                    }
                    let glued_move = |&next: &u8| end > digits_end && next.is_ascii_alphabetic();
                    match self.bytes.get(end) {
                        Some(next) if !is_delimiter(*next) && !glued_move(next) => {
                            return self.any_token();
                        }
                        _ => {}
                    }
                    self.at_line_start = false;
                    self.pos = end;
                }
                _ => return self.any_token(),
            }
        }
    }

    /// [`next_token`](Self::next_token) for every kind of token.
    fn any_token(&mut self) -> Option<Result<(Token<'a>, usize), (TokenError, usize)>> {
        loop {
            let b = *self.bytes.get(self.pos)?;
            match b {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                    self.at_line_start = true;
                    continue;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    continue;
                }
                b'%' if self.at_line_start => {
                    self.skip_line();
                    continue;
                }
                _ => {}
            }
            self.at_line_start = false;
            let line = self.line;
            let token = match b {
                b'{' => self.brace_comment(),
                b';' => {
                    let start = self.pos + 1;
                    self.skip_line();
                    Ok(Token::Comment(&self.bytes[start..self.pos]))
                }
                b'(' => {
                    self.pos += 1;
                    Ok(Token::Open)
                }
                b')' => {
                    self.pos += 1;
                    Ok(Token::Close)
                }
                b'[' => self.tag(),
                b'$' => {
                    self.pos += 1;
                    let start = self.pos;
                    while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                    let digits = &self.bytes[start..self.pos];
                    match std::str::from_utf8(digits)
                        .ok()
                        .and_then(|s| s.parse().ok())
                    {
                        Some(n) => Ok(Token::Nag(n)),
                        None => Err(TokenError::Unexpected(format!(
                            "${}",
                            String::from_utf8_lossy(head(digits))
                        ))),
                    }
                }
                b',' => {
                    // "Bxe7, Qxe7": a comma between moves carries nothing.
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' | b'"' => {
                    self.pos += 1;
                    Err(TokenError::Unexpected((b as char).to_string()))
                }
                _ => match self.word() {
                    Some(t) => Ok(t),
                    None => continue,
                },
            };
            return Some(token.map(|t| (t, line)).map_err(|e| (e, line)));
        }
    }

    /// The run of non-delimiter bytes starting here (at least one byte).
    #[inline]
    fn scan_word(&mut self) -> &'a [u8] {
        let start = self.pos;
        let mut end = start;
        while end < self.bytes.len() && !is_delimiter(self.bytes[end]) {
            end += 1;
        }
        self.pos = end;
        &self.bytes[start..end]
    }

    fn skip_line(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn brace_comment(&mut self) -> Result<Token<'a>, TokenError> {
        let start = self.pos + 1;
        let mut i = start;
        while i < self.bytes.len() {
            match self.bytes[i] {
                b'}' => {
                    self.pos = i + 1;
                    return Ok(Token::Comment(&self.bytes[start..i]));
                }
                b'\n' => self.line += 1,
                _ => {}
            }
            i += 1;
        }
        self.pos = self.bytes.len();
        Err(TokenError::UnclosedComment)
    }

    /// `[Name "value"]`, on one line. One pass over the line: the line's
    /// end is looked for only to report a broken tag.
    fn tag(&mut self) -> Result<Token<'a>, TokenError> {
        let bytes = self.bytes;
        // The byte at `i`, with a line end standing for the end of input.
        let at = |i: usize| bytes.get(i).copied().unwrap_or(b'\n');
        // ASCII whitespace other than the line end.
        let space = |b: u8| matches!(b, b' ' | b'\t' | b'\r' | 0x0c);
        let mut i = self.pos + 1;
        while space(at(i)) {
            i += 1;
        }
        let name_start = i;
        while at(i).is_ascii_alphanumeric() || at(i) == b'_' {
            i += 1;
        }
        let name = &bytes[name_start..i];
        while space(at(i)) {
            i += 1;
        }
        if name.is_empty() || at(i) != b'"' {
            return Err(self.bad_tag());
        }
        i += 1;
        let value_start = i;
        loop {
            match at(i) {
                b'"' => break,
                b'\n' => return Err(self.bad_tag()),
                // An escape takes the next byte, unless the line ends.
                b'\\' if at(i + 1) == b'\n' => return Err(self.bad_tag()),
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        let value = &bytes[value_start..i];
        i += 1;
        while space(at(i)) {
            i += 1;
        }
        if at(i) != b']' {
            return Err(self.bad_tag());
        }
        self.pos = i + 1;
        Ok(Token::Tag { name, value })
    }

    /// The broken tag line starting here, as an error; reading goes on at
    /// the line's end.
    fn bad_tag(&mut self) -> TokenError {
        let line_end = self.bytes[self.pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.bytes.len(), |n| self.pos + n);
        let text = String::from_utf8_lossy(head(&self.bytes[self.pos..line_end])).into_owned();
        self.pos = line_end;
        TokenError::BadTag(text)
    }

    /// A run of non-delimiter bytes: a result, a move number (skipped), an
    /// annotation or a move. `None` when the word was only a move number.
    fn word(&mut self) -> Option<Token<'a>> {
        let word = self.scan_word();
        // Most words are moves, and no result, annotation or move number
        // starts with a letter.
        if word[0].is_ascii_alphabetic() {
            return Some(Token::Move(word));
        }
        // Most of the rest are move numbers, alone ("12." "12..." "12":
        // skipped) or glued to the move ("12.Nf3", "4..Be7"), taken before
        // trying results and annotations: none of those is digits followed
        // by a dot or by nothing.
        let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
        let dots = word[digits..].iter().take_while(|&&b| b == b'.').count();
        if digits > 0 && digits + dots == word.len() {
            return None;
        }
        if digits > 0 && dots > 0 {
            return Some(Token::Move(&word[digits + dots..]));
        }
        if let Some(r) = result_word(word) {
            return Some(Token::Result(r));
        }
        if word.starts_with(b"0-0") {
            return Some(Token::Move(word));
        }
        if let Some(n) = symbolic_nag(word) {
            return Some(Token::Nag(n));
        }
        // Dots left of a black move whose number stood apart ("..Kf8").
        if digits == 0 && dots > 0 {
            let rest = &word[dots..];
            return (!rest.is_empty()).then_some(Token::Move(rest));
        }
        Some(Token::Move(word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<Token<'_>> {
        let mut t = Tokenizer::new(s.as_bytes(), 1);
        let mut out = Vec::new();
        while let Some(r) = t.next_token() {
            out.push(r.expect("token").0);
        }
        out
    }

    #[test]
    fn movetext_forms() {
        assert_eq!(
            tokens("1. e4 e5 2.Nf3 2...Nc6 4..Be7 0-0 !? $14 (3. d4) {hi} ; rest\n1-0"),
            vec![
                Token::Move(b"e4"),
                Token::Move(b"e5"),
                Token::Move(b"Nf3"),
                Token::Move(b"Nc6"),
                Token::Move(b"Be7"),
                Token::Move(b"0-0"),
                Token::Nag(5),
                Token::Nag(14),
                Token::Open,
                Token::Move(b"d4"),
                Token::Close,
                Token::Comment(b"hi"),
                Token::Comment(b" rest"),
                Token::Result(GameResult::WhiteWins),
            ]
        );
    }

    #[test]
    fn tags_escape_lines_and_lines() {
        let mut t = Tokenizer::new(b"[White \"A \\\"B\\\"\"]\n%escaped\n{a\nb} e4", 5);
        assert_eq!(
            t.next_token(),
            Some(Ok((
                Token::Tag {
                    name: b"White",
                    value: b"A \\\"B\\\""
                },
                5
            )))
        );
        assert_eq!(t.next_token(), Some(Ok((Token::Comment(b"a\nb"), 7))));
        assert_eq!(t.next_token(), Some(Ok((Token::Move(b"e4"), 8))));
        assert_eq!(t.next_token(), None);
    }

    /// Every token with its line, read with `next` until the input ends.
    fn all<'a>(
        text: &'a [u8],
        next: impl Fn(&mut Tokenizer<'a>) -> Option<Result<(Token<'a>, usize), (TokenError, usize)>>,
    ) -> Vec<Result<(Token<'a>, usize), (TokenError, usize)>> {
        let mut t = Tokenizer::new(text, 3);
        std::iter::from_fn(|| next(&mut t)).collect()
    }

    /// The PGN files of the crate's test data, real and broken ones.
    fn test_files() -> Vec<Vec<u8>> {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
        let mut files = Vec::new();
        for entry in std::fs::read_dir(data).expect("test data") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "pgn") {
                files.push(std::fs::read(&path).expect("read"));
            }
        }
        files
    }

    /// The fast path of `next_token` (moves and move numbers) reads exactly
    /// what the general path reads.
    #[test]
    fn fast_path_reads_like_the_general_one() {
        let mut texts: Vec<Vec<u8>> = [
            "1. e4 e5 2.Nf3 2...Nc6 4..Be7 12.0-0 12Nf3 3.e4",
            "1-0 0-1 1/2-1/2 1/2 * 0-0-0 0-0+ 12 12. 12...\n5.\n  % escape\n6.d4",
            "1.e4 $1 !? +- 2.d4!? {c} (2.c4) ; x\n3.\tNf3\r\n4...\r\nNc6 5.,Bb5 10.a",
            "[Event \"x\"]\n\n1.e4 1-0\n\n   [Bad tag\n 7.. ..Kf8 ... 8.",
            "9.e4\n%x\n 10.e5 1...",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        texts.extend(test_files());
        for text in &texts {
            let fast = all(text, super::Tokenizer::next_token);
            let general = all(text, super::Tokenizer::any_token);
            assert_eq!(fast, general, "{}", String::from_utf8_lossy(text));
        }
    }

    /// The tag reader as it was first written, with the line's end found
    /// first: the one-pass reader must read every line as it does.
    fn tag_reference<'a>(t: &mut Tokenizer<'a>) -> Result<Token<'a>, TokenError> {
        let bytes = t.bytes;
        let line_end = bytes[t.pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |n| t.pos + n);
        let bad = |s: &Tokenizer<'a>| {
            TokenError::BadTag(String::from_utf8_lossy(&bytes[s.pos..line_end]).into_owned())
        };
        let mut i = t.pos + 1;
        while i < line_end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let name_start = i;
        while i < line_end && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let name = &bytes[name_start..i];
        while i < line_end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if name.is_empty() || i >= line_end || bytes[i] != b'"' {
            let err = bad(t);
            t.pos = line_end;
            return Err(err);
        }
        i += 1;
        let value_start = i;
        while i < line_end && bytes[i] != b'"' {
            if bytes[i] == b'\\' {
                i += 1;
            }
            i += 1;
        }
        if i >= line_end {
            let err = bad(t);
            t.pos = line_end;
            return Err(err);
        }
        let value = &bytes[value_start..i];
        i += 1;
        while i < line_end && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= line_end || bytes[i] != b']' {
            let err = bad(t);
            t.pos = line_end;
            return Err(err);
        }
        t.pos = i + 1;
        Ok(Token::Tag { name, value })
    }

    #[test]
    fn tags_read_like_the_reference() {
        let mut lines: Vec<Vec<u8>> = [
            "[Event \"x\"]",
            "[ Event  \"a \\\" b\" ]  rest",
            "[Event \"x\\\"]",
            "[Event \"x\\",
            "[Event \"x\\\n\"]",
            "[Event\t\"x\"\r]",
            "[Event \"x\" junk]",
            "[Event \"unterminated",
            "[Event \"x\"",
            "[\"x\"]",
            "[Ev-ent \"x\"]",
            "[Event x]",
            "[Event \"x\"]\n[Site \"y\"]",
            "[Event \"x\n\"]",
            "[Event\x0b\"x\"]",
            "[Event \"café\"]",
            "[",
            "[Event",
            "[Event ",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        for text in test_files() {
            let tag_lines = text.split(|&b| b == b'\n').filter(|l| l.starts_with(b"["));
            lines.extend(tag_lines.map(<[u8]>::to_vec));
        }
        // Each line alone and followed by another.
        let followed: Vec<Vec<u8>> = lines
            .iter()
            .map(|l| [l, &b"\n1. e4"[..]].concat())
            .collect();
        for text in lines.iter().chain(&followed) {
            let (mut a, mut b) = (Tokenizer::new(text, 1), Tokenizer::new(text, 1));
            let shown = String::from_utf8_lossy(text);
            assert_eq!(a.tag(), tag_reference(&mut b), "{shown}");
            assert_eq!(a.pos, b.pos, "{shown}");
        }
    }

    #[test]
    fn delimiters_are_the_listed_bytes() {
        let listed = b" \t\n\r\x0b\x0c{}()[];$\",";
        for b in 0..=255u8 {
            assert_eq!(is_delimiter(b), listed.contains(&b), "byte {b}");
        }
    }

    #[test]
    fn errors() {
        let mut t = Tokenizer::new(b"[White A]\n{open", 1);
        assert!(matches!(
            t.next_token(),
            Some(Err((TokenError::BadTag(_), 1)))
        ));
        assert_eq!(t.next_token(), Some(Err((TokenError::UnclosedComment, 2))));
    }
}
