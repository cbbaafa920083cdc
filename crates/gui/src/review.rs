//! The whole-game analysis pass ("Analyse game"): a short search of every
//! position of the game, one after another, in the background, on the
//! tab's own engine, and the view the page draws from it (the evaluation
//! graph, the judged moves, each side's summary, the bar and best-move
//! arrow of the position on view).
//!
//! The pass never takes the engine from anyone: it starts a search only
//! when the engine is idle and no search of the page's runs, and a search
//! that someone else starts (live analysis, an engine player's move, a
//! stop) pre-empts it, after which the pass searches that position again
//! once the engine is free. Its searches are the server's own in the
//! session's gate (`Session::begin_search`), which says whether one was
//! superseded or stopped while it ran. Starting a pass stops live analysis
//! (never an engine player's move), which would hold the engine for good. Results belong to the
//! game's moves, so undoing a move keeps those before it, and a new pass
//! at the same limit searches only positions it has not seen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use chess::{Color, Move, Position};
use engine::{Limits, Score, SearchEvent};
use gamerecord::judgement::{
    capped_cp, game_accuracy, summarise, win_percent, Judgement, SideSummary, CP_CAP,
};
use gamerecord::settings::EngineSettings;
use gamerecord::tree::ROOT;
use gamerecord::view::ScoreView;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::page_event::PageEvent;
use crate::search_gate::{Begun, Purpose};
use crate::session::Session;

/// How long the pass waits before looking again at a busy engine or a
/// search that has not ended.
const POLL: Duration = Duration::from_millis(40);
/// The default search per position (lichess's server analysis is a
/// fixed amount per position too).
const DEFAULT_MOVETIME_MS: u64 = 300;
/// Bounds on a pass's limits: short searches, so a pass stays minutes at most.
const MAX_DEPTH: i32 = 30;
const MOVETIME_MS: std::ops::RangeInclusive<u64> = 20..=5000;

/// How much to search each position: a depth or a time (default 300 ms).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PassLimit {
    /// Search each position to this depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i32>,
    /// Search each position this many milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
}

impl PassLimit {
    /// The limit with its default filled in, checked.
    pub fn checked(self) -> Result<PassLimit, ApiError> {
        match (self.depth, self.movetime_ms) {
            (None, None) => Ok(PassLimit {
                depth: None,
                movetime_ms: Some(DEFAULT_MOVETIME_MS),
            }),
            (Some(d), None) if (1..=MAX_DEPTH).contains(&d) => Ok(self),
            (None, Some(ms)) if MOVETIME_MS.contains(&ms) => Ok(self),
            (Some(_), Some(_)) => Err(ApiError::bad_request(
                "give depth or movetime_ms for the pass, not both",
            )),
            _ => Err(ApiError::bad_request(format!(
                "a pass searches each position to a depth from 1 to {MAX_DEPTH} or for {} to {} ms",
                MOVETIME_MS.start(),
                MOVETIME_MS.end()
            ))),
        }
    }

    fn limits(self) -> Limits {
        match (self.depth, self.movetime_ms) {
            (Some(d), _) => Limits::depth(d),
            (_, ms) => Limits::movetime(ms.unwrap_or(DEFAULT_MOVETIME_MS)),
        }
    }
}

/// Where a pass is.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum PassState {
    /// No pass was started.
    #[default]
    Idle,
    /// Searching.
    Running,
    /// Every position searched.
    Done,
    /// Cancelled, or stopped because the game changed under it.
    Cancelled,
}

/// The longest best line the pass keeps per position, in plies (what
/// "best lines into the moves" adds after a judged move).
const LINE_PLIES: usize = 10;

/// What the pass found in one position.
#[derive(Debug, Clone)]
struct PositionEval {
    /// White's view.
    score: ScoreView,
    /// White's winning chances, percent.
    win: f64,
    /// Capped centipawns, White's view.
    cp: i32,
    best: Option<Move>,
    /// The search's principal variation, `best` first, at most [`LINE_PLIES`].
    line: Vec<Move>,
    depth: i32,
}

