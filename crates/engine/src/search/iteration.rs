//! Iterative deepening: one thread's search of the root, depth after depth
//! (helper threads skipping some, Lazy SMP), each MultiPV line inside an
//! aspiration window that widens on a fail, the time manager asked after
//! each iteration, and the lines reported as they complete.

use std::sync::atomic::Ordering;

use chess::{Move, Position};

use super::shared::Shared;
use super::timeman::TimeManager;
use crate::events::{IterationInfo, ScoreBound, SearchEvent};
use crate::params::tuned;
use crate::score::{is_mate, mate_in, Value, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::stats::SearchStats;

use super::worker::{lmr_table, RootMove, StackEntry, Worker};

/// Lazy SMP: helper threads skip some depths so that they spread out
/// over different iterations instead of all searching the same tree.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True when `score` is a mate (for either side) no further away, in
/// plies, than the `depth` just completed. Deeper iterations could at most
/// find a shorter mate that pruning hid, which is not worth the clock.
#[inline]
fn mate_proven(score: Value, depth: i32) -> bool {
    is_mate(score) && MATE - score.abs() <= depth
}

impl Worker {
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
            if crate::eval::hce::endgame::is_basic_mate(root) {
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
}
