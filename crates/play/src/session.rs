//! The terminal game: reads one line at a time, plays the moves of people
//! and of the engine, and prints the board and what happened.

use crate::board_edit::{EditStep, Editor};
use crate::board_view::{self, BoardStyle};
use crate::clock::Clock;
use crate::command::{self, ClockSetting, Command, PvStep, Setting, Sides, HELP};
use crate::line_input::LineSource;
use crate::move_input::{self, CaseTolerant};
use crate::player::{EngineSettings, Player};
use book::OwnBook;
use chess::{Color, Game, Move, Outcome, Position, Role};
use engine::{accepts_draw, Engine, IterationInfo, Limits, Score, SearchEvent, SearchResult};
use matchcore::ending::Ending;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};

/// The most plies the engine plays in a row before handing back the prompt
/// (autoplay with draw claims off could otherwise go on for ever).
const MAX_AUTOPLAY_PLIES: usize = 600;

/// The text book `book add` writes when no file is given.
const DEFAULT_TEXT_BOOK: &str = "kestrel-book.txt";

/// What one search found.
struct Found {
    best: Option<Move>,
    info: Option<IterationInfo>,
    result: Option<SearchResult>,
}

/// How the session looks and behaves.
#[derive(Clone, Copy, Debug)]
pub struct SessionOptions {
    /// How the board is drawn.
    pub style: BoardStyle,
    /// Echo each input line after its prompt (for transcripts of piped input);
    /// otherwise the prompt is printed before reading (for terminals).
    pub echo: bool,
}

/// One side: a person, or the engine with its settings (kept while a
/// person plays the side, so that switching back restores them).
#[derive(Clone, Debug)]
struct Side {
    engine: bool,
    settings: EngineSettings,
}

/// What the engine's last search found, for `pv` and `stats`.
#[derive(Clone, Debug)]
struct LastSearch {
    root: Position,
    info: Option<IterationInfo>,
    result: Option<SearchResult>,
    /// Plies of the PV shown by `pv next`/`pv back`.
    cursor: usize,
}

/// A terminal game session.
pub struct Session<W: Write> {
    out: W,
    options: SessionOptions,
    game: Game,
    redo: Vec<Move>,
    sides: [Side; 2],
    engine: Engine,
    book: OwnBook,
    flipped: bool,
    show_time: bool,
    claim: bool,
    last: Option<LastSearch>,
    editor: Option<Editor>,
    /// A pawn move to the last rank waiting for its piece.
    promotion: Option<Vec<Move>>,
    /// An end the players chose (resignation, agreed draw) or the clock gave.
    ended: Option<Ending>,
    /// Both sides' clocks, when a time control is set.
    clock: Option<Clock>,
    /// The game changed since it was last saved, loaded or started.
    unsaved: bool,
    /// `quit` was just typed once with the game unsaved.
    quit_warned: bool,
}

fn index(color: Color) -> usize {
    color.fold(0, 1)
}

impl<W: Write> Session<W> {
    /// A new game from `start`; `white_engine`/`black_engine` say who plays.
    pub fn new(
        out: W,
        options: SessionOptions,
        start: Position,
        white_engine: bool,
        black_engine: bool,
        settings: EngineSettings,
    ) -> Session<W> {
        let side = |engine| Side {
            engine,
            settings: settings.clone(),
        };
        Session {
            out,
            options,
            game: Game::new(start),
            redo: Vec::new(),
            sides: [side(white_engine), side(black_engine)],
            engine: Engine::new(),
            // A person at the board gets the book (`set ... book off` stops it).
            book: OwnBook::new(true),
            flipped: false,
            show_time: false,
            claim: true,
            last: None,
            editor: None,
            promotion: None,
            ended: None,
            clock: None,
            unsaved: false,
            quit_warned: false,
        }
    }

