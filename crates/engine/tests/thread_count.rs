//! An engine's search threads are started with it and with `Threads`, not
//! per search, and end with it: creating, using and dropping many engines
//! (some in the middle of a search) leaves the process with the threads it
//! had. One test in its own process, so that no other test's threads are
//! counted.

#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chess::Position;
use engine::{Engine, Limits};

/// The process's thread count, as the kernel reports it.
fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a Threads: line")
}

/// What `count` gives once it has settled at `expected`, or after a few
/// seconds: a joined thread may still be counted for a moment after it
/// ended, and a new thread names itself once it runs.
fn settled(count: fn() -> usize, expected: usize) -> usize {
    let start = Instant::now();
    loop {
        let now = count();
        if now == expected || start.elapsed() > Duration::from_secs(5) {
            return now;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The process's search threads (`kestrel-search-N`; the kernel keeps 15
/// bytes of a name).
fn search_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("kestrel-search"))
        .count()
}

#[test]
fn engines_start_their_threads_once_and_take_them_along_when_dropped() {
    let pos = Position::startpos();
    let before = threads();
    assert_eq!(settled(search_threads, 0), 0);
    {
        let mut engine = Engine::new();
        assert_eq!(settled(search_threads, 1), 1);
        assert_eq!(threads(), before + 1);
        engine.set_option("Threads", "4").unwrap();
        assert_eq!(settled(search_threads, 4), 4);
        // Searches start no threads.
        for _ in 0..20 {
            engine.search(&pos, &[], Limits::depth(2), Arc::new(|_| {}));
            engine.go(pos, Vec::new(), Limits::depth(2), Arc::new(|_| {}));
            assert_eq!(threads(), before + 4);
            engine.wait();
        }
        engine.set_option("Threads", "2").unwrap();
        assert_eq!(settled(threads, before + 2), before + 2);
        assert_eq!(settled(search_threads, 2), 2);
    }
    assert_eq!(settled(threads, before), before);
    for i in 0..60 {
        let mut engine = Engine::new();
        engine
            .set_option("Threads", &(1 + i % 3).to_string())
            .unwrap();
        match i % 4 {
            0 => {}
            1 => {
                engine.search(&pos, &[], Limits::depth(3), Arc::new(|_| {}));
            }
            // Dropped while searching, infinitely or not.
            2 => engine.go(pos, Vec::new(), Limits::depth(30), Arc::new(|_| {})),
            _ => {
                let limits = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                // Dropped once the search is under way (it has reported).
                let started = Arc::new(AtomicBool::new(false));
                let seen = started.clone();
                let reporter = Arc::new(move |_| seen.store(true, Ordering::SeqCst));
                engine.go(pos, Vec::new(), limits, reporter);
                let deadline = Instant::now() + Duration::from_secs(10);
                while !started.load(Ordering::SeqCst) && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(1));
                }
                assert!(started.load(Ordering::SeqCst), "the search never reported");
            }
        }
    }
    assert_eq!(
        settled(threads, before),
        before,
        "threads left behind by dropped engines"
    );
    assert_eq!(settled(search_threads, 0), 0);
}
