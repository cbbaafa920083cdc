//! The server's state: one session per game (a game, its own engine and a
//! channel for the engine's output), the book and the tables that all
//! sessions share. A session outlives its tab, so that a reloaded page
//! finds its game again; what bounds them is memory, counted in one
//! budget ([`crate::budget`]): each session's size (its engine's table
//! and search state, its move tree, the room to show it and to walk its
//! main line, its analysis) and what requests are making. A request that
//! needs more room than is left first drops sessions left alone for a
//! while ([`KEEP_USED_WITHIN`]), those no page is watching first, then the
//! least recently used, their search stopped and their pages told (an
//! `expired` event); when games in use fill the budget it is refused with
//! 503, before anything is allocated for it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock, TryLockError};
use std::time::{Duration, Instant};

use axum::response::Response;
use chess::Position;
use engine::Engine;
use gamerecord::game_state::GameState;
use gamerecord::memory::{line_copy_bytes, view_json_bound};
use gamerecord::record::GameRecord;
use gamerecord::refusal::Refusal;
use gamerecord::tree::ROOT;
use gamerecord::view::GameJson;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use syzygy::SyzygyTablebase;
use tokio::sync::broadcast;

use crate::book_source::BookSource;
use crate::budget::{Budget, Held, HeldJson, Reservation};
use crate::error::ApiError;
use crate::kept_room::{GameRoom, KeptRoom};
use crate::review_state::ReviewRun;
use gamerecord::page_event::PageEvent;
use gamerecord::search_gate::{Begun, Purpose, SearchGate, SearchSpot};

/// The memory for games when `kestrel gui` is not told (`--games-memory`),
/// MiB: about a hundred games with their engines.
pub const DEFAULT_BUDGET_MIB: usize = 2048;
/// The least memory for games that makes sense, MiB: one game and its engine.
pub const MIN_BUDGET_MIB: usize = 32;
/// A game used (any request naming it) this recently is never dropped to
/// make room for others.
pub const KEEP_USED_WITHIN: Duration = Duration::from_secs(5 * 60);
/// An engine's memory besides its table, bytes: one search thread's
/// history tables, stacks and evaluation accumulators (measured: see the
/// README's figures for 100 open games).
pub const ENGINE_STATE_BYTES: usize = 2 << 20;
const MIB: usize = 1 << 20;
/// The largest table the page may give a game's engine, MiB.
const MAX_HASH_MIB: usize = 1024;
/// Engine events kept for a slow listener before it skips some.
const EVENT_BUFFER: usize = 1024;
/// A session's memory besides its engine and its game: the session
/// itself, its game's own fields and its event channel's slots.
const SESSION_BYTES: usize =
    std::mem::size_of::<Session>() + std::mem::size_of::<GameState>() + EVENT_BUFFER * 64 + 4096;

/// An event as the pages' streams get it: its JSON text, whose bytes count
/// against the games' memory until the last stream has had it.
pub type EventText = Arc<HeldJson>;

/// One game and its engine.
pub struct Session {
    /// The id the page got from `POST /api/game`.
    pub id: String,
    /// The game and its review's results (gamerecord's `GameState`, as
    /// the page without a server holds it too). Never held while waiting
    /// for the engine: the engine's reporter locks it to play the
    /// engine's move.
    game: Mutex<GameState>,
    /// The engine.
    pub engine: Mutex<Engine>,
    /// Engine output, as JSON texts, for the event stream.
    pub events: broadcast::Sender<EventText>,
    /// Open event streams.
    pub listeners: AtomicUsize,
    /// The latest search and the gate its events pass: the server drops
    /// the events of a search superseded or stopped (see [`SearchGate`]).
    pub searches: SearchGate,
    /// The whole-game analysis pass's thread (its results are the game's).
    review: Mutex<ReviewRun>,
    /// Held while a pass starts or is cancelled, so that one pass's
    /// thread has ended before the next begins.
    pub review_start: Mutex<()>,
    last_used: Mutex<Instant>,
    /// The engine's threads and table size ([`Session::set_resources`]).
    resources: Mutex<Resources>,
    /// The tables its engine has: [`AppState`]'s tables as they were at
    /// this number of changes (`SyzygyPath` set in the page).
    tables_seen: AtomicUsize,
    /// The budget its size counts in.
    budget: Arc<Budget>,
    /// Its size as last counted, and whether it counts (a session dropped
    /// to make room no longer does, though its last requests may hold it).
    counted: Mutex<Counted>,
    /// The room its size keeps to show the game once (its JSON view, or
    /// its PGN on the way out).
    show_room: Arc<KeptRoom>,
    /// The room its size keeps for one copy of its main line held past
    /// its lock (the analysis pass's, the opening names', the book's).
    line_room: Arc<KeptRoom>,
}

