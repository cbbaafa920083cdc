//! Kestrel's PGN layer: a streaming reader (files, stdin, gzip/zstd/bzip2)
//! that replays and checks every move on the board and reports broken games
//! with their number, line and offending text before going on; and a writer
//! that produces what the reader reads back.
//!
//! ```
//! let text = "[White \"A\"]\n\n1. e4 e5 2. Nf3 {a comment} 1-0\n";
//! let games: Vec<_> = pgn::PgnReader::new(text.as_bytes()).collect();
//! let game = games[0].as_ref().unwrap();
//! assert_eq!(game.moves.len(), 3);
//! assert!(pgn::write_game(game).contains("2. Nf3 {a comment} 1-0"));
//! ```

mod blocks;
mod clock;
mod date;
mod error;
mod game;
mod mainline;
mod open;
mod parse;
mod reader;
mod san_match;
mod skip;
mod split;
pub mod token;
mod writer;

pub use blocks::{Block, BlockGame, Blocks, GameCursor, BLOCK_SIZE};
pub use clock::{clock_command, take_clock, MAX_CLOCK_MS};
pub use date::today;
pub use error::{PgnError, PgnErrorKind, MAX_EXCERPT};
pub use game::{play, GameResult, PgnGame, PgnMove};
pub use mainline::{scan_mainline, scan_plain, MainLine, PlainGame};
pub use open::{decompress, open, Compression, DecompressorMissing};
pub use parse::{parse_games, parse_games_visiting, ReadOptions, TextGames, MAX_VARIATION_DEPTH};
pub use reader::PgnReader;
pub use san_match::match_san;
pub use split::{GameTooLong, RawGame, RawGames, MAX_GAME_BYTES};
pub use writer::{write_game, write_game_in, Notation, PgnWriter, LINE_WIDTH};
