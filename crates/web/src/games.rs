//! The page's games without a server: what the game's Web Worker holds and
//! answers. The page's `backend` (crates/web/site/backend.js) sends it the
//! same requests it sends `kestrel gui` (`POST /api/move` and the rest, as
//! method, path and JSON body); each is answered by gamerecord's own code
//! (`request`, `record`, `view`, `review`), as the server answers it, so no
//! rule of the game is written twice. What the server does with threads
//! this does with messages: a search is an order for the engine's Worker
//! ([`Order`]), its reports come back one by one ([`Input::Report`]), and
//! the page's events (gamerecord's `PageEvent`, through each game's
//! `SearchGate`, which keeps the same staleness rules as the server's) go
//! out with every answer ([`Output`]). Nothing here blocks.
//!
//! What needs the server's files is refused with a message the page shows:
//! adding moves to a book file, the endgame tables. The book panel shows
//! the embedded book, the one the engine plays from here.

use std::collections::HashMap;

use book::OwnBook;
use chess::Position;
use engine::Score;
use gamerecord::book_panel::BookPanel;
use gamerecord::change::{Change, GameHost};
use gamerecord::draw_offer::{DrawAnswer, DrawProbe};
use gamerecord::explorer::{self, Database, OwnGames};
use gamerecord::game_state::GameState;
use gamerecord::page_event::PageEvent;
use gamerecord::record::GameRecord;
use gamerecord::record::SearchTarget;
use gamerecord::refusal::Refusal;
use gamerecord::request::{
    not_hidden, EngineBody, GameBody, GoAnswer, GoBody, NewGame, ReviewBody, StopAnswer, StopBody,
};
use gamerecord::review::PositionEval;
use gamerecord::review_pass::{ReviewPass, Step};
use gamerecord::saved::SavedGame;
use gamerecord::search_gate::{Begun, Purpose, SearchGate};
use gamerecord::search_report::{SearchReport, SearchRun};
use gamerecord::settings::{EngineSettings, OptionsAnswer};
use gamerecord::tablebase_panel::{Probe, TablebasePanel};
use gamerecord::view::{GameView, ScoreView};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::search::{SearchOrder, Tagged};
pub use crate::worker_messages::{EventOut, Input, Order, Output, Reply, SavedOut};

/// The largest table the page may give the engine, MiB: a WebAssembly
/// module's memory is at most 4 GiB, and a browser tab's much less.
pub const MAX_HASH_MIB: usize = 256;
/// The engine's table when the page asks for no other, MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

fn refused(status: u16, message: impl Into<String>) -> Refusal {
    Refusal::new(status, message)
}

/// The explorer's filters from the query string (`min_rating`,
/// `max_rating`, `since`, `until`: each a number, left out while open),
/// as the server reads them (gamerecord's `ExplorerQuery`).
fn explorer_filter(
    param: &dyn Fn(&str) -> Option<String>,
) -> Result<book::ExplorerFilter, Refusal> {
    let number = |name: &str| -> Result<Option<u16>, Refusal> {
        param(name)
            .map(|v| {
                v.parse::<u16>().map_err(|_| {
                    refused(
                        400,
                        format!(
                            "bad query string: ?{name}= takes a number from 0 to 65535, not '{v}'"
                        ),
                    )
                })
            })
            .transpose()
    };
    Ok(book::ExplorerFilter {
        min_rating: number("min_rating")?,
        max_rating: number("max_rating")?,
        since: number("since")?,
        until: number("until")?,
    })
}

/// `POST /api/explorer/own`'s body: a PGN file the player chose, read by
/// the page.
#[derive(Deserialize)]
struct OwnGamesBody {
    /// Its name.
    name: String,
    /// Its text.
    text: String,
}

/// `POST /api/restore`'s body: a game the page kept, under its id.
#[derive(Deserialize)]
struct RestoreBody {
    game: String,
    saved: SavedGame,
}

/// A game id as this Worker makes them (16 hex digits), or near enough
/// to be one: the page's copy names it.
fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The refusal for a game this page does not hold.
fn no_game(id: &str) -> Refusal {
    Refusal::no_game(
        id,
        "a page without a server keeps its games while it is open",
    )
}

