//! Any input, read as (lossy) UTF-8, given to `Position::from_fen`. Nothing
//! may panic. A FEN that parses must survive a round trip through `fen()`,
//! and every legal move must be playable and read back from its own SAN and
//! UCI notation as the same move.
#![no_main]

use chess::{CastlingMode, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };

    let fen = pos.fen();
    let again = Position::from_fen(&fen).unwrap_or_else(|e| {
        panic!("fen() output {fen:?} (from input {text:?}) does not parse: {e}")
    });
    assert_eq!(
        again.fen(),
        fen,
        "FEN round trip changed the position (input {text:?})"
    );

    // Standard UCI castling (e1g1) can collide with an ordinary king move in
    // Chess960 positions (king f1, rook h1: castling and Kg1 both read f1g1), so
    // the standard form is checked only where the position is a standard one.
    // King-takes-rook (Chess960 mode) is unambiguous everywhere.
    let mut modes = vec![CastlingMode::Chess960];
    if pos.castling_mode() == CastlingMode::Standard {
        modes.push(CastlingMode::Standard);
    }

    for &m in pos.legal_moves().iter() {
        let mut after = pos;
        after.play(m).expect("a legal move plays");

        let san = pos.san(m);
        match pos.parse_san(&san) {
            Ok(back) => assert_eq!(
                back, m,
                "SAN {san:?} of {m:?} reads back as {back:?} in {fen}"
            ),
            Err(e) => panic!("SAN {san:?} of {m:?} does not parse in {fen}: {e}"),
        }

        for &mode in &modes {
            let uci = m.to_uci(mode).to_string();
            match pos.parse_uci_move(&uci, mode) {
                Ok(back) => assert_eq!(
                    back, m,
                    "UCI {uci:?} ({mode:?}) of {m:?} reads back as {back:?} in {fen}"
                ),
                Err(e) => panic!("UCI {uci:?} ({mode:?}) of {m:?} does not parse in {fen}: {e}"),
            }
        }
    }
});
