//! A draw offered to the engine in a game against it (`POST /api/draw`):
//! the engine searches the position briefly and accepts when its score
//! says so (`engine::accepts_draw`: a pawn or more worse, or level from
//! move 30 on). The server weighs the offer itself, so that the score
//! never leaves it: a game whose evaluation is hidden stays hidden, and
//! the answer is only yes or no.

use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use engine::{accepts_draw, Reporter, Score, SearchEvent};
use gamerecord::settings::EngineSettings;
use gamerecord::view::GameView;
use matchcore::ending::Ending;
use serde::Serialize;

use crate::error::ApiError;
use crate::session::Session;

/// How long the engine weighs an offer.
const PROBE_MS: u64 = 700;

/// The engine's answer, and the game after it.
#[derive(Serialize, Debug)]
pub struct DrawAnswer {
    /// True when the engine agreed: the game is then drawn.
    pub accepted: bool,
    /// The game (over when accepted).
    pub state: GameView,
}

/// Weighs a draw offered by the side to move at the end of the game
/// against the engine (blocks for the search: call it off the async threads).
pub fn offer(session: &Arc<Session>) -> Result<DrawAnswer, ApiError> {
    let (root, keys, version) = {
        let record = session.record();
        if let Some(over) = record.over() {
            return Err(ApiError::conflict(format!(
                "the game is over already ({over})"
            )));
        }
        if !record.in_match() {
            return Err(ApiError::conflict(
                "a draw is offered to the engine in a game against it",
            ));
        }
        let (root, keys) = record.root_and_history(record.tree.mainline_end())?;
        (root, keys, record.version)
    };
    let settings = EngineSettings {
        movetime_ms: Some(PROBE_MS),
        own_book: Some(false),
        ..EngineSettings::default()
    };
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
        engine.go(root, keys, settings.limits()?, reporter);
    }
    let deadline = Instant::now() + Duration::from_millis(PROBE_MS) + Duration::from_secs(5);
    // The search scores for the side offering (to move); the engine's own view is the opposite.
    let mut score = None;
    while let Ok(Some(s)) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        score = Some(s);
    }
    let move_number = root.fullmove_number();
    let mut record = session.record();
    // A game that changed meanwhile (a takeback, a flag) is not drawn by an old answer.
    let accepted = score.is_some_and(|s: Score| accepts_draw(s.negated(), move_number))
        && record.version == version;
    if accepted {
        record.end(Ending::DrawAgreed)?;
    }
    Ok(DrawAnswer {
        accepted,
        state: GameView::new(&session.id, &record),
    })
}
