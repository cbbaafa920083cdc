//! A draw offered to the engine in a game against it (`POST /api/draw`):
//! the engine searches the position briefly on this thread and answers
//! (what it weighs and how it answers is `gamerecord`'s
//! [`DrawProbe`]). The server weighs the offer itself, so that the score
//! never leaves it: a game whose evaluation is hidden stays hidden, and
//! the answer is only yes or no.

use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use axum::response::Response;
use engine::{Reporter, SearchEvent};
use gamerecord::draw_offer::{DrawProbe, PROBE_MS};
use gamerecord::view::GameJson;
use serde::Serialize;

use crate::error::ApiError;
use crate::session::{AppState, Session};

/// The answer to an offer (gamerecord's `DrawAnswer`), the game written
/// as it streams out.
#[derive(Serialize)]
struct Answer<'a> {
    accepted: bool,
    state: GameJson<'a>,
}

/// Weighs a draw offered by the side to move at the end of the game
/// against the engine and answers `{"accepted", "state"}` (blocks for the
/// search: call it off the async threads).
pub fn offer(state: &AppState, session: &Arc<Session>) -> Result<Response, ApiError> {
    let probe = DrawProbe::of(&session.record())?;
    let settings = DrawProbe::settings();
    let (tx, rx) = mpsc::channel();
    {
        // The server's own search: whatever ran before is superseded.
        let mut engine = session.engine();
        session.begin_search(&engine, None, None, "");
        settings.apply(&mut engine)?;
        let reporter: Reporter = Arc::new(move |event| match event {
            SearchEvent::Iteration(info) if info.multipv == 1 => {
                let _ = tx.send(Some(info.user_score()));
            }
            SearchEvent::BestMove(_) => {
                let _ = tx.send(None);
            }
            _ => {}
        });
        engine.go(
            probe.root,
            probe.history.clone(),
            settings.limits()?,
            reporter,
        );
    }
    let deadline = Instant::now() + Duration::from_millis(PROBE_MS) + Duration::from_secs(5);
    let mut score = None;
    while let Ok(Some(s)) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        score = Some(s);
    }
    let mut record = session.record();
    let accepted = probe.answer(score, &mut record)?;
    let answer = Answer {
        accepted,
        state: GameJson::new(&session.id, &record),
    };
    state.json_answer(session, &answer)
}
