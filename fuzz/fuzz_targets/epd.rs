//! EPD text, as test suites (`kestrel epd`) and opening files (match
//! openings) read it: any bytes, read as lossy UTF-8. Nothing may panic;
//! every position accepted must be one `Position::from_fen` accepts again
//! from its own FEN, with the same key.
#![no_main]

use chess::Position;
use libfuzzer_sys::fuzz_target;

fn round_trips(pos: &Position) {
    let again = Position::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    assert_eq!(again.key(), pos.key(), "{}", pos.fen());
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (n, line) in text.lines().enumerate() {
        if let Ok(test) = matchrunner::epd_suite::parse_line(line, n + 1) {
            round_trips(&test.position);
        }
    }
    if let Ok(positions) = matchcore::openings::parse_positions(&text, "fuzz.epd") {
        for pos in &positions {
            round_trips(pos);
            assert!(!pos.legal_moves().is_empty(), "{}", pos.fen());
        }
    }
});