    /// Shows the board with Black at the bottom.
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    /// Plays until `quit` or the end of input.
    pub fn run(&mut self, mut input: impl LineSource) -> io::Result<()> {
        writeln!(
            self.out,
            "Kestrel {}: type a move (e4, Nf3, e2e4) or help.",
            env!("CARGO_PKG_VERSION")
        )?;
        self.show_players()?;
        self.show_board()?;
        self.engine_turns()?;
        loop {
            let prompt = self.prompt();
            // What was written must be on screen before the prompt is.
            self.out.flush()?;
            let shown = if self.options.echo {
                ""
            } else {
                prompt.as_str()
            };
            let line = match input.read_line(shown) {
                Ok(Some(line)) => line,
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(self.out, "That line is not UTF-8 text; ignored.")?;
                    continue;
                }
                Err(e) => return Err(e),
                Ok(None) => break,
            };
            let line = line.trim();
            if self.options.echo {
                writeln!(self.out, "{prompt}{line}")?;
            }
            if line.is_empty() {
                continue;
            }
            if !self.handle(line)? {
                break;
            }
            self.out.flush()?;
        }
        if !self.options.echo {
            writeln!(self.out)?;
        }
        self.out.flush()
    }

    fn prompt(&self) -> String {
        if self.editor.is_some() {
            "edit> ".into()
        } else if self.promotion.is_some() {
            "Promote to (q, r, b, n)? ".into()
        } else if let Some(ending) = self.game_over() {
            format!("Game over ({})> ", ending.result())
        } else {
            let pos = self.game.position();
            let dots = pos.turn().fold(".", "...");
            format!(
                "{}{dots} {}> ",
                pos.fullmove_number(),
                pos.turn().fold("White", "Black")
            )
        }
    }

    /// Handles one line; false on `quit`.
    fn handle(&mut self, line: &str) -> io::Result<bool> {
        if self.editor.is_some() {
            self.edit(line)?;
            return Ok(true);
        }
        if let Some(choices) = self.promotion.take() {
            let role = line
                .chars()
                .next()
                .and_then(|c| Role::from_char(c.to_ascii_lowercase()));
            match choices.into_iter().find(|m| m.promotion_role() == role) {
                Some(m) => {
                    self.human_move(m)?;
                }
                None => writeln!(
                    self.out,
                    "Promotion cancelled: type q, r, b or n with the move, e.g. e8=Q or e7e8q."
                )?,
            }
            return Ok(true);
        }
        let command = match command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                writeln!(self.out, "{e}")?;
                return Ok(true);
            }
        };
        let warned = std::mem::take(&mut self.quit_warned);
        self.check_flag()?;
        match command {
            Command::Help => writeln!(self.out, "{HELP}")?,
            Command::Quit if self.unsaved && !self.game.moves().is_empty() && !warned => {
                self.quit_warned = true;
                writeln!(
                    self.out,
                    "The game ({} moves) is not saved: save FILE keeps it; quit again leaves without saving.",
                    self.game.moves().len()
                )?;
            }
            Command::Quit => return Ok(false),
            Command::New => {
                let start = Position::startpos();
                self.reset(start);
                self.unsaved = false;
                self.engine.new_game();
                self.show_board()?;
                self.engine_turns()?;
            }
            Command::Board => self.show_board()?,
            Command::Flip => {
                self.flipped = !self.flipped;
                self.show_board()?;
            }
            Command::Undo => self.undo()?,
            Command::Redo => self.redo()?,
            Command::History => {
                let text = history(self.game.start(), self.game.moves());
                writeln!(
                    self.out,
                    "{}",
                    if text.is_empty() {
                        "(no moves yet)".into()
                    } else {
                        text
                    }
                )?;
            }
            Command::Fen(None) => writeln!(self.out, "{}", self.game.position().fen())?,
            Command::Fen(Some(fen)) => match Position::from_fen(&fen) {
                Ok(pos) => {
                    self.reset(pos);
                    self.show_board()?;
                }
                Err(e) => writeln!(self.out, "Not a usable FEN: {e}")?,
            },
            Command::Edit => {
                self.editor = Some(Editor::new(self.game.position()));
                writeln!(self.out, "Edit mode: Ke1 / pe7 place a piece (upper case White), xe4 removes, clear, turn w|b, castle KQkq|-, done, cancel.")?;
            }
            Command::Save(path) => self.save(&path)?,
            Command::Load(path, n) => self.load(&path, n)?,
            Command::Player(color, engine) => {
                self.sides[index(color)].engine = engine;
                self.show_players()?;
                self.engine_turns()?;
            }
            Command::Auto(on) => {
                self.sides[0].engine = on;
                self.sides[1].engine = true;
                self.show_players()?;
                self.engine_turns()?;
            }
            Command::Hint => self.hint()?,
            Command::Explain { mv, line } => self.explain(mv.as_deref(), line)?,
            Command::Resign => self.resign()?,
            Command::Draw => self.offer_draw()?,
            Command::Time(setting) => self.set_clock(setting)?,
            Command::Go => {
                if self.game_over().is_some() {
                    self.say_game_over()?;
                } else {
                    self.engine_move()?;
                    self.engine_turns()?;
                }
            }
            Command::Set(sides, setting) => self.set(sides, setting)?,
            Command::Settings => self.show_players()?,
            Command::Pv(step) => self.pv(step)?,
            Command::Stats => self.stats()?,
            Command::ShowTime(on) => {
                self.show_time = on;
                writeln!(
                    self.out,
                    "Engine move times {}.",
                    if on { "shown" } else { "hidden" }
                )?;
            }
            Command::Claim(on) => {
                self.claim = on;
                writeln!(
                    self.out,
                    "Draws by threefold repetition and the fifty-move rule are {}.",
                    if on {
                        "claimed (the game ends)"
                    } else {
                        "not claimed (play goes on)"
                    }
                )?;
            }
            Command::BookAdd(path) => self.book_add(path.as_deref())?,
            Command::Move(text) => self.typed_move(&text)?,
        }
        Ok(true)
    }

    fn reset(&mut self, start: Position) {
        self.game = Game::new(start);
        self.redo.clear();
        self.last = None;
        self.promotion = None;
        self.ended = None;
        self.unsaved = true;
        if let Some(clock) = &mut self.clock {
            *clock = Clock::new(clock.control);
        }
    }

    fn show_board(&mut self) -> io::Result<()> {
        let last = self.game.moves().last().copied();
        let text = board_view::draw(self.game.position(), last, self.flipped, self.options.style);
        write!(self.out, "{text}")?;
        if let Some(clock) = &self.clock {
            writeln!(self.out, "{}", clock.show(self.game.position().turn()))?;
        }
        if let Some(ending) = self.game_over() {
            writeln!(self.out, "Game over: {} ({ending}).", ending.result())?;
        }
        Ok(())
    }

    fn player(&self, color: Color) -> Player {
        let side = &self.sides[index(color)];
        if side.engine {
            Player::Engine(side.settings.clone())
        } else {
            Player::Human
        }
    }

    fn show_players(&mut self) -> io::Result<()> {
        let white = self.player(Color::White);
        let black = self.player(Color::Black);
        writeln!(self.out, "White: {white}. Black: {black}.")
    }

    /// What ends the game: the players' or the clock's end, or the rules'
    /// outcome given the claim setting.
    fn game_over(&self) -> Option<Ending> {
        if let Some(ending) = &self.ended {
            return Some(ending.clone());
        }
        let outcome = self.game.outcome()?;
        let claimable = matches!(
            outcome,
            Outcome::ThreefoldRepetition | Outcome::FiftyMoveRule
        );
        (self.claim || !claimable).then_some(Ending::Rules(outcome))
    }

    fn say_game_over(&mut self) -> io::Result<()> {
        if let Some(ending) = self.game_over() {
            writeln!(
                self.out,
                "The game is over: {} ({ending}). Type new, save FILE or fen.",
                ending.result()
            )?;
        }
        Ok(())
    }

    /// Ends the game if the side to move, a person, has run out of time
    /// (the engine's clock is checked when it moves).
    fn check_flag(&mut self) -> io::Result<()> {
        let turn = self.game.position().turn();
        let flagged = self.clock.as_ref().is_some_and(|c| c.flagged(turn));
        if flagged && self.game_over().is_none() && !self.sides[index(turn)].engine {
            self.ended = Some(Ending::TimeForfeit {
                loser: turn,
                over: None,
            });
            self.unsaved = true;
            self.say_game_over()?;
        }
        Ok(())
    }

    /// A typed move: UCI or SAN, with help when it is neither legal nor clear.
    fn typed_move(&mut self, text: &str) -> io::Result<()> {
        if self.game_over().is_some() {
            return self.say_game_over();
        }
        let pos = *self.game.position();
        if let Ok(m) = pos.parse_uci_move(text, pos.castling_mode()) {
            return self.human_move(m);
        }
        let exact = pos.parse_san(text);
        let any_case = match exact {
            Ok(_) => CaseTolerant::None,
            Err(_) => move_input::parse_any_case(&pos, text),
        };
        match (exact, any_case) {
            (Ok(m), _) | (Err(_), CaseTolerant::One(m)) => self.human_move(m),
            (Err(_), CaseTolerant::Ambiguous(sans)) => writeln!(
                self.out,
                "'{text}' could be {}: type it with the letter's case (B for a bishop, b for the b-pawn).",
                sans.join(" or ")
            ),
            (Err(san_error), CaseTolerant::None) => {
                // A pawn move to the last rank without its piece: ask for it.
                let choices: Vec<Move> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| m.promotion_role().is_some())
                    .filter(|m| {
                        let uci = m.to_uci(pos.castling_mode()).to_string();
                        let san = pos.san_without_suffix(*m);
                        uci[..4] == *text || san.split('=').next() == Some(text)
                    })
                    .collect();
                if !choices.is_empty() {
                    self.promotion = Some(choices);
                    return Ok(());
                }
                let legal: Vec<String> = pos.legal_moves().iter().map(|m| pos.san(*m)).collect();
                let looks_uci = text.len() >= 4
                    && text.as_bytes()[0].is_ascii_lowercase()
                    && text.as_bytes()[1].is_ascii_digit()
                    && text.as_bytes()[2].is_ascii_lowercase();
                let reason = if looks_uci {
                    pos.parse_uci_move(text, pos.castling_mode())
                        .err()
                        .map_or(san_error.to_string(), |e| e.to_string())
                } else {
                    san_error.to_string()
                };
                writeln!(
                    self.out,
                    "Not a move here: {reason}. Legal moves: {}. Type help for commands.",
                    legal.join(" ")
                )
            }
        }
    }

    fn human_move(&mut self, m: Move) -> io::Result<()> {
        self.redo.clear();
        // When the engine answers, its move's board shows this move too:
        // one board per move typed, not two.
        let mover = self.game.position().turn();
        let engine_replies = self.sides[index(!mover)].engine;
        if !self.play(m)? {
            return Ok(());
        }
        if !engine_replies || self.game_over().is_some() {
            self.show_board()?;
        }
        self.engine_turns()
    }

    /// Plays a move and shows the board (and the result if it ends the game).
    fn push(&mut self, m: Move) -> io::Result<()> {
        if self.play(m)? {
            self.show_board()?;
        }
        Ok(())
    }

    /// Plays a move on the clock; false when the mover's time had run out
    /// (the game is then lost on time and the move not played).
    fn play(&mut self, m: Move) -> io::Result<bool> {
        let mover = self.game.position().turn();
        if let Some(clock) = &mut self.clock {
            if !clock.moved(mover) {
                self.ended = Some(Ending::TimeForfeit {
                    loser: mover,
                    over: None,
                });
                self.unsaved = true;
                self.show_board()?;
                return Ok(false);
            }
        }
        self.game.push(m);
        self.unsaved = true;
        Ok(true)
    }

    /// The engine plays while it has the move (autoplay plays a whole game).
    fn engine_turns(&mut self) -> io::Result<()> {
        let mut plies = 0;
        while self.game_over().is_none() && self.sides[index(self.game.position().turn())].engine {
            if plies == MAX_AUTOPLAY_PLIES {
                writeln!(
                    self.out,
                    "Autoplay paused after {plies} moves; type go to go on."
                )?;
                break;
            }
            self.engine_move()?;
            plies += 1;
        }
        Ok(())
    }

    /// The engine plays one move for the side to move.
    fn engine_move(&mut self) -> io::Result<()> {
        let pos = *self.game.position();
        let color = pos.turn();
        let settings = self.sides[index(color)].settings.clone();
        let number = format!("{}{}", pos.fullmove_number(), color.fold(".", "..."));
        if settings.book {
            if let Some(m) = self.book.probe(&pos) {
                writeln!(self.out, "{number} Kestrel plays {} (book)", pos.san(m))?;
                // No line for `pv`: an earlier search's would be of another position.
                self.last = Some(LastSearch {
                    root: pos,
                    info: None,
                    result: None,
                    cursor: 0,
                });
                self.redo.clear();
                return self.push(m);
            }
        }
        // On the clock the engine manages its own time, as in a UCI game.
        let limits = match &self.clock {
            Some(clock) => clock.limits(color),
            None => settings.limits(),
        };
        let found = self.search(pos, &settings, limits);
        self.last = Some(LastSearch {
            root: pos,
            info: found.info.clone(),
            result: found.result.clone(),
            cursor: 0,
        });
        let Some(m) = found.best else {
            return writeln!(self.out, "Kestrel has no move.");
        };
        let mut note = match &found.info {
            Some(i) => format!(
                "depth {}, score {}",
                i.depth,
                score_text(i.user_score().white_view(color))
            ),
            None => String::new(),
        };
        if self.show_time {
            if let Some(r) = &found.result {
                note.push_str(&format!(", {:.2} s", r.time.as_secs_f64()));
            }
        }
        writeln!(self.out, "{number} Kestrel plays {} ({note})", pos.san(m))?;
        self.redo.clear();
        self.push(m)
    }

    /// Gives the engine `settings`' level, evaluator and options.
    fn configure(&mut self, settings: &EngineSettings) {
        self.engine.set_params(settings.params);
        self.engine
            .set_option("Evaluator", settings.evaluator.name())
            .expect("an evaluator name the engine knows");
        self.engine
            .set_option("UCI_Elo", &settings.elo.to_string())
            .expect("a level the settings checked");
        self.engine
            .set_option("UCI_LimitStrength", &settings.limit_strength.to_string())
            .expect("true or false");
    }

    /// Searches `pos` with `settings` (level, evaluator, options) and `limits`.
    fn search(&mut self, pos: Position, settings: &EngineSettings, limits: Limits) -> Found {
        self.configure(settings);
        let latest: Arc<Mutex<Option<IterationInfo>>> = Arc::default();
        let (tx, rx) = mpsc::channel();
        let seen = latest.clone();
        let reporter: engine::Reporter = Arc::new(move |event| match event {
            SearchEvent::Iteration(info) if info.multipv == 1 && info.bound.is_exact() => {
                if let Ok(mut l) = seen.lock() {
                    *l = Some(info);
                }
            }
            SearchEvent::BestMove(result) => {
                let _ = tx.send(result);
            }
            _ => {}
        });
        // The search runs on the engine's own thread (its stack is sized for it).
        self.engine.go(pos, self.history(), limits, reporter);
        let result = rx.recv().ok();
        self.engine.wait();
        let info = latest.lock().ok().and_then(|l| l.clone());
        let best = result
            .as_ref()
            .and_then(|r| r.best)
            .filter(|m| pos.is_legal(*m));
        Found { best, info, result }
    }

    /// The settings Kestrel advises or judges with: the engine side's (the
    /// opponent's when only one side is the engine), at full strength.
    fn advisor(&self) -> EngineSettings {
        let turn = self.game.position().turn();
        let side = if self.sides[index(!turn)].engine {
            !turn
        } else {
            turn
        };
        let mut settings = self.sides[index(side)].settings.clone();
        // Full strength: a weakened engine's advice would mislead.
        let _ = settings.set_level(None);
        settings
    }

    /// `hint`: Kestrel's move for the side to move.
    fn hint(&mut self) -> io::Result<()> {
        if self.game_over().is_some() {
            return self.say_game_over();
        }
        let pos = *self.game.position();
        let settings = self.advisor();
        if settings.book {
            if let Some(m) = self.book.probe(&pos) {
                return writeln!(self.out, "Hint: {} (a book move).", pos.san(m));
            }
        }
        let found = self.search(pos, &settings, settings.limits());
        match (found.best, found.info) {
            (Some(m), Some(i)) => {
                writeln!(
                    self.out,
                    "Hint: {} (depth {}, score {}).",
                    pos.san(m),
                    i.depth,
                    score_text(i.user_score().white_view(pos.turn()))
                )?;
                // Its reason, from the line the search expects after it.
                let rest = match i.pv.split_first() {
                    Some((&first, rest)) if first == m => rest,
                    _ => &[],
                };
                let previous = self.previous(self.game.moves().len());
                let previous = previous.as_ref().map(|(p, m)| (p, *m));
                match explain::explain_after(previous, &pos, m, rest).and_then(|e| e.idea()) {
                    Some(idea) => writeln!(self.out, "  {idea}"),
                    None => Ok(()),
                }
            }
            (Some(m), None) => writeln!(self.out, "Hint: {}.", pos.san(m)),
            (None, _) => writeln!(self.out, "There is no move to suggest."),
        }
    }

    /// `explain [MOVE] [line]`: the last move played (or `text`, a move
    /// in the position now) in words, judged by a full-strength search of
    /// the position before it and of the one after it.
    fn explain(&mut self, text: Option<&str>, line: bool) -> io::Result<()> {
        let keys = self.history();
        let played = self.game.moves().len();
        let (pos, mv, history, previous) = match text {
            Some(t) => {
                let pos = *self.game.position();
                if !pos.has_legal_moves() {
                    return self.say_game_over();
                }
                match explain::command::parse_move(&pos, t) {
                    Ok(m) => (pos, m, keys, self.previous(played)),
                    Err(e) => return writeln!(self.out, "{e}"),
                }
            }
            None => {
                let Some(&last) = self.game.moves().last() else {
                    return writeln!(
                        self.out,
                        "No move yet: explain MOVE explains a move in this position."
                    );
                };
                let mut pos = *self.game.start();
                for &m in &self.game.moves()[..self.game.moves().len() - 1] {
                    pos.play_unchecked(m);
                }
                let before = keys[..keys.len() - 1].to_vec();
                (pos, last, before, self.previous(played - 1))
            }
        };
        let settings = self.advisor();
        self.configure(&settings);
        let found =
            explain::search::search_move(&mut self.engine, &pos, &history, mv, &settings.limits());
        let previous = previous.as_ref().map(|(p, m)| (p, *m));
        let explained = |m: Move, line: &[Move]| explain::explain_after(previous, &pos, m, line);
        let san = pos.san(mv);
        let mover = pos.turn();
        let after = score_text(found.score.white_view(mover));
        let (said, best) = match found.best.filter(|&b| b != mv) {
            Some(b) => {
                writeln!(
                    self.out,
                    "{san}: {after} after it; Kestrel prefers {} ({}).",
                    pos.san(b),
                    score_text(found.best_score.white_view(mover))
                )?;
                let c =
                    explain::compare(previous, &pos, mv, &found.line, Some(b), &found.best_line);
                (c.played, c.best)
            }
            None => {
                writeln!(self.out, "{san}: {after} after it; Kestrel's choice too.")?;
                let e = explained(mv, &found.line);
                (e.and_then(|e| e.sentence()), None)
            }
        };
        if said.is_none() && best.is_none() {
            writeln!(self.out, "  Nothing certain to say about {san}.")?;
        }
        for s in [said, best].into_iter().flatten() {
            writeln!(self.out, "  {s}")?;
        }
        if line {
            let lines = [
                ("Line", explained(mv, &found.line)),
                (
                    "Best line",
                    found
                        .best
                        .filter(|&b| b != mv)
                        .and_then(|b| explained(b, &found.best_line)),
                ),
            ];
            for (title, e) in lines {
                let Some(e) = e else { continue };
                writeln!(self.out, "  {title}: {}", e.line_text())?;
                for d in e.detail() {
                    writeln!(self.out, "    {d}")?;
                }
            }
        }
        Ok(())
    }

    /// `resign`: the person at the keyboard gives up (the side to move
    /// when both sides are people).
    fn resign(&mut self) -> io::Result<()> {
        if self.game_over().is_some() {
            return self.say_game_over();
        }
        let turn = self.game.position().turn();
        let loser = match (self.sides[0].engine, self.sides[1].engine) {
            (false, true) => Color::White,
            (true, false) => Color::Black,
            _ => turn,
        };
        self.ended = Some(Ending::Resigned { loser });
        self.unsaved = true;
        self.say_game_over()
    }

    /// `draw`: offers a draw. Kestrel, as the opponent, answers by its
    /// evaluation; between two people at one keyboard it is agreed.
    fn offer_draw(&mut self) -> io::Result<()> {
        if self.game_over().is_some() {
            return self.say_game_over();
        }
        let pos = *self.game.position();
        let opponent = !pos.turn();
        if self.sides[index(opponent)].engine {
            let settings = self.advisor();
            let found = self.search(pos, &settings, settings.limits());
            // The search scores for the side to move: Kestrel's own view is the opposite.
            let own = found.info.map(|i| i.user_score().negated());
            let accepts = own.is_some_and(|own| accepts_draw(own, pos.fullmove_number()));
            let seen = own.map_or("no score".into(), |s| score_text(s.white_view(opponent)));
            if !accepts {
                return writeln!(
                    self.out,
                    "Kestrel declines the draw (it sees {seen}); play on."
                );
            }
            writeln!(self.out, "Kestrel accepts the draw (it sees {seen}).")?;
        }
        self.ended = Some(Ending::DrawAgreed);
        self.unsaved = true;
        self.say_game_over()
    }

    /// `time`: shows, sets or removes the clocks.
    fn set_clock(&mut self, setting: ClockSetting) -> io::Result<()> {
        let turn = self.game.position().turn();
        match setting {
            ClockSetting::Show => match &self.clock {
                Some(clock) => writeln!(
                    self.out,
                    "Clock {}: {}",
                    clock.control.in_minutes(),
                    clock.show(turn)
                ),
                None => writeln!(
                    self.out,
                    "No clocks: type time 5+3 for five minutes each and three seconds a move."
                ),
            },
            ClockSetting::Off => {
                self.clock = None;
                writeln!(
                    self.out,
                    "No clocks: the engine thinks per move again (see settings)."
                )
            }
            ClockSetting::Control(control) => {
                let mut clock = Clock::new(control);
                clock.follow(&self.game);
                let text = format!(
                    "Clock {} for both sides, each side's from its first move on: {}",
                    control.in_minutes(),
                    clock.show(turn)
                );
                self.clock = Some(clock);
                writeln!(self.out, "{text}")
            }
        }
    }

    /// The game's move number `plies` (from 1) and the position before it:
    /// the move before the one explained, so that a recapture reads as one.
    fn previous(&self, plies: usize) -> Option<(Position, Move)> {
        let moves = self.game.moves();
        let m = *moves.get(plies.checked_sub(1)?)?;
        let mut pos = *self.game.start();
        for &earlier in &moves[..plies - 1] {
            pos.play_unchecked(earlier);
        }
        Some((pos, m))
    }

    /// Keys of the positions before the current one (for repetitions).
    fn history(&self) -> Vec<u64> {
        let mut pos = *self.game.start();
        let mut keys = Vec::new();
        for &m in self.game.moves() {
            keys.push(pos.key());
            pos.play_unchecked(m);
        }
        keys
    }

    /// Refuses a takeback or a move put back in a finished game, whose
    /// moves stand as played (as in `kestrel gui`); true when refused.
    fn refuse_after_end(&mut self) -> io::Result<bool> {
        let Some(ending) = self.game_over() else {
            return Ok(false);
        };
        writeln!(
            self.out,
            "The game is over: {} ({ending}); its moves stand as played. Type new for another game, save FILE to keep it.",
            ending.result()
        )?;
        Ok(true)
    }

    fn undo(&mut self) -> io::Result<()> {
        if self.refuse_after_end()? {
            return Ok(());
        }
        let Some(m) = self.game.pop() else {
            return writeln!(self.out, "Nothing to undo.");
        };
        self.redo.push(m);
        // Against the engine, go back to the person's move.
        let turn = self.game.position().turn();
        if self.sides[index(turn)].engine && !self.sides[index(!turn)].engine {
            if let Some(m) = self.game.pop() {
                self.redo.push(m);
            }
        }
        self.unsaved = true;
        if let Some(clock) = &mut self.clock {
            clock.follow(&self.game);
        }
        self.show_board()
    }

    /// One move forward again; against the engine, its reply too (as undo
    /// took both back).
    fn redo(&mut self) -> io::Result<()> {
        if self.refuse_after_end()? {
            return Ok(());
        }
        match self.redo.pop() {
            Some(m) if self.game.position().is_legal(m) => {
                self.game.push(m);
                let turn = self.game.position().turn();
                if self.sides[index(turn)].engine && !self.sides[index(!turn)].engine {
                    if let Some(&reply) = self.redo.last() {
                        if self.game.position().is_legal(reply) {
                            self.redo.pop();
                            self.game.push(reply);
                        }
                    }
                }
                self.unsaved = true;
                if let Some(clock) = &mut self.clock {
                    clock.follow(&self.game);
                }
                self.show_board()
            }
            _ => {
                self.redo.clear();
                writeln!(self.out, "Nothing to redo.")
            }
        }
    }

    fn edit(&mut self, line: &str) -> io::Result<()> {
        let Some(editor) = self.editor.as_mut() else {
            return Ok(());
        };
        match editor.apply(line) {
            Ok(EditStep::Continue) => {
                // The board as set up so far, then its FEN.
                let text = board_view::draw_setup(
                    editor.board(),
                    editor.turn(),
                    self.flipped,
                    self.options.style,
                );
                let fen = editor.fen();
                write!(self.out, "{text}")?;
                writeln!(self.out, "{fen}")
            }
            Ok(EditStep::Done(pos)) => {
                self.editor = None;
                self.reset(*pos);
                self.show_board()
            }
            Ok(EditStep::Cancel) => {
                self.editor = None;
                writeln!(self.out, "Edit cancelled.")
            }
            Err(e) => writeln!(self.out, "{e}"),
        }
    }

    fn set(&mut self, sides: Sides, setting: Setting) -> io::Result<()> {
        for color in [Color::White, Color::Black] {
            if !sides.includes(color) {
                continue;
            }
            let s = &mut self.sides[index(color)].settings;
            match &setting {
                Setting::Depth(d) => s.limit = crate::SearchLimit::Depth(*d),
                Setting::Time(ms) => s.limit = crate::SearchLimit::Time(*ms),
                Setting::Book(on) => s.book = *on,
                Setting::Level(elo) => {
                    if let Err(e) = s.set_level(*elo) {
                        return writeln!(self.out, "{e}");
                    }
                }
                Setting::Option(name, value) => {
                    if let Err(e) = s.set_option(name, value) {
                        return writeln!(self.out, "{e}");
                    }
                }
            }
        }
        self.show_players()
    }

    /// `pv`: the line the engine expects, only while the position on the
    /// board is on it (its search's position, or that after the first
    /// moves of the line): after an undo, or a move off the line, it
    /// belongs to another position and is not shown.
    fn pv(&mut self, step: PvStep) -> io::Result<()> {
        let board = *self.game.position();
        let Some(last) = self.last.as_mut() else {
            return writeln!(self.out, "The engine has not searched yet.");
        };
        let Some(info) = &last.info else {
            return writeln!(
                self.out,
                "The last engine move came from the book: no line."
            );
        };
        let on_line = std::iter::once(last.root)
            .chain(info.pv.iter().scan(last.root, |pos, &m| {
                pos.play_unchecked(m);
                Some(*pos)
            }))
            .any(|pos| pos == board);
        if !on_line {
            return writeln!(
                self.out,
                "The engine's last line was of another position (an undo or a move off it changed the board); hint searches this one."
            );
        }
        let pv = info.pv.clone();
        last.cursor = match step {
            PvStep::Show => {
                let text = history(&last.root, &pv);
                let head = format!(
                    "depth {}, score {}",
                    info.depth,
                    score_text(info.user_score().white_view(last.root.turn()))
                );
                return writeln!(self.out, "Expected line ({head}): {text}");
            }
            PvStep::Next => (last.cursor + 1).min(pv.len()),
            PvStep::Back => last.cursor.saturating_sub(1),
            PvStep::At(n) => n.min(pv.len()),
        };
        let cursor = last.cursor;
        let mut pos = last.root;
        for &m in &pv[..cursor] {
            pos.play_unchecked(m);
        }
        let shown = history(&last.root, &pv[..cursor]);
        let text = board_view::draw(
            &pos,
            pv[..cursor].last().copied(),
            self.flipped,
            self.options.style,
        );
        writeln!(self.out, "Line, {cursor} of {} moves: {shown}", pv.len())?;
        write!(self.out, "{text}")
    }

    fn stats(&mut self) -> io::Result<()> {
        let Some(last) = &self.last else {
            return writeln!(self.out, "The engine has not searched yet.");
        };
        let (Some(result), Some(info)) = (&last.result, &last.info) else {
            return writeln!(self.out, "The last engine move came from the book.");
        };
        let ms = result.time.as_millis().max(1);
        writeln!(
            self.out,
            "Last search: {:.2} s, depth {} (selective {}), {} nodes, {} nodes/s, score {}",
            result.time.as_secs_f64(),
            info.depth,
            info.seldepth,
            result.nodes,
            u128::from(result.nodes) * 1000 / ms,
            score_text(info.user_score().white_view(last.root.turn()))
        )?;
        writeln!(self.out, "Search: {}", result.stats)
    }

    fn save(&mut self, path: &Path) -> io::Result<()> {
        let mut game = pgn::PgnGame::new(*self.game.start());
        let name = |p: Player| match p {
            Player::Human => "Human".to_string(),
            Player::Engine(s) => format!("Kestrel {} ({})", env!("CARGO_PKG_VERSION"), s.limit),
        };
        game.set_tag("Event", "Kestrel terminal game");
        game.set_tag("Site", "kestrel play");
        game.set_tag("Date", &pgn::today());
        game.set_tag("White", &name(self.player(Color::White)));
        game.set_tag("Black", &name(self.player(Color::Black)));
        game.moves = self
            .game
            .moves()
            .iter()
            .map(|&m| pgn::PgnMove::new(m))
            .collect();
        let ending = self
            .ended
            .clone()
            .or_else(|| self.game.outcome().map(Ending::Rules));
        game.result = ending
            .as_ref()
            .map_or(pgn::GameResult::Unknown, Ending::result);
        if let Some(termination) = ending.as_ref().and_then(|e| e.termination().tag()) {
            game.set_tag("Termination", termination);
        }
        if let Some(clock) = &self.clock {
            let control = clock.control;
            let tag = format!("{}+{}", control.base.as_secs(), control.increment.as_secs());
            game.set_tag("TimeControl", &tag);
        }
        match engine::output::write(path, pgn::write_game(&game)) {
            Ok(()) => {
                self.unsaved = false;
                writeln!(
                    self.out,
                    "Saved {} moves to {}.",
                    self.game.moves().len(),
                    path.display()
                )
            }
            Err(e) => writeln!(self.out, "Cannot write {}: {e}", path.display()),
        }
    }

    fn load(&mut self, path: &Path, n: usize) -> io::Result<()> {
        let mut reader = match pgn::PgnReader::open(path, pgn::ReadOptions::default()) {
            Ok(r) => r,
            Err(e) => return writeln!(self.out, "Cannot read {}: {e}", path.display()),
        };
        match reader.nth(n - 1) {
            Some(Ok(g)) => {
                self.reset(g.start);
                for m in g.mainline() {
                    self.game.push(m);
                }
                self.unsaved = false;
                writeln!(
                    self.out,
                    "Loaded game {n} of {}: {} - {}, {} moves.",
                    path.display(),
                    g.tag("White").unwrap_or("?"),
                    g.tag("Black").unwrap_or("?"),
                    self.game.moves().len()
                )?;
                self.show_board()
            }
            Some(Err(e)) => writeln!(self.out, "Game {n} of {} is broken: {e}", path.display()),
            None => writeln!(self.out, "{} has no game {n}.", path.display()),
        }
    }

    fn book_add(&mut self, path: Option<&Path>) -> io::Result<()> {
        let path = path.unwrap_or(Path::new(DEFAULT_TEXT_BOOK));
        let mut before = self.game.clone();
        let Some(m) = before.pop() else {
            return writeln!(self.out, "No move to add yet.");
        };
        let san = before.position().san(m);
        match book::record_in_text_book(path, &before, m, 1) {
            Ok(_) => writeln!(self.out, "Added {san} to {}.", path.display()),
            Err(e) => writeln!(self.out, "Cannot add to {}: {e}", path.display()),
        }
    }
}

