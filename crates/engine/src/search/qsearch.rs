//! Quiescence search: at the horizon, only captures and promotions (all
//! evasions in check, and quiet checks at its first ply where the switch
//! says so) until the position is quiet, with the option of standing pat
//! on the static evaluation.

use std::sync::atomic::Ordering;

use chess::{Bitboard, Move, Position};

use super::history::threats;
use super::movepick::{is_noisy, MovePicker, OrderingContext};
use super::see::{captured_value, see_ge};
use super::shared::Shared;
use super::tt::{Bound, TtEntry};
use crate::eval::has_non_pawn_material;
use crate::params::tuned;
use crate::score::{from_tt, is_mate, mated_in, to_tt, Value, INFINITE, MAX_PLY};

use super::node::{refine_eval, tt_cutoff};
use super::worker::Worker;

/// The depth a quiescence node's table entry carries (`QSTableDepth`): -1
/// when it tried captures only, 0 when it tried quiet checks too (or was in
/// check, all evasions tried), so that a captures-only result never settles
/// a node that would also try checks (Stockfish's `DEPTH_QS_NO_CHECKS` and
/// `DEPTH_QS_CHECKS`). With the switch off every entry says 0.
fn qs_tt_depth(captures_only: bool) -> i32 {
    -i32::from(captures_only)
}

impl Worker {
    /// Quiescence search: only captures and promotions (all evasions in
    /// check), with the option of standing pat on the static evaluation.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn qsearch(
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
            self.prefetch_correction(s, pos, ply);
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
            // Only evasions are scored by quiet history here.
            threats: if in_check {
                threats(pos, s.config.params.threat_history)
            } else {
                Bitboard::EMPTY
            },
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