/// Which room a session keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomKind {
    /// To show the game: its JSON view or its PGN.
    Show,
    /// For a copy of its main line.
    Line,
}

#[derive(Debug, Default)]
struct Counted {
    bytes: usize,
    live: bool,
}

/// What a game's engine holds: its search threads and its table's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Resources {
    /// Search threads.
    pub threads: usize,
    /// The transposition table, MiB.
    pub hash_mib: usize,
}

impl Resources {
    /// About how many bytes they hold: the table, and each thread's
    /// search state.
    pub fn bytes(self) -> usize {
        self.hash_mib * MIB + self.threads * ENGINE_STATE_BYTES
    }
}

/// The most threads a game's engine may have: the machine's cores.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The event a session's pages get when it is dropped; their streams end
/// after it ([`PageEvent::Expired`] as sent).
pub const EXPIRED_EVENT: &str = r#"{"type":"expired"}"#;

/// The `state` event: the game after an engine move, as
/// [`PageEvent::State`] writes it, the game written as it streams out.
#[derive(Serialize)]
#[serde(tag = "type", rename = "state")]
struct StateEvent<'a> {
    state: GameJson<'a>,
}

impl Session {
    /// A session for a new game from `start`, its engine made (or why the
    /// system cannot give it: a 503, nothing left allocated). It counts in
    /// `budget` from its first [`Session::recount`].
    fn try_new(
        id: String,
        start: Position,
        tables: Option<Arc<SyzygyTablebase>>,
        budget: Arc<Budget>,
    ) -> Result<Session, ApiError> {
        let mut engine = Engine::try_new().map_err(|e| {
            ApiError::busy(format!(
                "{e}: the machine has less memory than --games-memory allows; close games you \
                 no longer need, or start kestrel gui with a smaller --games-memory"
            ))
        })?;
        if let Some(t) = tables {
            engine.set_tablebase(Some(t));
        }
        let resources = Resources {
            threads: 1,
            hash_mib: engine.hash_mib(),
        };
        Ok(Session {
            id,
            game: Mutex::new(GameState::new(GameRecord::new(start))),
            engine: Mutex::new(engine),
            events: broadcast::channel(EVENT_BUFFER).0,
            listeners: AtomicUsize::new(0),
            searches: SearchGate::default(),
            review: Mutex::new(ReviewRun::default()),
            review_start: Mutex::new(()),
            last_used: Mutex::new(Instant::now()),
            resources: Mutex::new(resources),
            tables_seen: AtomicUsize::new(0),
            budget,
            counted: Mutex::new(Counted {
                bytes: 0,
                live: true,
            }),
            show_room: Arc::default(),
            line_room: Arc::default(),
        })
    }

    /// The most a new game from the start takes before its first move:
    /// what [`AppState::create`] reserves before making one.
    pub fn new_game_bytes() -> usize {
        let empty = GameRecord::new(Position::startpos());
        SESSION_BYTES
            + Resources {
                threads: 1,
                hash_mib: 16,
            }
            .bytes()
            + empty.heap_bytes()
            + view_json_bound(&empty)
            + 2 * line_copy_bytes(0)
    }

    /// The bytes the session counts: as last counted ([`Session::recount`]).
    pub fn bytes(&self) -> usize {
        self.counted().bytes
    }

