//! The searches an explanation rests on, for the hosts that run the engine
//! in-process (`kestrel explain`, the terminal game, the labelled set's
//! test): the best move from the position and its line, and the line after
//! the move explained.
//!
//! A search stopped by its limit part way through an iteration may report
//! a line of one move (the move that failed high). An explanation needs
//! the line, so each search keeps the longest line of its last exact
//! iteration that starts with its answer, and a line still short is
//! continued by searching the position at its end.

use std::sync::{Arc, Mutex};

use chess::{Move, Position};
use engine::{Engine, Limits, Score, SearchEvent};

/// Plies a line should reach before it is continued by another search.
const WANTED_PLIES: usize = 8;
/// How many times a short line is continued.
const CONTINUATIONS: usize = 3;

/// What the engine found about a move.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The engine's move in the position (none: no legal move).
    pub best: Option<Move>,
    /// Its line after the best move (the opponent's reply first).
    pub best_line: Vec<Move>,
    /// The position's score, the side to move's view.
    pub best_score: Score,
    /// The line after the move explained (the reply first).
    pub line: Vec<Move>,
    /// The score after the move explained, the mover's view.
    pub score: Score,
    /// The depth of the search of the position.
    pub depth: i32,
}

/// One search of `pos`: its answer, score (side to move's view), depth
/// and line (the answer first; see the module's note on short lines).
fn searched_line(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
) -> (Option<Move>, Score, i32, Vec<Move>) {
    let exact: Arc<Mutex<Vec<Move>>> = Arc::default();
    let seen = exact.clone();
    let reporter: engine::Reporter = Arc::new(move |event| {
        if let SearchEvent::Iteration(info) = event {
            if info.multipv == 1 && info.bound.is_exact() {
                if let Ok(mut line) = seen.lock() {
                    *line = info.pv;
                }
            }
        }
    });
    let result = engine.search(pos, history, limits.clone(), reporter);
    let exact = exact.lock().map(|l| l.clone()).unwrap_or_default();
    let line = if exact.first() == result.best.as_ref() && exact.len() > result.pv.len() {
        exact
    } else {
        result.pv.clone()
    };
    (result.best, result.user_score(), result.depth, line)
}

/// `line` from `pos`, continued by searches of the position at its end
/// while it is short of [`WANTED_PLIES`].
fn continued(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    mut line: Vec<Move>,
    limits: &Limits,
) -> Vec<Move> {
    for _ in 0..CONTINUATIONS {
        if line.len() >= WANTED_PLIES {
            break;
        }
        let mut end = *pos;
        let mut keys = history.to_vec();
        for &m in &line {
            if !end.is_legal(m) {
                return line;
            }
            keys.push(end.key());
            end.play_unchecked(m);
        }
        if !end.has_legal_moves() {
            break;
        }
        let (_, _, _, more) = searched_line(engine, &end, &keys, limits);
        if more.is_empty() {
            break;
        }
        line.extend(more);
    }
    line
}

/// Searches `pos` and the position after `mv` at `limits` with `engine`
/// (`history`: the keys of the game's positions before `pos`, for
/// repetitions). When `mv` is the engine's own move its line is the
/// first search's, and no second search runs.
pub fn search_move(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    mv: Move,
    limits: &Limits,
) -> Searched {
    let (best, best_score, depth, pv) = searched_line(engine, pos, history, limits);
    let pv = continued(engine, pos, history, pv, limits);
    let best_line: Vec<Move> = match pv.split_first() {
        Some((first, rest)) if Some(*first) == best => rest.to_vec(),
        _ => Vec::new(),
    };
    let (line, score) = if best == Some(mv) {
        (best_line.clone(), best_score)
    } else {
        line_after(engine, pos, history, mv, limits)
    };
    Searched {
        best,
        best_line,
        best_score,
        line,
        score,
        depth,
    }
}

/// The engine's line after `mv` from `pos` (the reply first) and the score
/// after it, the mover's view.
pub fn line_after(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    mv: Move,
    limits: &Limits,
) -> (Vec<Move>, Score) {
    let mut after = *pos;
    after.play_unchecked(mv);
    let mut keys = history.to_vec();
    keys.push(pos.key());
    let (_, score, _, line) = searched_line(engine, &after, &keys, limits);
    let line = continued(engine, &after, &keys, line, limits);
    (line, score.negated())
}