impl PositionEval {
    /// The value of a position without a legal move: mate or stalemate.
    fn terminal(pos: &Position) -> PositionEval {
        let (score, win, cp) = match (pos.in_check(), pos.turn() == Color::White) {
            (true, true) => (ScoreView::Mate(0), 0.0, -CP_CAP),
            (true, false) => (ScoreView::Mate(0), 100.0, CP_CAP),
            (false, _) => (ScoreView::Cp(0), 50.0, 0),
        };
        PositionEval {
            score,
            win,
            cp,
            best: None,
            line: Vec::new(),
            depth: 0,
        }
    }

    fn searched(
        score: Score,
        side: Color,
        best: Option<Move>,
        pv: &[Move],
        depth: i32,
    ) -> PositionEval {
        let score = ScoreView::white_view(score, side);
        // The line starts with the move played, when the search has one.
        let line = if pv.first() == best.as_ref() {
            pv[..pv.len().min(LINE_PLIES)].to_vec()
        } else {
            best.into_iter().collect()
        };
        PositionEval {
            score,
            win: win_percent(score),
            cp: capped_cp(score),
            best,
            line,
            depth,
        }
    }
}

/// A tab's pass and its results.
#[derive(Default)]
pub struct Review {
    pass: u64,
    state: PassState,
    message: Option<String>,
    limit: PassLimit,
    /// The game the results belong to: its serial (see
    /// [`gamerecord::record::GameRecord::serial`]), start and moves.
    game: u64,
    start: Option<Position>,
    moves: Vec<Move>,
    /// Per position of that game (the start first), once searched.
    evals: Vec<Option<PositionEval>>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Review {
    /// About how many bytes the results hold beyond the struct itself.
    pub fn heap_bytes(&self) -> usize {
        self.moves.capacity() * std::mem::size_of::<Move>()
            + self.evals.capacity() * std::mem::size_of::<Option<PositionEval>>()
            + self
                .evals
                .iter()
                .flatten()
                .map(|e| e.line.capacity() * std::mem::size_of::<Move>())
                .sum::<usize>()
            + self.message.as_ref().map_or(0, String::capacity)
    }
}

/// Starts a pass over `session`'s game (cancelling one that runs);
/// refused while the game's evaluation is hidden. Joins the old pass's
/// thread, so call it off the async threads.
pub fn start(session: &Arc<Session>, limit: PassLimit) -> Result<ReviewView, ApiError> {
    let limit = limit.checked()?;
    let (game, start, moves, positions) = {
        let record = session.record();
        if record.eval_hidden() {
            return Err(ApiError::conflict(
                "the evaluation of this game is hidden until it ends: analyse it afterwards",
            ));
        }
        (
            record.serial,
            record.start(),
            record.mainline_moves(),
            record.positions(),
        )
    };
    // One start or cancel at a time: the old thread ends before the new one begins.
    let serial = session
        .review_start
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    stop_thread(session, None);
    session.stop_search(Some(Purpose::Analysis));
    let (pass, cancel) = {
        let mut review = session.review();
        let keep = if review.game == game && review.start == Some(start) && review.limit == limit {
            common_prefix(&review.moves, &moves) + 1
        } else {
            0
        };
        review.evals.truncate(keep);
        review.evals.resize(positions.len(), None);
        review.game = game;
        review.start = Some(start);
        review.moves = moves;
        review.limit = limit;
        review.pass += 1;
        review.state = PassState::Running;
        review.message = None;
        review.cancel = Arc::new(AtomicBool::new(false));
        (review.pass, review.cancel.clone())
    };
    let weak = Arc::downgrade(session);
    let handle = std::thread::Builder::new()
        .name("kestrel-review".into())
        .spawn(move || run(weak, pass, cancel, positions, limit.limits()))
        .map_err(|e| ApiError::conflict(format!("the pass could not start: {e}")))?;
    session.review().thread = Some(handle);
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
    let handle = {
        let mut review = session.review();
        review.cancel.store(true, Ordering::SeqCst);
        if review.state == PassState::Running {
            review.state = PassState::Cancelled;
            review.message = message.map(str::to_string);
        }
        review.thread.take()
    };
    if let Some(h) = handle {
        let _ = h.join();
    }
}

fn common_prefix(a: &[Move], b: &[Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The pass's thread: each position not yet searched, in game order.
fn run(
    weak: Weak<Session>,
    pass: u64,
    cancel: Arc<AtomicBool>,
    positions: Vec<Position>,
    limits: Limits,
) {
    let keys: Vec<u64> = positions.iter().map(Position::key).collect();
    for (i, pos) in positions.iter().enumerate() {
        let Some(session) = weak.upgrade() else {
            return;
        };
        if session.review().evals.get(i).is_some_and(Option::is_some) {
            continue;
        }
        let eval = if pos.legal_moves().is_empty() {
            Some(PositionEval::terminal(pos))
        } else {
            search(&session, &cancel, pos, &keys[..i], &limits)
        };
        let Some(eval) = eval else {
            return; // cancelled
        };
        if !store(&session, pass, &positions, i, eval) {
            return;
        }
        session.send(&PageEvent::Analysis {
            analysis: view(&session),
        });
    }
    if let Some(session) = weak.upgrade() {
        {
            let mut review = session.review();
            if review.pass == pass && review.state == PassState::Running {
                review.state = PassState::Done;
            }
        }
        session.send(&PageEvent::Analysis {
            analysis: view(&session),
        });
    }
}

/// Searches `pos` until a search of the pass's own ends un-pre-empted;
/// None when cancelled.
fn search(
    session: &Session,
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

/// Keeps the result for position `i` while the pass is current and the
/// game still holds that position; false when the pass should end.
fn store(
    session: &Session,
    pass: u64,
    positions: &[Position],
    i: usize,
    eval: PositionEval,
) -> bool {
    let still_there = {
        let record = session.record();
        let moves = record.mainline_moves();
        let (review_game, review_moves) = {
            let review = session.review();
            (review.game, review.moves.clone())
        };
        record.serial == review_game
            && record.start() == positions[0]
            && moves.len() >= i
            && review_moves.len() >= i
            && moves[..i] == review_moves[..i]
            && !record.eval_hidden()
    };
    let mut review = session.review();
    if review.pass != pass || review.state != PassState::Running {
        return false;
    }
    if !still_there {
        review.state = PassState::Cancelled;
        review.message = Some("the game changed".into());
        drop(review);
        session.send(&PageEvent::Analysis {
            analysis: view(session),
        });
        return false;
    }
    if let Some(slot) = review.evals.get_mut(i) {
        *slot = Some(eval);
    }
    true
}

/// One position's evaluation as the page shows it.
#[derive(Serialize, Debug, Clone)]
pub struct EvalView {
    /// White's view.
    pub score: ScoreView,
    /// White's winning chances, percent (one decimal): the graph's height.
    pub win: f64,
    /// The best move found, in SAN.
    pub best: Option<String>,
    /// The same move in UCI (`g1f3`): its squares, for the page's arrow.
    pub best_uci: Option<String>,
    /// The depth reached.
    pub depth: i32,
}

/// One move, judged.
#[derive(Serialize, Debug, Clone)]
pub struct MoveReview {
    /// Plies from the start up to and including this move.
    pub ply: usize,
    /// The move.
    pub san: String,
    /// Who played it: `w` or `b`.
    pub side: char,
    /// The winning chances it cost its side, percentage points (one decimal).
    pub loss: f64,
    /// The centipawns it cost its side (scores capped at ±1000).
    pub cp_loss: i32,
    /// Inaccuracy, mistake, blunder, or none.
    pub judgement: Option<Judgement>,
    /// The pass's best move in the position before it, in SAN.
    pub best: Option<String>,
}

/// Both sides' summaries.
#[derive(Serialize, Debug, Clone)]
pub struct Summary {
    /// White's.
    pub w: SideSummary,
    /// Black's.
    pub b: SideSummary,
}

/// The pass as `GET /api/analysis` answers it, for the game as it is now.
#[derive(Serialize, Debug, Clone)]
pub struct ReviewView {
    /// Idle, running, done or cancelled.
    pub state: PassState,
    /// Why it stopped, when it did not finish.
    pub message: Option<String>,
    /// The pass's number (0: none yet).
    pub pass: u64,
    /// True while the game's evaluation is hidden (nothing else is given).
    pub hidden: bool,
    /// The search per position.
    pub limit: PassLimit,
    /// Positions of the game searched.
    pub analysed: usize,
    /// Positions of the game (its plies and the start).
    pub total: usize,
    /// Per position, the start first: its evaluation once searched.
    pub positions: Vec<Option<EvalView>>,
    /// Per move: its judgement once both its positions are searched.
    pub moves: Vec<Option<MoveReview>>,
    /// Each side's figures over its judged moves.
    pub summary: Option<Summary>,
}

/// The pass's results for `session`'s game as it is now: results of moves
/// since taken back or replaced are left out; nothing while the evaluation
/// is hidden.
pub fn view(session: &Session) -> ReviewView {
    let (game, positions, moves, hidden, mode) = {
        let record = session.record();
        (
            record.serial,
            record.positions(),
            record.mainline_moves(),
            record.eval_hidden(),
            record.mode(),
        )
    };
    let review = session.review();
    // A pass over another game (this tab's before a new one was set up or
    // imported) says nothing about this one.
    let ours = review.game == game;
    let mut out = ReviewView {
        state: if ours { review.state } else { PassState::Idle },
        message: review.message.clone().filter(|_| ours),
        pass: review.pass,
        hidden,
        limit: review.limit,
        analysed: 0,
        total: positions.len(),
        positions: Vec::new(),
        moves: Vec::new(),
        summary: None,
    };
    if hidden {
        return out;
    }
    let valid = if ours && review.start == positions.first().copied() {
        common_prefix(&review.moves, &moves) + 1
    } else {
        0
    };
    let evals: Vec<Option<PositionEval>> = (0..positions.len())
        .map(|i| {
            if i < valid {
                review.evals.get(i).cloned().flatten()
            } else {
                None
            }
        })
        .collect();
    drop(review);
    let san = |i: usize, m: Option<Move>| m.map(|m| positions[i].san(m));
    out.analysed = evals.iter().filter(|e| e.is_some()).count();
    out.positions = evals
        .iter()
        .enumerate()
        .map(|(i, e)| {
            e.as_ref().map(|e| EvalView {
                score: e.score,
                win: (e.win * 10.0).round() / 10.0,
                best: san(i, e.best),
                best_uci: e.best.map(|m| m.to_uci(mode).to_string()),
                depth: e.depth,
            })
        })
        .collect();
    let mut sides: [Vec<(i32, Option<Judgement>)>; 2] = [Vec::new(), Vec::new()];
    out.moves = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let (Some(before), Some(after)) = (&evals[i], &evals[i + 1]) else {
                return None;
            };
            let white = positions[i].turn() == Color::White;
            let sign = if white { 1 } else { -1 };
            let mover = |win: f64| if white { win } else { 100.0 - win };
            let loss = (mover(before.win) - mover(after.win)).max(0.0);
            let cp_loss = (sign * before.cp - sign * after.cp).max(0);
            // The pass's own best move is no error, whatever the next
            // position's (deeper-looking) score says.
            let judgement = if before.best == Some(m) {
                None
            } else {
                Judgement::of_move(before.score, after.score, white)
            };
            sides[usize::from(!white)].push((cp_loss, judgement));
            Some(MoveReview {
                ply: i + 1,
                san: positions[i].san(m),
                side: if white { 'w' } else { 'b' },
                loss: (loss * 10.0).round() / 10.0,
                cp_loss,
                judgement,
                best: san(i, before.best),
            })
        })
        .collect();
    if out.analysed > 0 {
        let cps: Vec<Option<i32>> = evals.iter().map(|e| e.as_ref().map(|e| e.cp)).collect();
        let white_first = positions.first().is_some_and(|p| p.turn() == Color::White);
        let [w, b] = game_accuracy(&cps, white_first);
        out.summary = Some(Summary {
            w: summarise(&sides[0], w),
            b: summarise(&sides[1], b),
        });
    }
    out
}

/// A score as lichess writes it in its analysis comments: pawns with two
/// decimals, `#3` / `#-3` for a mate.
fn score_text(score: ScoreView) -> String {
    match score {
        ScoreView::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        ScoreView::Mate(n) => format!("#{n}"),
    }
}

/// Adds the pass's best line after each inaccuracy, mistake and blunder of
/// the main line (or only after the one at `ply`), as lichess adds its
/// computer analysis to a game: the line from the position before the
/// move, as a variation, and on the move a comment as lichess writes it,
/// `(0.35 → -1.20) Mistake. Nf3 was best.`, unless the move has a comment
/// already (yours stays). A line already there is not added twice.
/// Returns how many lines were added; refused while the evaluation is
/// hidden or the game against the engine goes on, and when no judged move
/// (or none at `ply`) has a line.
pub fn add_best_lines(session: &Session, ply: Option<usize>) -> Result<usize, ApiError> {
    let judged = view(session);
    if judged.hidden {
        return Err(ApiError::conflict(
            "the evaluation of this game is hidden until it ends",
        ));
    }
    let targets: Vec<(usize, Judgement)> = judged
        .moves
        .iter()
        .flatten()
        .filter_map(|m| m.judgement.map(|j| (m.ply, j)))
        .filter(|&(p, _)| ply.is_none_or(|want| want == p))
        .collect();
    if targets.is_empty() {
        return Err(match ply {
            Some(p) => ApiError::bad_request(format!(
                "move {p} of the main line is not judged an inaccuracy, mistake or blunder"
            )),
            None => ApiError::conflict(
                "no inaccuracy, mistake or blunder to add a line for: analyse the game first",
            ),
        });
    }
    let mut record = session.record();
    if record.in_match() {
        return Err(ApiError::conflict(
            "a game against the computer takes lines once it ends",
        ));
    }
    // Lines of the pass over this very game, its main line as judged.
    let evals: Vec<Option<PositionEval>> = {
        let review = session.review();
        let moves = record.mainline_moves();
        if review.game != record.serial
            || review.start != Some(record.start())
            || common_prefix(&review.moves, &moves) < moves.len()
        {
            return Err(ApiError::conflict(
                "the game changed since it was analysed: analyse it again",
            ));
        }
        review.evals.clone()
    };
    let mainline = record.tree.mainline();
    let positions = record.positions();
    let mut added = 0;
    for (p, judgement) in targets {
        let (Some(Some(before)), Some(Some(after)), Some(&played)) =
            (evals.get(p - 1), evals.get(p), mainline.get(p - 1))
        else {
            continue;
        };
        let Some(first) = before.line.first() else {
            continue;
        };
        let parent = if p == 1 { ROOT } else { mainline[p - 2] };
        let new = record.tree.get(parent).is_some_and(|n| {
            !n.children
                .iter()
                .any(|&c| record.tree.get(c).and_then(|c| c.mv) == Some(*first))
        });
        let mut at = parent;
        for &m in &before.line {
            at = record.play_from(at, m, None)?;
        }
        added += usize::from(new);
        let commented = record
            .tree
            .get(played)
            .is_some_and(|n| !n.comments.is_empty());
        if !commented {
            let word = match judgement {
                Judgement::Inaccuracy => "Inaccuracy",
                Judgement::Mistake => "Mistake",
                Judgement::Blunder => "Blunder",
            };
            let best = positions[p - 1].san(*first);
            let text = format!(
                "({} → {}) {word}. {best} was best.",
                score_text(before.score),
                score_text(after.score)
            );
            record.annotate(played, Some(&text), None)?;
        }
    }
    Ok(added)
}