    fn counted(&self) -> MutexGuard<'_, Counted> {
        self.counted.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts the session again after its game, engine or analysis
    /// changed: the engine's table and threads, the game's tree and tags,
    /// the room to show it once (its JSON view's bound), to walk its main
    /// line under its lock and to hold one copy of that line past it, and
    /// the analysis pass's results. Call it with none of the session's
    /// locks held.
    pub fn recount(&self) {
        let (game, view, line) = {
            let game = self.game();
            let plies = game.record.tree.first_children(ROOT).count();
            (
                game.heap_bytes(),
                view_json_bound(&game.record),
                line_copy_bytes(plies),
            )
        };
        let bytes = SESSION_BYTES + self.resources().bytes() + game + view + 2 * line;
        self.show_room.set_bytes(view);
        self.line_room.set_bytes(line);
        let mut counted = self.counted();
        if counted.live {
            self.budget.resize(counted.bytes, bytes);
        }
        counted.bytes = bytes;
    }

    /// No longer counted (dropped to make room): what it held goes back to
    /// the budget, whatever its last requests still hold.
    fn uncount(&self) {
        let mut counted = self.counted();
        if counted.live {
            self.budget.resize(counted.bytes, 0);
            counted.live = false;
        }
    }

    fn room(&self, kind: RoomKind) -> &Arc<KeptRoom> {
        match kind {
            RoomKind::Show => &self.show_room,
            RoomKind::Line => &self.line_room,
        }
    }

    /// The room of `kind` the game keeps, when nothing else uses it now:
    /// the guard that gives it back, and its bytes; else none, and 0.
    fn take_room(&self, kind: RoomKind) -> (Option<GameRoom>, usize) {
        self.room(kind).take()
    }

    /// `value`, the game's view or what carries it, as JSON held within
    /// the budget: in the room the game keeps to be shown when free, and
    /// past it (or without it) in room that `more` gives.
    fn view_json(
        self: &Arc<Session>,
        value: &impl Serialize,
        more: impl FnMut(usize) -> Result<Reservation, ApiError>,
    ) -> Result<HeldJson, ApiError> {
        let (game_room, room) = self.take_room(RoomKind::Show);
        let held = Held {
            reservation: Reservation::none(&self.budget),
            game_room,
        };
        HeldJson::write(value, held, room, more)
    }

    /// Room from the budget as it is now, for the session's events (which
    /// the engine's threads send: they drop no game to make room).
    fn event_room(&self, bytes: usize) -> Result<Reservation, ApiError> {
        self.budget.try_hold(bytes).ok_or_else(|| {
            ApiError::busy(format!(
                "the server's memory for games ({} MiB) is full, so this game's page is not \
                 sent the engine's latest output; close games you no longer need, or start \
                 kestrel gui with a larger --games-memory",
                self.budget.limit() / MIB
            ))
        })
    }

