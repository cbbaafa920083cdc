//! One node of the principal variation search, in numbered steps: the
//! horizon, draws and mate distance, the transposition table, the
//! tablebases, the static evaluation, then the pruning before any move is
//! tried (razoring, reverse futility, null move, ProbCut), the moves in the
//! picker's order with their own pruning, extensions and reductions, and the
//! result stored. Every pruning, reduction and extension is a switch in
//! `SearchParams`, so that its worth can be measured by turning it off (see
//! the ablation table in docs/search.md).

use std::sync::atomic::Ordering;

use chess::{Bitboard, Move, Position};

use super::history::{piece_to, threats};
use super::movepick::{is_noisy, MovePicker, OrderingContext};
use super::see::see_ge;
use super::shared::Shared;
use super::tt::{Bound, TtEntry};
use crate::eval::has_non_pawn_material;
use crate::events::{ScoreBound, SearchEvent};
use crate::params::tuned;
use crate::score::{
    from_tt, is_mate, mate_in, mated_in, tb_loss_in, tb_win_in, to_tt, Value, INFINITE, MATE_BOUND,
    MAX_PLY, TB_WIN_BOUND,
};

use super::worker::Worker;

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
pub(super) fn tt_cutoff(
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
pub(super) fn refine_eval(eval: Value, entry: Option<TtEntry>, score: Option<Value>) -> Value {
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
    /// Step by step search of one node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
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
            self.prefetch_correction(s, pos, ply);
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
        let threats = threats(pos, s.config.params.threat_history);
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
            threats,
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
                        && self
                            .history
                            .quiet_score(us, m, piece_to(pos, m), prev, threats)
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
                        r -= self.history.quiet_score(
                            us,
                            m,
                            self.stack[ply].piece_to,
                            prev,
                            threats,
                        ) / tuned::lmr_history_divisor();
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
                    threats,
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
            // A fail-high's score is a bound found by a search that stopped
            // at the first refutation: drawn towards beta, the less the
            // deeper the search (Stockfish's blend), it still fails high.
            if s.config.params.fail_high_blend
                && best.abs() < TB_WIN_BOUND
                && alpha.abs() < TB_WIN_BOUND
                && beta.abs() < TB_WIN_BOUND
            {
                best = (best * depth + beta) / (depth + 1);
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
            threats: Bitboard::EMPTY,
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
}
