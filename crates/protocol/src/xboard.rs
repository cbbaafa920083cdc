//! The xboard protocol (CECP version 2): parses commands, keeps the game,
//! drives the engine, formats its output. No chess logic of its own.
//!
//! Unlike UCI, an xboard engine keeps the game itself: the GUI sends moves
//! one at a time and the engine answers with `move X` when it is its turn.
//! The search runs in the background; its result comes back to the command
//! loop through the same channel as the input lines, so the game is only
//! ever changed on one thread. Every search has a number: the result of a
//! search that was stopped because the game changed (`force`, `undo`, a new
//! position) is recognised by its old number and dropped.
//!
//! Bad input never ends the loop or changes state: `Illegal move: X` for
//! moves, `Error (reason): command` for the rest.

use crate::book_options;
use crate::input::{InputLine, TOO_LONG};
use crate::output::{send, SharedOut};
use crate::tablebases::Tablebases;
use crate::uci::ENGINE_NAME;
use crate::xboard_level::{Level, XboardLimits};
use book::OwnBook;
use chess::{CastlingMode, Color, Game, Move, Outcome, Position};
use engine::{Engine, Limits, SearchEvent, SearchResult};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The engine accepts a draw offer when its last score (its own view) is
/// at or below this many centipawns.
const ACCEPT_DRAW_AT_CP: i32 = -50;

/// What reaches the command loop: lines from the GUI and search results.
enum Input {
    Line(String),
    NotUtf8,
    TooLong,
    Done { id: u64, result: SearchResult },
    Eof,
}

/// Why the engine is searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SearchKind {
    /// For its own move in the game.
    Think,
    /// On the opponent's time, after guessing the reply (`hard`).
    Ponder,
    /// `analyze` mode: until told otherwise, no move.
    Analyze,
}

/// The latest progress of the running search, for `.` and `hint`.
#[derive(Clone, Debug, Default)]
struct Progress {
    depth: i32,
    nodes: u64,
    time: Duration,
    moves_total: usize,
    curr: Option<(usize, String)>,
}

/// State kept between xboard commands.
pub struct Xboard {
    engine: Engine,
    book: OwnBook,
    out: SharedOut,
    game: Game,
    chess960: bool,
    /// In force mode the engine only keeps the game; it plays no side.
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    tc: XboardLimits,
    post: bool,
    ponder: bool,
    analyzing: bool,
    /// The running search: its number and why it runs.
    search: Option<(u64, SearchKind)>,
    next_id: u64,
    progress: Arc<Mutex<Progress>>,
    /// Whether the running search prints its thinking.
    show_thinking: Arc<AtomicBool>,
    /// The engine's score (its view) after its last move.
    last_score: Option<i32>,
    /// The reply the engine expects, for the position it is valid in (key).
    expected_reply: Option<(u64, Move)>,
    /// `ping`s received while thinking: answered after the move.
    pending_pongs: Vec<String>,
    /// Syzygy tables set by `egtpath syzygy`.
    tablebases: Tablebases,
    tx: Sender<Input>,
    rx: Receiver<Input>,
}

/// Options not offered as xboard options: xboard sets them with commands
/// of its own (`memory`, `cores`, `hard`/`easy`, `egtpath`, `variant`,
/// `analyze`), and its thinking output shows one line only (MultiPV).
const XBOARD_OWN_COMMANDS: [&str; 7] = [
    "Hash",
    "Threads",
    "Ponder",
    "MultiPV",
    "SyzygyPath",
    "UCI_Chess960",
    "UCI_AnalyseMode",
];

