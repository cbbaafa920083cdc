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
use gamerecord::page_event::PageEvent;
use gamerecord::record::GameRecord;
use gamerecord::record::SearchTarget;
use gamerecord::refusal::Refusal;
use gamerecord::request::{
    not_hidden, EngineBody, GameBody, GoBody, NewGame, ReviewBody, StopBody,
};
use gamerecord::review::{self, PositionEval, Review};
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

/// The largest table the page may give the engine, MiB: a WebAssembly
/// module's memory is at most 4 GiB, and a browser tab's much less.
pub const MAX_HASH_MIB: usize = 256;
/// The engine's table when the page asks for no other, MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// What the game's Worker is given.
#[derive(Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Input {
    /// A request of the page, as it would go to `kestrel gui`.
    Request {
        /// The page's number for it, echoed in the reply.
        id: u64,
        /// `GET` or `POST`.
        method: String,
        /// The path with its query (`/api/state?game=ID`).
        path: String,
        /// The JSON body.
        body: Option<Value>,
        /// Today, as PGN writes it (`yyyy.mm.dd`): the module has no clock.
        date: String,
    },
    /// A line from the engine's Worker: a [`Tagged`] report.
    Report {
        /// The line.
        line: String,
    },
    /// The engine's Worker was replaced to stop it (a page that is not
    /// cross-origin isolated cannot stop a search otherwise): the search it
    /// ran ends without another word.
    Replaced {
        /// The game of that search.
        game: String,
        /// Its number.
        search: u64,
    },
}

/// What the game's Worker does after an input.
#[derive(Serialize, Debug, Default)]
pub struct Output {
    /// Answers to requests.
    pub replies: Vec<Reply>,
    /// Events for the games' event streams.
    pub events: Vec<EventOut>,
    /// Orders for the engine's Worker, in order.
    pub orders: Vec<Order>,
    /// The games changed, each as the page keeps it to give it back after
    /// a reload (`POST /api/restore`): this Worker's games go with the page.
    pub saved: Vec<SavedOut>,
}

/// A changed game's copy for the page to keep.
#[derive(Serialize, Debug)]
pub struct SavedOut {
    /// The game.
    pub game: String,
    /// Its copy (gamerecord's `SavedGame`); `null` when it cannot be kept.
    pub data: Value,
}

