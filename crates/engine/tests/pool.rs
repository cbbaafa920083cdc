//! The engine's search threads, kept from search to search: a background
//! search (`go`) answers as the caller-waits search (`search`) does and
//! ends with `Stats` then `BestMove`; infinite and pondering searches wait
//! for `stop` or `ponderhit`; `Threads` grows and shrinks the threads
//! between searches; `new_game` forgets the history a thread keeps; and a
//! panic in the main search thread or in a helper ends the search without
//! hanging the engine, which searches again afterwards.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chess::Position;
use engine::{Engine, Limits, Reporter, SearchEvent, SearchResult, Tablebase, Wdl};

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
const ENDGAME: &str = "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50";

/// Events as a reporter saw them.
type Seen = Arc<Mutex<Vec<SearchEvent>>>;

fn recorder() -> (Reporter, Seen) {
    let seen: Seen = Arc::default();
    let sink = seen.clone();
    (Arc::new(move |e| sink.lock().unwrap().push(e)), seen)
}

fn quiet() -> Reporter {
    Arc::new(|_| {})
}

/// The `BestMove` seen, if any.
fn best_move(seen: &Seen) -> Option<SearchResult> {
    seen.lock().unwrap().iter().find_map(|e| match e {
        SearchEvent::BestMove(r) => Some(r.clone()),
        _ => None,
    })
}

/// Whether the search has reported an iteration of `depth` or deeper.
fn reached_depth(seen: &Seen, depth: i32) -> bool {
    seen.lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e, SearchEvent::Iteration(i) if i.depth >= depth))
}

/// Waits (a few seconds at most) until `done` holds.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

#[test]
fn go_answers_as_search_does_with_stats_then_bestmove_last() {
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let waited = Engine::new().search(&pos, &[], Limits::depth(7), quiet());
    let mut engine = Engine::new();
    let (reporter, seen) = recorder();
    engine.go(pos, Vec::new(), Limits::depth(7), reporter);
    engine.wait();
    assert!(!engine.is_searching());
    let events = seen.lock().unwrap();
    let n = events.len();
    assert!(n >= 3, "{events:?}");
    assert!(
        matches!(events[n - 2], SearchEvent::Stats { .. }),
        "{events:?}"
    );
    let SearchEvent::BestMove(background) = &events[n - 1] else {
        panic!("BestMove is last: {events:?}");
    };
    // One thread at a fixed depth: the same search, node for node.
    assert_eq!(background.best, waited.best);
    assert_eq!(background.nodes, waited.nodes);
    assert_eq!(background.pv, waited.pv);
}

#[test]
fn searches_in_a_row_on_one_engine_match_the_same_searches_on_fresh_threads() {
    // The history a thread keeps carries from one search to the next, as
    // it did when the workers travelled with each new thread.
    let fens = [MIDDLEGAME, ENDGAME, MIDDLEGAME];
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let mut kept = Engine::new();
    let one_engine: Vec<u64> = positions
        .iter()
        .map(|p| kept.search(p, &[], Limits::depth(6), quiet()).nodes)
        .collect();
    let mut again = Engine::new();
    let mut mixed = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        if i % 2 == 0 {
            mixed.push(again.search(p, &[], Limits::depth(6), quiet()).nodes);
        } else {
            let (reporter, seen) = recorder();
            again.go(*p, Vec::new(), Limits::depth(6), reporter);
            again.wait();
            mixed.push(best_move(&seen).expect("a bestmove").nodes);
        }
    }
    assert_eq!(one_engine, mixed);
}

#[test]
fn new_game_forgets_the_threads_history() {
    let first = Position::from_fen(MIDDLEGAME).unwrap();
    let second = Position::from_fen(ENDGAME).unwrap();
    let mut engine = Engine::new();
    engine.set_option("Threads", "2").unwrap();
    engine.set_option("Threads", "1").unwrap();
    engine.search(&first, &[], Limits::depth(7), quiet());
    engine.new_game();
    let after_new_game = engine.search(&second, &[], Limits::depth(7), quiet());
    let fresh = Engine::new().search(&second, &[], Limits::depth(7), quiet());
    assert_eq!(after_new_game.nodes, fresh.nodes);
    assert_eq!(after_new_game.best, fresh.best);
}

#[test]
fn infinite_and_pondering_searches_wait_for_stop_or_ponderhit() {
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let mut engine = Engine::new();
    engine.set_option("Threads", "2").unwrap();
    for ponder in [false, true] {
        let (reporter, seen) = recorder();
        let limits = Limits {
            depth: Some(2),
            infinite: !ponder,
            ponder,
            ..Limits::default()
        };
        engine.go(pos, Vec::new(), limits, reporter);
        // Depth 2 is done in a moment; the answer still waits.
        assert!(eventually(|| reached_depth(&seen, 2)));
        assert!(engine.is_searching());
        assert!(best_move(&seen).is_none());
        if ponder {
            engine.ponderhit();
        } else {
            engine.stop();
        }
        assert!(eventually(|| !engine.is_searching()));
        engine.wait();
        assert!(best_move(&seen).is_some_and(|r| r.best.is_some()));
    }
}