    fn last_used(&self) -> Instant {
        *self
            .last_used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game and its review's results, locked.
    pub fn game(&self) -> MutexGuard<'_, GameState> {
        // A panic while holding the lock cannot leave a GameRecord half
        // changed in a way that matters more than losing the tab's game.
        self.game
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game, locked (its review's results with it: see [`Session::game`]).
    pub fn record(&self) -> RecordGuard<'_> {
        RecordGuard(self.game())
    }

    /// The engine's threads and table size.
    pub fn resources(&self) -> Resources {
        *self
            .resources
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Gives the engine `threads` search threads and a table of `hash_mib`
    /// MiB (`None` keeps that part), stopping its search first when
    /// either changes (a new table starts empty). A table or thread the
    /// machine cannot give leaves the old ones. Blocks until the search
    /// has ended: call it off the async threads.
    pub fn set_resources(
        &self,
        threads: Option<usize>,
        hash_mib: Option<usize>,
    ) -> Result<Resources, ApiError> {
        let mut engine = self.engine();
        let mut now = self.resources();
        let threads = threads.filter(|&n| n != now.threads);
        let hash_mib = hash_mib.filter(|&m| m != now.hash_mib);
        if threads.is_none() && hash_mib.is_none() {
            return Ok(now);
        }
        self.stop_locked(&engine, None);
        let refused = |e: engine::OptionError| {
            let why = e.to_string();
            match e {
                engine::OptionError::Param(_) => ApiError::bad_request(why),
                _ => ApiError::busy(why),
            }
        };
        if let Some(n) = threads {
            engine
                .set_option("Threads", &n.to_string())
                .map_err(refused)?;
            now.threads = n;
            *self
                .resources
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = now;
        }
        if let Some(mib) = hash_mib {
            engine
                .set_option("Hash", &mib.to_string())
                .map_err(refused)?;
            now.hash_mib = mib;
            *self
                .resources
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = now;
        }
        Ok(now)
    }

    /// The engine, locked.
    pub fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Sends an event to the open streams (none open: dropped). An event
    /// of a search passes the gate: dropped when the search was superseded,
    /// a line dropped when it was stopped too.
    pub fn send(self: &Arc<Session>, event: &PageEvent) {
        match event.gate() {
            Some((search, what)) => {
                self.searches.pass(search, what, || self.broadcast(event));
            }
            None => self.broadcast(event),
        }
    }

    /// Sends the game as it is now (`record`, locked by the caller) to the
    /// open streams: the `state` event, written in the room the game keeps
    /// to be shown, or room the budget has now.
    pub fn send_state(self: &Arc<Session>, record: &GameRecord) {
        let event = StateEvent {
            state: GameJson::new(&self.id, record),
        };
        let text = self.view_json(&event, |n| self.event_room(n));
        self.broadcast_text(text);
    }

    fn broadcast(self: &Arc<Session>, event: &PageEvent) {
        let text = HeldJson::write(
            event,
            Held {
                reservation: Reservation::none(&self.budget),
                game_room: None,
            },
            0,
            |n| self.event_room(n),
        );
        self.broadcast_text(text);
    }

    /// Sends `text`, or, when there was no room to write it, a short
    /// `error` event saying so (held by nothing: it is a few bytes).
    fn broadcast_text(&self, text: Result<HeldJson, ApiError>) {
        let text = text.unwrap_or_else(|refused| {
            HeldJson::unheld(
                serde_json::json!({"type": "error", "error": refused.message}).to_string(),
                &self.budget,
            )
        });
        let _ = self.events.send(Arc::new(text));
    }

    /// Begins a search for `purpose` (none: the server's own, which the
    /// page does not hear of) of `fen` at `spot`, unless the engine
    /// player's running search serves the request (see
    /// [`SearchGate::begin`]); the page gets `stopped` for the search it
    /// supersedes and `started` for the new one. Call with the engine
    /// locked (`engine`) and start the search before unlocking it; the
    /// superseded search is stopped here.
    pub fn begin_search(
        self: &Arc<Session>,
        engine: &Engine,
        purpose: Option<Purpose>,
        spot: Option<SearchSpot>,
        fen: &str,
    ) -> Begun {
        let begun = self.searches.begin(purpose, spot, |stopped, search| {
            if let Some(search) = stopped {
                self.broadcast(&PageEvent::Stopped { search });
            }
            if let Some(purpose) = purpose {
                self.broadcast(&PageEvent::Started {
                    search,
                    purpose,
                    fen: fen.to_string(),
                });
            }
        });
        if let Begun::New(_) = begun {
            engine.stop();
        }
        begun
    }

    /// Stops the search, if one runs (with purpose `only`, when given),
    /// and forgets its move; the page gets `stopped`. True when one was.
    pub fn stop_search(&self, only: Option<Purpose>) -> bool {
        let engine = self.engine();
        self.stop_locked(&engine, only)
    }

    /// [`Session::stop_search`] with the engine already locked.
    fn stop_locked(&self, engine: &Engine, only: Option<Purpose>) -> bool {
        let stopped = self.searches.stop(only, |search| {
            let text = PageEvent::Stopped { search }.to_json();
            let _ = self
                .events
                .send(Arc::new(HeldJson::unheld(text, &self.budget)));
        });
        if stopped {
            engine.stop();
        }
        stopped
    }

    /// Stops whatever search runs (see [`Session::stop_search`]).
    pub fn cancel_search(&self) {
        self.stop_search(None);
    }

    /// Dropped to make room: no longer counted, its search stopped when
    /// its engine is free (a request that holds the engine finishes, and
    /// the engine stops when the session's last holder lets it go), and
    /// its pages told.
    fn expire(&self) {
        self.uncount();
        match self.engine.try_lock() {
            Ok(engine) => {
                self.stop_locked(&engine, None);
            }
            Err(TryLockError::Poisoned(engine)) => {
                self.stop_locked(&engine.into_inner(), None);
            }
            Err(TryLockError::WouldBlock) => {}
        }
        let _ = self.events.send(Arc::new(HeldJson::unheld(
            EXPIRED_EVENT.to_string(),
            &self.budget,
        )));
    }

    /// The review pass's thread, locked (its results are the game's).
    pub fn review(&self) -> MutexGuard<'_, ReviewRun> {
        self.review
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A session's game, locked: its [`GameRecord`] (the lock is its
/// [`GameState`]'s, the review's results with it).
pub struct RecordGuard<'a>(MutexGuard<'a, GameState>);

impl std::ops::Deref for RecordGuard<'_> {
    type Target = GameRecord;

    fn deref(&self) -> &GameRecord {
        &self.0.record
    }
}

impl std::ops::DerefMut for RecordGuard<'_> {
    fn deref_mut(&mut self) -> &mut GameRecord {
        &mut self.0.record
    }
}

