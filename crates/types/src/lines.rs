//! Lines of a stream someone else writes (a protocol's input, an EPD
//! suite, PGN): each kept only up to a bound, the rest of a longer line
//! read and passed over unkept, so that memory stays bounded however long a
//! line is (a gigabyte without a line end, `/dev/zero` through a pipe).
//! Nothing here decodes text: a caller decides what bytes that are not
//! UTF-8 mean for its format.

use std::io::{self, BufRead};

/// One line read by [`read_line_capped`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRead {
    /// Bytes consumed from the reader, line end included (0 at the end of
    /// the input).
    pub consumed: usize,
    /// Whether the whole line was kept.
    pub whole: bool,
    /// Whether every byte of the line is ASCII whitespace.
    pub blank: bool,
}

/// Reads one line (through its `\n`) from `reader`, appending at most
/// `room` bytes of it to `buf` and consuming the rest unkept. It reads only
/// through the reader's own buffer, so what follows the line stays there
/// for the next reader.
pub fn read_line_capped<R: BufRead + ?Sized>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    room: usize,
) -> io::Result<LineRead> {
    let mut read = LineRead {
        consumed: 0,
        whole: true,
        blank: true,
    };
    let mut kept = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let (chunk, end) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let n = chunk.len();
        let take = n.min(room - kept);
        buf.extend_from_slice(&chunk[..take]);
        kept += take;
        read.whole &= take == n;
        read.blank &= chunk.iter().all(u8::is_ascii_whitespace);
        reader.consume(n);
        read.consumed += n;
        if end {
            return Ok(read);
        }
    }
}

/// A line given by [`Lines`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of at most the bound: its bytes, without the line end (`\n`
    /// or `\r\n`).
    Whole(Vec<u8>),
    /// A line longer than the bound: nothing of it is kept.
    TooLong,
}

/// The lines of a stream, each at most `max` bytes (its line end not
/// counted) kept: a longer one is [`Line::TooLong`], read to its end and
/// dropped. A read error ends the lines.
pub struct Lines<R> {
    reader: R,
    max: usize,
    consumed: u64,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, each kept up to `max` bytes.
    pub fn new(reader: R, max: usize) -> Lines<R> {
        Lines {
            reader,
            max,
            consumed: 0,
        }
    }

    /// The bytes read so far, line ends included.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<io::Result<Line>> {
        let mut buf = Vec::new();
        // Room for the line and its `\r\n`, so that a line of exactly `max`
        // bytes is whole.
        let read = match read_line_capped(&mut self.reader, &mut buf, self.max.saturating_add(2)) {
            Ok(read) => read,
            Err(e) => return Some(Err(e)),
        };
        if read.consumed == 0 {
            return None;
        }
        self.consumed += read.consumed as u64;
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        Some(Ok(if read.whole && buf.len() <= self.max {
            Line::Whole(buf)
        } else {
            Line::TooLong
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn lines(input: impl BufRead, max: usize) -> Vec<Line> {
        Lines::new(input, max)
            .map(|l| l.expect("in-memory read"))
            .collect()
    }

    fn whole(s: &str) -> Line {
        Line::Whole(s.as_bytes().to_vec())
    }

    #[test]
    fn line_ends_are_dropped_and_the_bound_counts_the_line_alone() {
        assert_eq!(
            lines(&b"ab\ncd\r\n\nlast"[..], 2),
            [whole("ab"), whole("cd"), whole(""), Line::TooLong]
        );
        assert_eq!(
            lines(&b"abc\r\nab\r\nabc\n"[..], 2),
            [Line::TooLong, whole("ab"), Line::TooLong]
        );
        assert_eq!(lines(&b""[..], 2), []);
    }

    /// A line of a gigabyte is passed over, kept only up to the bound, and
    /// what follows it is read.
    #[test]
    fn a_gigabyte_line_is_passed_over() {
        let input = std::io::BufReader::new(
            std::io::repeat(b'x')
                .take(1 << 30)
                .chain(&b"\nisready\n"[..]),
        );
        let mut lines = Lines::new(input, 1 << 10);
        assert_eq!(lines.next().map(Result::unwrap), Some(Line::TooLong));
        assert_eq!(lines.next().map(Result::unwrap), Some(whole("isready")));
        assert_eq!(lines.consumed(), (1 << 30) + 9);
        assert!(lines.next().is_none());
    }

    /// What follows a line stays in the reader's buffer for the next
    /// reader (the UCI loop hands standard input to the xboard loop).
    #[test]
    fn the_rest_stays_in_the_reader() {
        let mut input = &b"xboard\nprotover 2\n"[..];
        let first = Lines::new(&mut input, 100).next().map(Result::unwrap);
        assert_eq!(first, Some(whole("xboard")));
        assert_eq!(input, b"protover 2\n");
    }
}
