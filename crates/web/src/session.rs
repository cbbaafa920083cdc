//! One UCI session as the Worker runs it: the protocol's own session
//! (`protocol::uci::Uci`, the one `kestrel` speaks on standard input), fed
//! one line at a time, plus `bench`, which measures the engine as
//! `kestrel bench` does (same positions, depth and evaluator, one thread),
//! so that a page can compare the browser's speed with the native one.

use std::io::Write;

use engine::eval::EvalKind;
use engine::SearchParams;
use protocol::uci::Uci;

/// A UCI session writing its lines to `out`.
pub struct Session {
    uci: Uci,
    out: protocol::output::SharedOut,
}

impl Session {
    /// A session writing to `out` (one line per write, each flushed).
    pub fn new(out: Box<dyn Write + Send>) -> Session {
        let out = protocol::output::shared(out);
        Session {
            uci: Uci::new(Box::new(Forward(out.clone()))),
            out,
        }
    }

    /// Handles one command line. `quit` ends nothing: the page ends the
    /// Worker.
    pub fn handle(&mut self, line: &str) {
        let line = line.trim();
        let mut words = line.split_whitespace();
        if words.next() == Some("bench") {
            self.bench(words.next());
            return;
        }
        self.uci.handle(line);
    }

    /// `bench [DEPTH]`: `kestrel bench`'s search and its last line,
    /// `N nodes M nps`.
    fn bench(&self, depth: Option<&str>) {
        let depth = match depth.map(str::parse::<i32>) {
            None => engine::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=64).contains(&d) => d,
            Some(_) => {
                self.say("info string error: 'bench' takes a depth from 1 to 64");
                return;
            }
        };
        let result = engine::bench::run(depth, SearchParams::default(), EvalKind::default());
        self.say(&format!(
            "info string bench time {} ms",
            result.time.as_millis()
        ));
        self.say(&format!("{} nodes {} nps", result.nodes, result.nps()));
    }

    fn say(&self, text: &str) {
        protocol::output::send(&self.out, text);
    }
}

/// The UCI session's writer: the session's own output, shared with `bench`.
struct Forward(protocol::output::SharedOut);

impl Write for Forward {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut out) => out.write(bytes),
            Err(_) => Ok(bytes.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.lock() {
            Ok(mut out) => out.flush(),
            Err(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn run(lines: &[&str]) -> String {
        let buffer = Buffer::default();
        let mut session = Session::new(Box::new(buffer.clone()));
        for line in lines {
            session.handle(line);
        }
        // A background search (natively) has ended once `isready` is answered
        // after the engine waited for it: ask the protocol to wait.
        session.handle("ucinewgame");
        drop(session);
        let bytes = buffer.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn speaks_uci_and_perft() {
        let out = run(&["uci", "isready", "go perft 3"]);
        assert!(out.contains("uciok"), "{out}");
        assert!(out.contains("readyok"), "{out}");
        assert!(out.contains("Nodes searched: 8902"), "{out}");
    }

    #[test]
    fn bench_prints_the_native_last_line() {
        let out = run(&["bench 2"]);
        let last = out.lines().last().unwrap();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(words.len(), 4, "{out}");
        assert_eq!((words[1], words[3]), ("nodes", "nps"), "{out}");
        let expected = engine::bench::run(2, SearchParams::default(), EvalKind::default());
        assert_eq!(words[0], expected.nodes.to_string());
        let refused = run(&["bench 0"]);
        assert!(refused.contains("error"), "{refused}");
    }
}
