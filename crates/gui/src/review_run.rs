//! Running the whole-game analysis pass ("Analyse game"): a short search of
//! every position of the game, one after another, in the background, on
//! the tab's own engine. What the pass found, and the view and lines made
//! of it, are `gamerecord`'s [`Review`]; this is the thread that feeds it.
//!
//! The pass never takes the engine from anyone: it starts a search only
//! when the engine is idle and no search of the page's runs, and a search
//! that someone else starts (live analysis, an engine player's move, a
//! stop) pre-empts it, after which the pass searches that position again
//! once the engine is free. Its searches are the server's own in the
//! session's gate (`Session::begin_search`), which says whether one was
//! superseded or stopped while it ran. Starting a pass stops live analysis
//! (never an engine player's move), which would hold the engine for good.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Weak};
use std::time::Duration;

use chess::Position;
use engine::{Limits, SearchEvent};
use gamerecord::review::{PassLimit, PositionEval, ReviewView};
use gamerecord::review_pass::{ReviewPass, Step};
use gamerecord::settings::EngineSettings;

use crate::budget::Held;
use crate::error::ApiError;
use crate::session::Session;
use gamerecord::page_event::PageEvent;
use gamerecord::search_gate::{Begun, Purpose};

/// How long the pass waits before looking again at a busy engine or a
/// search that has not ended.
const POLL: Duration = Duration::from_millis(40);

/// Starts a pass over `session`'s game (cancelling one that runs);
/// refused while the game's evaluation is hidden. `copy` holds the memory
/// for the pass's copy of the main line
/// ([`gamerecord::memory::line_copy_bytes`]), kept by its thread until it
/// ends. Joins the old pass's thread, so call it off the async threads.
pub fn start(session: &Arc<Session>, limit: PassLimit, copy: Held) -> Result<ReviewView, ApiError> {
    let mut pass = ReviewPass::new(&session.record(), limit)?;
    // One start or cancel at a time: the old thread ends before the new one begins.
    let serial = session
        .review_start
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    stop_thread(session, None);
    session.stop_search(Some(Purpose::Analysis));
    let cancel = {
        pass.begin(&mut session.game().review);
        session.review().fresh_cancel()
    };
    let weak = Arc::downgrade(session);
    let handle = std::thread::Builder::new()
        .name("kestrel-review".into())
        .spawn(move || {
            let _copy = copy;
            run(&weak, &pass, &cancel);
        })
        .map_err(|e| ApiError::busy(format!("the pass could not start: {e}")))?;
    session.review().keep_thread(handle);
    drop(serial);
    Ok(view(session))
}

/// Cancels the pass, if one runs (its search too, never another's).
/// Joins its thread, so call it off the async threads.
pub fn cancel(session: &Arc<Session>) -> ReviewView {
    let _serial = session
        .review_start
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    stop_thread(session, Some("cancelled"));
    view(session)
}

/// Signals the running pass to stop and waits for its thread.
fn stop_thread(session: &Session, message: Option<&str>) {
    session.game().review.cancel(message);
    let handle = session.review().cancel();
    if let Some(h) = handle {
        let _ = h.join();
    }
}

/// The pass's thread: the pass's steps (gamerecord's [`ReviewPass`]), each
/// search on the session's engine, each result shown to the page.
fn run(weak: &Weak<Session>, pass: &ReviewPass, cancel: &AtomicBool) {
    let limits = pass.limits();
    loop {
        let Some(session) = weak.upgrade() else {
            return;
        };
        let step = {
            let game = &mut *session.game();
            pass.next(&mut game.review, &game.record)
        };
        let step = match step {
            Step::Search {
                index,
                root,
                history,
            } => {
                let Some(eval) = search(&session, cancel, &root, &history, &limits) else {
                    return; // cancelled
                };
                let game = &mut *session.game();
                pass.found(&mut game.review, &game.record, index, eval)
            }
            other => other,
        };
        match step {
            Step::Show { goes_on } => {
                session.recount();
                session.send(&PageEvent::Analysis {
                    analysis: view(&session),
                });
                if !goes_on {
                    return;
                }
            }
            Step::End => return,
            // A result never asks for a search: the next step does.
            Step::Search { .. } => {}
        }
    }
}

/// Searches `pos` until a search of the pass's own ends un-pre-empted;
/// None when cancelled.
fn search(
    session: &Arc<Session>,
    cancel: &AtomicBool,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
) -> Option<PositionEval> {
    loop {
        if cancel.load(Ordering::SeqCst) {
            return None;
        }
        let (seq, results) = {
            let mut engine = session.engine();
            if engine.is_searching() || session.searches.serving_page() {
                drop(engine);
                std::thread::sleep(POLL);
                continue;
            }
            // Full strength, one line, the default options: another
            // search may have set a level or switched techniques off.
            if EngineSettings::default().apply(&mut engine).is_err() {
                return None;
            }
            let (tx, rx) = mpsc::channel();
            let reporter: engine::Reporter = Arc::new(move |event| {
                if let SearchEvent::BestMove(result) = event {
                    let _ = tx.send(result);
                }
            });
            let (Begun::New(seq) | Begun::Kept(seq)) =
                session.begin_search(&engine, None, None, "");
            engine.go(*pos, history.to_vec(), limits.clone(), reporter);
            (seq, rx)
        };
        let result = loop {
            match results.recv_timeout(POLL) {
                Ok(result) => break Some(result),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if cancel.load(Ordering::SeqCst) {
                        let engine = session.engine();
                        // Stop the search only while it is still the pass's.
                        if session.searches.running(seq) {
                            engine.stop();
                        }
                        return None;
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            }
        };
        let pre_empted = !session.searches.running(seq);
        match result {
            Some(r) if !pre_empted => {
                return Some(PositionEval::searched(
                    r.user_score(),
                    pos.turn(),
                    r.best,
                    &r.pv,
                    r.depth,
                ));
            }
            // Someone else's search took the engine: wait for it, then again.
            _ => continue,
        }
    }
}

/// The pass's results for `session`'s game as it is now (gamerecord's `GameState::review_view`).
pub fn view(session: &Session) -> ReviewView {
    session.game().review_view()
}