#[test]
fn a_new_go_stops_the_search_in_progress() {
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let mut engine = Engine::new();
    engine.set_option("Threads", "3").unwrap();
    let (first, first_seen) = recorder();
    engine.go(
        pos,
        Vec::new(),
        Limits {
            infinite: true,
            ..Limits::default()
        },
        first,
    );
    // The first search is under way (it has reported an iteration).
    assert!(eventually(|| reached_depth(&first_seen, 1)));
    let (second, second_seen) = recorder();
    engine.go(pos, Vec::new(), Limits::depth(5), second);
    engine.wait();
    assert!(best_move(&first_seen).is_some());
    assert!(best_move(&second_seen).is_some_and(|r| r.depth == 5));
}

#[test]
fn threads_grow_and_shrink_between_searches() {
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    let mut engine = Engine::new();
    for threads in ["4", "1", "3", "2", "2", "1"] {
        engine.set_option("Threads", threads).unwrap();
        let r = engine.search(&pos, &[], Limits::depth(6), quiet());
        assert!(r.best.is_some() && r.depth == 6, "Threads {threads}");
        let (reporter, seen) = recorder();
        engine.go(pos, Vec::new(), Limits::depth(6), reporter);
        engine.wait();
        assert!(
            best_move(&seen).is_some_and(|r| r.depth == 6),
            "Threads {threads}"
        );
    }
    // Hash can be resized once the search is over.
    engine.set_option("Hash", "2").unwrap();
    assert!(engine
        .search(&pos, &[], Limits::depth(4), quiet())
        .best
        .is_some());
}

/// A reporter that panics at the first iteration: the main search thread
/// panics inside its search.
fn panicking_reporter() -> Reporter {
    Arc::new(|e| {
        if let SearchEvent::Iteration(_) = e {
            panic!("a reporter gives up");
        }
    })
}

#[test]
fn a_panic_in_the_main_search_thread_does_not_hang_the_engine() {
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    for threads in ["1", "3"] {
        let mut engine = Engine::new();
        engine.set_option("Threads", threads).unwrap();
        // In the background: no answer, and `wait` returns.
        engine.go(pos, Vec::new(), Limits::depth(6), panicking_reporter());
        engine.wait();
        assert!(!engine.is_searching());
        // The caller waiting for it gets the panic.
        let caught = catch_unwind(AssertUnwindSafe(|| {
            engine.search(&pos, &[], Limits::depth(6), panicking_reporter())
        }));
        assert!(caught.is_err());
        // And the engine searches again, with as many threads.
        let r = engine.search(&pos, &[], Limits::depth(6), quiet());
        assert!(r.best.is_some(), "Threads {threads}");
        let (reporter, seen) = recorder();
        engine.go(pos, Vec::new(), Limits::depth(6), reporter);
        engine.wait();
        assert!(best_move(&seen).is_some(), "Threads {threads}");
    }
}

/// Tables that know nothing, and that panic when a helper thread asks them.
struct HelperPanics {
    /// Set by the helper just before it panics.
    panicked: Arc<AtomicBool>,
}

impl Tablebase for HelperPanics {
    fn max_pieces(&self) -> u32 {
        7
    }

    fn probe_wdl(&self, _: &Position) -> Option<Wdl> {
        let name = std::thread::current().name().map(str::to_string);
        if name.is_some_and(|n| n.starts_with("kestrel-search-") && n != "kestrel-search-0") {
            self.panicked.store(true, Ordering::SeqCst);
            panic!("a helper fails");
        }
        None
    }

    fn probe_dtz(&self, _: &Position) -> Option<i32> {
        None
    }
}

#[test]
fn a_panic_in_a_helper_thread_does_not_hang_the_engine() {
    // Few pieces, no castling: the search probes after every pawn move or capture.
    let pos = Position::from_fen("4k3/3p4/8/8/8/8/3PP3/4K3 w - - 0 1").unwrap();
    let mut engine = Engine::new();
    engine.set_option("Threads", "2").unwrap();
    let panicked = Arc::new(AtomicBool::new(false));
    engine.set_tablebase(Some(Arc::new(HelperPanics {
        panicked: panicked.clone(),
    })));
    let (reporter, seen) = recorder();
    // Infinite, so that the helper gets to work (a fixed depth here is
    // done before a helper is woken); stopped once it has panicked.
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    engine.go(pos, Vec::new(), limits, reporter);
    assert!(eventually(|| panicked.load(Ordering::SeqCst)));
    engine.stop();
    engine.wait();
    assert!(
        best_move(&seen).is_none(),
        "a panicked search gives no answer"
    );
    let caught = catch_unwind(AssertUnwindSafe(|| {
        engine.search(&pos, &[], Limits::movetime(300), quiet())
    }));
    assert!(caught.is_err());
    engine.set_tablebase(None);
    let r = engine.search(&pos, &[], Limits::depth(8), quiet());
    assert!(r.best.is_some());
}