/// The endgame tables the server uses, and how they were set.
struct Tables {
    /// `SyzygyPath` as the page set it.
    path: Option<String>,
    /// The tables in use.
    tables: Option<Arc<SyzygyTablebase>>,
    /// How many times the page set them.
    changes: usize,
    /// The tables the server started with.
    start: Option<Arc<SyzygyTablebase>>,
}

/// Everything the handlers share.
pub struct AppState {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The opening book.
    pub book: RwLock<BookSource>,
    /// The endgame tables (`--syzygy-path`, the variable, a standard
    /// place, or `SyzygyPath` as the page set it: [`AppState::set_tables`]).
    tables: RwLock<Tables>,
    /// The player's own games for the explorer (`--explorer`).
    pub own_games: Option<Arc<gamerecord::explorer::OwnGames>>,
    rng: Mutex<rand::rngs::SmallRng>,
    budget: Arc<Budget>,
    keep_used_within: Duration,
}

impl AppState {
    /// State with this book and these tables, and the default memory for games.
    pub fn new(book: BookSource, tables: Option<Arc<SyzygyTablebase>>) -> AppState {
        AppState::with_budget(book, tables, DEFAULT_BUDGET_MIB * MIB)
    }

    /// State whose games, and the requests about them, may hold about
    /// `budget` bytes in all.
    pub fn with_budget(
        book: BookSource,
        tables: Option<Arc<SyzygyTablebase>>,
        budget: usize,
    ) -> AppState {
        AppState {
            sessions: Mutex::new(HashMap::new()),
            book: RwLock::new(book),
            tables: RwLock::new(Tables {
                path: None,
                tables: tables.clone(),
                changes: 0,
                start: tables,
            }),
            own_games: None,
            rng: Mutex::new(rand::rngs::SmallRng::from_os_rng()),
            budget: Budget::new(budget),
            keep_used_within: KEEP_USED_WITHIN,
        }
    }

    /// The endgame tables in use (none: the compiled-in 3- and 4-piece
    /// tables answer alone).
    pub fn tables(&self) -> Option<Arc<SyzygyTablebase>> {
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .tables
            .clone()
    }

    /// The directories `SyzygyPath` names, as the page set it (`None`: the
    /// tables the server started with).
    pub fn tables_path(&self) -> Option<String> {
        self.tables
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .path
            .clone()
    }

    /// The tables of `SyzygyPath` as the page set it (`None`: those the
    /// server started with again), for the tablebase panel and every
    /// game's engine from its next search on.
    pub fn set_tables(&self, path: Option<String>, tables: Option<Arc<SyzygyTablebase>>) {
        let mut t = self.tables.write().unwrap_or_else(PoisonError::into_inner);
        t.tables = if path.is_some() {
            tables
        } else {
            t.start.clone()
        };
        t.path = path;
        t.changes += 1;
    }

    /// Gives `session`'s engine the tables in use, when they changed
    /// since it was given them (call it with the engine free to change).
    pub fn update_tables(&self, session: &Session, engine: &mut Engine) {
        let t = self.tables.read().unwrap_or_else(PoisonError::into_inner);
        if session.tables_seen.swap(t.changes, Ordering::SeqCst) != t.changes {
            engine.set_tablebase(t.tables.clone().map(|t| t as Arc<dyn engine::Tablebase>));
        }
    }

    /// The same state with the player's own games for the explorer.
    pub fn with_own_games(mut self, own: Option<Arc<gamerecord::explorer::OwnGames>>) -> AppState {
        self.own_games = own;
        self
    }

