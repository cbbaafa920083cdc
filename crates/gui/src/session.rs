//! The server's state: one session per game (a game, its own engine and a
//! channel for the engine's output), the book and the tables that all
//! sessions share. A session outlives its tab, so that a reloaded page
//! finds its game again; what bounds them is memory: each session's bytes
//! are estimated (its engine's table and search state, its move tree) and
//! while the total is over the budget, sessions are dropped, those no page
//! is watching first, then the least recently used, their search stopped
//! and their pages told (an `expired` event), so that forgotten games do
//! not pile up engines and their tables.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use chess::Position;
use engine::Engine;
use gamerecord::record::GameRecord;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use syzygy::SyzygyTablebase;
use tokio::sync::broadcast;

use crate::book_source::BookSource;
use crate::error::ApiError;
use crate::review_run::ReviewRun;
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

/// One game and its engine.
pub struct Session {
    /// The id the page got from `POST /api/game`.
    pub id: String,
    /// The game. Never held while waiting for the engine: the engine's
    /// reporter locks it to play the engine's move.
    pub record: Mutex<GameRecord>,
    /// The engine.
    pub engine: Mutex<Engine>,
    /// Engine output, as JSON texts, for the event stream.
    pub events: broadcast::Sender<String>,
    /// Open event streams.
    pub listeners: AtomicUsize,
    /// The latest search and the gate its events pass: the server drops
    /// the events of a search superseded or stopped (see [`SearchGate`]).
    pub searches: SearchGate,
    /// The whole-game analysis pass and its results.
    pub review: Mutex<ReviewRun>,
    /// Held while a pass starts or is cancelled, so that one pass's
    /// thread has ended before the next begins.
    pub review_start: Mutex<()>,
    last_used: Mutex<Instant>,
    /// The engine's threads and table size ([`Session::set_resources`]).
    resources: Mutex<Resources>,
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

impl Session {
    fn new(id: String, start: Position, tables: Option<Arc<SyzygyTablebase>>) -> Session {
        let mut engine = Engine::new();
        if let Some(t) = tables {
            engine.set_tablebase(Some(t));
        }
        let resources = Resources {
            threads: 1,
            hash_mib: engine.hash_mib(),
        };
        Session {
            id,
            record: Mutex::new(GameRecord::new(start)),
            engine: Mutex::new(engine),
            events: broadcast::channel(EVENT_BUFFER).0,
            listeners: AtomicUsize::new(0),
            searches: SearchGate::default(),
            review: Mutex::new(ReviewRun::default()),
            review_start: Mutex::new(()),
            last_used: Mutex::new(Instant::now()),
            resources: Mutex::new(resources),
        }
    }

    /// About how many bytes the session holds: its engine, its game and
    /// the game analysis's results.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Session>()
            + self.resources().bytes()
            + self.record().heap_bytes()
            + self.review().results.heap_bytes()
    }

