//! The protocol's output: one writer shared by the command loop and the
//! search thread, one line at a time.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Output shared by the command loop and the search thread.
pub type SharedOut = Arc<Mutex<Box<dyn Write + Send>>>;

/// A shared writer around `out`.
pub fn shared(out: Box<dyn Write + Send>) -> SharedOut {
    Arc::new(Mutex::new(out))
}

/// Writes one line and flushes it.
pub fn send(out: &SharedOut, text: &str) {
    // A closed output (the GUI went away) is not worth a panic.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}
