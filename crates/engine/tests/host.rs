//! A host without threads or `Instant` ([`engine::host`]), as WebAssembly in
//! a browser is: the search runs on the caller's thread, measures time with
//! the host's clock, and takes `stop` and `ponderhit` from the host's poll.
//! (Its own test binary: a host is registered once per process.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chess::Position;
use engine::host::{set_host, Host, Interrupt};
use engine::{Engine, Limits, SearchEvent};

/// Polls so far; the host's `stop` comes at the 50th.
static POLLS: AtomicU64 = AtomicU64::new(0);
const STOP_AT: u64 = 50;
/// The host's clock: one millisecond per reading.
static CLOCK_MS: AtomicU64 = AtomicU64::new(0);

fn now() -> Duration {
    Duration::from_millis(CLOCK_MS.fetch_add(1, Ordering::Relaxed))
}

fn poll() -> Interrupt {
    Interrupt {
        stop: POLLS.fetch_add(1, Ordering::Relaxed) + 1 >= STOP_AT,
        ponderhit: false,
    }
}

#[test]
fn searches_run_on_the_callers_thread_and_stop_when_the_host_says() {
    set_host(Host {
        now,
        poll,
        pause: |_| {},
        seed: || 7,
    })
    .expect("the first host");
    let threads = Engine::options()
        .into_iter()
        .find(|o| o.name == "Threads")
        .unwrap();
    assert!(
        matches!(threads.kind, engine::OptionKind::Spin { max: 1, .. }),
        "no threads to offer"
    );
    let mut engine = Engine::new();
    // More threads than the host offers are refused, not silently started.
    assert!(engine.set_option("Threads", "4").is_err());
    let best = Arc::new(Mutex::new(None));
    let sink = best.clone();
    let caller = std::thread::current().id();
    engine.go(
        Position::startpos(),
        Vec::new(),
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Arc::new(move |event| {
            assert_eq!(std::thread::current().id(), caller, "a search thread");
            if let SearchEvent::BestMove(result) = event {
                *sink.lock().unwrap() = Some(result);
            }
        }),
    );
    // An infinite search returned: the host's stop ended it, here.
    let result = best
        .lock()
        .unwrap()
        .take()
        .expect("the best move is reported");
    assert!(result.best.is_some());
    assert!(POLLS.load(Ordering::Relaxed) >= STOP_AT);
    // 1024 nodes between polls, one thread.
    assert!(
        result.nodes >= (STOP_AT - 1) * 1024,
        "{} nodes",
        result.nodes
    );
    assert!(
        CLOCK_MS.load(Ordering::Relaxed) > 0,
        "the host's clock was read"
    );
    assert!(!engine.is_searching());
}
