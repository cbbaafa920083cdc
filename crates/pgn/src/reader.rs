//! The streaming PGN reader: games one at a time from any `BufRead`, bad
//! games reported and skipped.

use crate::parse::{ReadOptions, TextGames};
use crate::split::{GameTooLong, RawGames};
use crate::token::Place;
use crate::{PgnError, PgnErrorKind, PgnGame, RawGame};
use std::io::{self, BufRead};
use std::path::Path;

/// Reads games from a PGN stream. Each item is a game or the error that made
/// a game unreadable; reading goes on after a bad game. A read error of the
/// stream itself is the last item. The reader holds one game's text (up to
/// [`MAX_GAME_BYTES`](crate::MAX_GAME_BYTES)) and parses its games one at a
/// time: a text of millions of games without tags costs no more than its
/// bytes.
pub struct PgnReader<R> {
    raw: RawGames<R>,
    options: ReadOptions,
    /// The text being read, and where its next game starts.
    text: Option<(RawGame, Place)>,
    games: usize,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over `reader` keeping everything (variations, comments).
    pub fn new(reader: R) -> PgnReader<R> {
        PgnReader::with_options(reader, ReadOptions::default())
    }

    /// A reader with the given options.
    pub fn with_options(reader: R, options: ReadOptions) -> PgnReader<R> {
        PgnReader {
            raw: RawGames::new(reader),
            options,
            text: None,
            games: 0,
        }
    }

    /// The next item, its game number not yet set.
    fn next_item(&mut self) -> Option<Result<PgnGame, PgnError>> {
        loop {
            if let Some((raw, place)) = &mut self.text {
                let mut games = TextGames::resume(&raw.text, *place, self.options);
                let item = games.next();
                match games.place() {
                    Some(next) => *place = next,
                    None => self.text = None,
                }
                if item.is_some() {
                    return item;
                }
                continue;
            }
            match self.raw.next()? {
                Ok(raw) => {
                    let place = TextGames::new(&raw, self.options).place();
                    self.text = place.map(|place| (raw, place));
                }
                Err(e) => {
                    let too_long = e
                        .get_ref()
                        .and_then(|inner| inner.downcast_ref::<GameTooLong>());
                    let (line, kind) = match too_long {
                        // The splitter goes on at the next game.
                        Some(t) => (t.line, PgnErrorKind::TooLong(t.max)),
                        None => (0, PgnErrorKind::Io(e.to_string())),
                    };
                    return Some(Err(PgnError {
                        game: 0,
                        line,
                        text: String::new(),
                        kind,
                    }));
                }
            }
        }
    }
}

impl PgnReader<Box<dyn BufRead + Send>> {
    /// Opens a file (or `-` for standard input; gzip, zstd or bzip2 recognised).
    pub fn open(path: &Path, options: ReadOptions) -> io::Result<Self> {
        Ok(PgnReader::with_options(crate::open(path)?, options))
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut item = self.next_item()?;
        self.games += 1;
        if let Err(e) = &mut item {
            e.game = self.games;
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_games_are_numbered_and_skipped() {
        let text = "[G \"1\"]\n1. e4 *\n\n[G \"2\"]\n1. e5 *\n\n[G \"3\"]\n1. d4 *\n";
        let items: Vec<_> = PgnReader::new(text.as_bytes()).collect();
        assert_eq!(items.len(), 3);
        assert!(items[0].is_ok() && items[2].is_ok());
        let e = items[1].as_ref().expect_err("1. e5 is illegal");
        assert_eq!((e.game, e.line, e.text.as_str()), (2, 5, "e5"));
    }
}