/// The answer to one request: a status and JSON, or text (a PGN).
#[derive(Serialize, Debug)]
pub struct Reply {
    /// The request's number.
    pub id: u64,
    /// As HTTP would say it.
    pub status: u16,
    /// The JSON answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
    /// The text answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One event of a game's stream.
#[derive(Serialize, Debug)]
pub struct EventOut {
    /// The game.
    pub game: String,
    /// The event as `kestrel gui`'s stream sends it.
    pub data: String,
}

/// What the engine's Worker is to do.
#[derive(Serialize, Debug, PartialEq)]
#[serde(tag = "do", rename_all = "lowercase")]
pub enum Order {
    /// Search (the JSON of a [`SearchOrder`]).
    Search {
        /// The game.
        game: String,
        /// The search's number.
        search: u64,
        /// The order, as the engine's Worker reads it.
        order: String,
    },
    /// Stop the running search: it answers with its best move, or, where
    /// the engine's Worker is replaced instead, [`Input::Replaced`] comes.
    Stop,
}

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

/// One game and its searches.
struct Game {
    record: GameRecord,
    gate: SearchGate,
    /// The search of the page's (or the draw offer's) that runs.
    run: Option<SearchRun>,
    /// The first move of the running search's best line so far: its
    /// answer when its Worker is replaced to stop it.
    last_best: Option<String>,
    /// A draw offer being weighed.
    draw: Option<DrawWait>,
    /// The whole-game review's results.
    review: Review,
    /// The review's pass while it runs.
    pass: Option<PassRun>,
    /// The copy the page was last given ([`Output::saved`]), as JSON text.
    kept: Option<String>,
}

impl Game {
    fn new(record: GameRecord) -> Game {
        Game {
            record,
            gate: SearchGate::default(),
            run: None,
            last_best: None,
            draw: None,
            review: Review::default(),
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
        let data = game.record.save().map_or(Value::Null, |s| to_json(&s));
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
                    &GameView::new(&id, &game.record).legal,
                )))
            }
            ("GET", "/api/pgn") => {
                let id = game_param()?;
                Ok(Answer::Text(self.game(&id)?.record.export_pgn()))
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
                let positions = self.game(&id)?.record.positions();
                let named = gamerecord::opening::named_plies(&positions);
                Ok(Answer::Json(json!({ "openings": named })))
            }
            ("GET", "/api/analysis") => {
                let id = game_param()?;
                let game = self.game(&id)?;
                Ok(Answer::Json(to_json(&review::view(
                    &game.review,
                    &game.record,
                ))))
            }
            ("POST", "/api/analysis/cancel") => {
                let b: GameBody = parse(body)?;
                self.game(&b.game)?;
                self.end_pass(&b.game, Some("cancelled"), out);
                let game = self.game(&b.game)?;
                Ok(Answer::Json(to_json(&review::view(
                    &game.review,
                    &game.record,
                ))))
            }
            ("POST", "/api/analysis") => {
                let b: ReviewBody = parse(body)?;
                self.start_pass(&b, out)
            }
            ("GET", "/api/explorer") => {
                let id = game_param()?;
                let db = Database::named(param("db").as_deref())?;
                let filter = explorer_filter(&param)?;
                let record = &self.games.get(&id).ok_or_else(|| no_game(&id))?.record;
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
                let record = &self.games.get(&id).ok_or_else(|| no_game(&id))?.record;
                let own = &self.book;
                let panel = BookPanel::of(record, book::EMBEDDED_NAME.to_string(), false, |p| {
                    own.candidates(p)
                })?;
                Ok(Answer::Json(to_json(&panel)))
            }
            ("POST", "/api/book/add") => Err(server_only("Adding moves to a book")),
            ("GET", "/api/tablebase") => {
                let id = game_param()?;
                let record = &self.game(&id)?.record;
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
                Ok(Answer::Json(json!({ "stopped": stopped })))
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
        Ok(Answer::Json(to_json(&GameView::new(id, &game.record))))
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
        let (_, target) = b.target(&game.record)?;
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
        let seq = match begun {
            Begun::New(seq) => seq,
            Begun::Kept(search) => {
                return Ok(Answer::Json(
                    json!({ "search": search, "purpose": Purpose::Move, "started": false }),
                ))
            }
        };
        let answer = Answer::Json(json!({ "search": seq, "purpose": purpose, "started": true }));
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
        let probe = DrawProbe::of(&game.record)?;
        let begun = game.gate.begin(None, None, |stopped, _| {
            if let Some(search) = stopped {
                push_event(out, game_id, &PageEvent::Stopped { search });
            }
        });
        let (Begun::New(search) | Begun::Kept(search)) = begun;
        // The game's end, where the probe searches, as an engine move's
        // search finds it (the evaluation may be hidden: nothing is sent).
        let target = game
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
        let mut steps = ReviewPass::new(&self.game(&b.game)?.record, b.limit())?;
        self.end_pass(&b.game, None, out);
        self.stop(&b.game, Some(Purpose::Analysis), out);
        let game = self.game(&b.game)?;
        steps.begin(&mut game.review);
        game.pass = Some(PassRun {
            steps,
            search: None,
            line: None,
        });
        self.advance_pass(&b.game, out);
        let game = self.game(&b.game)?;
        Ok(Answer::Json(to_json(&review::view(
            &game.review,
            &game.record,
        ))))
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
        game.review.cancel(message);
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
            match run.steps.next(&mut game.review, &game.record) {
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
                        version: game.record.version,
                        mode: game.record.mode(),
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
                        .answer(wait.score, &mut game.record)
                        .unwrap_or(false);
                    let request = wait.request;
                    game.draw = None;
                    let answer = DrawAnswer {
                        accepted,
                        state: GameView::new(&id, &game.record),
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

    fn with_game<T>(&mut self, f: impl FnOnce(&mut GameRecord, &Review) -> T) -> T {
        f(&mut self.game.record, &self.game.review)
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
            match run.steps.found(&mut game.review, &game.record, i, eval) {
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
    let analysis = review::view(&game.review, &game.record);
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
        .record
        .play_found(run.target.version, run.target.node, m, ms)
        .is_none()
    {
        return false;
    }
    let state = GameView::new(id, &game.record);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn request(games: &mut Games, method: &str, path: &str, body: Value) -> (Reply, Output) {
        let mut out = games.handle(Input::Request {
            id: 7,
            method: method.into(),
            path: path.into(),
            body: Some(body),
            date: "2026.11.28".into(),
        });
        let reply = out.replies.remove(0);
        (reply, out)
    }

    fn report(games: &mut Games, game: &str, search: u64, report: SearchReport) -> Output {
        let line = serde_json::to_string(&Tagged {
            game: game.into(),
            search,
            report,
        })
        .expect("serialises");
        games.handle(Input::Report { line })
    }

    fn line(pv: &[&str]) -> SearchReport {
        SearchReport::Line {
            depth: 3,
            seldepth: 4,
            multipv: 1,
            score: ScoreView::Cp(20),
            bound: None,
            nodes: 100,
            time_ms: 2,
            tbhits: 0,
            pv: pv.iter().map(ToString::to_string).collect(),
        }
    }

    fn types(out: &Output) -> Vec<String> {
        out.events
            .iter()
            .map(|e| {
                let v: Value = serde_json::from_str(&e.data).expect("json");
                v["type"].as_str().unwrap_or("").to_string()
            })
            .collect()
    }

    fn new_game(games: &mut Games) -> String {
        let (reply, _) = request(games, "POST", "/api/game", json!({}));
        assert_eq!(reply.status, 200);
        let view = reply.json.expect("a view");
        view["id"].as_str().expect("an id").to_string()
    }

    /// A PGN file chosen in the page is the explorer's second collection,
    /// with the filters; none given, too large or nothing to explore are
    /// refused saying what to do.
    #[test]
    fn the_players_own_games_are_explored_from_a_chosen_file() {
        let mut games = Games::new();
        let id = new_game(&mut games);
        let (none, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}&db=mine"),
            Value::Null,
        );
        assert_eq!(none.status, 404);
        let pgn = "[White \"Me\"]\n[Black \"You\"]\n[Date \"2024.01.01\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
        let (own, _) = request(
            &mut games,
            "POST",
            "/api/explorer/own",
            json!({"name": "mine.pgn", "text": pgn}),
        );
        assert_eq!(own.status, 200, "{:?}", own.json);
        assert_eq!(own.json.as_ref().unwrap()["games"], 2);
        let (options, _) = request(&mut games, "GET", "/api/options", Value::Null);
        let options = options.json.expect("options");
        assert_eq!(options["own_games"]["files"][0], "mine.pgn");
        assert_eq!(options["own_games_upload"], true);
        let (x, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}&db=mine&since=2024"),
            Value::Null,
        );
        let x = x.json.expect("a view");
        assert_eq!(
            (
                x["source"].as_str(),
                x["white"].as_u64(),
                x["black"].as_u64()
            ),
            (Some("mine"), Some(1), Some(0))
        );
        let (masters, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}"),
            Value::Null,
        );
        assert_eq!(masters.json.expect("masters")["source"], "masters");
        let (game, _) = request(
            &mut games,
            "GET",
            "/api/explorer/game?id=1&db=mine",
            Value::Null,
        );
        assert!(game.text.expect("PGN").contains("1. d4 d5"));
        let (bad, _) = request(
            &mut games,
            "POST",
            "/api/explorer/own",
            json!({"name": "x.pgn", "text": "[Result \"*\"]\n\n1. e4 *\n"}),
        );
        assert_eq!(bad.status, 400);
        let (db, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}&db=other"),
            Value::Null,
        );
        assert_eq!(db.status, 400);
    }

    /// A game changed goes out as a copy to keep, once per change; given
    /// back after a reload (a fresh Worker) it is the same game under the
    /// same id: moves, variation, comment, end, the node on view.
    #[test]
    fn a_kept_game_comes_back_after_a_reload_as_it_was() {
        let mut games = Games::seeded(5);
        let id = new_game(&mut games);
        let (_, out) = request(
            &mut games,
            "POST",
            "/api/position",
            json!({"game": id, "vs_engine": true}),
        );
        assert_eq!(out.saved.len(), 1, "the new position is kept");
        let mut copy = Value::Null;
        for mv in ["e4", "e5", "Nf3"] {
            let (reply, out) = request(
                &mut games,
                "POST",
                "/api/move",
                json!({"game": id, "move": mv}),
            );
            assert_eq!(reply.status, 200);
            assert_eq!(out.saved.len(), 1, "each move changes the copy");
            assert_eq!(out.saved[0].game, id);
            copy = out.saved[0].data.clone();
        }
        let (_, out) = request(
            &mut games,
            "GET",
            &format!("/api/state?game={id}"),
            Value::Null,
        );
        assert!(out.saved.is_empty(), "a look changes nothing");
        let (_, out) = request(
            &mut games,
            "POST",
            "/api/end",
            json!({"game": id, "end": "resign", "side": "black"}),
        );
        copy = out.saved.first().map_or(copy, |s| s.data.clone());
        let (before, _) = request(
            &mut games,
            "GET",
            &format!("/api/state?game={id}"),
            Value::Null,
        );
        let pgn = |games: &mut Games| {
            request(games, "GET", &format!("/api/pgn?game={id}"), Value::Null)
                .0
                .text
        };
        let before_pgn = pgn(&mut games);

        // The page reloaded: a fresh Worker, which has not got the game
        // until the page gives its copy back.
        let mut fresh = Games::seeded(9);
        let (missing, _) = request(
            &mut fresh,
            "GET",
            &format!("/api/state?game={id}"),
            Value::Null,
        );
        assert_eq!(missing.status, 404);
        let (back, out) = request(
            &mut fresh,
            "POST",
            "/api/restore",
            json!({"game": id, "saved": copy}),
        );
        assert_eq!(back.status, 200, "{:?}", back.json);
        assert!(out.saved.is_empty(), "the copy given back is the one kept");
        assert_eq!(
            back.json, before.json,
            "the same view, id and version included"
        );
        assert_eq!(pgn(&mut fresh), before_pgn);
        let (undo, _) = request(&mut fresh, "POST", "/api/undo", json!({"game": id}));
        assert_eq!(undo.status, 409, "still final");
        let (again, _) = request(
            &mut fresh,
            "POST",
            "/api/restore",
            json!({"game": id, "saved": copy}),
        );
        assert_eq!(again.status, 409, "no game restored over an open one");
        let (bad, _) = request(
            &mut fresh,
            "POST",
            "/api/restore",
            json!({"game": "../x", "saved": copy}),
        );
        assert_eq!(bad.status, 400);
        let mut broken = copy.clone();
        broken["current"] = json!([0, 0, 0, 0, 0, 0]);
        let (bad, _) = request(
            &mut fresh,
            "POST",
            "/api/restore",
            json!({"game": "abc", "saved": broken}),
        );
        assert_eq!(bad.status, 400, "{:?}", bad.json);
    }

    #[test]
    fn the_page_plays_and_reads_its_game_as_from_the_server() {
        let mut games = Games::new();
        let id = new_game(&mut games);
        let (reply, _) = request(
            &mut games,
            "POST",
            "/api/move",
            json!({"game": id, "move": "e4"}),
        );
        assert_eq!(reply.status, 200);
        let view = reply.json.expect("a view");
        assert_eq!(view["plies"][0]["san"], "e4");
        let (pgn, _) = request(
            &mut games,
            "GET",
            &format!("/api/pgn?game={id}"),
            Value::Null,
        );
        let text = pgn.text.expect("PGN text");
        assert!(
            text.contains("[Date \"2026.11.28\"]") && text.contains("1. e4"),
            "{text}"
        );
        let (illegal, _) = request(
            &mut games,
            "POST",
            "/api/move",
            json!({"game": id, "move": "Ke3"}),
        );
        assert_eq!(illegal.status, 400);
        let (missing, _) = request(&mut games, "GET", "/api/state?game=nope", Value::Null);
        assert_eq!(missing.status, 404);
        let message = missing.json.expect("an error")["error"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(
            message.starts_with("no game 'nope'"),
            "the page's test for a lost game: {message}"
        );
        let (book, _) = request(
            &mut games,
            "GET",
            &format!("/api/book?game={id}"),
            Value::Null,
        );
        assert_eq!(book.status, 200, "the embedded book: {:?}", book.json);
        let moves = book.json.as_ref().unwrap()["moves"]
            .as_array()
            .unwrap()
            .clone();
        assert!(
            moves
                .iter()
                .any(|m| m["uci"] == "e7e5" || m["uci"] == "c7c5"),
            "the book's replies to 1.e4: {moves:?}"
        );
        let (add, _) = request(&mut games, "POST", "/api/book/add", json!({"game": id}));
        assert_eq!(add.status, 501, "said, not failed");
        let (explorer, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}"),
            Value::Null,
        );
        let moves = explorer.json.as_ref().expect("the explorer")["moves"]
            .as_array()
            .map_or(0, Vec::len);
        assert!(moves > 0, "the master games' replies to 1. e4");
        // The filters, as the server takes them: fewer games, never more.
        let total = |v: &Value| {
            ["white", "draws", "black"]
                .iter()
                .map(|k| v[k].as_u64().unwrap_or(0))
                .sum::<u64>()
        };
        let all = total(explorer.json.as_ref().expect("the explorer"));
        let (some, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}&min_rating=2600&since=2000&until=2020"),
            Value::Null,
        );
        let some = some.json.expect("the filtered explorer");
        assert_eq!(some["filtered"], true);
        assert!(total(&some) > 0 && total(&some) < all, "{some}");
        let (bad, _) = request(
            &mut games,
            "GET",
            &format!("/api/explorer?game={id}&since=x"),
            Value::Null,
        );
        assert_eq!(bad.status, 400);
        let (game, _) = request(&mut games, "GET", "/api/explorer/game?id=0", Value::Null);
        assert!(game.text.expect("a PGN").contains("[White "));
        let (none, _) = request(&mut games, "GET", "/api/explorer/game?id=x", Value::Null);
        assert_eq!(none.status, 400);
        let (options, _) = request(&mut games, "GET", "/api/options", Value::Null);
        let options = options.json.expect("options");
        assert_eq!(
            (options["tablebase"].as_bool(), options["levels"].as_bool()),
            (Some(true), Some(true))
        );
        // The compiled-in tables answer a 4-piece ending, every move listed.
        let (game, _) = request(
            &mut games,
            "POST",
            "/api/game",
            json!({"fen": "8/8/8/8/8/1k6/1p6/1K2R3 w - - 0 1"}),
        );
        let tb_id = game.json.expect("a view")["id"]
            .as_str()
            .expect("id")
            .to_string();
        let (tb, _) = request(
            &mut games,
            "GET",
            &format!("/api/tablebase?game={tb_id}"),
            Value::Null,
        );
        let tb = tb.json.expect("the panel");
        assert_eq!(
            (&tb["found"], &tb["category"]),
            (&json!(true), &json!("win"))
        );
        assert_eq!(tb["moves"].as_array().map(Vec::len), Some(12), "{tb}");
        let (opening, _) = request(
            &mut games,
            "GET",
            &format!("/api/opening?game={id}"),
            Value::Null,
        );
        assert_eq!(opening.status, 200);
    }

    #[test]
    fn analysis_goes_to_the_engine_and_stale_lines_never_reach_the_page() {
        let mut games = Games::new();
        let id = new_game(&mut games);
        let go = json!({"game": id, "settings": {"infinite": true, "own_book": false, "options": {"MultiPV": 2}}});
        let (reply, out) = request(&mut games, "POST", "/api/go", go.clone());
        assert_eq!(reply.json.expect("an answer")["search"], 1);
        assert_eq!(types(&out), ["started"]);
        let Some(Order::Search { order, .. }) = out.orders.first() else {
            panic!("a search order: {:?}", out.orders);
        };
        let order: SearchOrder = serde_json::from_str(order).expect("the engine reads it");
        assert_eq!(order.root, Position::startpos().fen());
        let out = report(&mut games, &id, 1, line(&["e2e4", "e7e5"]));
        assert_eq!(types(&out), ["info"]);
        // A second analysis supersedes the first: stop, then search.
        let (_, out) = request(&mut games, "POST", "/api/go", go);
        assert_eq!(types(&out), ["stopped", "started"]);
        assert_eq!(out.orders.first(), Some(&Order::Stop));
        // The first search's late line and end are dropped; the page
        // stops the second (analysis off): its end comes, its lines not.
        assert!(types(&report(&mut games, &id, 1, line(&["d2d4"]))).is_empty());
        let (_, out) = request(
            &mut games,
            "POST",
            "/api/stop",
            json!({"game": id, "purpose": "analysis"}),
        );
        assert_eq!(types(&out), ["stopped"]);
        assert_eq!(out.orders, [Order::Stop]);
        assert!(types(&report(&mut games, &id, 2, line(&["d2d4"]))).is_empty());
        // Replaced to stop it, the search answers its last line's move.
        let out = games.handle(Input::Replaced {
            game: id.clone(),
            search: 2,
        });
        assert_eq!(types(&out), ["bestmove"]);
        assert!(
            out.events[0].data.contains(r#""played":false"#),
            "{}",
            out.events[0].data
        );
    }

    /// Whether the search `out` orders starts from a clear table.
    fn clears_table(out: &Output) -> bool {
        let Some(Order::Search { order, .. }) = out.orders.last() else {
            panic!("a search order: {:?}", out.orders);
        };
        let order: SearchOrder = serde_json::from_str(order).expect("the engine reads it");
        order.new_game
    }

    #[test]
    fn the_table_is_cleared_for_another_game_or_a_game_started_again() {
        let mut games = Games::new();
        let a = new_game(&mut games);
        let b = new_game(&mut games);
        let go = |id: &str| json!({"game": id, "settings": {"depth": 2, "own_book": false}});
        let (_, out) = request(&mut games, "POST", "/api/go", go(&a));
        assert!(clears_table(&out), "the first search of the page");
        let (_, out) = request(&mut games, "POST", "/api/go", go(&a));
        assert!(
            !clears_table(&out),
            "the same game again keeps what it learnt"
        );
        let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
        assert!(
            clears_table(&out),
            "another game: as its own engine on the server"
        );
        request(
            &mut games,
            "POST",
            "/api/position",
            json!({"game": b, "fen": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"}),
        );
        let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
        assert!(clears_table(&out), "a new position is ucinewgame");
        let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
        assert!(!clears_table(&out));
        request(
            &mut games,
            "POST",
            "/api/pgn",
            json!({"game": b, "pgn": "1. d4 d5 *"}),
        );
        let (_, out) = request(&mut games, "POST", "/api/go", go(&b));
        assert!(clears_table(&out), "and so is an import");
    }

    #[test]
    fn an_engine_move_is_played_and_a_draw_offer_answered_when_weighed() {
        let mut games = Games::new();
        let id = new_game(&mut games);
        request(
            &mut games,
            "POST",
            "/api/position",
            json!({"game": id, "vs_engine": true, "hide_eval": true}),
        );
        let (refused, _) = request(
            &mut games,
            "POST",
            "/api/go",
            json!({"game": id, "play": true, "settings": {"infinite": true}}),
        );
        assert_eq!(refused.status, 400);
        let go = json!({"game": id, "play": true, "settings": {"depth": 2, "own_book": false}});
        let (_, out) = request(&mut games, "POST", "/api/go", go);
        assert_eq!(types(&out), ["started"]);
        // Hidden: no line reaches the page, the move played does.
        assert!(types(&report(&mut games, &id, 1, line(&["e2e4"]))).is_empty());
        let best = SearchReport::Best {
            best: Some("e2e4".into()),
            time_ms: 40,
        };
        let out = report(&mut games, &id, 1, best);
        assert_eq!(types(&out), ["state", "bestmove"]);
        let mut games_out = games.handle(Input::Request {
            id: 9,
            method: "POST".into(),
            path: "/api/draw".into(),
            body: Some(json!({"game": id})),
            date: "2026.11.28".into(),
        });
        assert!(games_out.replies.is_empty(), "answered once weighed");
        let Some(Order::Search { search, .. }) = games_out.orders.pop() else {
            panic!("the probe's search");
        };
        // Level at move 1, the side offering a fifth of a pawn down: declined.
        report(&mut games, &id, search, line(&["e7e5"]));
        let out = report(
            &mut games,
            &id,
            search,
            SearchReport::Best {
                best: Some("e7e5".into()),
                time_ms: 700,
            },
        );
        assert!(out.events.is_empty(), "the page hears nothing of the probe");
        let answer = &out.replies[0];
        assert_eq!(answer.id, 9);
        assert_eq!(answer.json.as_ref().expect("an answer")["accepted"], false);
    }

    #[test]
    fn the_review_searches_each_position_in_turn_and_yields_to_the_page() {
        let mut games = Games::new();
        let id = new_game(&mut games);
        for mv in ["e4", "e5"] {
            request(
                &mut games,
                "POST",
                "/api/move",
                json!({"game": id, "move": mv}),
            );
        }
        let (reply, mut out) = request(&mut games, "POST", "/api/analysis", json!({"game": id}));
        assert_eq!(reply.json.expect("a view")["state"], "running");
        let lines = [["e2e4"], ["e7e5"], ["g1f3"]];
        for (i, pv) in lines.iter().enumerate() {
            let Some(Order::Search { search, order, .. }) = out.orders.pop() else {
                panic!("a search of position {i}: {:?}", out.orders);
            };
            let order: SearchOrder = serde_json::from_str(&order).expect("an order");
            assert_eq!(order.history.len(), i, "the positions before it");
            if i == 1 {
                // The page's search pre-empts the pass, which searches the
                // position again once it is over.
                let go =
                    json!({"game": id, "play": true, "settings": {"depth": 1, "own_book": false}});
                let (_, page) = request(&mut games, "POST", "/api/go", go);
                let Some(Order::Search { search: theirs, .. }) = page.orders.last() else {
                    panic!("the page's search");
                };
                let theirs = *theirs;
                report(
                    &mut games,
                    &id,
                    search,
                    SearchReport::Best {
                        best: None,
                        time_ms: 1,
                    },
                );
                report(&mut games, &id, theirs, line(&["g1f3"]));
                out = report(
                    &mut games,
                    &id,
                    theirs,
                    SearchReport::Best {
                        best: Some("g1f3".into()),
                        time_ms: 5,
                    },
                );
                assert_eq!(types(&out)[..2], ["state", "bestmove"]);
                let Some(Order::Search { search, .. }) = out.orders.pop() else {
                    panic!("the pass goes on");
                };
                // The engine's move came after this position: its result stands,
                // as on the server (`Review::store` keeps what the game still holds).
                report(&mut games, &id, search, line(pv));
                let out = report(
                    &mut games,
                    &id,
                    search,
                    SearchReport::Best {
                        best: Some(pv[0].into()),
                        time_ms: 300,
                    },
                );
                assert_eq!(types(&out), ["analysis"]);
                assert!(
                    out.events[0].data.contains(r#""analysed":2"#),
                    "{}",
                    out.events[0].data
                );
                return;
            }
            report(&mut games, &id, search, line(pv));
            out = report(
                &mut games,
                &id,
                search,
                SearchReport::Best {
                    best: Some(pv[0].into()),
                    time_ms: 300,
                },
            );
            assert_eq!(types(&out), ["analysis"]);
        }
    }

    // ---------- a finished game is final (issue 63), request by request ----------

    /// A game against the engine, `1. e4 e5 2. Nf3`, that White resigned:
    /// its id and view.
    fn finished_game(games: &mut Games) -> (String, Value) {
        let id = new_game(games);
        request(
            games,
            "POST",
            "/api/position",
            json!({"game": id, "vs_engine": true}),
        );
        for mv in ["e4", "e5", "Nf3"] {
            let (reply, _) = request(games, "POST", "/api/move", json!({"game": id, "move": mv}));
            assert_eq!(reply.status, 200, "{:?}", reply.json);
        }
        let (reply, _) = request(
            games,
            "POST",
            "/api/end",
            json!({"game": id, "end": "resign", "side": "white"}),
        );
        let view = reply.json.expect("a view");
        assert_eq!(view["status"]["final"], true, "{view}");
        (id, view)
    }

    /// What a finished game keeps: its main line's moves and its status.
    fn kept(v: &Value) -> Value {
        let sans: Vec<Value> = v["plies"]
            .as_array()
            .expect("plies")
            .iter()
            .map(|p| p["san"].clone())
            .collect();
        json!({"plies": sans, "status": v["status"]})
    }

    /// Sends `path` with the body `make` writes from the finished game's
    /// id and view, expects `status` (a refusal with a message for 4xx),
    /// checks that the record is as it was, and returns the answer.
    fn on_finished(path: &str, make: impl Fn(&str, &Value) -> Value, status: u16) -> Value {
        let mut games = Games::new();
        let (id, before) = finished_game(&mut games);
        let (reply, _) = request(&mut games, "POST", path, make(&id, &before));
        let answer = reply.json.unwrap_or(Value::Null);
        assert_eq!(reply.status, status, "{path}: {answer}");
        if status >= 400 {
            assert!(
                answer["error"].as_str().is_some_and(|m| !m.is_empty()),
                "{answer}"
            );
        }
        let (state, _) = request(
            &mut games,
            "GET",
            &format!("/api/state?game={id}"),
            Value::Null,
        );
        assert_eq!(kept(&state.json.expect("a view")), kept(&before), "{path}");
        let (pgn, _) = request(
            &mut games,
            "GET",
            &format!("/api/pgn?game={id}"),
            Value::Null,
        );
        let text = pgn.text.expect("PGN");
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        answer
    }

    fn ply_node(v: &Value, i: usize) -> Value {
        v["plies"][i]["node"].clone()
    }

    #[test]
    fn a_finished_game_refuses_a_move_after_its_end() {
        on_finished("/api/move", |id, _| json!({"game": id, "move": "Nc6"}), 409);
    }

    #[test]
    fn a_finished_game_takes_a_move_before_its_end_as_a_variation() {
        let v = on_finished(
            "/api/move",
            |id, _| json!({"game": id, "move": "d4", "from": 0}),
            200,
        );
        assert_eq!(v["nodes"][0]["children"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn a_finished_game_refuses_a_takeback() {
        let e = on_finished("/api/undo", |id, _| json!({"game": id, "plies": 2}), 409);
        assert!(
            e["error"]
                .as_str()
                .unwrap_or("")
                .starts_with("the game is over (0-1, White resigns)"),
            "{e}"
        );
    }

    #[test]
    fn a_finished_game_refuses_deleting_its_moves() {
        on_finished(
            "/api/delete",
            |id, v| json!({"game": id, "node": ply_node(v, 1)}),
            409,
        );
    }

    #[test]
    fn a_finished_game_refuses_a_variation_as_its_main_line() {
        let mut games = Games::new();
        let (id, before) = finished_game(&mut games);
        let (reply, _) = request(
            &mut games,
            "POST",
            "/api/move",
            json!({"game": id, "move": "d4", "from": 0}),
        );
        let side = reply.json.expect("a view")["current"].clone();
        for main in [true, false] {
            let (reply, _) = request(
                &mut games,
                "POST",
                "/api/promote",
                json!({"game": id, "node": side, "main": main}),
            );
            assert_eq!(reply.status, 409, "{:?}", reply.json);
        }
        let (reply, _) = request(
            &mut games,
            "POST",
            "/api/delete",
            json!({"game": id, "node": side}),
        );
        assert_eq!(reply.status, 200, "the variation goes");
        let (state, _) = request(
            &mut games,
            "GET",
            &format!("/api/state?game={id}"),
            Value::Null,
        );
        assert_eq!(kept(&state.json.expect("a view")), kept(&before));
    }

    #[test]
    fn a_finished_game_refuses_a_new_position() {
        on_finished("/api/position", |id, _| json!({"game": id}), 409);
    }

    #[test]
    fn a_finished_game_refuses_an_imported_pgn() {
        on_finished(
            "/api/pgn",
            |id, _| json!({"game": id, "pgn": "1. d4 d5 *"}),
            409,
        );
    }

    #[test]
    fn a_finished_game_refuses_another_end() {
        on_finished("/api/end", |id, _| json!({"game": id, "end": "draw"}), 409);
    }

    #[test]
    fn a_finished_game_refuses_an_engine_move_after_its_end() {
        on_finished(
            "/api/go",
            |id, _| json!({"game": id, "settings": {"depth": 1}, "play": true}),
            409,
        );
    }

    #[test]
    fn a_finished_game_refuses_a_draw_offer() {
        on_finished("/api/draw", |id, _| json!({"game": id}), 409);
    }

    #[test]
    fn a_finished_game_takes_comments_and_clocks_but_keeps_its_record() {
        on_finished(
            "/api/annotate",
            |id, v| json!({"game": id, "node": ply_node(v, 0), "comment": "studied"}),
            200,
        );
        on_finished(
            "/api/clock",
            |id, v| json!({"game": id, "node": ply_node(v, 2), "ms": 1000}),
            200,
        );
        on_finished(
            "/api/tags",
            |id, _| json!({"game": id, "tags": {"Result": "1-0"}}),
            400,
        );
        on_finished("/api/analysis/lines", |id, _| json!({"game": id}), 409);
    }

    #[test]
    fn a_finished_games_kept_pgn_comes_back_final() {
        let mut games = Games::new();
        let (id, before) = finished_game(&mut games);
        let (pgn, _) = request(
            &mut games,
            "GET",
            &format!("/api/pgn?game={id}"),
            Value::Null,
        );
        // The Worker's games go with a reload: the page restores its copy.
        let fresh = new_game(&mut games);
        let (reply, _) = request(
            &mut games,
            "POST",
            "/api/pgn",
            json!({"game": fresh, "pgn": pgn.text.expect("PGN"), "vs_engine": true}),
        );
        assert_eq!(reply.status, 200, "{:?}", reply.json);
        assert_eq!(kept(&reply.json.expect("a view")), kept(&before));
        let (undo, _) = request(&mut games, "POST", "/api/undo", json!({"game": fresh}));
        assert_eq!(undo.status, 409);
    }
}