/// What a request needs that only `kestrel gui` has.
fn server_only(what: &str) -> Refusal {
    refused(
        501,
        format!("{what} needs `kestrel gui`: this page runs without a server"),
    )
}

/// A request's answer before it is sent.
enum Answer {
    Json(Value),
    Text(String),
    /// Sent later (a draw offer, once the engine has weighed it).
    Later,
}

/// One game (gamerecord's `GameState`: the game and its review's
/// results, as the server's session holds them) and its searches.
struct Game {
    state: GameState,
    gate: SearchGate,
    /// The search of the page's (or the draw offer's) that runs.
    run: Option<SearchRun>,
    /// The first move of the running search's best line so far: its
    /// answer when its Worker is replaced to stop it.
    last_best: Option<String>,
    /// A draw offer being weighed.
    draw: Option<DrawWait>,
    /// The review's pass while it runs.
    pass: Option<PassRun>,
    /// The copy the page was last given ([`Output::saved`]), as JSON text.
    kept: Option<String>,
}

impl Game {
    fn new(record: GameRecord) -> Game {
        Game {
            state: GameState::new(record),
            gate: SearchGate::default(),
            run: None,
            last_best: None,
            draw: None,
            pass: None,
            kept: None,
        }
    }
}

/// The whole-game review's pass as the game Worker drives it: gamerecord's
/// [`ReviewPass`] steps, one search at a time, yielding to every search
/// the page asks for and searching that position again after it (as the
/// server's `review_run.rs` does with its thread).
struct PassRun {
    /// The pass's steps.
    steps: ReviewPass,
    /// Its search running now and the position it searches.
    search: Option<(u64, usize)>,
    /// That search's last line: its score (the view of the side to move),
    /// depth and moves.
    line: Option<(Score, i32, Vec<String>)>,
}

/// A draw offer the engine weighs.
struct DrawWait {
    /// The request to answer.
    request: u64,
    /// The search that weighs it (the game's own: the page hears nothing).
    search: u64,
    /// Where and how it is weighed.
    probe: DrawProbe,
    /// The search's last score, the view of the side offering.
    score: Option<Score>,
}

/// The page's games and the one engine they share.
pub struct Games {
    games: HashMap<String, Game>,
    made: u64,
    /// Where this Worker's game ids start: a random number, so that a
    /// game made after a reload never takes the id of one made before it
    /// (the page keeps each game's copy by its id).
    first_id: u64,
    book: OwnBook,
    /// The game and search the engine's Worker works for.
    engine: Option<(String, u64)>,
    /// The game whose searches fill the engine's table since it was last
    /// cleared: a search for any other (or for this one, started again from
    /// a position or an import) clears it first.
    table_game: Option<String>,
    hash_mib: usize,
    /// The player's own games for the explorer (a file chosen in the page).
    own: Option<OwnGames>,
}

impl Default for Games {
    fn default() -> Games {
        Games::new()
    }
}

impl Games {
    /// No game yet; the embedded book for engine moves.
    pub fn new() -> Games {
        Games::seeded(0)
    }

    /// As [`Games::new`], the games' ids counted from `seed` (a random
    /// number in the Worker).
    pub fn seeded(seed: u64) -> Games {
        Games {
            games: HashMap::new(),
            made: 0,
            first_id: seed,
            book: OwnBook::whole(),
            engine: None,
            table_game: None,
            hash_mib: DEFAULT_HASH_MIB,
            own: None,
        }
    }