    fn last_used(&self) -> Instant {
        *self
            .last_used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game, locked.
    pub fn record(&self) -> MutexGuard<'_, GameRecord> {
        // A panic while holding the lock cannot leave a GameRecord half
        // changed in a way that matters more than losing the tab's game.
        self.record
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
    /// either changes (a new table starts empty). A table the machine
    /// cannot give leaves the old one. Blocks until the search has ended:
    /// call it off the async threads.
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
        if let Some(n) = threads {
            engine
                .set_option("Threads", &n.to_string())
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
            now.threads = n;
        }
        if let Some(mib) = hash_mib {
            let set = engine
                .set_option("Hash", &mib.to_string())
                .map_err(|e| ApiError::bad_request(e.to_string()));
            if let Err(e) = set {
                *self
                    .resources
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = now;
                return Err(e);
            }
            now.hash_mib = mib;
        }
        *self
            .resources
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = now;
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
    pub fn send(&self, event: &PageEvent) {
        match event.gate() {
            Some((search, what)) => {
                self.searches.pass(search, what, || self.broadcast(event));
            }
            None => self.broadcast(event),
        }
    }

    fn broadcast(&self, event: &PageEvent) {
        let _ = self.events.send(event.to_json());
    }

    /// Begins a search for `purpose` (none: the server's own, which the
    /// page does not hear of) of `fen` at `spot`, unless the engine
    /// player's running search serves the request (see
    /// [`SearchGate::begin`]); the page gets `stopped` for the search it
    /// supersedes and `started` for the new one. Call with the engine
    /// locked (`engine`) and start the search before unlocking it; the
    /// superseded search is stopped here.
    pub fn begin_search(
        &self,
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
            self.broadcast(&PageEvent::Stopped { search });
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

    /// The game review, locked.
    pub fn review(&self) -> MutexGuard<'_, ReviewRun> {
        self.review
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Everything the handlers share.
pub struct AppState {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The opening book.
    pub book: RwLock<BookSource>,
    /// The endgame tables, when `--syzygy-path` was given.
    pub tables: Option<Arc<SyzygyTablebase>>,
    rng: Mutex<rand::rngs::SmallRng>,
    budget: usize,
    keep_used_within: Duration,
}

impl AppState {
    /// State with this book and these tables, and the default memory for games.
    pub fn new(book: BookSource, tables: Option<Arc<SyzygyTablebase>>) -> AppState {
        AppState::with_budget(book, tables, DEFAULT_BUDGET_MIB * MIB)
    }

    /// State whose games may hold about `budget` bytes in all (at least
    /// the newest game is kept, whatever its size).
    pub fn with_budget(
        book: BookSource,
        tables: Option<Arc<SyzygyTablebase>>,
        budget: usize,
    ) -> AppState {
        AppState {
            sessions: Mutex::new(HashMap::new()),
            book: RwLock::new(book),
            tables,
            rng: Mutex::new(rand::rngs::SmallRng::from_os_rng()),
            budget,
            keep_used_within: KEEP_USED_WITHIN,
        }
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

    /// A new session from `start`; idle others go if the games are over
    /// budget. Refused (and nothing kept) when games in use fill it.
    pub fn create(&self, start: Position) -> Result<Arc<Session>, ApiError> {
        let id = {
            let mut rng = self
                .rng
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            format!("{:016x}", rng.random::<u64>())
        };
        let session = Arc::new(Session::new(id.clone(), start, self.tables.clone()));
        self.sessions().insert(id.clone(), session.clone());
        if let Err(full) = self.trim(&id) {
            self.sessions().remove(&id);
            return Err(full);
        }
        Ok(session)
    }

    /// Drops idle sessions while the games hold more than the budget: first
    /// those no page watches, then the least recently used; never `keep`
    /// (the one just made or grown) nor one used within the last
    /// [`KEEP_USED_WITHIN`]. Their searches stop and their pages get
    /// [`EXPIRED_EVENT`]. The ids dropped; an error (503, with what to do)
    /// when the games are still over budget and games in use other than
    /// `keep` hold the room (`keep` alone over it is kept: there is nothing
    /// better to do).
    pub fn trim(&self, keep: &str) -> Result<Vec<String>, ApiError> {
        // Sizes are read outside the map's lock: each locks its game.
        let all: Vec<Arc<Session>> = self.sessions().values().cloned().collect();
        let mut sized: Vec<(Arc<Session>, usize)> = all
            .into_iter()
            .map(|s| {
                let bytes = s.bytes();
                (s, bytes)
            })
            .collect();
        let mut total: usize = sized.iter().map(|(_, b)| b).sum();
        if total <= self.budget {
            return Ok(Vec::new());
        }
        sized.retain(|(s, _)| s.id != keep);
        let (idle, in_use): (Vec<_>, Vec<_>) = sized
            .into_iter()
            .partition(|(s, _)| s.last_used().elapsed() >= self.keep_used_within);
        let mut idle = idle;
        idle.sort_by_key(|(s, _)| (s.listeners.load(Ordering::SeqCst) > 0, s.last_used()));
        let mut dropped = Vec::new();
        for (session, bytes) in idle {
            if total <= self.budget {
                break;
            }
            if self.sessions().remove(&session.id).is_some() {
                session.cancel_search();
                let _ = session.events.send(EXPIRED_EVENT.to_string());
                dropped.push(session.id.clone());
            }
            total -= bytes;
        }
        if total > self.budget && !in_use.is_empty() {
            return Err(ApiError::busy(format!(
                "the server's memory for games ({} MiB) is full with {} games used in the last {}                  minutes; try again when one has been left idle that long, or start kestrel gui                  with a larger --games-memory",
                self.budget / MIB,
                in_use.len(),
                self.keep_used_within.as_secs().div_ceil(60),
            )));
        }
        Ok(dropped)
    }

    /// The session `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = self.sessions().get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no game '{id}' (the server restarted, or dropped the game to make room for others): start a new one"
            ))
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

    /// About how many bytes the live sessions hold (see [`Session::bytes`]).
    pub fn memory_used(&self) -> usize {
        let all: Vec<Arc<Session>> = self.sessions().values().cloned().collect();
        all.iter().map(|s| s.bytes()).sum()
    }

    /// The budget for games, bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The largest table a game's engine may have, MiB: 1 GiB, and no
    /// more than half the games' memory.
    pub fn max_hash_mib(&self) -> usize {
        (self.budget / MIB / 2).clamp(1, MAX_HASH_MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_game_is_about_its_engine_and_grows_with_its_moves() {
        let bytes = one_game_bytes();
        assert!((16 * MIB..24 * MIB).contains(&bytes), "{bytes}");
        let s = state(usize::MAX);
        let session = new_game(&s);
        let before = session.bytes();
        let moves = "1. e4 e5 2. Nf3 {a comment that takes room} Nc6 (2... d6 3. d4) 3. Bb5 a6 *";
        session.record().import_pgn(moves).expect("reads");
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
        assert_eq!(
            to_a.try_recv().as_deref(),
            Ok(EXPIRED_EVENT),
            "a's page is told"
        );
        assert!(s.memory_used() <= s.budget());
    }

    #[test]
    fn the_newest_game_stays_even_alone_over_the_budget() {
        let s = state(MIB);
        let a = new_game(&s);
        assert!(s.get(&a.id).is_ok());
        let b = new_game(&s);
        assert!(s.get(&a.id).is_err() && s.get(&b.id).is_ok());
        assert_eq!(s.session_count(), 1);
    }

    #[test]
    fn a_game_that_grows_pushes_others_out() {
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
        big.record().import_pgn(&pgn).expect("reads");
        assert_eq!(s.trim(&big.id).expect("room"), vec![old.id.clone()]);
        assert!(s.get(&big.id).is_ok());
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