impl Xboard {
    /// An xboard session writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Xboard {
        let (tx, rx) = channel();
        Xboard {
            engine: Engine::new(),
            book: book_options::protocol_book(),
            out: crate::output::shared(out),
            game: Game::new(Position::startpos()),
            chess960: false,
            force: false,
            engine_side: Color::Black,
            tc: XboardLimits::default(),
            post: false,
            ponder: false,
            analyzing: false,
            search: None,
            next_id: 0,
            progress: Arc::default(),
            show_thinking: Arc::default(),
            last_score: None,
            expected_reply: None,
            pending_pongs: Vec::new(),
            tablebases: Tablebases::default(),
            tx,
            rx,
        }
    }

    /// Reads commands from `input` until `quit` or end of input. At the end
    /// of input the engine still finishes (and plays) a move it is thinking
    /// about; analysis and pondering stop.
    pub fn run<R: BufRead + Send + 'static>(self, input: R) {
        self.run_with(move |tx| read_lines(input, tx));
    }

    /// `run` on standard input (locked on the reading thread, so that lines
    /// a UCI session read ahead before switching to xboard are kept).
    pub fn run_stdin(self) {
        self.run_with(|tx| read_lines(std::io::stdin().lock(), tx));
    }

    fn run_with(mut self, feed: impl FnOnce(Sender<Input>) + Send + 'static) {
        let tx = self.tx.clone();
        // Input is read on its own thread so that search results and lines
        // arrive in one queue, in the order they happened.
        std::thread::spawn(move || feed(tx));
        let mut input_ended = false;
        while let Ok(item) = self.rx.recv() {
            match item {
                Input::Line(line) => {
                    if !self.handle(line.trim()) {
                        break;
                    }
                }
                Input::NotUtf8 => self.say("Error (input line is not UTF-8): ?"),
                Input::TooLong => self.say(&format!("Error ({TOO_LONG}): ?")),
                Input::Done { id, result } => self.search_done(id, result),
                Input::Eof => input_ended = true,
            }
            if input_ended && !matches!(self.search, Some((_, SearchKind::Think))) {
                break;
            }
        }
        self.stop_search();
    }

    fn say(&self, text: &str) {
        send(&self.out, text);
    }

    fn error(&self, reason: &str, command: &str) {
        let shown: String = command.chars().take(80).collect();
        self.say(&format!("Error ({reason}): {shown}"));
    }

    fn mode(&self) -> CastlingMode {
        if self.chess960 || self.game.position().castling_mode() == CastlingMode::Chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// A move as xboard wants it: coordinates, and `O-O`/`O-O-O` for castling
    /// in Chess960 (where king-to-square would be ambiguous).
    fn move_text(&self, pos: &Position, m: Move) -> String {
        if self.mode() == CastlingMode::Chess960 && m.kind() == chess::MoveKind::Castling {
            return pos.san_without_suffix(m);
        }
        m.to_uci(self.mode()).to_string()
    }

    /// Handles one command line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        let arg = rest.join(" ");
        match command {
            // Accepted and needing nothing: the book already picks at random.
            "xboard" | "accepted" | "rejected" | "computer" | "name" | "rating" | "ics"
            | "random" => {}
            "egtpath" => self.egtpath(&arg, line),
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if matches!(self.search, Some((_, SearchKind::Ponder))) {
                    self.stop_search();
                }
            }
            "protover" => self.features(),
            "new" => self.new_game(),
            "variant" => match arg.as_str() {
                "normal" => self.chess960 = false,
                "fischerandom" => self.chess960 = true,
                _ => self.error("unsupported variant", line),
            },
            "force" => {
                self.stop_game_search();
                self.force = true;
            }
            "go" => {
                self.stop_game_search();
                self.force = false;
                self.engine_side = self.game.position().turn();
                self.think();
            }
            "playother" => {
                self.stop_game_search();
                self.force = false;
                self.engine_side = !self.game.position().turn();
            }
            "white" | "black" => {
                // Protocol version 1: that side moves, the engine plays the other.
                self.stop_game_search();
                let side = if command == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                self.engine_side = !side;
            }
            "usermove" => self.user_move(&arg),
            "?" => {
                if matches!(self.search, Some((_, SearchKind::Think))) {
                    self.engine.stop();
                }
            }
            "ping" => {
                let answer = format!("pong {arg}");
                if matches!(self.search, Some((_, SearchKind::Think))) {
                    self.pending_pongs.push(answer);
                } else {
                    self.say(&answer);
                }
            }
            "draw" => self.draw_offer(),
            "result" => {
                self.stop_search();
                self.force = true;
            }
            "setboard" => self.set_board(&arg, line),
            "edit" => self.error(
                "edit is not supported; use setboard (feature setboard=1)",
                line,
            ),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "hint" => self.hint(),
            "bk" => self.book_moves(),
            "analyze" => {
                self.stop_search();
                self.analyzing = true;
                self.analyze();
            }
            "exit" => {
                if self.analyzing {
                    self.stop_search();
                    self.analyzing = false;
                }
            }
            "." => self.analysis_status(),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "level" => match Level::parse(&rest) {
                Ok(level) => {
                    self.tc.level = Some(level);
                    self.tc.move_time_ms = None;
                }
                Err(e) => self.error(&e.to_string(), line),
            },
            "st" => match arg.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => {
                    self.tc.move_time_ms = Some((s * 1000.0).round().max(1.0) as u64);
                }
                _ => self.error("st takes seconds per move, more than 0", line),
            },
            "sd" => match arg.parse::<i32>() {
                Ok(d) if (1..=1000).contains(&d) => self.tc.depth = Some(d),
                _ => self.error("sd takes a depth from 1 to 1000", line),
            },
            "nps" => match arg.parse::<u64>() {
                Ok(0) => self.tc.nps = None,
                Ok(n) => self.tc.nps = Some(n),
                _ => self.error("nps takes a number of nodes per second (0: off)", line),
            },
            "time" | "otim" => match arg.parse::<i64>() {
                Ok(cs) => {
                    // Centiseconds; a clock that has run out counts as zero.
                    let ms = (cs.max(0) as u64).saturating_mul(10);
                    if command == "time" {
                        self.tc.my_clock_ms = Some(ms);
                    } else {
                        self.tc.other_clock_ms = Some(ms);
                    }
                }
                Err(_) => self.error("time and otim take centiseconds", line),
            },
            "memory" => self.set_engine_option("Hash", &arg, line),
            "cores" => self.set_engine_option("Threads", &arg, line),
            "option" => match arg.split_once('=') {
                Some((name, value)) => self.set_engine_option(name.trim(), value.trim(), line),
                None if arg.is_empty() => self.error("option takes NAME=VALUE or NAME", line),
                None => self.set_engine_option(arg.trim(), "", line),
            },
            "d" => {
                let text = self.game.position().pretty();
                self.say(text.trim_end());
            }
            "quit" => return false,
            "pause" | "resume" => self.error("not supported (feature pause=0)", line),
            _ if looks_like_move(command) && rest.is_empty() => self.user_move(command),
            _ => self.error("unknown command", line),
        }
        true
    }

    fn features(&self) {
        self.say("feature done=0");
        self.say(&format!(
            "feature myname=\"{ENGINE_NAME}\" ping=1 setboard=1 usermove=1 playother=1 san=0 \
             time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 \
             variants=\"normal,fischerandom\" memory=1 smp=1 name=0 ics=0 nps=1 pause=0 \
             exclude=0 setscore=0 debug=0 egt=\"syzygy\""
        ));
        for line in Self::option_features() {
            self.say(&format!("feature option=\"{line}\""));
        }
        self.say("feature done=1");
    }

    /// Kestrel's settings in xboard's `option` syntax, less those that
    /// xboard sets with commands of its own ([`XBOARD_OWN_COMMANDS`]).
    fn option_features() -> Vec<String> {
        crate::options::session_options()
            .iter()
            .filter(|o| !XBOARD_OWN_COMMANDS.contains(&o.name))
            .map(crate::options::xboard_feature)
            .collect()
    }

    /// Sets an engine or book option; a search in the background is paused
    /// for it (analysis goes on afterwards).
    /// `egtpath syzygy DIRS`: opens Syzygy tables as UCI's `SyzygyPath`
    /// does; what the tables say about themselves comes as `#` comments.
    fn egtpath(&mut self, arg: &str, line: &str) {
        let Some((kind, path)) = arg.trim().split_once(' ') else {
            self.error("egtpath takes a table type and a path", line);
            return;
        };
        if !kind.eq_ignore_ascii_case("syzygy") {
            self.error("only syzygy tables are supported", line);
            return;
        }
        if matches!(self.search, Some((_, SearchKind::Think))) {
            self.error("cannot change tables while thinking", line);
            return;
        }
        self.stop_search();
        let lines = self
            .tablebases
            .set("SyzygyPath", path.trim(), &mut self.engine)
            .unwrap_or_default();
        for l in lines {
            let text = l.strip_prefix("info string ").unwrap_or(&l);
            self.say(&format!("# {text}"));
        }
        if self.analyzing {
            self.analyze();
        }
    }

    fn set_engine_option(&mut self, name: &str, value: &str, line: &str) {
        if let Some(result) = book_options::set(&mut self.book, name, value) {
            if let Err(e) = result {
                self.error(&e, line);
            }
            return;
        }
        match self.search {
            Some((_, SearchKind::Think)) => {
                self.error("cannot change options while thinking", line);
                return;
            }
            Some(_) => self.stop_search(),
            None => {}
        }
        // xboard sends check options as 0/1 and buttons with no value.
        let value = match value {
            "" => "true",
            v => v,
        };
        match self.engine.set_option(name, value) {
            Err(e) => self.error(&e.to_string(), line),
            Ok(()) if name.eq_ignore_ascii_case("EvalFile") => {
                self.say(&format!("# {}", self.engine.describe_evaluation()));
            }
            Ok(()) => {}
        }
        if self.analyzing {
            self.analyze();
        }
    }

    fn new_game(&mut self) {
        self.stop_search();
        self.engine.new_game();
        self.game = Game::new(Position::startpos());
        self.chess960 = false;
        self.force = false;
        self.engine_side = Color::Black;
        self.tc.depth = None;
        self.tc.my_clock_ms = None;
        self.tc.other_clock_ms = None;
        self.last_score = None;
        self.expected_reply = None;
        if self.analyzing {
            self.analyze();
        }
    }

    fn set_board(&mut self, fen: &str, line: &str) {
        match Position::from_fen(fen) {
            Ok(pos) => {
                self.stop_game_search();
                self.game = Game::new(pos);
                self.last_score = None;
                self.expected_reply = None;
                if self.analyzing {
                    self.analyze();
                }
            }
            Err(e) => self.error(&format!("illegal position: {e}"), line),
        }
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        if self.game.moves().len() < plies {
            self.error("no move to take back", line);
            return;
        }
        self.stop_game_search();
        for _ in 0..plies {
            self.game.pop();
        }
        self.expected_reply = None;
        if self.analyzing {
            self.analyze();
        }
    }

    /// Parses a move in coordinate notation (or SAN, which some GUIs and
    /// people send), for the current position.
    fn parse_move(&self, text: &str) -> Option<Move> {
        let pos = self.game.position();
        pos.parse_uci_move(text, self.mode())
            .or_else(|_| pos.parse_uci_move(text, CastlingMode::Standard))
            .ok()
            .or_else(|| pos.parse_san(text).ok())
    }

    fn user_move(&mut self, text: &str) {
        let text = text.trim();
        if matches!(self.search, Some((_, SearchKind::Think))) {
            self.say(&format!("Illegal move (it is my move): {text}"));
            return;
        }
        let Some(m) = self.parse_move(text) else {
            self.say(&format!("Illegal move: {text}"));
            return;
        };
        if let Some((id, SearchKind::Ponder)) = self.search {
            let guessed = self
                .expected_reply
                .is_some_and(|(key, guess)| guess == m && key == self.game.position().key());
            if guessed && !self.force && !self.analyzing {
                // Ponder hit: the search goes on as the engine's own.
                self.game.push(m);
                self.expected_reply = None;
                self.search = Some((id, SearchKind::Think));
                self.show_thinking.store(self.post, Ordering::Relaxed);
                self.engine.ponderhit();
                return;
            }
            // A miss: the table keeps what the ponder search found.
            self.stop_search();
        }
        self.game.push(m);
        self.expected_reply = None;
        if self.analyzing {
            self.analyze();
            return;
        }
        if self.claim_result() {
            return;
        }
        if !self.force && self.game.position().turn() == self.engine_side {
            self.think();
        }
    }

    /// Says the result when the game is over; true if it is. Only when the
    /// engine plays a side: in force mode the GUI keeps score.
    fn claim_result(&self) -> bool {
        let Some(outcome) = self.game.outcome() else {
            return false;
        };
        if !self.force {
            self.say(&result_claim(outcome));
        }
        true
    }

    /// Starts thinking about the engine's move (or plays one from the book).
    fn think(&mut self) {
        if self.game.outcome().is_some() {
            self.claim_result();
            return;
        }
        let pos = *self.game.position();
        let white = pos.turn() == Color::White;
        let moves_made = pos.fullmove_number().saturating_sub(1);
        let limits = self.tc.limits(white, moves_made);
        // Book moves are for games on a clock or a move time, not depth or node tests.
        let game_move = limits.depth.is_none() && limits.nodes.is_none();
        if game_move {
            if let Some(m) = self.book.probe(&pos) {
                self.play_engine_move(m, None, Duration::ZERO);
                return;
            }
        }
        self.start(SearchKind::Think, limits, pos, self.history());
    }

    /// Analysis of the current position until `exit` or a change.
    fn analyze(&mut self) {
        self.stop_search();
        if !self.game.position().has_legal_moves() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(
            SearchKind::Analyze,
            limits,
            *self.game.position(),
            self.history(),
        );
    }

    /// Keys of the game's positions before the current one (repetitions).
    fn history(&self) -> Vec<u64> {
        let mut pos = *self.game.start();
        let mut keys = Vec::with_capacity(self.game.moves().len());
        for &m in self.game.moves() {
            keys.push(pos.key());
            pos.play_unchecked(m);
        }
        keys
    }

    fn start(&mut self, kind: SearchKind, limits: Limits, root: Position, history: Vec<u64>) {
        self.next_id += 1;
        let id = self.next_id;
        self.search = Some((id, kind));
        *self
            .progress
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Progress {
            moves_total: root.legal_moves().len(),
            ..Progress::default()
        };
        let out = self.out.clone();
        let tx = self.tx.clone();
        let progress = self.progress.clone();
        // Pondering is silent until the opponent plays the expected move.
        let show = Arc::new(AtomicBool::new(match kind {
            SearchKind::Think => self.post,
            SearchKind::Analyze => true,
            SearchKind::Ponder => false,
        }));
        self.show_thinking = show.clone();
        let mode = self.mode();
        let reporter: engine::Reporter = Arc::new(move |event| match event {
            SearchEvent::Iteration(info) => {
                if let Ok(mut p) = progress.lock() {
                    p.depth = info.depth;
                    p.nodes = info.nodes;
                    p.time = info.time;
                }
                if show.load(Ordering::Relaxed) && info.multipv == 1 {
                    send(&out, &thinking_line(&root, &info));
                }
            }
            SearchEvent::CurrMove { mv, number, .. } => {
                if let Ok(mut p) = progress.lock() {
                    p.curr = Some((number, mv.to_uci(mode).to_string()));
                }
            }
            SearchEvent::Stats { .. } => {}
            SearchEvent::BestMove(result) => {
                let _ = tx.send(Input::Done { id, result });
            }
        });
        let hint = if self.engine.params().book_in_search {
            self.book.search_hint()
        } else {
            None
        };
        self.engine.set_book(hint);
        self.engine.go(root, history, limits, reporter);
    }

    /// Stops any search and forgets it (its result will be dropped).
    fn stop_search(&mut self) {
        self.search = None;
        self.engine.stop();
        self.engine.wait();
    }

    /// Stops a search that would play a move or that belongs to the old game
    /// state; analysis is restarted by the caller when the position changes.
    fn stop_game_search(&mut self) {
        if matches!(
            self.search,
            Some((_, SearchKind::Think | SearchKind::Ponder))
        ) {
            self.stop_search();
        }
    }

    fn search_done(&mut self, id: u64, result: SearchResult) {
        let Some((current, kind)) = self.search else {
            return;
        };
        if current != id {
            return;
        }
        self.search = None;
        if kind != SearchKind::Think {
            return;
        }
        self.last_score = Some(result.score);
        match result.best.filter(|&m| self.game.position().is_legal(m)) {
            Some(m) => self.play_engine_move(m, result.ponder, result.time),
            None => {
                self.claim_result();
                self.answer_pongs();
            }
        }
    }

    fn answer_pongs(&mut self) {
        for pong in std::mem::take(&mut self.pending_pongs) {
            self.say(&pong);
        }
    }

    /// Plays the engine's move in the game and says it; then claims the
    /// result if the game is over, or ponders on the expected reply.
    fn play_engine_move(&mut self, m: Move, reply: Option<Move>, used: Duration) {
        let text = self.move_text(self.game.position(), m);
        self.game.push(m);
        self.say(&format!("move {text}"));
        self.expected_reply = reply
            .filter(|&r| self.game.position().is_legal(r))
            .map(|r| (self.game.position().key(), r));
        let over = self.claim_result();
        // A ping sent while thinking is answered once the move (and claim) is out.
        self.answer_pongs();
        if !over && self.ponder && !self.force {
            self.start_pondering(used);
        }
    }

    /// Thinks on the opponent's time about the position after the expected
    /// reply. If the opponent plays it, the search carries on as the
    /// engine's own (`ponderhit`), its clock starting then.
    fn start_pondering(&mut self, used: Duration) {
        let Some((_, guess)) = self.expected_reply else {
            return;
        };
        let mut history = self.history();
        history.push(self.game.position().key());
        let mut root = *self.game.position();
        root.play_unchecked(guess);
        if !root.has_legal_moves() {
            return;
        }
        // The clock as it will be: this move's time gone, the increment added.
        let mut tc = self.tc;
        if let (Some(clock), Some(level)) = (tc.my_clock_ms, tc.level) {
            let used = used.as_millis() as u64;
            tc.my_clock_ms = Some(clock.saturating_sub(used) + level.inc_ms);
        }
        let moves_made = root.fullmove_number().saturating_sub(1);
        let mut limits = tc.limits(root.turn() == Color::White, moves_made);
        limits.ponder = true;
        self.start(SearchKind::Ponder, limits, root, history);
    }

    fn hint(&mut self) {
        let pos = *self.game.position();
        let hint = self
            .expected_reply
            .filter(|(key, _)| *key == pos.key())
            .map(|(_, m)| m)
            .or_else(|| self.book.probe(&pos));
        if let Some(m) = hint {
            self.say(&format!("Hint: {}", self.move_text(&pos, m)));
        }
    }

    /// `bk`: the book's moves for the position, one per line starting with a
    /// tab, then an empty line.
    fn book_moves(&mut self) {
        let candidates = self.book.candidates(self.game.position());
        if candidates.is_empty() {
            self.say("\tno book moves");
        }
        for c in candidates {
            self.say(&format!("\t{} {:.0}%", c.san, c.percent));
        }
        self.say("");
    }

    /// `draw`: accepted when the engine thinks it stands worse.
    fn draw_offer(&self) {
        if self.last_score.is_some_and(|s| s <= ACCEPT_DRAW_AT_CP) {
            self.say("offer draw");
        }
    }

    /// `.` in analysis: `stat01: time nodes ply moves-left total-moves current-move`.
    fn analysis_status(&self) {
        if !matches!(self.search, Some((_, SearchKind::Analyze))) {
            return;
        }
        let p = self
            .progress
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let (number, curr) = p
            .curr
            .map_or((0, String::new()), |(n, m)| (n, format!(" {m}")));
        self.say(&format!(
            "stat01: {} {} {} {} {}{curr}",
            p.time.as_millis() / 10,
            p.nodes,
            p.depth,
            p.moves_total.saturating_sub(number),
            p.moves_total
        ));
    }
}

