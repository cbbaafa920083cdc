//! The search of one thread: iterative deepening over a principal variation
//! search (alpha-beta with null windows for all moves after the first), with
//! a quiescence search at the horizon. Each node goes through numbered steps;
//! every pruning, reduction and extension is a switch in `SearchParams`, so
//! that its worth can be measured by turning it off (see the ablation
//! table in docs/search.md).

use std::sync::atomic::Ordering;

use chess::{Move, Position};

use crate::correction::CorrectionHistory;
use crate::eval::{has_non_pawn_material, Evaluator};
use crate::events::{IterationInfo, ScoreBound, SearchEvent};
use crate::history::{piece_to, History, PieceTo, PrevMoves};
use crate::mate_line::complete_mate_line;
use crate::movepick::{is_noisy, MovePicker, OrderingContext};
use crate::params::tuned;
use crate::score::{
    from_tt, is_mate, mate_in, mated_in, tb_loss_in, tb_win_in, to_tt, Value, INFINITE, MATE,
    MATE_BOUND, MAX_PLY, TB_WIN_BOUND,
};
use crate::see::{captured_value, gave_material_away, see_ge};
use crate::shared::Shared;
use crate::stats::SearchStats;
use crate::timeman::TimeManager;
use crate::tt::{Bound, TranspositionTable, TtEntry};

/// A legal move at the root with what the search has learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score in the current iteration (`-INFINITE` when it failed low).
    pub score: Value,
    /// How `score` bounds the move's value: exact, or the side of the
    /// root window it fell outside (an iteration cut short may end there).
    pub bound: ScoreBound,
    /// Score in the previous iteration.
    pub previous_score: Value,
    /// The principal variation starting with `mv`, as the search last set
    /// it: a line that failed high or low at the root's aspiration window
    /// is cut short (a fail high found by a null-window search has no line
    /// beyond `mv`).
    pub pv: Vec<Move>,
    /// The line of the move's last exact score (this iteration's or an
    /// earlier one's), from the search's PV table: what a bound is shown
    /// with (see [`RootMove::shown_line`]). Reporting only: the search
    /// never reads it.
    pub exact_pv: Vec<Move>,
    /// Selective depth reached on its line.
    pub seldepth: usize,
    /// The tablebase score of the move, when the root is in the tables.
    pub tb_score: Option<Value>,
    /// Nodes this thread has searched below the move in this search.
    pub nodes: u64,
}

impl RootMove {
    /// The score to report for a search score `v`: the tables' verdict,
    /// unless the search found a mate (the tables know better than an
    /// evaluation, a mate is more precise than the tables).
    pub fn shown_score(&self, v: Value) -> Value {
        match self.tb_score {
            Some(tb) if !is_mate(v) => tb,
            _ => v,
        }
    }

    /// The latest score the move has: this iteration's, or the previous
    /// one's when this iteration has not scored it (`-INFINITE` if neither).
    pub fn latest_score(&self) -> Value {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }

    /// How `latest_score` bounds the move's value: the previous iteration's
    /// score is exact (that iteration completed); this iteration's keeps the
    /// bound its root window gave it, except a mate for the side to move:
    /// at least a mate in N is a forced mate in at most N moves, shown as
    /// the mate (its line is the proof).
    pub fn latest_bound(&self) -> ScoreBound {
        if self.score == -INFINITE || (self.score > 0 && is_mate(self.score)) {
            ScoreBound::Exact
        } else {
            self.bound
        }
    }

    /// The move's line as shown: its own line when its score is exact,
    /// else (a fail high or low at the root's aspiration window, a move not
    /// scored yet this iteration) its last exact line when that is longer,
    /// so that a bound never shows a one-move line where the search has a
    /// whole one; a mate's line completed from `tt` (proven through stored
    /// results, it may stop short of the mate).
    pub fn shown_line(&self, root: &Position, tt: &TranspositionTable) -> Vec<Move> {
        let exact_now = self.score != -INFINITE && self.bound == ScoreBound::Exact;
        let mut pv = if !exact_now && self.exact_pv.len() > self.pv.len() {
            self.exact_pv.clone()
        } else {
            self.pv.clone()
        };
        complete_mate_line(root, self.latest_score(), &mut pv, tt);
        pv
    }
}

/// What a tablebase probe in the search settled.
enum TbProbe {
    /// Nothing (not probed, not found).
    Unknown,
    /// The node's value: return it.
    Cut(Value),
    /// The node is worth at least this (a PV node searches on).
    Floor(Value),
    /// The node is worth at most this (a PV node searches on).
    Ceiling(Value),
}

#[derive(Clone, Copy, Default)]
struct StackEntry {
    static_eval: Value,
    piece_to: PieceTo,
    excluded: Move,
    null_move: bool,
    /// What the move made at this ply captured (SEE values; 0 for none).
    captured: Value,
    /// The node is or was on a principal variation (`TtPv`).
    tt_pv: bool,
    /// Cut-offs at this ply under the parent so far (`CutoffCount`): the
    /// parent's moves refuted at once.
    cutoffs: u32,
    /// Double extensions on the line from the root to this node.
    double_extensions: i32,
}

/// One search thread's state, kept between searches (its history tables
/// are worth keeping from move to move).
pub struct Worker {
    /// Thread index; 0 is the main thread, which keeps time and reports.
    pub id: usize,
    /// Move-ordering history.
    pub history: History,
    /// Corrections of the static evaluation by pawn structure.
    pub correction: CorrectionHistory,
    /// Counters of the last search.
    pub stats: SearchStats,
    /// Root moves, best first, after the last search.
    pub root_moves: Vec<RootMove>,
    /// Deepest fully completed iteration of the last search.
    pub completed_depth: i32,
    /// With a playing level: the searched lines of the last completed
    /// iteration, best first (the level chooses among them).
    pub level_lines: Vec<RootMove>,
    /// Nodes searched in the last search.
    pub nodes: u64,
    /// The evaluator with its pawn cache.
    pub evaluator: Evaluator,
    stack: Vec<StackEntry>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    keys: Vec<u64>,
    root_index: usize,
    /// The position searched (its side to move gets the contempt; mate
    /// lines are completed from it).
    root: Position,
    root_depth: i32,
    pv_index: usize,
    seldepth: usize,
    nmp_min_ply: usize,
    lmr: Vec<[i32; 64]>,
    /// The first move and shown score of the last line 1 reported in this search.
    reported: (Move, Value),
}

