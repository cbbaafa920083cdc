//! The protocols' input: the GUI's lines, each read up to a bound. A line
//! longer than [`MAX_LINE_LEN`] is passed over unkept and answered with
//! [`TOO_LONG`] (a gigabyte without a line end took a gigabyte before);
//! the next line is read as usual.

use engine::lines::{Line, Lines};
use std::io::{self, BufRead};

/// The longest input line read, in bytes (its line end not counted). A
/// GUI's longest line is a `position ... moves` of a long game: 1,000
/// moves take 5 KB.
pub const MAX_LINE_LEN: usize = 1 << 20;

/// Why a line was not read: the protocols' error lines quote it.
pub const TOO_LONG: &str = "input line longer than 1048576 bytes, ignored";

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line, without its line end.
    Text(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than [`MAX_LINE_LEN`].
    TooLong,
}

/// The lines of `input`, until its end or a read error. Only `input`'s
/// own buffer is used, so that what follows a line stays in it (the UCI
/// loop hands standard input on to the xboard loop).
pub fn lines(input: impl BufRead) -> impl Iterator<Item = io::Result<InputLine>> {
    Lines::new(input, MAX_LINE_LEN).map(|line| {
        Ok(match line? {
            Line::Whole(bytes) => {
                String::from_utf8(bytes).map_or(InputLine::NotUtf8, InputLine::Text)
            }
            Line::TooLong => InputLine::TooLong,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_names_the_bound() {
        assert!(TOO_LONG.contains(&MAX_LINE_LEN.to_string()));
        let read: Vec<InputLine> = lines(&b"uci\n\xff\nisready"[..])
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            read,
            [
                InputLine::Text("uci".into()),
                InputLine::NotUtf8,
                InputLine::Text("isready".into())
            ]
        );
    }
}