    /// Handles one input.
    pub fn handle(&mut self, input: Input) -> Output {
        let mut out = Output::default();
        match input {
            Input::Request {
                id,
                method,
                path,
                body,
                date,
            } => {
                let body = body.unwrap_or(Value::Null);
                // The game a request may change: named in its body, or
                // made by it (its reply's id).
                let named = (method != "GET")
                    .then(|| body.get("game").and_then(Value::as_str).map(str::to_string))
                    .flatten();
                let reply = match self.request(id, &method, &path, body, &date, &mut out) {
                    Ok(Answer::Json(json)) => Some(Reply {
                        id,
                        status: 200,
                        json: Some(json),
                        text: None,
                    }),
                    Ok(Answer::Text(text)) => Some(Reply {
                        id,
                        status: 200,
                        json: None,
                        text: Some(text),
                    }),
                    Ok(Answer::Later) => None,
                    Err(r) => Some(Reply {
                        id,
                        status: r.status,
                        json: Some(json!({ "error": r.message })),
                        text: None,
                    }),
                };
                let made = reply
                    .as_ref()
                    .filter(|r| r.status == 200 && method == "POST" && path == "/api/game")
                    .and_then(|r| r.json.as_ref()?.get("id")?.as_str().map(str::to_string));
                out.replies.extend(reply);
                for game in named.iter().chain(&made) {
                    self.keep(game, &mut out);
                }
            }
            Input::Report { line } => {
                if let Ok(tagged) = serde_json::from_str::<Tagged>(&line) {
                    // Only a search's last word plays a move or ends a game.
                    let last = matches!(tagged.report, SearchReport::Best { .. });
                    let game = tagged.game.clone();
                    self.report(tagged, &mut out);
                    if last {
                        self.keep(&game, &mut out);
                    }
                }
            }
            Input::Replaced { game, search } => {
                let best = self
                    .games
                    .get(&game)
                    .filter(|g| g.run.as_ref().is_some_and(|r| r.search == search))
                    .and_then(|g| g.last_best.clone());
                let report = SearchReport::Best { best, time_ms: 0 };
                self.report(
                    Tagged {
                        game: game.clone(),
                        search,
                        report,
                    },
                    &mut out,
                );
                self.keep(&game, &mut out);
            }
        }
        out
    }

    /// Game `id`'s copy for the page when it changed since the last one.
    fn keep(&mut self, id: &str, out: &mut Output) {
        let Some(game) = self.games.get_mut(id) else {
            return;
        };
        let data = game
            .state
            .record
            .save()
            .map_or(Value::Null, |s| to_json(&s));
        let text = data.to_string();
        if game.kept.as_deref() == Some(text.as_str()) {
            return;
        }
        game.kept = Some(text);
        out.saved.push(SavedOut {
            game: id.to_string(),
            data,
        });
    }

    fn game(&mut self, id: &str) -> Result<&mut Game, Refusal> {
        self.games.get_mut(id).ok_or_else(|| no_game(id))
    }