/// Lazy SMP: helper threads skip some depths so that they spread out
/// over different iterations instead of all searching the same tree.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True when a stored score with this bound settles the node for (alpha, beta).
#[inline]
fn bound_allows_cutoff(bound: Bound, score: Value, alpha: Value, beta: Value) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Whether a table entry (its bound, depth and score) settles a non-PV node
/// searched to `depth` within `alpha`..`beta`. An entry from a shallower
/// search settles it only when it proves a mate: a mate found, or a mate
/// against the side to move that nothing escaped, holds at any depth.
fn tt_cutoff(
    bound: Bound,
    entry_depth: i32,
    score: Value,
    depth: i32,
    alpha: Value,
    beta: Value,
) -> bool {
    let proven_mate = is_mate(score)
        && match bound {
            Bound::Exact => true,
            Bound::Lower => score > 0,
            Bound::Upper => score < 0,
        };
    (entry_depth >= depth || proven_mate) && bound_allows_cutoff(bound, score, alpha, beta)
}

/// The depth a quiescence node's table entry carries (`QSTableDepth`): -1
/// when it tried captures only, 0 when it tried quiet checks too (or was in
/// check, all evasions tried), so that a captures-only result never settles
/// a node that would also try checks (Stockfish's `DEPTH_QS_NO_CHECKS` and
/// `DEPTH_QS_CHECKS`). With the switch off every entry says 0.
fn qs_tt_depth(captures_only: bool) -> i32 {
    -i32::from(captures_only)
}

