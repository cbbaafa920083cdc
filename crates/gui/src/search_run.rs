//! Starting a search for a session: the book first when the side uses it,
//! then the engine in the background with a reporter that turns its events
//! into JSON for the event stream and, for a game move, plays the move it
//! finds (unless the game changed meanwhile or a newer search replaced it).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Instant;

use engine::{SearchEvent, SearchResult};

use crate::error::ApiError;
use crate::page_event::PageEvent;
use crate::record::GameRecord;
use crate::session::{AppState, Session};
use crate::settings::EngineSettings;
use crate::tree::{NodeId, ROOT};
use crate::view::{line, GameView, MoveView, ScoreView};

/// Where a search looks: the position on view unless told otherwise.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchAt {
    /// The position after this many plies of the main line.
    pub ply: Option<usize>,
    /// This node of the tree.
    pub node: Option<NodeId>,
}

/// Starts a search in `session`'s position on view, in the position after
/// `ply` plies of its main line, or at `node` of its tree, and returns its
/// number (events carry it as `search`, and the searched position as
/// `fen`). With `play`, the move found is played from the searched node
/// (during a game against the engine: the end of the game, wherever the
/// person looks). Blocks while a previous search winds down, so call it
/// off the async threads.
pub fn start(
    state: &AppState,
    session: &Arc<Session>,
    settings: &EngineSettings,
    play: bool,
    at: SearchAt,
) -> Result<u64, ApiError> {
    let limits = settings.limits()?;
    if play && limits.infinite {
        return Err(ApiError::bad_request(
            "an engine move needs a time or a depth, not infinite",
        ));
    }
    let (node, root, keys, version, mode, hidden) = {
        let record = session.record();
        // A hidden evaluation is not given out: no analysis, and an engine
        // player's search reports nothing but its move (see the reporter).
        let hidden = record.eval_hidden();
        if hidden && !play {
            return Err(ApiError::conflict(
                "the evaluation of this game is hidden until it ends: analyse it afterwards",
            ));
        }
        let mainline = record.tree.mainline();
        let node = match (at.ply, at.node) {
            (Some(_), Some(_)) => return Err(ApiError::bad_request("give ply or node, not both")),
            (Some(0), None) => ROOT,
            (Some(ply), None) => *mainline.get(ply - 1).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "ply {ply} is past the game's last move (it has {} plies)",
                    mainline.len()
                ))
            })?,
            (None, Some(node)) => {
                record.tree.node(node)?;
                node
            }
            (None, None) if play && record.in_match() => record.tree.mainline_end(),
            (None, None) => record.current,
        };
        if play {
            // Refused where a person's move would be (after the game's end,
            // off the line of a game against the engine).
            if !record.may_play_from(node) {
                let over = record.over().map_or(String::new(), |o| format!(" ({o})"));
                return Err(ApiError::conflict(format!(
                    "no engine move can be played there{over}"
                )));
            }
        }
        let (root, keys) = root_and_history(&record, node)?;
        if root.legal_moves().is_empty()
            || node == record.tree.mainline_end() && record.over().is_some()
        {
            let why = record
                .over()
                .filter(|_| node == record.tree.mainline_end())
                .map_or("no legal move".to_string(), |o| o.to_string());
            return Err(ApiError::conflict(format!("the game is over ({why})")));
        }
        (node, root, keys, record.version, record.mode(), hidden)
    };
    // The number changes under the engine's lock (see `Session::search_seq`).
    let mut engine = session.engine();
    let seq = session.search_seq.fetch_add(1, Ordering::SeqCst) + 1;
    session.started_seq.store(seq, Ordering::SeqCst);
    engine.stop();
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
            return Ok(seq);
        }
    }
    settings.apply(&mut engine)?;
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
            // Stale lines stay here: a search stopped or replaced (the page
            // moved on) says nothing the page should draw.
            SearchEvent::Iteration(_) if session.search_seq.load(Ordering::SeqCst) != seq => {}
            SearchEvent::Iteration(info) => {
                let ms = info.time.as_millis() as u64;
                session.send(&PageEvent::Info {
                    search: seq,
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
            // A stopped search's statistics still show (analysis turned
            // off); a replaced one's are about a search nobody looks at.
            SearchEvent::Stats { .. } if session.started_seq.load(Ordering::SeqCst) != seq => {}
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
    engine.go(root, keys, limits, reporter);
    Ok(seq)
}

/// The position of node `node` and the keys of the positions before it
/// in its game (the engine's repetition history).
pub fn root_and_history(
    record: &GameRecord,
    node: NodeId,
) -> Result<(chess::Position, Vec<u64>), ApiError> {
    let game = record.tree.game(node)?;
    let mut keys: Vec<u64> = vec![game.start().key()];
    let mut pos = *game.start();
    for &m in game.moves() {
        pos.play_unchecked(m);
        keys.push(pos.key());
    }
    keys.pop();
    Ok((*game.position(), keys))
}

/// Plays `m` from `node` when search `seq` is still the latest and the game
/// is still at `version`; the new move goes on view when `node` was on
/// view. Sends the new state. True when played.
fn play_if_current(
    session: &Session,
    seq: u64,
    version: u64,
    node: NodeId,
    m: chess::Move,
    ms: Option<u64>,
) -> bool {
    if session.search_seq.load(Ordering::SeqCst) != seq {
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