    /// Answers one request (events and orders go to `out`).
    fn request(
        &mut self,
        id: u64,
        method: &str,
        path: &str,
        body: Value,
        date: &str,
        out: &mut Output,
    ) -> Result<Answer, Refusal> {
        let (route, query) = path.split_once('?').unwrap_or((path, ""));
        let param = |name: &str| -> Option<String> {
            form_urlencoded::parse(query.as_bytes())
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.into_owned())
        };
        let game_param = || param("game").ok_or_else(Refusal::no_game_named);
        if method == "POST" && Change::ROUTES.contains(&route) {
            let change = Change::parse(route, body)
                .ok_or_else(Refusal::no_such_request)?
                .map_err(Refusal::bad_json)?;
            return self.change(&change, out);
        }
        match (method, route) {
            ("POST", "/api/game") => {
                let b: NewGame = parse(body)?;
                let start = b.start()?;
                self.made += 1;
                let id = format!("{:016x}", self.first_id.wrapping_add(self.made));
                self.games
                    .insert(id.clone(), Game::new(GameRecord::dated(start, date)));
                self.view(&id)
            }
            ("POST", "/api/restore") => {
                let b: RestoreBody = parse(body)?;
                if !valid_id(&b.game) {
                    return Err(refused(
                        400,
                        format!("'{}' is not a game id: 1 to 32 of 0-9 and a-f", b.game),
                    ));
                }
                if self.games.contains_key(&b.game) {
                    return Err(refused(
                        409,
                        format!("game '{}' is open already: it is not restored over", b.game),
                    ));
                }
                let mut game = Game::new(GameRecord::restore(&b.saved)?);
                game.kept = Some(to_json(&b.saved).to_string());
                self.games.insert(b.game.clone(), game);
                self.view(&b.game)
            }
            ("GET", "/api/state") => self.view(&game_param()?),
            ("GET", "/api/legal") => {
                let id = game_param()?;
                let game = self.game(&id)?;
                Ok(Answer::Json(to_json(
                    &GameView::new(&id, &game.state.record).legal,
                )))
            }
            ("GET", "/api/pgn") => {
                let id = game_param()?;
                Ok(Answer::Text(self.game(&id)?.state.record.export_pgn()))
            }
            // The 3- and 4-piece tables are compiled into the module.
            ("GET", "/api/options") => Ok(Answer::Json(to_json(&OptionsAnswer {
                tablebase: true,
                tablebase_pieces: syzygy::embedded::EMBEDDED_PIECES,
                own_games: self.own.as_ref().map(OwnGames::view),
                own_games_upload: true,
                ..OptionsAnswer::new(false, 1, MAX_HASH_MIB)
            }))),
            ("GET", "/api/opening") => {
                let id = game_param()?;
                let positions = self.game(&id)?.state.record.positions();
                let named = gamerecord::opening::named_plies(&positions);
                Ok(Answer::Json(json!({ "openings": named })))
            }
            ("GET", "/api/analysis") => {
                let id = game_param()?;
                let game = self.game(&id)?;
                Ok(Answer::Json(to_json(&game.state.review_view())))
            }
            ("POST", "/api/analysis/cancel") => {
                let b: GameBody = parse(body)?;
                self.game(&b.game)?;
                self.end_pass(&b.game, Some("cancelled"), out);
                let game = self.game(&b.game)?;
                Ok(Answer::Json(to_json(&game.state.review_view())))
            }
            ("POST", "/api/analysis") => {
                let b: ReviewBody = parse(body)?;
                self.start_pass(&b, out)
            }
            ("GET", "/api/explorer") => {
                let id = game_param()?;
                let db = Database::named(param("db").as_deref())?;
                let filter = explorer_filter(&param)?;
                let record = &self
                    .games
                    .get(&id)
                    .ok_or_else(|| no_game(&id))?
                    .state
                    .record;
                not_hidden(record, "the explorer's statistics")?;
                let pos = record.position();
                // The first request indexes the master games (once; no
                // thread to do it beforehand).
                let explorer = explorer::collection(db, self.own.as_ref())?;
                Ok(Answer::Json(to_json(&explorer::view(
                    explorer, db, &pos, &filter,
                ))))
            }
            ("GET", "/api/explorer/game") => {
                let number = param("id").unwrap_or_default();
                let id = number.parse::<book::GameId>().map_err(|_| {
                    refused(
                        400,
                        format!("bad query string: ?id= takes a game's number, not '{number}'"),
                    )
                })?;
                let db = Database::named(param("db").as_deref())?;
                Ok(Answer::Text(explorer::collection_pgn(
                    db,
                    self.own.as_ref(),
                    id,
                )?))
            }
            ("POST", "/api/explorer/own") => {
                let b: OwnGamesBody = parse(body)?;
                let own = OwnGames::index(vec![b.name], b.text.len() as u64, b.text.as_bytes())?;
                let view = own.view();
                self.own = Some(own);
                Ok(Answer::Json(to_json(&view)))
            }
            ("GET", "/api/book") => {
                let id = game_param()?;
                let record = &self
                    .games
                    .get(&id)
                    .ok_or_else(|| no_game(&id))?
                    .state
                    .record;
                let own = &self.book;
                let panel = BookPanel::of(record, book::EMBEDDED_NAME.to_string(), false, |p| {
                    own.candidates(p)
                })?;
                Ok(Answer::Json(to_json(&panel)))
            }
            ("POST", "/api/book/add") => Err(server_only("Adding moves to a book")),
            ("GET", "/api/tablebase") => {
                let id = game_param()?;
                let record = &self.game(&id)?.state.record;
                not_hidden(record, "the tables' verdict")?;
                let pos = record.position();
                let probe = syzygy::SyzygyTablebase::embedded()
                    .probe_all(&pos)
                    .map(Probe::from_parts);
                Ok(Answer::Json(to_json(&TablebasePanel::of(
                    &pos,
                    record.mode(),
                    probe,
                ))))
            }
            ("POST", "/api/go") => {
                let b: GoBody = parse(body)?;
                self.go(&b, out)
            }
            ("POST", "/api/stop") => {
                let b: StopBody = parse(body)?;
                self.game(&b.game)?;
                let stopped = self.stop(&b.game, b.purpose, out);
                Ok(Answer::Json(to_json(&StopAnswer { stopped })))
            }
            ("POST", "/api/engine") => {
                let b: EngineBody = parse(body)?;
                b.check(1, MAX_HASH_MIB)?;
                self.game(&b.game)?;
                if let Some(mib) = b.hash_mib.filter(|&m| m != self.hash_mib) {
                    // A new table starts empty: its search stops, as on the server.
                    self.stop(&b.game, None, out);
                    self.hash_mib = mib;
                }
                Ok(Answer::Json(
                    json!({ "threads": 1, "hash_mib": self.hash_mib }),
                ))
            }
            ("POST", "/api/draw") => {
                let b: GameBody = parse(body)?;
                self.offer_draw(id, &b.game, out)
            }
            _ => Err(Refusal::no_such_request()),
        }
    }

    /// Makes `change` to the game it names, as every host makes it
    /// (gamerecord's [`Change::make`]), and answers with its view.
    fn change(&mut self, change: &Change, out: &mut Output) -> Result<Answer, Refusal> {
        let id = change.game();
        let game = self.games.get_mut(id).ok_or_else(|| no_game(id))?;
        change.make(&mut WorkerHost {
            id,
            game,
            engine: &self.engine,
            table_game: &mut self.table_game,
            out,
        })?;
        self.view(id)
    }

    fn view(&mut self, id: &str) -> Result<Answer, Refusal> {
        let game = self.game(id)?;
        Ok(Answer::Json(to_json(&GameView::new(
            id,
            &game.state.record,
        ))))
    }

    /// Stops game `id`'s search when it runs (and has purpose `only`,
    /// when given): the page gets `stopped`, the engine a stop. True when
    /// one was.
    fn stop(&mut self, id: &str, only: Option<Purpose>, out: &mut Output) -> bool {
        let Some(game) = self.games.get(id) else {
            return false;
        };
        stop_search(game, id, self.engine.as_ref(), only, out)
    }

    /// `POST /api/go`: as the server starts a search (crates/gui's
    /// `search_run::start`), with the engine's Worker for its threads.
    fn go(&mut self, b: &GoBody, out: &mut Output) -> Result<Answer, Refusal> {
        let game = self.game(&b.game)?;
        let (_, target) = b.target(&game.state.record)?;
        b.settings.checked_options()?;
        let purpose = b.purpose();
        let root_fen = target.root.fen();
        let spot = Some((target.node, target.version));
        let begun = game.gate.begin(Some(purpose), spot, |stopped, search| {
            if let Some(search) = stopped {
                push_event(out, &b.game, &PageEvent::Stopped { search });
            }
            push_event(
                out,
                &b.game,
                &PageEvent::Started {
                    search,
                    purpose,
                    fen: root_fen.clone(),
                },
            );
        });
        let answer = Answer::Json(to_json(&GoAnswer::of(begun, purpose)));
        let Begun::New(seq) = begun else {
            return Ok(answer);
        };
        let run = SearchRun::new(seq, purpose, target);
        if b.asks_book() {
            if let Some(m) = self.book.probe(&run.target.root) {
                // The search this one supersedes stops, as the engine stops
                // for a new search on the server.
                if self.engine.is_some() {
                    out.orders.push(Order::Stop);
                }
                let game = self.game(&b.game)?;
                let played = play_if_current(game, &b.game, &run, m, None, out);
                send(
                    game,
                    &b.game,
                    &run.best_move_event(Some(m), true, played, 0),
                    out,
                );
                return Ok(answer);
            }
        }
        self.order(&b.game, run, &b.settings, out);
        Ok(answer)
    }

    /// Has the engine search `run` for game `id` (stopping whatever it
    /// searches first: one engine serves every game of the page).
    fn order(&mut self, id: &str, run: SearchRun, settings: &EngineSettings, out: &mut Output) {
        if self.engine.is_some() {
            out.orders.push(Order::Stop);
        }
        let order = SearchOrder {
            game: id.to_string(),
            search: run.search,
            root: run.root_fen().to_string(),
            history: run.target.history.clone(),
            settings: settings.clone(),
            hash_mib: self.hash_mib,
            new_game: self.table_game.as_deref() != Some(id),
        };
        self.table_game = Some(id.to_string());
        out.orders.push(Order::Search {
            game: id.to_string(),
            search: run.search,
            order: serde_json::to_string(&order).unwrap_or_default(),
        });
        self.engine = Some((id.to_string(), run.search));
        if let Some(game) = self.games.get_mut(id) {
            game.run = Some(run);
            game.last_best = None;
        }
    }

    /// `POST /api/draw`: the engine weighs the offer with a short search of
    /// the game's own (the page does not hear of it); the answer goes out
    /// when it ends.
    fn offer_draw(&mut self, id: u64, game_id: &str, out: &mut Output) -> Result<Answer, Refusal> {
        let game = self.game(game_id)?;
        let probe = DrawProbe::of(&game.state.record)?;
        let begun = game.gate.begin(None, None, |stopped, _| {
            if let Some(search) = stopped {
                push_event(out, game_id, &PageEvent::Stopped { search });
            }
        });
        let (Begun::New(search) | Begun::Kept(search)) = begun;
        // The game's end, where the probe searches, as an engine move's
        // search finds it (the evaluation may be hidden: nothing is sent).
        let target = game
            .state
            .record
            .search_target(gamerecord::record::SearchAt::default(), true)?;
        game.draw = Some(DrawWait {
            request: id,
            search,
            probe,
            score: None,
        });
        let run = SearchRun::new(search, Purpose::Move, target);
        self.order(game_id, run, &DrawProbe::settings(), out);
        Ok(Answer::Later)
    }

    /// `POST /api/analysis`: a pass over the game's main line (one that
    /// runs starts again), refused while its evaluation is hidden. Live
    /// analysis stops (it would hold the engine for good), never an engine
    /// player's move.
    fn start_pass(&mut self, b: &ReviewBody, out: &mut Output) -> Result<Answer, Refusal> {
        let mut steps = ReviewPass::new(&self.game(&b.game)?.state.record, b.limit())?;
        self.end_pass(&b.game, None, out);
        self.stop(&b.game, Some(Purpose::Analysis), out);
        let game = self.game(&b.game)?;
        steps.begin(&mut game.state.review);
        game.pass = Some(PassRun {
            steps,
            search: None,
            line: None,
        });
        self.advance_pass(&b.game, out);
        let game = self.game(&b.game)?;
        Ok(Answer::Json(to_json(&game.state.review_view())))
    }

    /// Ends game `id`'s pass, if one runs (its search stops; with
    /// `message`, the review says why).
    fn end_pass(&mut self, id: &str, message: Option<&str>, out: &mut Output) {
        let Some(game) = self.games.get_mut(id) else {
            return;
        };
        let Some(run) = game.pass.take() else {
            return;
        };
        game.state.review.cancel(message);
        if let Some((search, _)) = run.search {
            if game.gate.running(search) && game.gate.stop(None, |_| {}) {
                let searching = self.engine.as_ref() == Some(&(id.to_string(), search));
                if searching {
                    out.orders.push(Order::Stop);
                }
            }
        }
    }

    /// The next step of game `id`'s pass (gamerecord's
    /// [`ReviewPass::next`]): nothing while a search runs (its own, the
    /// page's or another game's), else the next position's search, or the
    /// pass's progress shown, or its end.
    fn advance_pass(&mut self, id: &str, out: &mut Output) {
        loop {
            let engine_busy = self.engine.is_some();
            let Some(game) = self.games.get_mut(id) else {
                return;
            };
            let Some(run) = game.pass.as_mut() else {
                return;
            };
            if run.search.is_some() || engine_busy || game.gate.serving_page() {
                return;
            }
            match run.steps.next(&mut game.state.review, &game.state.record) {
                Step::Show { goes_on } => {
                    if !goes_on {
                        game.pass = None;
                    }
                    push_analysis(game, id, out);
                    if !goes_on {
                        return;
                    }
                }
                Step::End => {
                    game.pass = None;
                    return;
                }
                Step::Search {
                    index,
                    root,
                    history,
                } => {
                    let settings = run.steps.settings();
                    let (Begun::New(search) | Begun::Kept(search)) =
                        game.gate.begin(None, None, |_, _| {});
                    run.search = Some((search, index));
                    run.line = None;
                    let target = SearchTarget {
                        node: 0,
                        root: *root,
                        history,
                        version: game.state.record.version,
                        mode: game.state.record.mode(),
                        hidden: false,
                    };
                    let run = SearchRun::new(search, Purpose::Analysis, target);
                    self.order(id, run, &settings, out);
                    return;
                }
            }
        }
    }

    /// A report of the engine's: through the game's gate to the page, the
    /// move played when it is one, the engine free after the last.
    fn report(&mut self, tagged: Tagged, out: &mut Output) {
        let Tagged {
            game: id,
            search,
            report,
        } = tagged;
        let last = matches!(report, SearchReport::Best { .. });
        if last && self.engine.as_ref() == Some(&(id.clone(), search)) {
            self.engine = None;
        }
        let Some(game) = self.games.get_mut(&id) else {
            return;
        };
        if let Some(wait) = game.draw.as_mut().filter(|w| w.search == search) {
            match &report {
                SearchReport::Line {
                    multipv: 1, score, ..
                } => wait.score = Some(mover_score(*score, &wait.probe.root)),
                SearchReport::Best { .. } => {
                    let accepted = wait
                        .probe
                        .answer(wait.score, &mut game.state.record)
                        .unwrap_or(false);
                    let request = wait.request;
                    game.draw = None;
                    let answer = DrawAnswer {
                        accepted,
                        state: GameView::new(&id, &game.state.record),
                    };
                    out.replies.push(Reply {
                        id: request,
                        status: 200,
                        json: Some(to_json(&answer)),
                        text: None,
                    });
                }
                SearchReport::Line { .. } | SearchReport::Stats { .. } => {}
            }
            return;
        }
        if game
            .pass
            .as_ref()
            .is_some_and(|p| p.search.is_some_and(|(s, _)| s == search))
        {
            pass_report(game, &id, search, &report, out);
            if last {
                self.advance_pass(&id, out);
            }
            return;
        }
        let Some(run) = game.run.clone().filter(|r| r.search == search) else {
            if last {
                self.advance_pass(&id, out);
            }
            return;
        };
        match &report {
            SearchReport::Best { best, time_ms } => {
                let best = run.first_move(best.as_deref());
                let played = match best {
                    Some(m) if run.plays() => {
                        play_if_current(game, &id, &run, m, Some(*time_ms), out)
                    }
                    _ => false,
                };
                send(
                    game,
                    &id,
                    &run.best_move_event(best, false, played, *time_ms),
                    out,
                );
                game.run = None;
                // The engine is free: a review's pass goes on.
                self.advance_pass(&id, out);
            }
            SearchReport::Line { multipv, pv, .. } => {
                if *multipv == 1 {
                    game.last_best = pv.first().cloned();
                }
                if let Some(event) = run.event(&report) {
                    send(game, &id, &event, out);
                }
            }
            SearchReport::Stats { .. } => {
                if let Some(event) = run.event(&report) {
                    send(game, &id, &event, out);
                }
            }
        }
    }
}