    /// The same state, never dropping a game used within `within` to make
    /// room (default [`KEEP_USED_WITHIN`]; tests shorten it).
    pub fn keeping_games_used_within(mut self, within: Duration) -> AppState {
        self.keep_used_within = within;
        self
    }

    fn sessions(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new session from `start`: the room for its engine and game
    /// reserved first (see [`AppState::reserve`]), then its engine made.
    /// Refused (503, saying what to do; nothing kept) when the games in
    /// use fill the budget or the system cannot give the engine.
    pub fn create(&self, start: Position) -> Result<Arc<Session>, ApiError> {
        let room = self.reserve(Session::new_game_bytes(), None)?;
        let id = {
            let mut rng = self
                .rng
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            format!("{:016x}", rng.random::<u64>())
        };
        let (tables, changes) = {
            let t = self.tables.read().unwrap_or_else(PoisonError::into_inner);
            (t.tables.clone(), t.changes)
        };
        let session = Arc::new(Session::try_new(
            id.clone(),
            start,
            tables,
            self.budget.clone(),
        )?);
        session.tables_seen.store(changes, Ordering::SeqCst);
        session.recount();
        self.sessions().insert(id, session.clone());
        drop(room);
        Ok(session)
    }

    /// Room for `bytes` more, held until the reservation is dropped. When
    /// the budget has not got it, sessions left alone (none used within
    /// the last [`KEEP_USED_WITHIN`], never `keep`, the game the request
    /// is about) are dropped to make it, those no page watches first, then
    /// the least recently used: their searches stop and their pages get
    /// [`EXPIRED_EVENT`]. None is dropped when that would not make room;
    /// the request is then refused, 503 with what to do.
    pub fn reserve(&self, bytes: usize, keep: Option<&str>) -> Result<Reservation, ApiError> {
        if let Some(room) = self.budget.try_hold(bytes) {
            return Ok(room);
        }
        let (room, dropped) = {
            let mut sessions = self.sessions();
            let mut idle: Vec<(Arc<Session>, usize)> = sessions
                .values()
                .filter(|s| Some(s.id.as_str()) != keep)
                .filter(|s| s.last_used().elapsed() >= self.keep_used_within)
                .map(|s| (s.clone(), s.bytes()))
                .collect();
            idle.sort_by_key(|(s, _)| (s.listeners.load(Ordering::SeqCst) > 0, s.last_used()));
            let short =
                (self.budget.used().saturating_add(bytes)).saturating_sub(self.budget.limit());
            let mut freed = 0;
            let mut dropped = Vec::new();
            for (session, size) in idle {
                if freed >= short {
                    break;
                }
                freed += size;
                dropped.push(session);
            }
            if freed < short {
                return Err(self.full(bytes, &sessions));
            }
            for session in &dropped {
                sessions.remove(&session.id);
                session.uncount();
            }
            (self.budget.try_hold(bytes), dropped)
        };
        // Outside the map's lock: stopping a search waits for nobody's map.
        for session in &dropped {
            session.expire();
        }
        room.ok_or_else(|| self.full(bytes, &self.sessions()))
    }

    /// The refusal of a request for `bytes` more: what holds the memory,
    /// and what to do.
    fn full(&self, bytes: usize, sessions: &HashMap<String, Arc<Session>>) -> ApiError {
        let limit = self.budget.limit();
        let minutes = self.keep_used_within.as_secs().div_ceil(60);
        if bytes > limit {
            return ApiError::busy(format!(
                "this needs {} MiB, more than the server's whole memory for games (--games-memory \
                 {} MiB); start kestrel gui with a larger --games-memory",
                bytes.div_ceil(MIB),
                limit / MIB
            ));
        }
        let in_use = sessions
            .values()
            .filter(|s| s.last_used().elapsed() < self.keep_used_within)
            .count();
        ApiError::busy(format!(
            "the server's memory for games (--games-memory {} MiB) has no room for this ({} MiB \
             more): {} games hold {} MiB, {in_use} of them used in the last {minutes} minutes. \
             Close the games you no longer need (a game left alone {minutes} minutes makes room), \
             or start kestrel gui with a larger --games-memory",
            limit / MIB,
            bytes.div_ceil(MIB),
            sessions.len(),
            self.budget.used().div_ceil(MIB),
        ))
    }

    /// Room for `bytes` about `session`'s game, in the room of `kind` the
    /// game keeps when nothing else uses it, and past that (or without it)
    /// in room reserved for it (see [`AppState::reserve`]).
    pub fn game_room(
        &self,
        session: &Arc<Session>,
        kind: RoomKind,
        bytes: usize,
    ) -> Result<Held, ApiError> {
        let (game_room, room) = session.take_room(kind);
        let reservation = match bytes.saturating_sub(room) {
            0 => Reservation::none(&self.budget),
            more => self.reserve(more, Some(&session.id))?,
        };
        Ok(Held {
            reservation,
            game_room,
        })
    }

    /// `value`, about `session`'s game (its view, or what carries it), as
    /// a 200 JSON answer held within the budget until it has been sent: in
    /// the room the game keeps to be shown, and past it in room reserved
    /// as the text grows (see [`AppState::reserve`]).
    pub fn json_answer(
        &self,
        session: &Arc<Session>,
        value: &impl Serialize,
    ) -> Result<Response, ApiError> {
        session
            .view_json(value, |n| self.reserve(n, Some(&session.id)))
            .map(HeldJson::into_response)
    }

    /// The session `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = self.sessions().get(id).cloned().ok_or_else(|| {
            Refusal::no_game(
                id,
                "the server restarted, or dropped the game to make room for others",
            )
        })?;
        *session
            .last_used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
        Ok(session)
    }

    /// How many sessions live.
    pub fn session_count(&self) -> usize {
        self.sessions().len()
    }

    /// The bytes counted now: the live sessions' sizes (see
    /// [`Session::recount`]) and the reservations held.
    pub fn memory_used(&self) -> usize {
        self.budget.used()
    }

    /// The budget for games, bytes.
    pub fn budget(&self) -> usize {
        self.budget.limit()
    }

    /// The largest table a game's engine may have, MiB: 1 GiB, and no
    /// more than half the games' memory.
    pub fn max_hash_mib(&self) -> usize {
        (self.budget.limit() / MIB / 2).clamp(1, MAX_HASH_MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamerecord::memory;

    /// State whose games all count as idle at once (the order of
    /// eviction is tested; [`KEEP_USED_WITHIN`] has its own tests).
    fn state(budget: usize) -> AppState {
        AppState::with_budget(BookSource::embedded(), None, budget)
            .keeping_games_used_within(Duration::ZERO)
    }

    fn new_game(s: &AppState) -> Arc<Session> {
        s.create(Position::startpos()).expect("room")
    }

    fn one_game_bytes() -> usize {
        new_game(&state(usize::MAX)).bytes()
    }

    fn expired(events: &mut broadcast::Receiver<EventText>) -> bool {
        std::iter::from_fn(|| events.try_recv().ok()).any(|t| t.as_str() == EXPIRED_EVENT)
    }

    #[test]
    fn a_game_is_about_its_engine_and_grows_with_its_moves() {
        let bytes = one_game_bytes();
        assert!((16 * MIB..24 * MIB).contains(&bytes), "{bytes}");
        assert!(
            Session::new_game_bytes() >= bytes,
            "what a new game reserves covers it"
        );
        let s = state(usize::MAX);
        let session = new_game(&s);
        let before = session.bytes();
        let moves = "1. e4 e5 2. Nf3 {a comment that takes room} Nc6 (2... d6 3. d4) 3. Bb5 a6 *";
        session.record().import_pgn(moves).expect("reads");
        session.recount();
        assert!(session.bytes() > before + 6 * std::mem::size_of::<gamerecord::tree::Node>());
        assert_eq!(s.memory_used(), session.bytes());
    }

    #[test]
    fn games_past_the_budget_go_unwatched_first_then_least_recently_used() {
        let s = state(3 * one_game_bytes() + MIB);
        let a = new_game(&s);
        let b = new_game(&s);
        let c = new_game(&s);
        assert_eq!(s.session_count(), 3, "three games fit");
        let mut to_a = a.events.subscribe();
        // b is the oldest after a is used again; c has a page watching it.
        std::thread::sleep(std::time::Duration::from_millis(5));
        s.get(&a.id).expect("a lives");
        c.listeners.fetch_add(1, Ordering::SeqCst);
        let d = new_game(&s);
        assert!(
            s.get(&b.id).is_err(),
            "the least recently used unwatched game went"
        );
        assert!(s.get(&a.id).is_ok() && s.get(&c.id).is_ok() && s.get(&d.id).is_ok());
        // Next goes a (unwatched), though c was used longer ago.
        let e = new_game(&s);
        assert!(s.get(&a.id).is_err() && s.get(&c.id).is_ok() && s.get(&e.id).is_ok());
        assert!(expired(&mut to_a), "a's page is told");
        assert!(s.memory_used() <= s.budget());
    }

    #[test]
    fn what_does_not_fit_the_whole_budget_is_refused_and_the_games_stay() {
        let s = state(one_game_bytes() + MIB);
        let a = new_game(&s);
        let Err(refused) = s.reserve(2 * s.budget(), None) else {
            panic!("more than the budget was given");
        };
        assert_eq!(refused.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            refused.message.contains("larger --games-memory"),
            "{}",
            refused.message
        );
        assert!(s.get(&a.id).is_ok(), "nothing was dropped for it");
        let small = state(MIB);
        assert!(small.create(Position::startpos()).is_err());
        assert_eq!(small.session_count(), 0);
        assert_eq!(small.memory_used(), 0, "nothing is left held");
    }

    #[test]
    fn room_reserved_for_a_game_that_grows_pushes_others_out() {
        let s = state(2 * one_game_bytes() + 64 * 1024);
        let old = new_game(&s);
        let big = new_game(&s);
        assert_eq!(s.session_count(), 2);
        // Many comments: a long game read from PGN.
        let comment = "x".repeat(1000);
        let pgn: String = (0..100)
            .map(|_| format!("{{{comment}}} "))
            .collect::<String>()
            + "1. e4 *";
        let room = s
            .reserve(memory::import_bound(&pgn), Some(&big.id))
            .expect("room");
        assert!(s.get(&old.id).is_err(), "the other game made room");
        big.record().import_pgn(&pgn).expect("reads");
        big.recount();
        drop(room);
        assert!(s.get(&big.id).is_ok());
        assert!(s.memory_used() <= s.budget());
    }

    #[test]
    fn an_answer_holds_its_room_until_it_is_sent() {
        let s = Arc::new(state(usize::MAX));
        let session = new_game(&s);
        session
            .record()
            .import_pgn(&("Nf3 Nf6 Ng1 Ng8 ".repeat(250) + "*"))
            .expect("reads");
        session.recount();
        let counted = s.memory_used();
        let view = |session: &Arc<Session>| {
            let record = session.record();
            s.json_answer(session, &GameJson::new(&session.id, &record))
                .expect("room")
        };
        // The first answer is written in the room the game keeps for it.
        let first = view(&session);
        assert_eq!(s.memory_used(), counted);
        // A second at the same time takes room of its own, till it is gone.
        let second = view(&session);
        assert!(s.memory_used() > counted + 1000 * memory::PLY_JSON / 2);
        drop(second);
        assert_eq!(s.memory_used(), counted);
        drop(first);
        assert!(!session.show_room.is_taken());
    }

    #[test]
    fn games_used_lately_are_never_dropped_and_a_new_game_is_refused_instead() {
        let one = one_game_bytes();
        let s = AppState::with_budget(BookSource::embedded(), None, 2 * one + MIB)
            .keeping_games_used_within(Duration::from_millis(300));
        let a = new_game(&s);
        let b = new_game(&s);
        let Err(full) = s.create(Position::startpos()) else {
            panic!("a third game fits");
        };
        assert_eq!(full.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(full.message.contains("--games-memory"), "{}", full.message);
        assert_eq!(s.session_count(), 2, "the refused game is not kept");
        assert!(s.get(&a.id).is_ok() && s.get(&b.id).is_ok());
        // Once b has been left alone long enough, it makes room; a, used
        // again meanwhile, stays.
        std::thread::sleep(Duration::from_millis(200));
        s.get(&a.id).expect("a lives");
        std::thread::sleep(Duration::from_millis(150));
        let c = new_game(&s);
        assert!(s.get(&b.id).is_err(), "the idle game went");
        assert!(s.get(&a.id).is_ok() && s.get(&c.id).is_ok());
        assert!(s.memory_used() <= s.budget());
    }
}
