//! One search thread's state (`Worker`), kept from search to search, and
//! what every node does with it: a move made and taken back (the evaluator,
//! the continuation-history stack and the repetition keys following it),
//! the draw rules, the node count and its checks of the clock, the
//! principal variation table, the static evaluation corrected. The root's
//! moves (`RootMove`) are here too; the iteration over them is in
//! `iteration.rs`, one node's steps in `node.rs`, the horizon's in
//! `qsearch.rs`.

use std::sync::atomic::Ordering;

use chess::{Move, Position};

use super::correction::CorrectionHistory;
use super::history::{piece_to, History, PieceTo, PrevMoves};
use super::mate_line::complete_mate_line;
use super::see::{captured_value, gave_material_away};
use super::shared::Shared;
use super::tt::TranspositionTable;
use crate::eval::Evaluator;
use crate::events::ScoreBound;
use crate::params::tuned;
use crate::score::{is_mate, Value, INFINITE, MAX_PLY};
use crate::stats::SearchStats;

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

#[derive(Clone, Copy, Default)]
pub(super) struct StackEntry {
    pub(super) static_eval: Value,
    pub(super) piece_to: PieceTo,
    pub(super) excluded: Move,
    pub(super) null_move: bool,
    /// What the move made at this ply captured (SEE values; 0 for none).
    pub(super) captured: Value,
    /// The node is or was on a principal variation (`TtPv`).
    pub(super) tt_pv: bool,
    /// Cut-offs at this ply under the parent so far (`CutoffCount`): the
    /// parent's moves refuted at once.
    pub(super) cutoffs: u32,
    /// Double extensions on the line from the root to this node.
    pub(super) double_extensions: i32,
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
    pub(super) stack: Vec<StackEntry>,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: Vec<usize>,
    pub(super) keys: Vec<u64>,
    pub(super) root_index: usize,
    /// The position searched (its side to move gets the contempt; mate
    /// lines are completed from it).
    pub(super) root: Position,
    pub(super) root_depth: i32,
    pub(super) pv_index: usize,
    pub(super) seldepth: usize,
    pub(super) nmp_min_ply: usize,
    pub(super) lmr: Vec<[i32; 64]>,
    /// The first move and shown score of the last line 1 reported in this search.
    pub(super) reported: (Move, Value),
}

/// The late move reductions by depth and move number.
pub(super) fn lmr_table() -> Vec<[i32; 64]> {
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

impl Worker {
    /// The moves one, two and four plies before `ply` (for continuation history).
    #[inline]
    pub(super) fn previous_moves(&self, s: &Shared, ply: usize) -> PrevMoves {
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

    /// Counts a node and, every 1024 nodes, publishes the count and (main
    /// thread) checks the clock and the node limit. True when stopping.
    #[inline]
    pub(super) fn tick(&mut self, s: &Shared) -> bool {
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
    pub(super) fn draw_value(&self, s: &Shared, pos: &Position) -> Value {
        if pos.turn() == self.root.turn() {
            -s.config.params.contempt
        } else {
            s.config.params.contempt
        }
    }

    /// Fifty-move rule, insufficient material, and repetition: once inside
    /// the search tree (the line could repeat forever), or twice counting
    /// the game before the root.
    pub(super) fn is_draw(&self, pos: &Position) -> bool {
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
    pub(super) fn make_move(&mut self, pos: &Position, m: Move, ply: usize) -> Position {
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
    pub(super) fn opponent_sacrificed_near_king(&self, pos: &Position, ply: usize) -> bool {
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
    pub(super) fn make_null_move(&mut self, pos: &Position, ply: usize) -> Position {
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
    pub(super) fn unmake_null_move(&mut self, ply: usize) {
        self.keys.pop();
        self.evaluator.pop();
        self.stack[ply].null_move = false;
    }

    /// Takes back what `make_move` did (the position itself is a copy).
    #[inline]
    pub(super) fn unmake_move(&mut self) {
        self.keys.pop();
        self.evaluator.pop();
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Starts loading the correction entries that [`Self::corrected`] will
    /// read for `pos` (call it before computing the static evaluation).
    #[inline]
    pub(super) fn prefetch_correction(&self, s: &Shared, pos: &Position, ply: usize) {
        if s.config.params.correction {
            self.correction.prefetch(pos, self.previous_moves(s, ply));
        }
    }

    /// The static evaluation `raw` of `pos` as the search uses it: corrected
    /// by the correction history when it is on (not in check: no evaluation).
    #[inline]
    pub(super) fn corrected(
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