/// Game `id`'s search stopped when it runs (with purpose `only`, when
/// given): the page gets `stopped`, and the engine's Worker a stop when it
/// searches for it (`engine`: the game and search it works for). True
/// when one was.
fn stop_search(
    game: &Game,
    id: &str,
    engine: Option<&(String, u64)>,
    only: Option<Purpose>,
    out: &mut Output,
) -> bool {
    let stopped = game.gate.stop(only, |search| {
        push_event(out, id, &PageEvent::Stopped { search });
    });
    let searching =
        engine.is_some_and(|(g, s)| g == id && game.run.as_ref().is_some_and(|r| r.search == *s));
    if stopped && searching {
        out.orders.push(Order::Stop);
    }
    stopped
}

/// A game of this Worker while a change is made to it (gamerecord's
/// [`Change::make`]): held in hand, no room to reserve (the browser keeps
/// the page's memory), its search stopped by an order to the engine's
/// Worker, its table forgotten by the next search's order.
struct WorkerHost<'a> {
    id: &'a str,
    game: &'a mut Game,
    engine: &'a Option<(String, u64)>,
    table_game: &'a mut Option<String>,
    out: &'a mut Output,
}

impl GameHost for WorkerHost<'_> {
    type Error = Refusal;
    type Room = ();

    fn room(&mut self, _bytes: usize) -> Result<(), Refusal> {
        Ok(())
    }

    fn with_game<T>(&mut self, f: impl FnOnce(&mut GameState) -> T) -> T {
        f(&mut self.game.state)
    }

    fn stop_search(&mut self) {
        stop_search(self.game, self.id, self.engine.as_ref(), None, self.out);
    }

    fn forget_table(&mut self) {
        if self.table_game.as_deref() == Some(self.id) {
            *self.table_game = None;
        }
    }
}

