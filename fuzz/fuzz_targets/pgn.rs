//! The PGN reader on arbitrary bytes: read everything with all options and
//! with main lines only, write every good game back and read it again.
//! Nothing may panic; every move of a game read must replay legally; a
//! written game must read back as the same game. Cutting the input into
//! blocks for parallel reading (a block size from the first byte) must give
//! the same games, with the same line numbers, as one pass.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn::{write_game, Blocks, PgnReader, RawGames, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let size = 1 + usize::from(data.first().copied().unwrap_or(0));
    let whole: Vec<_> = RawGames::new(data)
        .map(|g| g.map(|g| (g.first_line, g.text)).expect("in memory"))
        .collect();
    let blocks: Vec<_> = Blocks::with_size(data, size)
        .flat_map(|b| {
            let b = b.expect("in memory");
            b.raw_games()
                .map(|g| (g.first_line, g.text))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(blocks, whole, "block size {size}");

    for options in [
        ReadOptions::default(),
        ReadOptions::mainline(),
        ReadOptions {
            max_plies: Some(3),
            ..ReadOptions::mainline()
        },
    ] {
        for item in PgnReader::with_options(data, options) {
            let Ok(game) = item else { continue };
            let mut pos = game.start;
            for m in game.mainline() {
                assert!(
                    m.is_null() || pos.is_legal(m),
                    "illegal move {m:?} in {}",
                    pos.fen()
                );
                pgn::play(&mut pos, m);
            }
            let text = write_game(&game);
            let back: Vec<_> = PgnReader::with_options(text.as_bytes(), options).collect();
            assert_eq!(back.len(), 1, "{text}");
            let back = back[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.moves, game.moves, "{text}");
        }
    }
});