/// Sends each line of `input` to the command loop, then `Eof`.
fn read_lines(input: impl BufRead, tx: Sender<Input>) {
    for line in crate::input::lines(input) {
        let item = match line {
            Ok(InputLine::Text(l)) => Input::Line(l),
            Ok(InputLine::NotUtf8) => Input::NotUtf8,
            Ok(InputLine::TooLong) => Input::TooLong,
            Err(_) => break,
        };
        if tx.send(item).is_err() {
            return;
        }
    }
    let _ = tx.send(Input::Eof);
}

/// True for words that can only be meant as moves (`e2e4`, `e7e8q`, `Nf3`,
/// `O-O`), so that they get `Illegal move` rather than `unknown command`.
fn looks_like_move(word: &str) -> bool {
    let castle = matches!(word, "O-O" | "O-O-O" | "0-0" | "0-0-0");
    let shaped = (2..=8).contains(&word.len())
        && word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| "abcdefghKQRBNPqrbnx12345678=+#-@".contains(c));
    castle || shaped
}

/// The result line for a finished game, as xboard reads it.
fn result_claim(outcome: Outcome) -> String {
    let reason = match outcome {
        Outcome::Checkmate { winner } => format!("{} mates", winner.fold("White", "Black")),
        Outcome::Stalemate => "Stalemate".into(),
        Outcome::ThreefoldRepetition => "Draw by repetition".into(),
        Outcome::FiftyMoveRule => "Draw by fifty move rule".into(),
        Outcome::InsufficientMaterial => "Draw by insufficient material".into(),
    };
    format!("{} {{{reason}}}", outcome.result())
}

/// Thinking output: `ply score time nodes pv`, time in centiseconds, mates
/// as 100000 + moves (negative when being mated), the PV in SAN.
fn thinking_line(root: &Position, info: &engine::IterationInfo) -> String {
    let score = info.user_score().to_xboard();
    let mut pos = *root;
    let mut pv = Vec::with_capacity(info.pv.len());
    for &m in &info.pv {
        if !pos.is_legal(m) {
            break;
        }
        pv.push(pos.san(m));
        pos.play_unchecked(m);
    }
    format!(
        "{} {score} {} {} {}",
        info.depth,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_shapes() {
        for w in ["e2e4", "e7e8q", "Nf3", "O-O", "exd5", "e2e5", "a1"] {
            assert!(looks_like_move(w), "{w}");
        }
        for w in ["foo", "level", "e", "hello123"] {
            assert!(!looks_like_move(w), "{w}");
        }
    }

    #[test]
    fn claims_read_as_xboard_expects() {
        assert_eq!(
            result_claim(Outcome::Checkmate {
                winner: Color::White
            }),
            "1-0 {White mates}"
        );
        assert_eq!(
            result_claim(Outcome::ThreefoldRepetition),
            "1/2-1/2 {Draw by repetition}"
        );
    }
}
