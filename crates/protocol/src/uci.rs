//! The UCI protocol: parses commands, drives the engine, formats its output.
//! No chess logic of its own.
//!
//! Bad input never ends the loop or changes state: it is answered with
//! `info string error: ...` and the previous valid state is kept. The search
//! runs in the background, so `isready`, `stop` and `ponderhit` are answered
//! while it thinks; its output shares the writer with the loop.

use crate::book_options;
use crate::input::{InputLine, TOO_LONG};
use crate::output::{send, SharedOut};
use crate::tablebases::Tablebases;
use book::OwnBook;
use chess::perft::{divide, perft};
use chess::{CastlingMode, Position};
use engine::{Engine, IterationInfo, Limits, Score, SearchEvent};
use std::io::{BufRead, Write};
use std::sync::Arc;

/// The engine's name as UCI reports it.
pub const ENGINE_NAME: &str = concat!("Kestrel ", env!("CARGO_PKG_VERSION"));

/// How a UCI session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `quit` or the end of input.
    Quit,
    /// The line `xboard`: the GUI speaks xboard; the caller switches protocol.
    Xboard,
}

/// State kept between UCI commands.
pub struct Uci {
    engine: Engine,
    position: Position,
    /// Keys of the game's positions before `position` (repetition detection).
    history: Vec<u64>,
    chess960: bool,
    out: SharedOut,
    /// False for a search that runs until `stop` (infinite, ponder, or no limit).
    search_ends_by_itself: bool,
    book: OwnBook,
    switch_to_xboard: bool,
    tablebases: Tablebases,
    /// Why the last `genfens` failed, if it did.
    genfens_failure: Option<String>,
}

/// Formats one principal variation line as a UCI `info` line.
pub fn format_info(info: &IterationInfo, mode: CastlingMode) -> String {
    let score = match info.user_score() {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound.name() {
        Some(side) => format!(" {side}bound"),
        None => String::new(),
    };
    let ms = info.time.as_millis().max(1);
    let nps = u128::from(info.nodes) * 1000 / ms;
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci(mode).to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        info.tbhits,
        info.time.as_millis(),
        pv.join(" ")
    )
}

