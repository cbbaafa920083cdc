//! What the engine asks of the machine it runs on: the time, and threads.
//!
//! Natively the standard library gives both, and nothing here is set. A
//! host without them (WebAssembly in a browser's Web Worker, where
//! `std::time::Instant::now` panics and no thread can start) registers a
//! [`Host`] once, before the first engine is made: its clock replaces
//! `Instant`, and every search then runs on the caller's own (only) thread.
//! Such a caller cannot take a `stop` or `ponderhit` while the search runs,
//! so the search asks the host ([`Host::poll`]) where it would look at the
//! clock, every 1024 nodes; the host answers from wherever its messages
//! arrive meanwhile (in the browser, a `SharedArrayBuffer` another worker
//! writes).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What happened since the search started, as the host tells it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interrupt {
    /// `stop` came: the search is to answer now.
    pub stop: bool,
    /// `ponderhit` came: the pondered move was played, the clock starts.
    pub ponderhit: bool,
}

/// A host without `Instant` or threads: what it gives instead.
#[derive(Clone, Copy, Debug)]
pub struct Host {
    /// Monotonic time since any fixed origin.
    pub now: fn() -> Duration,
    /// What came for the running search since it started (asked often:
    /// it must be cheap).
    pub poll: fn() -> Interrupt,
    /// Waits about this long, or less when something comes (an infinite
    /// search that has nothing left to search waits so for `stop`).
    pub pause: fn(Duration),
    /// 64 random bits (the seed of a playing level's choices).
    pub seed: fn() -> u64,
}

static HOST: OnceLock<Host> = OnceLock::new();

/// Registers the host; once per process, before the first engine. `Err`
/// gives `host` back when one is registered already.
pub fn set_host(host: Host) -> Result<(), Host> {
    HOST.set(host)
}

/// The registered host (`None` natively).
pub(crate) fn host() -> Option<&'static Host> {
    HOST.get()
}

/// A point in time from the engine's clock, to measure from: searches,
/// benchmarks, and a front end's own timings (`go perft`), so that none
/// of them needs `Instant` where the host has none.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(Started);

#[derive(Clone, Copy, Debug)]
enum Started {
    Native(Instant),
    Host(Duration),
}

impl Stopwatch {
    /// Starts now.
    pub fn start() -> Stopwatch {
        Stopwatch(match host() {
            Some(h) => Started::Host((h.now)()),
            None => Started::Native(Instant::now()),
        })
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        match self.0 {
            Started::Native(at) => at.elapsed(),
            Started::Host(at) => host().map_or(Duration::ZERO, |h| (h.now)().saturating_sub(at)),
        }
    }
}

/// A seed for choices that need not repeat: the wall clock's nanoseconds
/// natively, the host's random bits.
pub(crate) fn seed() -> u64 {
    match host() {
        Some(h) => (h.seed)(),
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    }
}

/// Waits about `duration`: the host's pause, or the thread's sleep.
pub(crate) fn pause(duration: Duration) {
    match host() {
        Some(h) => (h.pause)(duration),
        None => std::thread::sleep(duration),
    }
}
