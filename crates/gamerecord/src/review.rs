//! The whole-game analysis pass's results ("Analyse game"): what a short
//! search of every position of the game found, the view the page draws
//! from it (the evaluation graph, the judged moves, each side's summary,
//! the bar and best-move arrow of the position on view), and the best
//! lines it adds to the game after its errors, as lichess does.
//!
//! Who searches is the host's business (the GUI's server runs a thread on
//! the tab's engine): it begins a pass ([`Review::begin`]), stores each
//! position's result ([`Review::store`]) and finishes it
//! ([`Review::finish`]). Results belong to the game's moves, so undoing a
//! move keeps those before it, and a new pass at the same limit searches
//! only positions it has not seen.

use chess::{Color, Move, Position};
use engine::{Limits, Score};
use serde::{Deserialize, Serialize};

use crate::error::{Conflict, GameError, Invalid};
use crate::judgement::{
    capped_cp, game_accuracy, summarise, win_percent, Judgement, SideSummary, CP_CAP,
};
use crate::record::GameRecord;
use crate::tree::ROOT;
use crate::view::ScoreView;

/// The default search per position (lichess's server analysis is a
/// fixed amount per position too).
const DEFAULT_MOVETIME_MS: u64 = 300;
pub use crate::limits::{MAX_PASS_DEPTH, PASS_MOVETIME_MS};

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
    pub fn checked(self) -> Result<PassLimit, GameError> {
        match (self.depth, self.movetime_ms) {
            (None, None) => Ok(PassLimit {
                depth: None,
                movetime_ms: Some(DEFAULT_MOVETIME_MS),
            }),
            (Some(d), None) if (1..=MAX_PASS_DEPTH).contains(&d) => Ok(self),
            (None, Some(ms)) if PASS_MOVETIME_MS.contains(&ms) => Ok(self),
            (Some(_), Some(_)) => Err(Invalid::PassLimits.into()),
            _ => Err(Invalid::PassLimitRange.into()),
        }
    }

    /// The search limits of each position's search.
    pub fn limits(self) -> Limits {
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
pub(crate) const LINE_PLIES: usize = 10;

/// What the pass found in one position.
#[derive(Debug, Clone)]
pub struct PositionEval {
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
    pub fn terminal(pos: &Position) -> PositionEval {
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

    /// What a search found: its `score` for `side` (the side to move), its
    /// move, its principal variation and the depth it reached.
    pub fn searched(
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

/// The game a pass searches, as it was when the pass began.
#[derive(Debug, Clone)]
pub struct PassGame {
    /// Which game it is ([`GameRecord::serial`]).
    pub serial: u64,
    /// Its start.
    pub start: Position,
    /// Its main line's moves.
    pub moves: Vec<Move>,
    /// Every position of its main line, the start first: what the pass searches.
    pub positions: Vec<Position>,
}

impl PassGame {
    /// The main line of `record`; refused while its evaluation is hidden.
    pub fn of(record: &GameRecord) -> Result<PassGame, GameError> {
        if record.eval_hidden() {
            return Err(Conflict::EvalHidden.into());
        }
        Ok(PassGame {
            serial: record.serial,
            start: record.start(),
            moves: record.mainline_moves(),
            positions: record.positions(),
        })
    }
}

/// What became of a position's result offered to [`Review::store`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// Kept: the pass goes on.
    Kept,
    /// Dropped: the pass was cancelled or another began.
    Stale,
    /// Dropped, and the pass cancelled: the game no longer holds that position.
    GameChanged,
}

/// A game's pass and its results.
#[derive(Default, Debug, Clone)]
pub struct Review {
    pass: u64,
    state: PassState,
    message: Option<String>,
    limit: PassLimit,
    /// The game the results belong to: its serial (see
    /// [`GameRecord::serial`]), start and moves.
    game: u64,
    start: Option<Position>,
    moves: Vec<Move>,
    /// Per position of that game (the start first), once searched.
    evals: Vec<Option<PositionEval>>,
}

impl Review {
    /// The bytes the results hold beyond the struct itself, each block
    /// with the allocator's cost ([`crate::heap::block`]).
    pub fn heap_bytes(&self) -> usize {
        use crate::heap::block;
        block(self.moves.capacity() * std::mem::size_of::<Move>())
            + block(self.evals.capacity() * std::mem::size_of::<Option<PositionEval>>())
            + self
                .evals
                .iter()
                .flatten()
                .map(|e| block(e.line.capacity() * std::mem::size_of::<Move>()))
                .sum::<usize>()
            + self.message.as_ref().map_or(0, |m| block(m.capacity()))
    }

    /// Begins a new pass over `game` at `limit` (checked), keeping the
    /// results of the moves it shares with the game of the pass before,
    /// when that was the same game at the same limit. Its number.
    pub fn begin(&mut self, game: &PassGame, limit: PassLimit) -> u64 {
        let keep =
            if self.game == game.serial && self.start == Some(game.start) && self.limit == limit {
                common_prefix(&self.moves, &game.moves) + 1
            } else {
                0
            };
        self.evals.truncate(keep);
        self.evals.resize(game.positions.len(), None);
        self.game = game.serial;
        self.start = Some(game.start);
        self.moves.clone_from(&game.moves);
        self.limit = limit;
        self.pass += 1;
        self.state = PassState::Running;
        self.message = None;
        self.pass
    }

    /// Cancels the pass, if one runs, saying why (`None`: nothing to say).
    pub fn cancel(&mut self, message: Option<&str>) {
        if self.state == PassState::Running {
            self.state = PassState::Cancelled;
            self.message = message.map(str::to_string);
        }
    }

    /// Pass `pass` searched every position: done, unless it was cancelled
    /// or another began.
    pub fn finish(&mut self, pass: u64) {
        if self.pass == pass && self.state == PassState::Running {
            self.state = PassState::Done;
        }
    }

    /// True when position `i` (0: the start) has its result.
    pub fn searched(&self, i: usize) -> bool {
        self.evals.get(i).is_some_and(Option::is_some)
    }

    /// Keeps `eval` for position `i` of pass `pass` while that pass runs
    /// and `record` still holds that position (same game, same moves up
    /// to it, its evaluation not hidden); else the pass is cancelled.
    pub fn store(
        &mut self,
        pass: u64,
        i: usize,
        eval: PositionEval,
        record: &GameRecord,
    ) -> Stored {
        if self.pass != pass || self.state != PassState::Running {
            return Stored::Stale;
        }
        let moves = record.mainline_moves();
        let still_there = record.serial == self.game
            && self.start == Some(record.start())
            && moves.len() >= i
            && self.moves.len() >= i
            && moves[..i] == self.moves[..i]
            && !record.eval_hidden();
        if !still_there {
            self.state = PassState::Cancelled;
            self.message = Some("the game changed".into());
            return Stored::GameChanged;
        }
        if let Some(slot) = self.evals.get_mut(i) {
            *slot = Some(eval);
        }
        Stored::Kept
    }
}

/// The pass's line after move `i` of the game's `moves` (the opponent's
/// reply first): the line of the position after it, continued by the
/// lines of the positions further on for as long as the game followed it
/// (a search stopped part way may keep a line of one move).
fn line_after(evals: &[Option<PositionEval>], moves: &[Move], i: usize) -> Vec<Move> {
    let mut line: Vec<Move> = Vec::new();
    let mut at = i + 1;
    while line.len() < LINE_PLIES {
        let Some(Some(e)) = evals.get(at) else {
            break;
        };
        let followed = moves
            .get(i + 1..at)
            .is_some_and(|played| played == line.as_slice());
        if !followed || e.line.is_empty() {
            break;
        }
        line.extend_from_slice(&e.line);
        at = i + 1 + line.len();
    }
    line.truncate(LINE_PLIES);
    line
}

fn common_prefix(a: &[Move], b: &[Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
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
    /// Why the move goes wrong, in words ("Nf6 allows mate: Qxf7#."), for
    /// a judged move when the pass's line shows something certain.
    pub explain: Option<String>,
    /// What the best move does instead ("Best was Nd5, forking the queen
    /// on c7 and the rook on e7."), for a judged move.
    pub best_explain: Option<String>,
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

/// The results of `review` for `record`'s game as it is now: results of
/// moves since taken back or replaced are left out; nothing while the
/// evaluation is hidden.
pub fn view(review: &Review, record: &GameRecord) -> ReviewView {
    let (game, positions, moves, hidden, mode) = (
        record.serial,
        record.positions(),
        record.mainline_moves(),
        record.eval_hidden(),
        record.mode(),
    );
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
            let words = judgement
                .map(|_| {
                    let best_line = before.line.get(1..).unwrap_or_default();
                    let previous = i.checked_sub(1).map(|p| (&positions[p], moves[p]));
                    explain::compare(
                        previous,
                        &positions[i],
                        m,
                        &line_after(&evals, &moves, i),
                        before.best,
                        best_line,
                    )
                })
                .unwrap_or_default();
            Some(MoveReview {
                ply: i + 1,
                san: positions[i].san(m),
                side: if white { 'w' } else { 'b' },
                loss: (loss * 10.0).round() / 10.0,
                cp_loss,
                judgement,
                best: san(i, before.best),
                explain: words.played,
                best_explain: words.best,
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
/// hidden or the game against the engine goes on, when the game changed
/// since the pass, and when no judged move (or none at `ply`) has a line.
/// On a refusal part way (a line that cannot be played or annotated) the
/// game may hold the lines added so far: a host that wants all or nothing
/// keeps a copy.
pub fn add_best_lines(
    review: &Review,
    record: &mut GameRecord,
    ply: Option<usize>,
) -> Result<usize, GameError> {
    let judged = view(review, record);
    if judged.hidden {
        return Err(Conflict::LinesHidden.into());
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
            Some(p) => Invalid::NotJudged(p).into(),
            None => Conflict::NothingJudged.into(),
        });
    }
    if record.in_match() {
        return Err(Conflict::LinesInMatch.into());
    }
    // Lines of the pass over this very game, its main line as judged.
    let evals: &[Option<PositionEval>] = {
        let moves = record.mainline_moves();
        if review.game != record.serial
            || review.start != Some(record.start())
            || common_prefix(&review.moves, &moves) < moves.len()
        {
            return Err(Conflict::ChangedSinceReview.into());
        }
        &review.evals
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

#[cfg(test)]
mod tests {
    use super::*;

    /// 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? (4. Qxf7#), played into a record.
    fn scholars_mate_missed() -> GameRecord {
        let mut record = GameRecord::new(Position::startpos());
        for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
            let m = record.parse_move(san).expect("legal");
            record.play(m, None).expect("plays");
        }
        record
    }

    /// What a pass finds: level everywhere, but Black had g6 before Nf6
    /// (+0.30 for White), and after it White mates in one.
    fn eval(pos: &Position, i: usize) -> PositionEval {
        match i {
            5 => {
                let g6 = pos.parse_san("g6").expect("legal");
                PositionEval::searched(Score::Cp(-30), pos.turn(), Some(g6), &[g6], 12)
            }
            6 => {
                let mate = pos.parse_san("Qxf7#").expect("legal");
                PositionEval::searched(Score::Mate(1), pos.turn(), Some(mate), &[mate], 12)
            }
            _ => PositionEval::searched(Score::Cp(0), pos.turn(), None, &[], 12),
        }
    }

    #[test]
    fn a_pass_judges_the_blunder_and_adds_its_best_line() {
        let mut record = scholars_mate_missed();
        let game = PassGame::of(&record).expect("not hidden");
        let mut review = Review::default();
        let pass = review.begin(&game, PassLimit::default().checked().expect("default"));
        for (i, pos) in game.positions.iter().enumerate() {
            assert_eq!(review.store(pass, i, eval(pos, i), &record), Stored::Kept);
        }
        review.finish(pass);
        let judged = view(&review, &record);
        assert_eq!(
            (judged.state, judged.analysed, judged.total),
            (PassState::Done, 7, 7)
        );
        let nf6 = judged.moves[5].as_ref().expect("judged");
        assert_eq!(nf6.judgement, Some(Judgement::Blunder));
        assert_eq!(nf6.best.as_deref(), Some("g6"));
        assert_eq!(nf6.explain.as_deref(), Some("Nf6 allows mate: Qxf7#."));
        assert_eq!(
            nf6.best_explain.as_deref(),
            Some("Best was g6, threatening gxh5, winning the queen on h5.")
        );
        assert!(judged.moves[..5]
            .iter()
            .flatten()
            .all(|m| m.judgement.is_none()));

        assert_eq!(
            add_best_lines(&review, &mut record, None).expect("a line"),
            1
        );
        let played = record.tree.mainline()[5];
        let comments = &record.tree.node(played).expect("live").comments;
        assert_eq!(comments, &["(0.30 → #1) Blunder. g6 was best."]);
        let refused = add_best_lines(&review, &mut record, Some(3)).expect_err("not judged");
        assert_eq!(refused.kind(), crate::ErrorKind::Invalid);
    }

    #[test]
    fn a_short_line_is_continued_where_the_game_followed_it() {
        let record = scholars_mate_missed();
        let moves = record.mainline_moves();
        let positions = record.positions();
        let at = |i: usize, line: &[Move]| {
            Some(PositionEval::searched(
                Score::Cp(0),
                positions[i].turn(),
                line.first().copied(),
                line,
                12,
            ))
        };
        let mut evals = vec![None; positions.len()];
        // After 2. Qh5 the search kept one move, Nc6, which the game played.
        evals[3] = at(3, &moves[3..4]);
        evals[4] = at(4, &moves[4..6]);
        assert_eq!(line_after(&evals, &moves, 2), moves[3..6].to_vec());
        // The game left the line: nothing is added after it.
        evals[4] = at(4, &moves[5..6]);
        evals[3] = at(3, &[moves[3], moves[5]]);
        assert_eq!(line_after(&evals, &moves, 2), vec![moves[3], moves[5]]);
    }

    #[test]
    fn results_follow_the_game_and_a_changed_game_cancels_the_pass() {
        let mut record = scholars_mate_missed();
        let game = PassGame::of(&record).expect("not hidden");
        let mut review = Review::default();
        let limit = PassLimit::default().checked().expect("default");
        let pass = review.begin(&game, limit);
        for i in 0..5 {
            review.store(pass, i, eval(&game.positions[i], i), &record);
        }
        // A takeback: results of the moves left stay, the pass stops.
        record.undo(2).expect("a study");
        assert_eq!(
            review.store(pass, 5, eval(&game.positions[5], 5), &record),
            Stored::GameChanged
        );
        let judged = view(&review, &record);
        assert_eq!(judged.state, PassState::Cancelled);
        assert_eq!(judged.message.as_deref(), Some("the game changed"));
        assert_eq!(judged.analysed, 5);
        assert_eq!(
            review.store(pass, 4, eval(&game.positions[4], 4), &record),
            Stored::Stale
        );
        // A new pass over what is left searches none of it again.
        let again = PassGame::of(&record).expect("not hidden");
        let next = review.begin(&again, limit);
        assert!(next > pass && (0..5).all(|i| review.searched(i)));
        review.cancel(Some("cancelled"));
        assert_eq!(view(&review, &record).state, PassState::Cancelled);
    }
}
