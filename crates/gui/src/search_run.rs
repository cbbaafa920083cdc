//! Starting a search for a session, in one pass: the game says where it
//! looks (`GameRecord::search_target`), the session's gate whether it
//! starts (`Session::begin_search`), then the book when the side uses it,
//! else the engine in the background with a reporter that turns its
//! events into [`PageEvent`]s for the stream and, for a game move, plays
//! the move it finds (unless the game changed meanwhile or the search was
//! superseded or stopped).

use std::sync::{Arc, Weak};
use std::time::Instant;

use engine::{SearchEvent, SearchResult};
use gamerecord::record::{SearchAt, SearchTarget};
use gamerecord::settings::EngineSettings;
use gamerecord::tree::NodeId;
use gamerecord::view::{line, GameView, MoveView, ScoreView};
use serde::Serialize;

use crate::error::ApiError;
use crate::page_event::PageEvent;
use crate::search_gate::{Begun, Purpose};
use crate::session::{AppState, Session};

/// The answer to `POST /api/go`: the search that serves the request.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoAnswer {
    /// Its number; its events carry it.
    pub search: u64,
    /// What it is for: an analysis request during an engine player's
    /// move gets the move's search, whose lines are the analysis.
    pub purpose: Purpose,
    /// False when a search already running serves the request.
    pub started: bool,
}

/// Starts a search in `session`'s position on view, in the position after
/// `ply` plies of its main line, or at `node` of its tree (see
/// [`gamerecord::record::GameRecord::search_target`]), unless the engine
/// player's search serves it. With `play`, the move found is played from
/// the searched node. Its events come on the session's stream, through
/// its gate: a `started` event, lines, statistics and the best move.
/// Blocks while a previous search winds down, so call it off the async
/// threads.
pub fn start(
    state: &AppState,
    session: &Arc<Session>,
    settings: &EngineSettings,
    play: bool,
    at: SearchAt,
) -> Result<GoAnswer, ApiError> {
    let limits = settings.limits()?;
    if play && limits.infinite {
        return Err(ApiError::bad_request(
            "an engine move needs a time or a depth, not infinite",
        ));
    }
    let target = session.record().search_target(at, play)?;
    let SearchTarget {
        node,
        root,
        history,
        version,
        mode,
        hidden,
    } = target;
    let purpose = if play {
        Purpose::Move
    } else {
        Purpose::Analysis
    };
    let mut engine = session.engine();
    let seq = match session.begin_search(&engine, Some(purpose), Some((node, version)), &root.fen())
    {
        Begun::New(seq) => seq,
        Begun::Kept(search) => {
            return Ok(GoAnswer {
                search,
                purpose: Purpose::Move,
                started: false,
            })
        }
    };
    let answer = GoAnswer {
        search: seq,
        purpose,
        started: true,
    };
    if play && settings.own_book() {
        let book_move = state
            .book
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pick(&root);
        if let Some(m) = book_move {
            drop(engine);
            let mv = MoveView::new(&root, m, mode);
            let played = play_if_current(session, seq, version, node, m, None);
            session.send(&PageEvent::BestMove {
                search: seq,
                book: true,
                played,
                time_ms: 0,
                mv: (played || !hidden).then_some(mv),
            });
            return Ok(answer);
        }
    }
    if let Err(e) = settings.apply(&mut engine) {
        drop(engine);
        session.stop_search(None);
        return Err(e.into());
    }
    let weak = Arc::downgrade(session);
    let started = Instant::now();
    let side = root.turn();
    let root_fen = root.fen();
    let reporter: engine::Reporter = Arc::new(move |event| {
        let Some(session) = Weak::upgrade(&weak) else {
            return;
        };
        match event {
            // Scores, lines and statistics are the evaluation: not sent.
            SearchEvent::Iteration(_) | SearchEvent::Stats { .. } if hidden => {}
            // Whether the page hears it is the gate's call (`Session::send`).
            SearchEvent::Iteration(info) => {
                let ms = info.time.as_millis() as u64;
                session.send(&PageEvent::Info {
                    search: seq,
                    purpose,
                    fen: root_fen.clone(),
                    depth: info.depth,
                    seldepth: info.seldepth,
                    multipv: info.multipv,
                    score: ScoreView::white_view(info.user_score(), side),
                    bound: info.bound.name(),
                    nodes: info.nodes,
                    nps: info.nodes * 1000 / ms.max(1),
                    time_ms: ms,
                    tbhits: info.tbhits,
                    pv: line(&root, &info.pv, mode),
                });
            }
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::Stats { stats, nodes, time } => {
                let ms = time.as_millis() as u64;
                session.send(&PageEvent::Stats {
                    search: seq,
                    fen: root_fen.clone(),
                    nodes,
                    nps: nodes * 1000 / ms.max(1),
                    time_ms: ms,
                    text: stats.to_string(),
                });
            }
            SearchEvent::BestMove(SearchResult { best, .. }) => {
                let ms = started.elapsed().as_millis() as u64;
                let played = match best {
                    Some(m) if play => play_if_current(&session, seq, version, node, m, Some(ms)),
                    _ => false,
                };
                // A move found but not played is advice: not sent while hidden.
                let shown = best.filter(|_| played || !hidden);
                session.send(&PageEvent::BestMove {
                    search: seq,
                    book: false,
                    played,
                    time_ms: ms,
                    mv: shown.map(|m| MoveView::new(&root, m, mode)),
                });
            }
        }
    });
    engine.go(root, history, limits, reporter);
    Ok(answer)
}

/// Plays `m` from `node` when search `seq` still runs (neither superseded
/// nor stopped) and the game is still at `version`; the new move goes on
/// view when `node` was on view. Sends the new state. True when played.
fn play_if_current(
    session: &Session,
    seq: u64,
    version: u64,
    node: NodeId,
    m: chess::Move,
    ms: Option<u64>,
) -> bool {
    if !session.searches.running(seq) {
        return false;
    }
    let view = {
        let mut record = session.record();
        if record.version != version {
            return false;
        }
        let Ok(id) = record.play_from(node, m, ms) else {
            return false;
        };
        if record.current == node {
            record.current = id;
        }
        GameView::new(&session.id, &record)
    };
    session.send(&PageEvent::State { state: view });
    true
}