/// A score from White's view for people: `+0.35`, `-1.20` (good for
/// Black), `White mates in 3`, `Black mates in 2`.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("White mates in {n}"),
        Score::Mate(n) => format!("Black mates in {}", -n),
    }
}

/// Moves in SAN with move numbers (`1. e4 e5 2. Nf3`, `12... Nc6`).
fn history(start: &Position, moves: &[Move]) -> String {
    let mut pos = *start;
    let mut words = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if pos.turn() == Color::White {
            words.push(format!("{}.", pos.fullmove_number()));
        } else if i == 0 {
            words.push(format!("{}...", pos.fullmove_number()));
        }
        words.push(pos.san(m));
        pos.play_unchecked(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain ASCII boards with the typed lines echoed, as a transcript shows them.
    fn plain_options() -> SessionOptions {
        SessionOptions {
            style: BoardStyle {
                color: false,
                ascii: true,
            },
            echo: true,
        }
    }

    fn transcript(input: &str) -> String {
        let mut out = Vec::new();
        let options = plain_options();
        let settings = EngineSettings::new(crate::SearchLimit::Depth(3), false);
        Session::new(
            &mut out,
            options,
            Position::startpos(),
            false,
            false,
            settings,
        )
        .run(crate::line_input::Reader::new(input.as_bytes(), false))
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn explain_and_hint_say_why() {
        let text = transcript(
            "e4\ne5\nQh5\nNc6\nBc4\nexplain Nf6\nNf6\nhint\nexplain line\nexplain\nquit\nquit\n",
        );
        // A move considered, then the last move played: both allow mate.
        assert_eq!(text.matches("Nf6 allows mate: Qxf7#.").count(), 3, "{text}");
        assert!(text.contains("Hint: Qxf7#"), "{text}");
        assert!(text.contains("  Qxf7# mates."), "{text}");
        assert!(text.contains("  Line: 3... Nf6 4. Qxf7#"), "{text}");
    }

    /// Lines typed slowly: each waits `pause` before it is "typed".
    struct Slow<'a> {
        lines: std::vec::IntoIter<&'a str>,
        pause: std::time::Duration,
    }

    impl LineSource for Slow<'_> {
        fn read_line(&mut self, _prompt: &str) -> io::Result<Option<String>> {
            std::thread::sleep(self.pause);
            Ok(self.lines.next().map(str::to_string))
        }
    }

    #[test]
    fn a_person_out_of_time_loses_and_the_move_is_not_played() {
        let mut out = Vec::new();
        let options = plain_options();
        let settings = EngineSettings::new(crate::SearchLimit::Depth(1), false);
        let mut session = Session::new(
            &mut out,
            options,
            Position::startpos(),
            false,
            false,
            settings,
        );
        // 0.001 minutes: 60 ms each, no increment; each line comes 100 ms
        // late. Both first moves are free: White's clock runs from 1... e5.
        let input = Slow {
            lines: vec!["time 0.001+0", "e4", "e5", "Nf3", "undo", "history"].into_iter(),
            pause: std::time::Duration::from_millis(100),
        };
        session.run(input).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("0-1 (White lost on time)"), "{out}");
        assert!(
            out.contains("Game over (0-1)> undo\nThe game is over: 0-1 (White lost on time); its moves stand as played."),
            "a finished game is final: {out}"
        );
        assert!(out.contains("Game over (0-1)> history\n1. e4 e5"), "{out}");
    }

    #[test]
    fn edit_mode_shows_the_board_as_it_is_set_up() {
        let out = transcript("edit\nclear\nKe1\ncancel\n");
        let after_king = &out[out.find("edit> Ke1").expect("Ke1")..];
        assert!(after_king.contains(" 1  ·  ·  ·  ·  K"), "{after_king}");
        assert!(after_king.contains("8/8/8/8/8/8/8/4K3 w "), "{after_king}");
    }

    #[test]
    fn history_numbers_moves() {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for san in ["e4", "e5", "Nf3"] {
            let m = pos.parse_san(san).unwrap();
            moves.push(m);
            pos.play_unchecked(m);
        }
        assert_eq!(history(&Position::startpos(), &moves), "1. e4 e5 2. Nf3");
        let mut after = Position::startpos();
        after.play_unchecked(moves[0]);
        assert_eq!(history(&after, &moves[1..]), "1... e5 2. Nf3");
    }

    #[test]
    fn promotion_is_asked_for_and_errors_help() {
        let out =
            transcript("fen 8/4P3/8/8/8/8/k7/4K2R w - - 0 1\ne8\nn\nhistory\nKe9\nfen nonsense\n");
        assert!(out.contains("Promote to (q, r, b, n)? n"), "{out}");
        assert!(out.contains("1. e8=N"), "{out}");
        assert!(out.contains("Not a move here: "), "{out}");
        assert!(out.contains("Legal moves: "), "{out}");
        assert!(out.contains("Not a usable FEN"), "{out}");
    }

    #[test]
    fn scores_read_well() {
        assert_eq!(score_text(Score::Cp(35)), "+0.35");
        assert_eq!(score_text(Score::Cp(-120)), "-1.20");
        assert_eq!(score_text(Score::Mate(3)), "White mates in 3");
        assert_eq!(score_text(Score::Mate(-2)), "Black mates in 2");
    }
}
