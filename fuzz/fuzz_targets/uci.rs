//! UCI command lines on one long-lived session, as a GUI or a match runner
//! (or a careless user) types them: arbitrary bytes, cut into lines. Nothing
//! may panic and every input must finish. So that it does, each `go` gets
//! ` nodes 256` appended (the fuzzed limits before it are still parsed and
//! checked), `go perft` deeper than 3 and `setoption` of `Hash` or
//! `Threads` are left out (their bounds are the options' own, tested
//! elsewhere: a 32 GiB table is not a crash), and the input ends with
//! `stop` and a `go perft 0`, which waits for the search to end.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use protocol::uci::Uci;

thread_local! {
    static SESSION: RefCell<Uci> = RefCell::new(Uci::new(Box::new(std::io::sink())));
}

/// Whether the harness sends `line` (see the module's comment).
fn allowed(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    match words.first().map(String::as_str) {
        Some("go") => match words.iter().position(|w| w == "perft") {
            Some(i) => words
                .get(i + 1)
                .and_then(|d| d.parse::<u64>().ok())
                .is_none_or(|d| d <= 3),
            None => true,
        },
        Some("setoption") => !words.iter().any(|w| w == "hash" || w == "threads"),
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    SESSION.with(|session| {
        let mut uci = session.borrow_mut();
        for line in text.lines() {
            let line = line.trim();
            if !allowed(line) {
                continue;
            }
            let go = line.split_whitespace().next().is_some_and(|w| w == "go");
            let keep_going = if go && !line.contains("perft") {
                uci.handle(&format!("{line} nodes 256"))
            } else {
                uci.handle(line)
            };
            if !keep_going {
                break;
            }
        }
        uci.handle("stop");
        uci.handle("go perft 0");
        // The next input starts from the start position, in standard chess.
        uci.handle("setoption name UCI_Chess960 value false");
        uci.handle("position startpos");
    });
});