/// The late move reductions by depth and move number.
fn lmr_table() -> Vec<[i32; 64]> {
    let base = f64::from(tuned::lmr_base()) / 100.0;
    let divisor = f64::from(tuned::lmr_divisor()) / 100.0;
    let mut lmr = vec![[0i32; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    lmr
}

/// True when `score` is a mate (for either side) no further away, in
/// plies, than the `depth` just completed. Deeper iterations could at most
/// find a shorter mate that pruning hid, which is not worth the clock.
#[inline]
fn mate_proven(score: Value, depth: i32) -> bool {
    is_mate(score) && MATE - score.abs() <= depth
}

/// True when the opponent, were it to move again, would mate at once: the
/// threat a sacrifice next to the king makes and a static evaluation cannot
/// see. Not for a side in check (it cannot pass).
fn opponent_threatens_mate(pos: &Position) -> bool {
    let mut passed = *pos;
    passed.play_null();
    passed.has_mate_in_one()
}

/// The static evaluation tightened by a stored score whose bound says it is
/// closer to the truth.
#[inline]
fn refine_eval(eval: Value, entry: Option<TtEntry>, score: Option<Value>) -> Value {
    match (entry, score) {
        (Some(e), Some(s))
            if (e.bound == Bound::Lower && s > eval) || (e.bound == Bound::Upper && s < eval) =>
        {
            s
        }
        _ => eval,
    }
}

impl Worker {
    /// The moves one, two and four plies before `ply` (for continuation history).
    #[inline]
    fn previous_moves(&self, s: &Shared, ply: usize) -> PrevMoves {
        let at = |back: usize| {
            if ply >= back {
                self.stack[ply - back].piece_to
            } else {
                PieceTo::NONE
            }
        };
        PrevMoves {
            ply1: at(1),
            ply2: at(2),
            ply4: if s.config.params.continuation_ply4 {
                at(4)
            } else {
                PieceTo::NONE
            },
        }
    }

    /// A fresh worker with empty history.
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            history: History::default(),
            correction: CorrectionHistory::default(),
            stats: SearchStats::default(),
            root_moves: Vec::new(),
            completed_depth: 0,
            level_lines: Vec::new(),
            nodes: 0,
            evaluator: Evaluator::default(),
            stack: vec![StackEntry::default(); MAX_PLY + 8],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            keys: Vec::with_capacity(1024),
            root_index: 0,
            root: Position::startpos(),
            root_depth: 0,
            pv_index: 0,
            seldepth: 0,
            nmp_min_ply: 0,
            lmr: lmr_table(),
            reported: (Move::NULL, -INFINITE),
        }
    }

    fn prepare(&mut self, root: &Position, history: &[u64], searchmoves: &[Move]) {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.keys.push(root.key());
        self.root_index = self.keys.len() - 1;
        self.root = *root;
        self.stats = SearchStats::default();
        self.nodes = 0;
        self.completed_depth = 0;
        self.level_lines.clear();
        self.nmp_min_ply = 0;
        self.reported = (Move::NULL, -INFINITE);
        self.history.clear_killers();
        self.stack
            .iter_mut()
            .for_each(|e| *e = StackEntry::default());
        self.root_moves = root
            .legal_moves()
            .iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                bound: ScoreBound::Exact,
                previous_score: -INFINITE,
                pv: vec![mv],
                exact_pv: Vec::new(),
                seldepth: 0,
                tb_score: None,
                nodes: 0,
            })
            .collect();
    }

    /// When the root is in the tablebases, keeps only the moves that keep
    /// the best result (ranked by distance to zeroing when the fifty-move
    /// rule or a repetition threatens a win) and notes their scores.
    fn filter_root_by_tablebase(&mut self, s: &Shared) {
        let Some(ranked) = &s.config.root_tb else {
            return;
        };
        let rank_of = |mv: Move| ranked.iter().find(|r| r.mv == mv);
        let Some(best) = self
            .root_moves
            .iter()
            .filter_map(|rm| rank_of(rm.mv).map(|r| r.rank))
            .max()
        else {
            return;
        };
        self.root_moves
            .retain(|rm| rank_of(rm.mv).is_some_and(|r| r.rank == best));
        for rm in &mut self.root_moves {
            rm.tb_score = rank_of(rm.mv).map(|r| r.score);
        }
    }

    /// Iterative deepening from `root` until the limits in `s` or a stop.
    /// The main thread (`tm` given) also keeps time and reports progress.
    pub fn iterate(
        &mut self,
        s: &Shared,
        root: &Position,
        history: &[u64],
        mut tm: Option<&mut TimeManager>,
    ) {
        if cfg!(feature = "tune") {
            // The tuner may have changed the table's constants since the last search.
            self.lmr = lmr_table();
        }
        self.evaluator.configure(
            s.config.eval_kind,
            &s.config.weights,
            s.config.net.as_ref(),
            s.config.params.network_range,
            if crate::eval::endgame::is_basic_mate(root) {
                s.config.params.mop_up_weight
            } else {
                1
            },
        );
        self.evaluator.start(root);
        self.prepare(root, history, &s.config.limits.searchmoves);
        self.filter_root_by_tablebase(s);
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = s
            .config
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = s.config.multipv.clamp(1, self.root_moves.len());
        let game_ply = history.len() as i32;
        for depth in 1..=max_depth {
            if self.id > 0 && depth > 1 {
                let i = (self.id - 1) % 20;
                if ((depth + game_ply + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.search_root_line(s, root, depth, tm.is_some());
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if s.stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            if s.stop.load(Ordering::Relaxed) {
                break;
            }
            self.completed_depth = depth;
            if let Some(tm) = tm.as_deref_mut() {
                self.report_lines(s, multipv.min(s.config.shown_lines), ScoreBound::Exact);
                if let Some(level) = s.config.level {
                    self.level_lines = self.root_moves[..multipv].to_vec();
                    if level.iteration_is_enough(depth, self.nodes) {
                        s.stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                let best = &self.root_moves[0];
                // The share of the effort the best move took: a move that
                // needed most of the nodes is settled, one that needed few is not.
                let best_share = (s.config.params.node_time_management && self.nodes > 0)
                    .then(|| best.nodes as f64 / self.nodes as f64);
                tm.iteration_done(best.mv, best.score, best_share);
                // A mate in n moves is 2n - 1 plies away; mate_in(2n), an
                // even distance, can only be a bound, never a mate found.
                let mate_found = s
                    .config
                    .limits
                    .mate
                    .is_some_and(|n| best.score >= mate_in(2 * n.max(1) as usize - 1));
                let pondering = s.ponder.load(Ordering::Relaxed);
                let elapsed = s.time_elapsed();
                let forced = self.root_moves.len() == 1 && depth >= 4 && tm.budget().is_some();
                // A mate within the depth searched is taken as settled: a
                // search bounded by time or nodes answers now instead of
                // iterating on (a fixed depth or an infinite search runs on).
                let bounded = tm.budget().is_some() || s.config.limits.nodes.is_some();
                let proven = bounded && mate_proven(best.score, depth);
                if mate_found
                    || (!pondering && (tm.soft_limit_reached(elapsed) || forced || proven))
                {
                    s.stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
    }

    /// One root line (one MultiPV index) at `depth`, inside aspiration windows.
    fn search_root_line(&mut self, s: &Shared, root: &Position, depth: i32, main: bool) {
        let pv_index = self.pv_index;
        let previous = self.root_moves[pv_index].previous_score;
        let mut delta = tuned::aspiration_delta();
        let (mut alpha, mut beta) = if s.config.params.aspiration
            && depth >= tuned::aspiration_depth()
            && previous.abs() < MATE_BOUND
        {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.search(s, root, alpha, beta, depth, 0, true, false);
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if s.stop.load(Ordering::Relaxed) {
                return;
            }
            let bound = if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
                ScoreBound::Upper
            } else if v >= beta {
                beta = (v + delta).min(INFINITE);
                ScoreBound::Lower
            } else {
                return;
            };
            if main
                && s.time_since_start() > s.config.bound_lines_after
                && pv_index < s.config.shown_lines
            {
                self.report_lines(s, pv_index + 1, bound);
            }
            delta += delta * tuned::aspiration_growth() / 100;
        }
    }

    fn report_lines(&mut self, s: &Shared, lines: usize, bound: ScoreBound) {
        for (i, rm) in self.root_moves.iter().take(lines).enumerate() {
            let bound = if i + 1 == lines {
                bound
            } else {
                ScoreBound::Exact
            };
            self.report_line(s, rm, i + 1, bound);
        }
        if lines > 0 {
            self.reported = self
                .root_moves
                .first()
                .map_or((Move::NULL, -INFINITE), |rm| {
                    (rm.mv, rm.shown_score(rm.latest_score()))
                });
        }
    }

    /// Reports `rm` as line `multipv` of the iteration in progress.
    fn report_line(&self, s: &Shared, rm: &RootMove, multipv: usize, bound: ScoreBound) {
        let score = rm.latest_score();
        if score == -INFINITE {
            return;
        }
        (s.config.reporter)(SearchEvent::Iteration(IterationInfo {
            depth: self.root_depth,
            seldepth: rm.seldepth.max(1),
            multipv,
            score: rm.shown_score(score),
            bound,
            nodes: s.total_nodes(self.id, self.nodes),
            time: s.time_since_start(),
            hashfull: s.tt.hashfull(),
            pv: rm.shown_line(&self.root, &s.tt),
            tbhits: s.tb_hits.load(Ordering::Relaxed),
        }));
    }

    /// Reports the line the search answers with, `answer` (one of this
    /// worker's root moves), unless the main thread's last report already
    /// showed its move and score: a move found in an unfinished iteration,
    /// or by a helper thread, would otherwise reach `bestmove` with no line
    /// shown for it (match runners check that the two agree), and a score
    /// the unfinished iteration improved (a mate found in the last nodes of
    /// a node budget) would go unshown; it is shown with its
    /// `latest_bound`. Before any iteration has completed, the best move
    /// searched so far only bounds the position's value from below (a move
    /// not yet searched may do better), and its score is reported as such:
    /// the first move of a first iteration cut short may be a blunder
    /// scored as a mate against the side to move.
    pub(crate) fn report_answer(
        &self,
        s: &Shared,
        answer: &RootMove,
        main_reported: (Move, Value),
    ) {
        let shown = (answer.mv, answer.shown_score(answer.latest_score()));
        if shown != main_reported {
            let bound = if self.completed_depth == 0 {
                ScoreBound::Lower
            } else {
                answer.latest_bound()
            };
            self.report_line(s, answer, 1, bound);
        }
    }

    /// When the search stopped before any root move got a score (`go nodes
    /// 1`, a `stop` or a new `go` at once), gives the first root move the
    /// static evaluation of the position after it, as a lower bound (nothing
    /// was searched), so that the answer comes with a line and a score like
    /// every other `bestmove`.
    pub(crate) fn score_if_unsearched(&mut self) {
        let Some(first) = self.root_moves.first() else {
            return;
        };
        if first.latest_score() != -INFINITE {
            return;
        }
        let (root, m) = (self.root, first.mv);
        let mut child = root;
        self.evaluator.push_move(&root, m);
        child.play_unchecked(m);
        let v = -self.evaluator.evaluate(&child);
        self.evaluator.pop();
        let rm = &mut self.root_moves[0];
        rm.score = v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        rm.bound = ScoreBound::Lower;
        rm.pv = vec![m];
        rm.seldepth = 1;
        self.root_depth = self.root_depth.max(1);
    }

    /// The first move and shown score of the last line 1 this worker reported.
    pub(crate) fn reported(&self) -> (Move, Value) {
        self.reported
    }

    /// Counts a node and, every 1024 nodes, publishes the count and (main
    /// thread) checks the clock and the node limit. True when stopping.
    #[inline]
    fn tick(&mut self, s: &Shared) -> bool {
        self.nodes += 1;
        if self.id == 0 {
            if let Some(limit) = s.config.limits.nodes {
                if self.nodes >= limit {
                    s.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.nodes & 1023 == 0 {
            s.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                if let Some(level) = s.config.level {
                    if level.over_hard_budget(self.completed_depth, self.nodes) {
                        s.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            if self.id == 0 {
                s.poll_host();
            }
            if self.id == 0 && !s.ponder.load(Ordering::Relaxed) {
                if let Some(hard) = s.config.hard_limit {
                    if s.time_elapsed() >= hard {
                        s.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        s.stop.load(Ordering::Relaxed)
    }

    /// The draw score from the side to move's view: with contempt, a draw is
    /// worth less than zero to the side the engine plays.
    #[inline]
    fn draw_value(&self, s: &Shared, pos: &Position) -> Value {
        if pos.turn() == self.root.turn() {
            -s.config.params.contempt
        } else {
            s.config.params.contempt
        }
    }

    /// Fifty-move rule, insufficient material, and repetition: once inside
    /// the search tree (the line could repeat forever), or twice counting
    /// the game before the root.
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 && (!pos.in_check() || pos.has_legal_moves()) {
            return true;
        }
        if pos.is_insufficient_material() {
            return true;
        }
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let reach = (pos.halfmove_clock() as usize).min(n);
        let mut seen_before_root = 0;
        let mut back = 4;
        while back <= reach {
            let j = n - back;
            if self.keys[j] == key {
                if j >= self.root_index {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Plays `m` from `pos` at `ply`: the child position, with the
    /// evaluator, the continuation-history stack and the repetition keys
    /// following it. `unmake_move` takes it back.
    #[inline]
    fn make_move(&mut self, pos: &Position, m: Move, ply: usize) -> Position {
        let mut child = *pos;
        self.evaluator.push_move(pos, m);
        self.stack[ply].captured = captured_value(pos, m);
        child.play_unchecked(m);
        self.stack[ply].piece_to = piece_to(pos, m);
        self.keys.push(child.key());
        child
    }

    /// True when the opponent's last move gave material away near our
    /// king: its piece landed within three squares of the king and can be
    /// taken for more than the move captured. Such a move is a sacrifice
    /// for an attack the static evaluation cannot see (WAC.001's 1.Qg6,
    /// two squares from the king, mate next move; WAC.104's 1.Qxh5, three
    /// squares, mate in 3), or a blunder that the search refutes at once. Far
    /// from the king it is almost always the blunder, and searching it
    /// costs nodes for nothing.
    fn opponent_sacrificed_near_king(&self, pos: &Position, ply: usize) -> bool {
        let Some(last) = ply.checked_sub(1).map(|p| &self.stack[p]) else {
            return false;
        };
        match last.piece_to.to() {
            Some(to) if !last.null_move => {
                to.distance(pos.king(pos.turn())) <= 3 && gave_material_away(pos, to, last.captured)
            }
            _ => false,
        }
    }

    /// Passes the move at `ply` (null-move pruning): the child position,
    /// with the evaluator, the stack and the repetition keys following it
    /// as `make_move` has them follow a move. `unmake_null_move` takes it
    /// back.
    #[inline]
    fn make_null_move(&mut self, pos: &Position, ply: usize) -> Position {
        let mut child = *pos;
        self.evaluator.push_move(pos, Move::NULL);
        child.play_null();
        self.stack[ply].piece_to = PieceTo::NONE;
        self.stack[ply].null_move = true;
        self.keys.push(child.key());
        child
    }

    /// Takes back what `make_null_move` did.
    #[inline]
    fn unmake_null_move(&mut self, ply: usize) {
        self.keys.pop();
        self.evaluator.pop();
        self.stack[ply].null_move = false;
    }

    /// Takes back what `make_move` did (the position itself is a copy).
    #[inline]
    fn unmake_move(&mut self) {
        self.keys.pop();
        self.evaluator.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// The static evaluation `raw` of `pos` as the search uses it: corrected
    /// by the correction history when it is on (not in check: no evaluation).
    #[inline]
    fn corrected(
        &self,
        s: &Shared,
        pos: &Position,
        ply: usize,
        raw: Value,
        in_check: bool,
    ) -> Value {
        if s.config.params.correction && !in_check {
            self.correction
                .correct(pos, self.previous_moves(s, ply), raw)
        } else {
            raw
        }
    }

    /// Step by step search of one node.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        s: &Shared,
        pos: &Position,
        mut alpha: Value,
        mut beta: Value,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Value {
        let root = ply == 0;

        // Step 1. At the horizon, resolve captures (or just evaluate).
        if depth <= 0 {
            return if s.config.params.quiescence {
                self.qsearch(s, pos, alpha, beta, ply, 0, pv_node)
            } else {
                self.evaluator.evaluate(pos)
            };
        }
        self.pv_len[ply] = 0;
        if self.tick(s) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();

        // Step 2. Draws, maximum ply, mate distance pruning.
        if !root {
            if self.is_draw(pos) {
                return self.draw_value(s, pos);
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    0
                } else {
                    self.evaluator.evaluate(pos)
                };
            }
            if s.config.params.mate_distance_pruning {
                alpha = alpha.max(mated_in(ply));
                beta = beta.min(mate_in(ply + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
        }

        // Step 2b. A book position near the root: not searched further, but
        // scored by quiescence plus a bonus for the side to move at the root.
        let excluded = self.stack[ply].excluded;
        if !root && excluded.is_null() && ply <= s.config.params.book_search_ply as usize {
            if let Some(book) = s.config.book.as_deref() {
                if book.knows(pos) {
                    self.stats.book_hits += 1;
                    let bonus = s.config.params.book_bonus;
                    let bonus = if ply & 1 == 0 { bonus } else { -bonus };
                    let v = self.qsearch(s, pos, alpha - bonus, beta - bonus, ply, 0, pv_node);
                    // Mates and tablebase results stay exact.
                    return if v.abs() >= TB_WIN_BOUND {
                        v
                    } else {
                        v + bonus
                    };
                }
            }
        }

        // Step 3. Transposition table lookup and cut-off. As in quiescence,
        // the bucket is prefetched and the static evaluation computed while
        // it loads.
        let key = pos.key();
        let fresh_eval = if in_check {
            None
        } else {
            if s.config.params.tt && excluded.is_null() {
                s.tt.prefetch(key);
            }
            Some(self.evaluator.evaluate(pos))
        };
        let tt_entry = if s.config.params.tt && excluded.is_null() {
            self.stats.tt_probes += 1;
            s.tt.probe(key)
        } else {
            None
        };
        self.stats.tt_hits += u64::from(tt_entry.is_some());
        let tt_score = tt_entry.map(|e| from_tt(e.score, ply));
        let tt_move = if root {
            self.root_moves[self.pv_index].mv
        } else {
            tt_entry.map_or(Move::NULL, |e| e.mv)
        };
        if !pv_node {
            if let (Some(e), Some(ts)) = (tt_entry, tt_score) {
                if tt_cutoff(e.bound, e.depth, ts, depth, alpha, beta) {
                    return ts;
                }
            }
        }
        // A singular search (a move excluded) keeps its node's flag.
        if excluded.is_null() {
            self.stack[ply].tt_pv = pv_node || tt_entry.is_some_and(|e| e.pv);
        }
        let tt_pv = self.stack[ply].tt_pv;
        if root {
            self.stack[ply].double_extensions = 0;
        }
        self.stack[ply + 1].cutoffs = 0;

        // Step 4. Static evaluation, refined by the table's bound.
        let static_eval = if in_check {
            -INFINITE
        } else {
            tt_entry.map_or(fresh_eval.unwrap_or(-INFINITE), |e| e.eval)
        };
        // The table keeps the evaluation as computed; the search works with
        // it corrected by what earlier searches of its pawn structure found.
        let corrected_eval = self.corrected(s, pos, ply, static_eval, in_check);
        let eval = if in_check {
            corrected_eval
        } else {
            refine_eval(corrected_eval, tt_entry, tt_score)
        };
        self.stack[ply].static_eval = corrected_eval;
        let improving = !in_check && ply >= 2 && corrected_eval > self.stack[ply - 2].static_eval;

        // Step 4b. Tablebases: after a capture or pawn move with few pieces left.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITE, INFINITE);
        if !root && excluded.is_null() {
            match self.probe_tablebase(s, pos, depth, ply, alpha, beta, static_eval) {
                TbProbe::Cut(v) => return v,
                TbProbe::Floor(v) if pv_node => {
                    tb_floor = v;
                    alpha = alpha.max(v);
                }
                TbProbe::Ceiling(v) if pv_node => tb_ceiling = v,
                _ => {}
            }
        }

        if !pv_node && !in_check && excluded.is_null() {
            // Step 5. Razoring: hopeless near the horizon, ask quiescence.
            if s.config.params.razoring
                && depth <= tuned::razor_depth()
                && eval + tuned::razor_margin() * depth < alpha
            {
                let v = self.qsearch(s, pos, alpha, alpha + 1, ply, 0, false);
                if v <= alpha {
                    self.stats.razor_cuts += 1;
                    return v;
                }
            }

            // Step 6. Reverse futility pruning (static null move).
            if s.config.params.rfp
                && depth <= tuned::rfp_depth()
                && eval - tuned::rfp_margin() * (depth - i32::from(improving)) >= beta
                && eval < MATE_BOUND
                && !(s.config.params.tt_pv && tt_pv)
                && !(s.config.params.sacrifice_search
                    && depth <= tuned::rfp_sacrifice_depth()
                    && self.opponent_sacrificed_near_king(pos, ply)
                    && opponent_threatens_mate(pos))
            {
                self.stats.rfp_cuts += 1;
                return eval;
            }

            // Step 7. Null move search with verification at high depth.
            let previous_was_null = ply > 0 && self.stack[ply - 1].null_move;
            if s.config.params.null_move
                && depth >= tuned::nmp_min_depth()
                && eval >= beta
                && !previous_was_null
                && ply >= self.nmp_min_ply
                && !is_mate(beta)
                && has_non_pawn_material(pos, pos.turn())
            {
                let r = tuned::null_move_reduction()
                    + depth / tuned::nmp_depth_divisor()
                    + ((eval - beta) / tuned::nmp_eval_divisor()).min(tuned::nmp_eval_max());
                let child = self.make_null_move(pos, ply);
                self.stats.null_tries += 1;
                let v = -self.search(
                    s,
                    &child,
                    -beta,
                    -beta + 1,
                    depth - r,
                    ply + 1,
                    false,
                    !cut_node,
                );
                self.unmake_null_move(ply);
                if s.stop.load(Ordering::Relaxed) {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= TB_WIN_BOUND { beta } else { v };
                    if !s.config.params.null_verification
                        || depth < tuned::null_verification_depth()
                    {
                        self.stats.null_cuts += 1;
                        return v;
                    }
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(0) as usize;
                    let verified =
                        self.search(s, pos, beta - 1, beta, depth - r, ply, false, false);
                    self.nmp_min_ply = 0;
                    if verified >= beta {
                        self.stats.null_cuts += 1;
                        return v;
                    }
                }
            }

            // Step 7b. ProbCut: a good capture whose reduced search beats
            // beta by a margin.
            if s.config.params.probcut
                && depth >= tuned::probcut_depth()
                && beta.abs() < TB_WIN_BOUND
            {
                let probcut_beta = beta + tuned::probcut_margin();
                // Unless a table entry almost as deep already says the node falls short of it.
                let refuted = matches!((tt_entry, tt_score),
                    (Some(e), Some(ts)) if e.depth > depth - tuned::probcut_reduction() && ts < probcut_beta);
                if !refuted {
                    if let Some(v) = self.probcut(
                        s,
                        pos,
                        depth,
                        ply,
                        probcut_beta,
                        static_eval,
                        tt_move,
                        cut_node,
                    ) {
                        return v;
                    }
                }
            }
        }

        // Step 8. Internal iterative reduction: no hash move, likely a new node.
        if s.config.params.iir
            && !root
            && depth >= tuned::iir_depth()
            && tt_move.is_null()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        // Step 9. The move loop.
        let prev = self.previous_moves(s, ply);
        let ctx = OrderingContext {
            killers: if s.config.params.killers {
                self.history.killers(ply)
            } else {
                [Move::NULL; 2]
            },
            countermove: if s.config.params.countermoves {
                self.history.countermove(prev.ply1)
            } else {
                Move::NULL
            },
            prev,
            use_history: s.config.params.history,
            use_capture_history: s.config.params.capture_history,
        };
        let mut picker = MovePicker::new(pos, tt_move, ctx, s.config.params.see_ordering);
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets = [Move::NULL; 64];
        let mut quiet_count = 0;
        let mut captures = [Move::NULL; 32];
        let mut capture_count = 0;
        let mut root_cursor = self.pv_index;
        let orig_alpha = alpha;
        let us = pos.turn();
        let has_pieces = has_non_pawn_material(pos, us);
        let check_squares = pos.check_squares();

        loop {
            let m = if root {
                let Some(rm) = self.root_moves.get(root_cursor) else {
                    break;
                };
                root_cursor += 1;
                rm.mv
            } else {
                match picker.next(pos, &self.history) {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            move_count += 1;
            let noisy = is_noisy(pos, m);
            if root && self.id == 0 && s.time_since_start().as_millis() > 3000 {
                (s.config.reporter)(SearchEvent::CurrMove {
                    depth,
                    mv: m,
                    number: move_count + self.pv_index,
                });
            }
            let gives_check = pos.gives_check_with(&check_squares, m);

            // Step 10. Shallow-depth pruning (never of the only sensible move).
            if !root && best > -MATE_BOUND && has_pieces {
                if !noisy && !gives_check {
                    if s.config.params.lmp
                        && depth <= tuned::lmp_depth()
                        && move_count as i32
                            > (tuned::lmp_base() + depth * depth) / (2 - i32::from(improving))
                    {
                        picker.skip_quiets();
                        self.stats.lmp_prunes += 1;
                        continue;
                    }
                    if s.config.params.history_pruning
                        && !in_check
                        && depth <= tuned::history_prune_depth()
                        && self.history.quiet_score(us, m, piece_to(pos, m), prev)
                            < -tuned::history_prune_margin() * depth
                    {
                        self.stats.history_prunes += 1;
                        continue;
                    }
                    if s.config.params.futility
                        && !in_check
                        && depth <= tuned::futility_depth()
                        && eval + tuned::futility_base() + tuned::futility_margin() * depth <= alpha
                    {
                        self.stats.futility_prunes += 1;
                        continue;
                    }
                    if s.config.params.see_pruning
                        && depth <= tuned::see_quiet_depth()
                        && !see_ge(pos, m, -tuned::see_quiet_margin() * depth * depth)
                    {
                        self.stats.see_prunes += 1;
                        continue;
                    }
                } else if noisy
                    && s.config.params.see_pruning
                    && depth <= tuned::see_noisy_depth()
                    && !see_ge(pos, m, -tuned::see_noisy_margin() * depth)
                {
                    self.stats.see_prunes += 1;
                    continue;
                }
            }

            // Step 11. Extensions: singular (hash move far better than the rest), check.
            let mut extension = 0;
            if !root
                && s.config.params.singular_extension
                && depth >= tuned::singular_depth()
                && m == tt_move
                && excluded.is_null()
            {
                if let (Some(e), Some(ts)) = (tt_entry, tt_score) {
                    if e.depth >= depth - tuned::singular_tt_depth()
                        && e.bound != Bound::Upper
                        && !is_mate(ts)
                    {
                        let singular_beta = ts - tuned::singular_margin() * depth / 8;
                        self.stack[ply].excluded = m;
                        let v = self.search(
                            s,
                            pos,
                            singular_beta - 1,
                            singular_beta,
                            (depth - 1) / 2,
                            ply,
                            false,
                            cut_node,
                        );
                        self.stack[ply].excluded = Move::NULL;
                        if s.stop.load(Ordering::Relaxed) {
                            return 0;
                        }
                        if v < singular_beta {
                            extension = 1;
                            self.stats.singular_extensions += 1;
                            if s.config.params.double_extension
                                && !pv_node
                                && v < singular_beta - tuned::double_ext_margin()
                                && self.stack[ply].double_extensions < tuned::double_ext_limit()
                            {
                                extension = 2;
                            }
                        } else if singular_beta >= beta {
                            // Multi-cut: even without the hash move this node fails high.
                            self.stats.multicuts += 1;
                            return singular_beta;
                        } else if s.config.params.negative_extension {
                            // Not singular: the hash move is searched less
                            // deeply where it is expected to fail high anyway,
                            // or where the others do as well as it.
                            if ts >= beta {
                                extension = -2;
                            } else if ts <= alpha && ts <= v {
                                extension = -1;
                            }
                        }
                    }
                }
            }
            if extension == 0
                && s.config.params.check_extension
                && gives_check
                && (ply as i32) < 2 * self.root_depth
            {
                extension = 1;
                self.stats.check_extensions += 1;
            }
            let new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + i32::from(extension == 2);

            // Step 12. Principal variation search with late move reductions.
            // The move is made only now that no pruning skipped it.
            let nodes_before = self.nodes;
            let child = self.make_move(pos, m, ply);
            let mut v;
            if move_count == 1 || !s.config.params.pvs {
                v = -self.search(s, &child, -beta, -alpha, new_depth, ply + 1, pv_node, false);
            } else {
                let mut r = 0;
                if s.config.params.lmr
                    && depth >= tuned::lmr_min_depth()
                    && move_count > 1 + usize::from(root)
                    && !noisy
                {
                    r = self.lmr[depth.min(63) as usize][move_count.min(63)];
                    r += i32::from(!pv_node);
                    r += tuned::lmr_cut_node() * i32::from(cut_node);
                    r -= i32::from(improving);
                    r -= i32::from(gives_check);
                    r -= i32::from(in_check);
                    r -= i32::from(s.config.params.tt_pv && tt_pv && !pv_node);
                    if s.config.params.cutoff_count
                        && self.stack[ply + 1].cutoffs > tuned::cutoff_count_limit() as u32
                    {
                        r += 1;
                    }
                    if s.config.params.history {
                        r -= self
                            .history
                            .quiet_score(us, m, self.stack[ply].piece_to, prev)
                            / tuned::lmr_history_divisor();
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                    self.stats.lmr_searches += u64::from(r > 0);
                }
                v = -self.search(
                    s,
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    false,
                    true,
                );
                if v > alpha && r > 0 {
                    // A move that beat the best score by far is searched a
                    // ply deeper, one that barely did a ply shallower, and
                    // not again if that is no deeper than it was.
                    let mut research_depth = new_depth;
                    if s.config.params.lmr_research_depth {
                        research_depth +=
                            i32::from(v > best + tuned::lmr_deeper_margin() + 2 * new_depth)
                                - i32::from(v < best + new_depth);
                    }
                    if research_depth > new_depth - r {
                        self.stats.lmr_researches += 1;
                        v = -self.search(
                            s,
                            &child,
                            -alpha - 1,
                            -alpha,
                            research_depth,
                            ply + 1,
                            false,
                            !cut_node,
                        );
                    }
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(s, &child, -beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            self.unmake_move();
            if s.stop.load(Ordering::Relaxed) {
                return 0;
            }

            // Step 13. Record the result.
            if root {
                let child_len = self.pv_len[ply + 1];
                let seldepth = self.seldepth;
                let line: Vec<Move> = std::iter::once(m)
                    .chain(self.pv[ply + 1][..child_len].iter().copied())
                    .collect();
                let searched = self.nodes - nodes_before;
                let rm = &mut self.root_moves[root_cursor - 1];
                rm.nodes += searched;
                if move_count == 1 || v > alpha {
                    rm.score = v;
                    rm.bound = if v >= beta {
                        ScoreBound::Lower
                    } else if v <= alpha {
                        ScoreBound::Upper
                    } else {
                        ScoreBound::Exact
                    };
                    rm.seldepth = seldepth;
                    if rm.bound == ScoreBound::Exact {
                        rm.exact_pv.clone_from(&line);
                    }
                    rm.pv = line;
                } else {
                    rm.score = -INFINITE;
                }
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        self.stack[ply].cutoffs += 1;
                        break;
                    }
                    alpha = v;
                }
            }
            if m != best_move && !noisy && quiet_count < quiets.len() {
                quiets[quiet_count] = m;
                quiet_count += 1;
            } else if m != best_move && noisy && capture_count < captures.len() {
                captures[capture_count] = m;
                capture_count += 1;
            }
        }

        // Step 14. Mate or stalemate; history updates.
        if move_count == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                self.draw_value(s, pos)
            };
        }
        // A PV node the tables bound searches on, but within their bounds.
        best = best.max(tb_floor).min(tb_ceiling);
        if best >= beta {
            let noisy_best = is_noisy(pos, best_move);
            if !noisy_best {
                self.history.update_quiets(
                    pos,
                    ply,
                    depth,
                    best_move,
                    &quiets[..quiet_count],
                    prev,
                    s.config.params.countermoves,
                );
            }
            if s.config.params.capture_history {
                self.history.update_captures(
                    pos,
                    depth,
                    noisy_best.then_some(best_move),
                    &captures[..capture_count],
                );
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Step 15. Correction history: the evaluation's error, learned where
        // the result is a quiet one and its bound says which side of the
        // evaluation it lies.
        if s.config.params.correction
            && !in_check
            && excluded.is_null()
            && (best_move.is_null() || !is_noisy(pos, best_move))
            && best.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best <= corrected_eval)
            && !(bound == Bound::Upper && best >= corrected_eval)
        {
            self.correction.update(pos, prev, depth, best - static_eval);
        }
        // Step 16. Store the result.
        if s.config.params.tt && excluded.is_null() && !(root && self.pv_index > 0) {
            s.tt.store(
                key,
                TtEntry {
                    mv: best_move,
                    score: to_tt(best, ply),
                    eval: static_eval,
                    depth,
                    bound,
                    pv: tt_pv,
                },
            );
        }
        best
    }

    /// ProbCut (Step 7b): the captures that win at least `probcut_beta -
    /// static_eval` by static exchange, each checked by quiescence and then
    /// searched `ProbCutReduction` plies shallower with a null window at
    /// `probcut_beta`. The first that holds it is taken as proof that the
    /// node fails high (stored as a lower bound a little shallower than the
    /// node) and its score returned.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        s: &Shared,
        pos: &Position,
        depth: i32,
        ply: usize,
        probcut_beta: Value,
        static_eval: Value,
        tt_move: Move,
        cut_node: bool,
    ) -> Option<Value> {
        let ctx = OrderingContext {
            killers: [Move::NULL; 2],
            countermove: Move::NULL,
            prev: self.previous_moves(s, ply),
            use_history: s.config.params.history,
            use_capture_history: s.config.params.capture_history,
        };
        let mut picker = MovePicker::new_qsearch(pos, tt_move, ctx, false);
        while let Some(m) = picker.next(pos, &self.history) {
            if !see_ge(pos, m, probcut_beta - static_eval) {
                continue;
            }
            let child = self.make_move(pos, m, ply);
            let mut v = -self.qsearch(
                s,
                &child,
                -probcut_beta,
                -probcut_beta + 1,
                ply + 1,
                0,
                false,
            );
            if v >= probcut_beta {
                v = -self.search(
                    s,
                    &child,
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - tuned::probcut_reduction(),
                    ply + 1,
                    false,
                    !cut_node,
                );
            }
            self.unmake_move();
            if s.stop.load(Ordering::Relaxed) {
                return Some(0);
            }
            if v >= probcut_beta {
                self.stats.probcuts += 1;
                if s.config.params.tt {
                    s.tt.store(
                        pos.key(),
                        TtEntry {
                            mv: m,
                            score: to_tt(v, ply),
                            eval: static_eval,
                            depth: depth - tuned::probcut_reduction() + 1,
                            bound: Bound::Lower,
                            pv: self.stack[ply].tt_pv,
                        },
                    );
                }
                return Some(v);
            }
        }
        None
    }

    /// Probes the tablebases at a node (Step 4b): after a capture or pawn
    /// move (the WDL tables assume one), with no castling rights, within the
    /// piece limit, and deep enough when the position has the most pieces
    /// the tables hold. A settled result is stored in the table.
    #[allow(clippy::too_many_arguments)]
    fn probe_tablebase(
        &mut self,
        s: &Shared,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
        static_eval: Value,
    ) -> TbProbe {
        let pieces = pos.piece_count();
        let Some(tb) = s.config.tablebase.as_deref() else {
            return TbProbe::Unknown;
        };
        if pieces > s.config.tb_limit
            || (pieces == s.config.tb_limit && depth < s.config.params.syzygy_probe_depth)
            || pos.halfmove_clock() != 0
            || !pos.castling_rights().is_empty()
        {
            return TbProbe::Unknown;
        }
        let Some(wdl) = tb.probe_wdl(pos) else {
            return TbProbe::Unknown;
        };
        self.stats.tb_hits += 1;
        s.tb_hits.fetch_add(1, Ordering::Relaxed);
        // With the fifty-move rule, cursed wins and blessed losses are draws
        // (a point either way, to prefer the side the tables favour).
        let w = wdl.as_i32();
        let draw_margin = i32::from(s.config.params.syzygy_50_move_rule);
        let (v, bound) = if w < -draw_margin {
            (tb_loss_in(ply), Bound::Upper)
        } else if w > draw_margin {
            (tb_win_in(ply), Bound::Lower)
        } else {
            (self.draw_value(s, pos) + w * draw_margin, Bound::Exact)
        };
        if bound_allows_cutoff(bound, v, alpha, beta) {
            if s.config.params.tt {
                s.tt.store(
                    pos.key(),
                    TtEntry {
                        mv: Move::NULL,
                        score: to_tt(v, ply),
                        eval: static_eval,
                        depth: (depth + 6).min(MAX_PLY as i32 - 1),
                        bound,
                        pv: self.stack[ply].tt_pv,
                    },
                );
            }
            return TbProbe::Cut(v);
        }
        match bound {
            Bound::Lower => TbProbe::Floor(v),
            _ => TbProbe::Ceiling(v),
        }
    }

    /// Quiescence search: only captures and promotions (all evasions in
    /// check), with the option of standing pat on the static evaluation.
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
        &mut self,
        s: &Shared,
        pos: &Position,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        qdepth: i32,
        pv_node: bool,
    ) -> Value {
        // Step 1. Time and stop, draws, maximum ply.
        self.pv_len[ply] = 0;
        if self.tick(s) {
            return 0;
        }
        self.stats.qnodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos) {
            return self.draw_value(s, pos);
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.evaluator.evaluate(pos)
            };
        }
        // Step 2. Transposition table lookup and cut-off.
        let key = pos.key();
        // The bucket is seldom in cache and waiting for it was the largest
        // single cost of the quiescence search: have it fetched while the
        // static evaluation, needed unless the table has one, is computed.
        let fresh_eval = if in_check {
            None
        } else {
            if s.config.params.tt {
                s.tt.prefetch(key);
            }
            Some(self.evaluator.evaluate(pos))
        };
        let tt_entry = if s.config.params.tt {
            s.tt.probe(key)
        } else {
            None
        };
        let tt_score = tt_entry.map(|e| from_tt(e.score, ply));
        // With `QSTableDepth`, a node that tries quiet checks (or all
        // evasions) is not settled by a captures-only entry: without it the
        // mate a quiet check gives can go unseen (WAC.001: 1.Qg6 gxf6 2.Qh7#,
        // cut by the captures-only result of an earlier iteration).
        let with_checks = s.config.params.qs_checks && qdepth == 0;
        let tt_depth = qs_tt_depth(s.config.params.qs_table_depth && !in_check && !with_checks);
        if !pv_node {
            if let (Some(e), Some(ts)) = (tt_entry, tt_score) {
                if tt_cutoff(e.bound, e.depth, ts, tt_depth, alpha, beta) {
                    return ts;
                }
            }
        }

        // Step 3. Static evaluation and stand pat (none in check: every
        // evasion is searched).
        let static_eval;
        let mut best;
        if in_check {
            static_eval = -INFINITE;
            best = -INFINITE;
        } else {
            // The stored evaluation when there is one, as before (it can differ
            // from the fresh one only after a key collision).
            static_eval = tt_entry.map_or(fresh_eval.unwrap_or(-INFINITE), |e| e.eval);
            let stand_pat = refine_eval(
                self.corrected(s, pos, ply, static_eval, false),
                tt_entry,
                tt_score,
            );
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            if s.config.params.qs_max_depth > 0 && qdepth >= s.config.params.qs_max_depth {
                return best;
            }
            // Step 4. Null move (`QSNullMove`).
            let previous_was_null = ply > 0 && self.stack[ply - 1].null_move;
            if s.config.params.qs_null_move
                && !previous_was_null
                && has_non_pawn_material(pos, pos.turn())
            {
                let child = self.make_null_move(pos, ply);
                let v = -self.qsearch(s, &child, -beta, -beta + 1, ply + 1, qdepth + 1, false);
                self.unmake_null_move(ply);
                if v >= beta && !is_mate(v) {
                    return v;
                }
            }
        }

        // Step 5. The move loop: captures and promotions, quiet checks at
        // the first ply, every evasion in check.
        let ctx = OrderingContext {
            killers: [Move::NULL; 2],
            countermove: Move::NULL,
            prev: self.previous_moves(s, ply),
            use_history: s.config.params.history,
            use_capture_history: s.config.params.capture_history,
        };
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        let mut picker = MovePicker::new_qsearch(pos, tt_move, ctx, with_checks);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        while let Some(m) = picker.next(pos, &self.history) {
            move_count += 1;
            // Step 6. Pruning: losing quiet checks, hopeless captures
            // (delta), losing captures (static exchange).
            if !in_check && !is_noisy(pos, m) {
                // A quiet check (first quiescence ply only): worth a look
                // unless it simply loses the piece.
                if !see_ge(pos, m, 0) {
                    continue;
                }
            } else if !in_check {
                if s.config.params.qs_delta && m.promotion_role().is_none() {
                    let victim = captured_value(pos, m);
                    // A capture that checks may mate: never judge it by material.
                    if static_eval + victim + tuned::qs_delta_margin() <= alpha
                        && !pos.gives_check(m)
                    {
                        continue;
                    }
                }
                if s.config.params.qs_see && !see_ge(pos, m, 0) {
                    continue;
                }
            }
            // Step 7. Make the move and search it.
            let child = self.make_move(pos, m, ply);
            let v = -self.qsearch(s, &child, -beta, -alpha, ply + 1, qdepth + 1, pv_node);
            self.unmake_move();
            if s.stop.load(Ordering::Relaxed) {
                return 0;
            }
            // Step 8. A new best move.
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        // Step 9. Mate; store the result.
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        if s.config.params.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Upper
            };
            s.tt.store(
                key,
                TtEntry {
                    mv: best_move,
                    score: to_tt(best, ply),
                    eval: static_eval,
                    depth: tt_depth,
                    bound,
                    pv: pv_node || tt_entry.is_some_and(|e| e.pv),
                },
            );
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_entries_cut_only_on_proven_mates() {
        let (alpha, beta) = (-50, 50);
        // An ordinary score needs an entry at least as deep.
        assert!(tt_cutoff(Bound::Lower, 8, 120, 8, alpha, beta));
        assert!(!tt_cutoff(Bound::Lower, 7, 120, 8, alpha, beta));
        assert!(!tt_cutoff(Bound::Exact, 3, 10, 8, alpha, beta));
        // A mate found (at least this good) or suffered (at most this good) holds at any depth.
        let (mate, mated) = (mate_in(9), mated_in(9));
        assert!(tt_cutoff(Bound::Lower, 1, mate, 8, alpha, beta));
        assert!(tt_cutoff(Bound::Exact, 1, mate, 8, alpha, beta));
        assert!(tt_cutoff(Bound::Upper, 1, mated, 8, alpha, beta));
        // Bounds on the wrong side prove nothing (though deep enough they would cut).
        assert!(tt_cutoff(Bound::Upper, 8, mate, 8, mate + 1, mate + 2));
        assert!(!tt_cutoff(Bound::Upper, 1, mate, 8, mate + 1, mate + 2));
        assert!(tt_cutoff(Bound::Lower, 8, mated, 8, mated - 2, mated - 1));
        assert!(!tt_cutoff(Bound::Lower, 1, mated, 8, mated - 2, mated - 1));
        // And a proven mate still has to fall outside the window.
        assert!(!tt_cutoff(Bound::Lower, 1, mate, 8, alpha, mate + 1));
    }

    #[test]
    fn a_bound_is_shown_with_the_moves_last_whole_line() {
        let root = Position::startpos();
        let tt = TranspositionTable::new(1);
        let line: Vec<Move> = ["e2e4", "e7e5", "g1f3", "b8c6"]
            .iter()
            .map(|u| root_move(&root, u))
            .collect();
        let mut rm = RootMove {
            mv: line[0],
            score: 35,
            bound: ScoreBound::Exact,
            previous_score: 20,
            pv: line.clone(),
            exact_pv: line.clone(),
            seldepth: 4,
            tb_score: None,
            nodes: 0,
        };
        assert_eq!(rm.shown_line(&root, &tt), line);
        // A fail high at the next iteration's window: one move in `pv`.
        rm.bound = ScoreBound::Lower;
        rm.pv = vec![line[0]];
        assert_eq!(rm.shown_line(&root, &tt), line, "the last whole line");
        // Not scored yet this iteration: the same.
        rm.score = -INFINITE;
        assert_eq!(rm.shown_line(&root, &tt), line);
        // An exact score shows its own line, even a shorter one.
        rm.score = 0;
        rm.bound = ScoreBound::Exact;
        rm.pv = line[..2].to_vec();
        assert_eq!(rm.shown_line(&root, &tt), line[..2]);
    }

    /// A move of the line from the start, read in UCI (each in the
    /// position after the ones before: enough for this opening).
    fn root_move(root: &Position, uci: &str) -> Move {
        let mut pos = *root;
        for (i, u) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
            let m = pos
                .parse_uci_move(u, chess::CastlingMode::Standard)
                .unwrap_or_else(|_| panic!("{u} at {i}"));
            if *u == uci {
                return m;
            }
            pos.play_unchecked(m);
        }
        panic!("{uci} is not in the line")
    }
}