/// A score of White's view as the view of the side to move in `root`.
fn mover_score(score: ScoreView, root: &Position) -> Score {
    let white = match score {
        ScoreView::Cp(cp) => Score::Cp(cp),
        ScoreView::Mate(n) => Score::Mate(n),
    };
    // Seeing from White's side is its own inverse.
    white.white_view(root.turn())
}

/// A report of the pass's search: its lines kept, its end stored as the
/// position's result (or, pre-empted by another search, the position
/// searched again later).
fn pass_report(game: &mut Game, id: &str, search: u64, report: &SearchReport, out: &mut Output) {
    let Some(run) = game.pass.as_mut() else {
        return;
    };
    let Some((_, i)) = run.search else {
        return;
    };
    match report {
        SearchReport::Line {
            multipv: 1,
            score,
            depth,
            pv,
            ..
        } => {
            let pass_search = game.run.as_ref().filter(|r| r.search == search);
            let Some(pos) = pass_search.map(|r| r.target.root) else {
                return;
            };
            run.line = Some((mover_score(*score, &pos), *depth, pv.clone()));
        }
        SearchReport::Best { best, .. } => {
            run.search = None;
            let line = run.line.take();
            let pre_empted = !game.gate.running(search);
            game.gate
                .pass(search, gamerecord::search_gate::Pass::Last, || {});
            // The game's run is the pass's unless another search took its place.
            let searched = game.run.take_if(|r| r.search == search);
            let (Some((score, depth, pv)), Some(searched), false) = (line, searched, pre_empted)
            else {
                return; // searched again once the engine is free
            };
            let best = searched.first_move(best.as_deref());
            let side = searched.target.root.turn();
            let eval = PositionEval::searched(score, side, best, &searched.moves(&pv), depth);
            match run
                .steps
                .found(&mut game.state.review, &game.state.record, i, eval)
            {
                Step::Show { goes_on } => {
                    if !goes_on {
                        game.pass = None;
                    }
                    push_analysis(game, id, out);
                }
                Step::End => game.pass = None,
                // A result never asks for a search: the next step does.
                Step::Search { .. } => {}
            }
        }
        SearchReport::Line { .. } | SearchReport::Stats { .. } => {}
    }
}