impl Uci {
    /// A UCI session writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Uci {
        Uci {
            engine: Engine::new(),
            position: Position::startpos(),
            history: Vec::new(),
            chess960: false,
            out: crate::output::shared(out),
            search_ends_by_itself: true,
            book: book_options::protocol_book(),
            switch_to_xboard: false,
            tablebases: Tablebases::default(),
            genfens_failure: None,
        }
    }

    /// Why the session's last `genfens` failed (a missing book, a bad
    /// request), if it did: a run of commands given as arguments, as
    /// OpenBench's worker gives them, then exits non-zero with the reason.
    pub fn genfens_failure(&self) -> Option<&str> {
        self.genfens_failure.as_deref()
    }

    /// Reads commands from `input` until `quit` or end of input. At the end
    /// of input a search with limits finishes (one without is stopped) and
    /// its best move is printed. The line `xboard` ends the session with
    /// `SessionEnd::Xboard`.
    /// A line longer than [`MAX_LINE_LEN`](crate::input::MAX_LINE_LEN) is
    /// refused with a message, unread.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<SessionEnd> {
        for line in crate::input::lines(input) {
            // A line not read: say why and go on.
            let line = match line? {
                InputLine::Text(l) => l,
                InputLine::NotUtf8 => {
                    self.say("info string error: input line is not UTF-8");
                    continue;
                }
                InputLine::TooLong => {
                    self.say(&format!("info string error: {TOO_LONG}"));
                    continue;
                }
            };
            if !self.handle(line.trim()) {
                self.engine.stop();
                self.engine.wait();
                return Ok(if self.switch_to_xboard {
                    SessionEnd::Xboard
                } else {
                    SessionEnd::Quit
                });
            }
        }
        if !self.search_ends_by_itself {
            self.engine.stop();
        }
        self.engine.wait();
        Ok(SessionEnd::Quit)
    }

    fn say(&self, text: &str) {
        send(&self.out, text);
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Handles one command line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => self.uci(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.engine.stop();
                self.engine.new_game();
                self.position = Position::startpos();
                self.history.clear();
            }
            "setoption" => self.set_option(&rest),
            "position" => {
                if let Err(e) = self.set_position(&rest) {
                    self.say(&format!("info string error: {e}; position unchanged"));
                }
            }
            "go" => self.go(&rest),
            "stop" => self.engine.stop(),
            "ponderhit" => self.engine.ponderhit(),
            "genfens" => self.genfens(&rest),
            "d" => {
                let text = self.position.pretty();
                self.say(text.trim_end());
            }
            "quit" => return false,
            "xboard" => {
                self.switch_to_xboard = true;
                return false;
            }
            "debug" | "register" => {}
            other => {
                let shown: String = other.chars().take(40).collect();
                self.say(&format!("info string error: unknown command '{shown}'"));
            }
        }
        true
    }

    /// OpenBench's `genfens N seed S book <None|FILE> [extra]`: N random
    /// openings as `info string genfens <FEN>` lines, checked by this
    /// session's engine (`crate::genfens`).
    #[cfg(feature = "genfens")]
    fn genfens(&mut self, words: &[&str]) {
        self.engine.stop();
        self.engine.wait();
        let out = self.out.clone();
        let result = crate::genfens::GenfensRequest::parse(words).and_then(|request| {
            crate::genfens::generate(&request, Some(&mut self.engine), |fen| {
                send(&out, &format!("info string genfens {fen}"));
            })
        });
        self.genfens_failure = result.as_ref().err().map(ToString::to_string);
        if let Err(e) = result {
            self.say(&format!("info string error: {e}"));
        }
    }

    /// A build without `genfens` (the browser's) says so.
    #[cfg(not(feature = "genfens"))]
    fn genfens(&mut self, _words: &[&str]) {
        let reason = "this build has no 'genfens' (the protocol crate's feature genfens)";
        self.genfens_failure = Some(reason.to_string());
        self.say(&format!("info string error: {reason}"));
    }

    fn uci(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author The Kestrel developers");
        for option in crate::options::session_options() {
            self.say(&crate::options::uci_line(&option));
        }
        self.say("uciok");
    }

    fn set_option(&mut self, args: &[&str]) {
        // setoption name <id...> [value <x...>]
        let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let name = args
            .get(1..value_at.unwrap_or(args.len()))
            .unwrap_or_default()
            .join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        if args.first().is_none_or(|w| !w.eq_ignore_ascii_case("name")) || name.is_empty() {
            self.say("info string error: expected 'setoption name <name> [value <value>]'");
            return;
        }
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            match crate::options::chess960_option().parse(&value) {
                Ok(engine::OptionValue::Check(on)) => self.chess960 = on,
                Ok(_) => {}
                Err(e) => self.say(&format!("info string error: {e}")),
            }
            return;
        }
        if let Some(result) = book_options::set(&mut self.book, &name, &value) {
            if let Err(e) = result {
                self.say(&format!("info string error: {e}"));
            }
            return;
        }
        if self.engine.is_searching() {
            self.say(&format!(
                "info string error: option '{name}' cannot change during a search; send stop first"
            ));
            return;
        }
        if let Some(lines) = self.tablebases.set(&name, &value, &mut self.engine) {
            for line in lines {
                self.say(&line);
            }
            return;
        }
        match self.engine.set_option(&name, &value) {
            Err(e) => self.say(&format!("info string error: {e}")),
            // As Stockfish confirms its network: what now evaluates.
            Ok(()) if name.eq_ignore_ascii_case("EvalFile") => {
                self.say(&format!(
                    "info string {}",
                    self.engine.describe_evaluation()
                ));
            }
            Ok(()) => {}
        }
    }

    /// `position startpos|fen <FEN> [moves ...]`; on error nothing changes.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") => Position::startpos(),
            Some(&"fen") => {
                Position::from_fen(&args[1..moves_at].join(" ")).map_err(|e| e.to_string())?
            }
            _ => return Err("expected 'position startpos' or 'position fen <FEN>'".to_string()),
        };
        let mut history = Vec::new();
        for text in args.iter().skip(moves_at + 1) {
            let m = pos
                .parse_uci_move(text, self.mode())
                .map_err(|e| e.to_string())?;
            history.push(pos.key());
            pos.play_unchecked(m);
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }

    /// Parses `go` parameters, skipping (and listing) what it cannot read:
    /// negative numbers count as zero (but `nodes` and `mate` below 1 are
    /// refused), huge ones are capped.
    fn parse_go(&self, args: &[&str]) -> (Limits, Vec<String>) {
        let mut limits = Limits::default();
        let mut errors = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let raw = args.get(i + 1).and_then(|t| t.parse::<i128>().ok());
            let number = raw.map(|n| n.clamp(0, i128::from(u64::MAX) / 4) as u64);
            let takes_number = matches!(
                word,
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "movetime"
                    | "depth"
                    | "nodes"
                    | "mate"
            );
            if takes_number {
                let Some(n) = number else {
                    errors.push(format!("'go {word}' needs a number"));
                    i += 1;
                    continue;
                };
                if matches!(word, "nodes" | "mate") && raw.is_some_and(|r| r < 1) {
                    // Zero nodes, or a mate in zero or fewer moves, asks for
                    // no search at all: refused, not read as 1.
                    errors.push(format!(
                        "'go {word}' needs a number of 1 or more, not {}",
                        args[i + 1]
                    ));
                    i += 2;
                    continue;
                }
                match word {
                    "wtime" => limits.wtime = Some(n),
                    "btime" => limits.btime = Some(n),
                    "winc" => limits.winc = Some(n),
                    "binc" => limits.binc = Some(n),
                    "movestogo" => limits.movestogo = Some(n.min(10_000) as u32).filter(|&m| m > 0),
                    "movetime" => limits.movetime = Some(n),
                    "depth" => limits.depth = Some(n.clamp(1, 1_000) as i32),
                    "nodes" => limits.nodes = Some(n.max(1)),
                    _ => limits.mate = Some(n.clamp(1, 1_000) as i32),
                }
                i += 2;
                continue;
            }
            match word {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    while let Some(m) = args
                        .get(i + 1)
                        .and_then(|t| self.position.parse_uci_move(t, self.mode()).ok())
                    {
                        limits.searchmoves.push(m);
                        i += 1;
                    }
                }
                other => errors.push(format!(
                    "unknown 'go' parameter '{}'",
                    other.chars().take(40).collect::<String>()
                )),
            }
            i += 1;
        }
        (limits, errors)
    }

    /// True when a search with these limits ends by itself.
    fn bounded(limits: &Limits, white: bool) -> bool {
        let clock = if white { limits.wtime } else { limits.btime };
        limits.movetime.is_some()
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
            || clock.is_some()
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            match args
                .get(1)
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|d| *d <= 12)
            {
                Some(depth) => {
                    self.engine.stop();
                    self.engine.wait();
                    self.perft(depth);
                }
                None => self.say(
                    "info string error: 'go perft' needs a depth from 0 to 12, e.g. 'go perft 5'",
                ),
            }
            return;
        }
        let (mut limits, errors) = self.parse_go(args);
        let white = self.position.turn() == chess::Color::White;
        if !errors.is_empty() {
            self.say(&format!(
                "info string error: {}; searching with the parameters understood",
                errors.join("; ")
            ));
            if !limits.infinite && !Self::bounded(&limits, white) {
                self.say("info string error: no usable limit left; searching for 1 second");
                limits.movetime = Some(1_000);
            }
        }
        self.search_ends_by_itself = !limits.waits_for_stop() && Self::bounded(&limits, white);
        // A game move may come from the book: one on a clock or a move time,
        // not analysis (infinite, depth, nodes, mate, searchmoves) or pondering.
        // With a clock, `depth` and `nodes` only cap a game move (as match
        // runners send them for fixed-node games).
        let clock = if white { limits.wtime } else { limits.btime };
        let game_move = (clock.is_some() || limits.movetime.is_some())
            && !limits.waits_for_stop()
            && limits.searchmoves.is_empty()
            && limits.mate.is_none()
            && (clock.is_some() || (limits.depth.is_none() && limits.nodes.is_none()));
        if game_move {
            self.engine.stop();
            self.engine.wait();
            if let Some(m) = self.book.probe(&self.position) {
                let text = m.to_uci(self.mode()).to_string();
                self.say(&format!("info string book move {text}"));
                self.say(&format!("bestmove {text}"));
                return;
            }
        }
        let hint = if self.engine.params().book_in_search {
            self.book.search_hint()
        } else {
            None
        };
        self.engine.set_book(hint);
        let out = self.out.clone();
        let mode = self.mode();
        let tables = self.tablebases.loaded();
        let reporter: engine::Reporter = Arc::new(move |event| match event {
            SearchEvent::Iteration(info) => send(&out, &format_info(&info, mode)),
            SearchEvent::CurrMove { depth, mv, number } => send(
                &out,
                &format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    mv.to_uci(mode)
                ),
            ),
            SearchEvent::Stats { stats, nodes, time } => {
                let nps = u128::from(nodes) * 1000 / time.as_millis().max(1);
                send(
                    &out,
                    &format!("info string stats nodes {nodes} nps {nps} {stats}"),
                );
            }
            SearchEvent::BestMove(result) => {
                // Tables that failed while probing: said once, play goes on.
                for failure in tables.iter().flat_map(|t| t.take_failures()) {
                    send(&out, &format!("info string Syzygy: {failure}"));
                }
                let best = result
                    .best
                    .map_or("0000".to_string(), |m| m.to_uci(mode).to_string());
                match result.ponder {
                    Some(p) => send(&out, &format!("bestmove {best} ponder {}", p.to_uci(mode))),
                    None => send(&out, &format!("bestmove {best}")),
                }
            }
        });
        self.engine
            .go(self.position, self.history.clone(), limits, reporter);
    }

    /// Stockfish's format: `move: count` lines, a blank line, `Nodes searched: N`.
    fn perft(&self, depth: u32) {
        let start = engine::host::Stopwatch::start();
        let mut text = String::new();
        let total = if depth == 0 {
            perft(&self.position, 0)
        } else {
            let mut total = 0;
            for (m, n) in divide(&self.position, depth) {
                text.push_str(&format!("{}: {n}\n", m.to_uci(self.mode())));
                total += n;
            }
            total
        };
        text.push_str(&format!("\nNodes searched: {total}\n"));
        self.say(&text);
        self.say(&format!(
            "info string perft {depth} time {} ms",
            start.elapsed().as_millis()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A writer the test can read afterwards.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);
    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> String {
        let buf = Buffer::default();
        Uci::new(Box::new(buf.clone()))
            .run(input.as_bytes())
            .unwrap();
        let out = buf.0.lock().unwrap().clone();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_lists_options() {
        let out = session("uci\nisready\n");
        assert!(out.contains("id name Kestrel"));
        assert!(out.contains("option name Hash type spin default 16 min 1 max 33554432"));
        assert!(out.contains("option name NullMove type check default true"));
        assert!(out.contains("option name Clear Hash type button"));
        assert!(out.contains("uciok\n") && out.contains("readyok\n"));
    }

    #[test]
    fn perft_in_stockfish_format() {
        let out = session("position startpos moves e2e4 e7e5\ngo perft 2\n");
        assert!(out.contains("g1f3: 29\n"), "{out}");
        assert!(out.contains("Nodes searched: 835\n"), "{out}"); // python-chess agrees
    }

    #[test]
    fn bad_input_keeps_state() {
        let out = session(
            "position startpos moves e2e4\nposition fen 8/8/8 w - - 0 1\nposition startpos moves e2e5\nfoo\nsetoption name Hash value -3\nsetoption name Nope value 1\ngo wtime x\nd\n",
        );
        assert!(out.matches("info string error").count() >= 6, "{out}");
        // The first valid position is still set.
        assert!(
            out.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            "{out}"
        );
    }

    /// Issue 64, item 12: input lines had no length bound. A line longer
    /// than the bound is refused with a message, whatever its end holds,
    /// and the next line is read; one at the bound is read.
    #[test]
    fn a_line_longer_than_the_bound_is_refused_and_the_next_read() {
        let long = format!("position startpos moves {}e2e4", " ".repeat(2 << 20));
        let at_bound = format!("isready{}", " ".repeat((1 << 20) - 7));
        let out = session(&format!("{long}\nd\n{at_bound}\r\n"));
        assert!(
            out.contains("info string error: input line longer than 1048576 bytes, ignored\n"),
            "{}",
            &out[..out.len().min(500)]
        );
        // The long line set no position; the one at the bound was answered.
        assert!(
            out.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
            "{out}"
        );
        assert!(out.ends_with("readyok\n"), "{out}");
    }

    #[test]
    fn search_answers_with_a_legal_move() {
        let out = session("position startpos moves e2e4\ngo depth 6\n");
        let best = out
            .lines()
            .find(|l| l.starts_with("bestmove"))
            .expect("bestmove");
        let mv = best.split_whitespace().nth(1).unwrap();
        let mut pos = Position::startpos();
        pos.play_unchecked(pos.parse_uci_move("e2e4", CastlingMode::Standard).unwrap());
        assert!(
            pos.parse_uci_move(mv, CastlingMode::Standard).is_ok(),
            "{best}"
        );
        assert!(out.contains("info depth 6 "), "{out}");
        assert!(out.contains("info string stats nodes"), "{out}");
    }

    #[test]
    fn own_book_answers_game_moves_not_analysis() {
        // Off by default: runners expect a scored search before every move.
        let out = session("position startpos\ngo wtime 60000 btime 60000\n");
        assert!(
            !out.contains("book move") && out.contains("info depth"),
            "{out}"
        );
        let on = "setoption name OwnBook value true\n";
        let out = session(&format!(
            "{on}position startpos\ngo wtime 60000 btime 60000\n"
        ));
        assert!(out.contains("info string book move "), "{out}");
        assert!(!out.contains("info depth"), "{out}");
        let out = session(&format!("{on}position startpos\ngo depth 4\n"));
        assert!(
            !out.contains("book move") && out.contains("info depth 4"),
            "{out}"
        );
        let out = session(&format!(
            "{on}position startpos\ngo nodes 1000 wtime 60000 btime 60000\n"
        ));
        assert!(out.contains("info string book move "), "{out}");
        let out = session(&format!("{on}position startpos\ngo nodes 1000\n"));
        assert!(!out.contains("book move"), "{out}");
        let out = session("setoption name BookFile value /nonexistent.bin\nsetoption name BookPolicy value best\n");
        assert_eq!(out.matches("info string error").count(), 1, "{out}");
    }

    /// Every `bestmove` of `out` comes after an `info` line with a score
    /// for that move.
    fn assert_scored_answers(out: &str) {
        let mut last_scored: Option<&str> = None;
        let mut answers = 0;
        for line in out.lines() {
            if line.starts_with("info ") && line.contains(" score ") {
                last_scored = line
                    .split(" pv ")
                    .nth(1)
                    .and_then(|pv| pv.split(' ').next());
            }
            if let Some(m) = line.strip_prefix("bestmove ") {
                let m = m.split(' ').next();
                assert_eq!(last_scored, m, "no scored line for '{line}' in:\n{out}");
                last_scored = None;
                answers += 1;
            }
        }
        assert!(answers > 0, "{out}");
    }

    #[test]
    fn nodes_and_mate_below_one_are_refused() {
        for go in ["go nodes 0", "go nodes -5", "go mate 0", "go mate -3"] {
            let out = session(&format!("position startpos\n{go}\n"));
            let word = go.split(' ').nth(1).expect("a word");
            assert!(
                out.contains(&format!(
                    "info string error: 'go {word}' needs a number of 1 or more"
                )),
                "{go}: {out}"
            );
            // Nothing usable is left: the usual one-second search.
            assert!(out.contains("searching for 1 second"), "{go}: {out}");
            assert_scored_answers(&out);
        }
    }

    #[test]
    fn every_bestmove_follows_a_scored_line() {
        for input in [
            "position startpos\ngo nodes 1\n",
            "position startpos\ngo nodes 2\n",
            "position startpos moves e2e4\ngo nodes 1\n",
            // A second `go` stops the first search at once.
            "position startpos\ngo infinite\ngo nodes 1\n",
            "position startpos\ngo infinite\nstop\n",
        ] {
            let out = session(input);
            assert_scored_answers(&out);
        }
    }

    /// What docs/protocols.md says of `Hash`: refused while a search runs
    /// (the table stays as it was), taken between searches.
    #[test]
    fn hash_is_refused_during_a_search_and_resized_between_searches() {
        let buf = Buffer::default();
        let mut uci = Uci::new(Box::new(buf.clone()));
        uci.handle("go infinite");
        uci.handle("setoption name Hash value 32");
        assert_eq!(uci.engine.hash_mib(), 16);
        uci.handle("stop");
        uci.engine.wait();
        uci.handle("setoption name Hash value 32");
        assert_eq!(uci.engine.hash_mib(), 32);
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            out.matches(
                "info string error: option 'Hash' cannot change during a search; send stop first"
            )
            .count(),
            1,
            "{out}"
        );
    }

    #[test]
    fn no_legal_move_gives_0000() {
        let out = session("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
        assert!(out.contains("bestmove 0000"), "{out}");
    }

    #[test]
    fn finds_mates_with_mate_scores() {
        // Back-rank mate in one: Qb8#.
        let out = session("position fen 6k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1\ngo depth 6\n");
        assert!(out.contains("score mate 1 "), "{out}");
        assert!(out.contains("bestmove b2b8"), "{out}");
        // Rook ladder, mate in two: Rb7 (or Ra7), then mate on the eighth rank.
        let out = session("position fen 7k/8/8/8/8/8/1R6/R5K1 w - - 0 1\ngo depth 8\n");
        assert!(out.contains("score mate 2 "), "{out}");
        // The side being mated sees a negative mate.
        let out = session("position fen 7k/8/8/8/8/8/1R6/R5K1 w - - 0 1 moves b2b7\ngo depth 8\n");
        assert!(out.contains("score mate -1 "), "{out}");
    }

    #[test]
    fn chess960_castling_notation() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let out = session(&format!(
            "setoption name UCI_Chess960 value true\nposition fen {fen}\ngo perft 1\n"
        ));
        assert!(out.contains("Nodes searched: 21"), "{out}");
    }
}
