//! Room a session's size keeps for one use at a time (showing its game
//! once, one copy of its main line): taken by one answer, event or copy,
//! and given back when the guard that holds it ([`GameRoom`]) is dropped.
//! The budget's holdings carry such a guard without knowing the session.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Room a session's size keeps for one use at a time.
#[derive(Debug, Default)]
pub struct KeptRoom {
    bytes: AtomicUsize,
    taken: AtomicBool,
}

impl KeptRoom {
    /// The room is `bytes` from now on (the session was counted again).
    pub fn set_bytes(&self, bytes: usize) {
        self.bytes.store(bytes, Ordering::SeqCst);
    }

    /// The room, when nothing else uses it now: the guard that gives it
    /// back, and its bytes; else none, and 0.
    pub fn take(self: &Arc<KeptRoom>) -> (Option<GameRoom>, usize) {
        match self
            .taken
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => (
                Some(GameRoom(self.clone())),
                self.bytes.load(Ordering::SeqCst),
            ),
            Err(_) => (None, 0),
        }
    }

    /// Whether something uses the room now.
    pub fn is_taken(&self) -> bool {
        self.taken.load(Ordering::SeqCst)
    }
}

/// A [`KeptRoom`] taken, given back when this is dropped.
#[derive(Debug)]
pub struct GameRoom(Arc<KeptRoom>);

impl Drop for GameRoom {
    fn drop(&mut self) {
        self.0.taken.store(false, Ordering::SeqCst);
    }
}