/// The review's progress and results, as the page is sent them.
fn push_analysis(game: &Game, id: &str, out: &mut Output) {
    let analysis = game.state.review_view();
    push_event(out, id, &PageEvent::Analysis { analysis });
}

/// Plays `m`, found by `run`, when its search still runs and the game is
/// where it searched (as the server's `play_if_current`); sends the new
/// state. True when played.
fn play_if_current(
    game: &mut Game,
    id: &str,
    run: &SearchRun,
    m: chess::Move,
    ms: Option<u64>,
    out: &mut Output,
) -> bool {
    if !game.gate.running(run.search) {
        return false;
    }
    if game
        .state
        .record
        .play_found(run.target.version, run.target.node, m, ms)
        .is_none()
    {
        return false;
    }
    let state = GameView::new(id, &game.state.record);
    push_event(out, id, &PageEvent::State { state });
    true
}

/// Sends an event through the game's gate (as the server's `Session::send`).
fn send(game: &Game, id: &str, event: &PageEvent, out: &mut Output) {
    match event.gate() {
        Some((search, what)) => {
            game.gate.pass(search, what, || push_event(out, id, event));
        }
        None => push_event(out, id, event),
    }
}

fn push_event(out: &mut Output, id: &str, event: &PageEvent) {
    out.events.push(EventOut {
        game: id.to_string(),
        data: event.to_json(),
    });
}

/// A request's body as its type, or the server's words for a bad one.
fn parse<T: DeserializeOwned>(body: Value) -> Result<T, Refusal> {
    serde_json::from_value(body).map_err(Refusal::bad_json)
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // The views are plain data with string keys: serialising cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}
