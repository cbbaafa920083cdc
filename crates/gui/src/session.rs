//! The server's state: one session per browser tab (a game, its own engine
//! and a channel for the engine's output), the book and the tables that all
//! sessions share. Sessions past the limit are dropped least recently used
//! first, their search stopped, so that forgotten tabs do not pile up
//! engines and their tables.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::Instant;

use chess::Position;
use engine::Engine;
use rand::{Rng, SeedableRng};
use syzygy::SyzygyTablebase;
use tokio::sync::broadcast;

use crate::book_source::BookSource;
use crate::error::ApiError;
use crate::record::GameRecord;
use crate::review::Review;

/// How many sessions live at once (each holds an engine with a 16 MiB table).
pub const MAX_SESSIONS: usize = 16;
/// Engine events kept for a slow listener before it skips some.
const EVENT_BUFFER: usize = 1024;

/// One tab's game and engine.
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
    /// Number of the latest search: a search's move is played only while
    /// it is the latest. Changed only while the engine is locked, so that
    /// whoever holds the engine knows whether a search it started is still
    /// the latest (the game review pass relies on it).
    pub search_seq: AtomicU64,
    /// The whole-game analysis pass and its results.
    pub review: Mutex<Review>,
    /// Held while a pass starts or is cancelled, so that one pass's
    /// thread has ended before the next begins.
    pub review_start: Mutex<()>,
    last_used: Mutex<Instant>,
}

impl Session {
    fn new(id: String, start: Position, tables: Option<Arc<SyzygyTablebase>>) -> Session {
        let mut engine = Engine::new();
        if let Some(t) = tables {
            engine.set_tablebase(Some(t));
        }
        Session {
            id,
            record: Mutex::new(GameRecord::new(start)),
            engine: Mutex::new(engine),
            events: broadcast::channel(EVENT_BUFFER).0,
            listeners: AtomicUsize::new(0),
            search_seq: AtomicU64::new(0),
            review: Mutex::new(Review::default()),
            review_start: Mutex::new(()),
            last_used: Mutex::new(Instant::now()),
        }
    }

    /// The game, locked.
    pub fn record(&self) -> MutexGuard<'_, GameRecord> {
        // A panic while holding the lock cannot leave a GameRecord half
        // changed in a way that matters more than losing the tab's game.
        self.record.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine, locked.
    pub fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends an event to the open streams (none open: dropped).
    pub fn send(&self, event: &serde_json::Value) {
        let _ = self.events.send(event.to_string());
    }

    /// Stops the search, if one runs, and forgets its move.
    pub fn cancel_search(&self) {
        let engine = self.engine();
        self.search_seq.fetch_add(1, Ordering::SeqCst);
        engine.stop();
    }

    /// The game review, locked.
    pub fn review(&self) -> MutexGuard<'_, Review> {
        self.review.lock().unwrap_or_else(|e| e.into_inner())
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
}

impl AppState {
    /// State with this book and these tables.
    pub fn new(book: BookSource, tables: Option<Arc<SyzygyTablebase>>) -> AppState {
        AppState {
            sessions: Mutex::new(HashMap::new()),
            book: RwLock::new(book),
            tables,
            rng: Mutex::new(rand::rngs::SmallRng::from_os_rng()),
        }
    }

    fn sessions(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new session from `start`; the least recently used one goes when there are too many.
    pub fn create(&self, start: Position) -> Arc<Session> {
        let id = {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            format!("{:016x}", rng.random::<u64>())
        };
        let session = Arc::new(Session::new(id.clone(), start, self.tables.clone()));
        let evicted = {
            let mut map = self.sessions();
            let mut evicted = None;
            if map.len() >= MAX_SESSIONS {
                let oldest = map
                    .values()
                    .min_by_key(|s| *s.last_used.lock().unwrap_or_else(|e| e.into_inner()))
                    .map(|s| s.id.clone());
                evicted = oldest.and_then(|k| map.remove(&k));
            }
            map.insert(id, session.clone());
            evicted
        };
        if let Some(old) = evicted {
            old.cancel_search();
        }
        session
    }

    /// The session `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = self.sessions().get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no game '{id}' (the server restarted or the game was closed): start a new one"
            ))
        })?;
        *session.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        Ok(session)
    }

    /// How many sessions live.
    pub fn session_count(&self) -> usize {
        self.sessions().len()
    }
}
