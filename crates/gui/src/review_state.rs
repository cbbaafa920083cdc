//! A session's whole-game review pass as the server runs it: the thread
//! of the pass that runs, with the flag that cancels it (what the passes
//! found is the game's, gamerecord's `GameState`). The thread itself is
//! `review_run.rs`'s; the session holds this, so neither file needs the
//! other's insides.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A tab's pass: the thread that searches for its results.
#[derive(Default)]
pub struct ReviewRun {
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ReviewRun {
    /// A new cancel flag for a pass about to begin, which its thread reads.
    pub fn fresh_cancel(&mut self) -> Arc<AtomicBool> {
        self.cancel = Arc::new(AtomicBool::new(false));
        self.cancel.clone()
    }

    /// Keeps the thread of the pass that runs, for [`ReviewRun::cancel`].
    pub fn keep_thread(&mut self, thread: JoinHandle<()>) {
        self.thread = Some(thread);
    }

    /// Tells the pass that runs to stop: its thread, to be joined without
    /// the lock that holds this.
    pub fn cancel(&mut self) -> Option<JoinHandle<()>> {
        self.cancel.store(true, Ordering::SeqCst);
        self.thread.take()
    }
}
