//! Starting a search for a session: the book first when the side uses it,
//! then the engine in the background with a reporter that turns its events
//! into JSON for the event stream and, for a game move, plays the move it
//! finds (unless the game changed meanwhile or a newer search replaced it).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Instant;

use engine::{SearchEvent, SearchResult};
use serde_json::json;

use crate::error::ApiError;
use crate::session::{AppState, Session};
use crate::settings::EngineSettings;
use crate::view::{line, GameView, MoveView, ScoreView};

/// Starts a search in `session`'s current position, or in the position
/// after `ply` plies of its game (the one a person views in the move list),
/// and returns its number (events carry it as `search`, and the searched
/// position as `fen`). With `play`, the move found is played.
/// Blocks while a previous search winds down, so call it off the async threads.
pub fn start(
    state: &AppState,
    session: &Arc<Session>,
    settings: &EngineSettings,
    play: bool,
    ply: Option<usize>,
) -> Result<u64, ApiError> {
    let limits = settings.limits()?;
    if play && limits.infinite {
        return Err(ApiError::bad_request(
            "an engine move needs a time or a depth, not infinite",
        ));
    }
    let (root, keys, version, mode) = {
        let record = session.record();
        let plies = record.game.moves().len();
        let at = ply.unwrap_or(plies);
        if at > plies {
            return Err(ApiError::bad_request(format!(
                "ply {at} is past the game's last move (it has {plies} plies)"
            )));
        }
        if play && at != plies {
            return Err(ApiError::bad_request(
                "an engine move is played in the game's current position: leave out ply",
            ));
        }
        let mut positions = record.positions();
        positions.truncate(at + 1);
        let root = positions.pop().unwrap_or(*record.game.start());
        if root.legal_moves().is_empty() || at == plies && record.over().is_some() {
            let why = record
                .over()
                .filter(|_| at == plies)
                .map_or("no legal move".to_string(), |o| o.reason);
            return Err(ApiError::conflict(format!("the game is over ({why})")));
        }
        let keys = positions.iter().map(chess::Position::key).collect();
        (root, keys, record.version, record.mode())
    };
    // The number changes under the engine's lock (see `Session::search_seq`).
    let mut engine = session.engine();
    let seq = session.search_seq.fetch_add(1, Ordering::SeqCst) + 1;
    engine.stop();
    if play && settings.own_book() {
        let book_move = state
            .book
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .pick(&root);
        if let Some(m) = book_move {
            drop(engine);
            let mv = MoveView::new(&root, m, mode);
            let played = play_if_current(session, seq, version, m, None);
            session.send(
                &json!({"type": "bestmove", "search": seq, "move": mv, "book": true,
                "played": played, "time_ms": 0}),
            );
            return Ok(seq);
        }
    }
    settings.apply(&mut engine)?;
    let weak = Arc::downgrade(session);
    let started = Instant::now();
    let white = root.turn() == chess::Color::White;
    let root_fen = root.fen();
    let reporter: engine::Reporter = Arc::new(move |event| {
        let Some(session) = Weak::upgrade(&weak) else {
            return;
        };
        match event {
            SearchEvent::Iteration(info) => {
                let ms = info.time.as_millis() as u64;
                session.send(&json!({
                    "type": "info",
                    "search": seq,
                    "fen": root_fen,
                    "depth": info.depth,
                    "seldepth": info.seldepth,
                    "multipv": info.multipv,
                    "score": ScoreView::white_view(info.user_score(), white),
                    "bound": info.bound.name(),
                    "nodes": info.nodes,
                    "nps": info.nodes * 1000 / ms.max(1),
                    "time_ms": ms,
                    "tbhits": info.tbhits,
                    "pv": line(&root, &info.pv, mode),
                }));
            }
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::Stats { stats, nodes, time } => {
                let ms = time.as_millis() as u64;
                session.send(&json!({
                    "type": "stats", "search": seq, "nodes": nodes,
                    "nps": nodes * 1000 / ms.max(1), "time_ms": ms, "text": stats.to_string(),
                }));
            }
            SearchEvent::BestMove(SearchResult { best, .. }) => {
                let ms = started.elapsed().as_millis() as u64;
                let played = match best {
                    Some(m) if play => play_if_current(&session, seq, version, m, Some(ms)),
                    _ => false,
                };
                session.send(&json!({
                    "type": "bestmove", "search": seq, "book": false, "played": played, "time_ms": ms,
                    "move": best.map(|m| MoveView::new(&root, m, mode)),
                }));
            }
        }
    });
    engine.go(root, keys, limits, reporter);
    Ok(seq)
}

/// Plays `m` when search `seq` is still the latest and the game is still at
/// `version`; sends the new state. True when played.
fn play_if_current(
    session: &Session,
    seq: u64,
    version: u64,
    m: chess::Move,
    ms: Option<u64>,
) -> bool {
    if session.search_seq.load(Ordering::SeqCst) != seq {
        return false;
    }
    let view = {
        let mut record = session.record();
        if record.version != version || record.play(m, ms).is_err() {
            return false;
        }
        GameView::new(&session.id, &record)
    };
    session.send(&json!({"type": "state", "state": view}));
    true
}
