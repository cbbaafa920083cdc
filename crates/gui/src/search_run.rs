//! Starting a search for a session, in one pass: the request says where it
//! looks and how (`GoBody::target`, gamerecord's checks), the session's
//! gate whether it starts (`Session::begin_search`), then the book when the
//! side uses it, else the engine in the background with a reporter that
//! turns its events into reports and the reports into
//! [`PageEvent`](gamerecord::page_event::PageEvent)s
//! (gamerecord's `SearchRun`, which the page without a server uses too)
//! and, for a game move, plays the move it finds (unless the game changed
//! meanwhile or the search was superseded or stopped).

use std::sync::{Arc, Weak};
use std::time::Instant;

use gamerecord::request::{GoAnswer, GoBody};
use gamerecord::search_gate::Begun;
use gamerecord::search_report::{SearchReport, SearchRun};

use crate::error::ApiError;
use crate::session::{AppState, Session};

/// Starts the search `go` asks for in `session`'s game (see
/// [`GoBody::target`]), unless the engine player's search serves it. With
/// `play`, the move found is played from the searched node. Its events
/// come on the session's stream, through its gate: a `started` event,
/// lines, statistics and the best move. Blocks while a previous search
/// winds down, so call it off the async threads.
pub fn start(state: &AppState, session: &Arc<Session>, go: &GoBody) -> Result<GoAnswer, ApiError> {
    let (limits, target) = go.target(&session.record())?;
    let purpose = go.purpose();
    let mut engine = session.engine();
    let spot = Some((target.node, target.version));
    let begun = session.begin_search(&engine, Some(purpose), spot, &target.root.fen());
    let answer = GoAnswer::of(begun, purpose);
    let Begun::New(seq) = begun else {
        return Ok(answer);
    };
    let run = Arc::new(SearchRun::new(seq, purpose, target));
    if go.asks_book() {
        let book_move = state
            .book
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pick(&run.target.root);
        if let Some(m) = book_move {
            drop(engine);
            let played = play_if_current(session, &run, m, None);
            session.send(&run.best_move_event(Some(m), true, played, 0));
            return Ok(answer);
        }
    }
    if let Err(e) = go.settings.apply(&mut engine) {
        drop(engine);
        session.stop_search(None);
        return Err(e.into());
    }
    state.update_tables(session, &mut engine);
    let weak = Arc::downgrade(session);
    let started = Instant::now();
    let reporting = run.clone();
    let reporter: engine::Reporter = Arc::new(move |event| {
        let Some(session) = Weak::upgrade(&weak) else {
            return;
        };
        let run = &reporting;
        let Some(report) = SearchReport::of(&event, &run.target.root, started.elapsed()) else {
            return;
        };
        match &report {
            SearchReport::Best { best, time_ms } => {
                let best = run.first_move(best.as_deref());
                let played = match best {
                    Some(m) if run.plays() => play_if_current(&session, run, m, Some(*time_ms)),
                    _ => false,
                };
                session.send(&run.best_move_event(best, false, played, *time_ms));
            }
            // Whether the page hears it is the gate's call (`Session::send`).
            _ => {
                if let Some(page_event) = run.event(&report) {
                    session.send(&page_event);
                }
            }
        }
    });
    engine.go(
        run.target.root,
        run.target.history.clone(),
        limits,
        reporter,
    );
    Ok(answer)
}

/// Plays `m`, found by `run`, when its search still runs (neither
/// superseded nor stopped) and the game is still where it searched (see
/// [`gamerecord::record::GameRecord::play_found`]). Sends the new state.
/// True when played.
fn play_if_current(
    session: &Arc<Session>,
    run: &SearchRun,
    m: chess::Move,
    ms: Option<u64>,
) -> bool {
    if !session.searches.running(run.search) {
        return false;
    }
    {
        let mut record = session.record();
        if record
            .play_found(run.target.version, run.target.node, m, ms)
            .is_none()
        {
            return false;
        }
        session.send_state(&record);
    }
    session.recount();
    true
}
