//! The staged move picker: moves come out best-first without generating
//! what a cut-off makes unnecessary. Main search order: hash move, winning
//! and equal captures (most valuable victim, least valuable attacker, then
//! static exchange), the two killers, the countermove, quiet moves by
//! history, losing captures last. Quiet moves are generated only when no
//! capture has cut off. In check, all evasions are generated at once; in
//! quiescence, only captures and queen promotions (under-promotions are
//! left to the full search).

use arrayvec::ArrayVec;
use chess::{Bitboard, GenType, Move, MoveKind, MoveSink, Position, Role, MAX_MOVES};

use super::history::{piece_to, History, PrevMoves};
use super::see::see_ge;
use crate::eval::SEE_VALUES;
use crate::params::tuned;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    InitCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Countermove,
    InitQuiets,
    Quiets,
    BadCaptures,
    EvasionTtMove,
    InitEvasions,
    Evasions,
    QTtMove,
    InitQCaptures,
    QCaptures,
    InitQChecks,
    QChecks,
    Done,
}

/// True when `m` captures something (en passant included).
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        _ => pos.piece_at(m.to()).is_some(),
    }
}

/// True for moves the quiescence search considers: captures and promotions.
#[inline]
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    is_capture(pos, m) || m.kind() == MoveKind::Promotion
}

/// Larger than any history score.
const CHECK_BONUS: i32 = 1 << 20;

/// What the picker needs to know about the search around the node.
#[derive(Clone, Copy, Debug)]
pub struct OrderingContext {
    /// Killers of this ply.
    pub killers: [Move; 2],
    /// Countermove to the previous move.
    pub countermove: Move,
    /// The earlier moves (continuation history).
    pub prev: PrevMoves,
    /// The squares the opponent attacks, which split the butterfly history
    /// (`ThreatHistory`; none when it is off, or where no quiet move is
    /// scored).
    pub threats: Bitboard,
    /// Order quiet moves by history (off: generation order).
    pub use_history: bool,
    /// Order captures by capture history too, and let it move a capture's
    /// static-exchange bar between the good and the bad ones.
    pub use_capture_history: bool,
}

/// A generated move and its ordering score.
#[derive(Clone, Copy)]
struct ScoredMove {
    mv: Move,
    score: i32,
}

/// The moves of the picker's current stage with their scores. Unlike a
/// `MoveList`, nothing is written when it is made: every node of the search
/// makes a picker, and most need a few of the 256 slots, if any.
#[derive(Default)]
struct ScoredMoves(ArrayVec<ScoredMove, MAX_MOVES>);

impl MoveSink for ScoredMoves {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        // A position has at most 218 legal moves: the capacity is never reached.
        let _ = self.0.try_push(ScoredMove { mv: m, score: 0 });
    }
}

/// Hands out moves one at a time, best first.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    ctx: OrderingContext,
    moves: ScoredMoves,
    current: usize,
    /// Captures that lose material, handed out after the quiet moves.
    bad: ArrayVec<Move, MAX_MOVES>,
    bad_current: usize,
    skip_quiets: bool,
    use_see: bool,
    /// Quiescence: also hand out quiet moves that give check, after the captures.
    with_checks: bool,
}

impl MovePicker {
    /// A picker for a node of the main search (`use_see`: order captures by SEE).
    pub fn new(pos: &Position, tt_move: Move, ctx: OrderingContext, use_see: bool) -> MovePicker {
        let stage = if pos.in_check() {
            Stage::EvasionTtMove
        } else {
            Stage::TtMove
        };
        MovePicker::with_stage(stage, tt_move, ctx, use_see)
    }

    /// A picker for the quiescence search: captures and promotions (all
    /// evasions in check), then, with `with_checks`, the quiet moves that
    /// give check (so that a quiet mate threat is seen at the horizon).
    pub fn new_qsearch(
        pos: &Position,
        tt_move: Move,
        ctx: OrderingContext,
        with_checks: bool,
    ) -> MovePicker {
        let stage = if pos.in_check() {
            Stage::EvasionTtMove
        } else {
            Stage::QTtMove
        };
        let mut picker = MovePicker::with_stage(stage, tt_move, ctx, true);
        picker.with_checks = with_checks;
        picker
    }

    fn with_stage(stage: Stage, tt_move: Move, ctx: OrderingContext, use_see: bool) -> MovePicker {
        MovePicker {
            stage,
            tt_move,
            ctx,
            moves: ScoredMoves::default(),
            current: 0,
            bad: ArrayVec::new(),
            bad_current: 0,
            skip_quiets: false,
            use_see,
            with_checks: false,
        }
    }

    /// Stops handing out quiet moves (late move pruning); captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn score_captures(&mut self, pos: &Position, history: &History) {
        let use_history = self.ctx.use_capture_history;
        for entry in &mut self.moves.0 {
            let m = entry.mv;
            let victim = if m.kind() == MoveKind::EnPassant {
                SEE_VALUES[0]
            } else {
                pos.piece_at(m.to())
                    .map_or(0, |p| SEE_VALUES[p.role.index()])
            };
            let attacker = pos.piece_at(m.from()).map_or(0, |p| p.role.index() as i32);
            let promotion = m.promotion_role().map_or(0, |r| SEE_VALUES[r.index()]);
            let learned = if use_history {
                history.capture_score(pos, m) / tuned::capture_history_divisor()
            } else {
                0
            };
            entry.score = (victim + promotion) * 16 - attacker + learned;
        }
    }

    /// Quiet moves by history, with direct checks first (so that late move
    /// pruning, which drops the quiet moves after a count, keeps them).
    fn score_quiets(&mut self, pos: &Position, history: &History) {
        let rows = history.quiet_rows(pos.turn(), self.ctx.prev, self.ctx.threats);
        let checks = pos.check_squares();
        for entry in &mut self.moves.0 {
            let m = entry.mv;
            let history_score = if self.ctx.use_history {
                rows.score(m, piece_to(pos, m))
            } else {
                0
            };
            let check_bonus = if pos.gives_direct_check_with(&checks, m) {
                CHECK_BONUS
            } else {
                0
            };
            entry.score = history_score + check_bonus;
        }
    }

    fn score_evasions(&mut self, pos: &Position, history: &History) {
        let rows = history.quiet_rows(pos.turn(), self.ctx.prev, self.ctx.threats);
        for entry in &mut self.moves.0 {
            let m = entry.mv;
            entry.score = if is_noisy(pos, m) {
                let victim = pos
                    .piece_at(m.to())
                    .map_or(SEE_VALUES[0], |p| SEE_VALUES[p.role.index()]);
                let attacker = pos.piece_at(m.from()).map_or(0, |p| p.role.index() as i32);
                1 << 20 | (victim * 16 - attacker)
            } else {
                rows.score(m, piece_to(pos, m))
            };
        }
    }

    /// Moves the best-scored remaining move to the front and returns it
    /// (the first of equals, so that ties keep generation order).
    fn pick_best(&mut self) -> Option<Move> {
        let rest = self.moves.0.get_mut(self.current..)?;
        let mut best_score = rest.first()?.score;
        let mut best = 0;
        for (i, entry) in rest.iter().enumerate().skip(1) {
            if entry.score > best_score {
                best = i;
                best_score = entry.score;
            }
        }
        rest.swap(0, best);
        self.current += 1;
        Some(rest[0].mv)
    }

    fn refutation_ok(&self, pos: &Position, m: Move) -> bool {
        !m.is_null() && m != self.tt_move && !is_noisy(pos, m) && pos.is_legal(m)
    }

    /// The next move, or `None` when all have been handed out.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvasionTtMove | Stage::QTtMove => {
                    let stage = self.stage;
                    self.stage = match stage {
                        Stage::TtMove => Stage::InitCaptures,
                        Stage::EvasionTtMove => Stage::InitEvasions,
                        _ => Stage::InitQCaptures,
                    };
                    let tt = self.tt_move;
                    let fits = stage != Stage::QTtMove || is_noisy(pos, tt);
                    if !tt.is_null() && fits && pos.is_legal(tt) {
                        return Some(tt);
                    }
                }
                Stage::InitCaptures | Stage::InitQCaptures => {
                    self.moves.0.clear();
                    pos.generate_moves(GenType::Noisy, &mut self.moves);
                    self.current = 0;
                    self.score_captures(pos, history);
                    self.stage = if self.stage == Stage::InitCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QCaptures
                    };
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) if m == self.tt_move => continue,
                    Some(m) => {
                        let underpromotion = m.promotion_role().is_some_and(|r| r != Role::Queen);
                        // A capture that has cut off often may lose a little
                        // material on the board's count and still be good.
                        let bar = if self.ctx.use_capture_history {
                            -history.capture_score(pos, m) / tuned::capture_see_divisor()
                        } else {
                            0
                        };
                        if underpromotion || (self.use_see && !see_ge(pos, m, bar)) {
                            // At most as many as the captures: always room.
                            let _ = self.bad.try_push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let k = self.ctx.killers[0];
                    if !self.skip_quiets && self.refutation_ok(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Countermove;
                    let k = self.ctx.killers[1];
                    if !self.skip_quiets && k != self.ctx.killers[0] && self.refutation_ok(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Countermove => {
                    self.stage = Stage::InitQuiets;
                    let c = self.ctx.countermove;
                    if !self.skip_quiets
                        && !self.ctx.killers.contains(&c)
                        && self.refutation_ok(pos, c)
                    {
                        return Some(c);
                    }
                }
                Stage::InitQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.moves.0.clear();
                    pos.generate_moves(GenType::Quiet, &mut self.moves);
                    self.current = 0;
                    self.score_quiets(pos, history);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some(m)
                            if m == self.tt_move
                                || self.ctx.killers.contains(&m)
                                || m == self.ctx.countermove =>
                        {
                            continue
                        }
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_current < self.bad.len() {
                        let m = self.bad[self.bad_current];
                        self.bad_current += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::InitEvasions => {
                    self.moves.0.clear();
                    pos.generate_moves(GenType::All, &mut self.moves);
                    self.current = 0;
                    self.score_evasions(pos, history);
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) if m == self.tt_move => continue,
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::QCaptures => match self.pick_best() {
                    Some(m) if m == self.tt_move => continue,
                    // Under-promotions are left to the full search: tried
                    // here, a few pawns on the seventh multiply the tree
                    // by every piece in every order.
                    Some(m) if m.promotion_role().is_some_and(|r| r != Role::Queen) => continue,
                    Some(m) => return Some(m),
                    None if self.with_checks => self.stage = Stage::InitQChecks,
                    None => self.stage = Stage::Done,
                },
                Stage::InitQChecks => {
                    self.moves.0.clear();
                    pos.generate_moves(GenType::Quiet, &mut self.moves);
                    let check_squares = pos.check_squares();
                    self.moves.0.retain(|entry| {
                        !entry.mv.is_castling() && pos.gives_check_with(&check_squares, entry.mv)
                    });
                    self.current = 0;
                    self.stage = Stage::QChecks;
                }
                Stage::QChecks => {
                    let Some(&ScoredMove { mv: m, .. }) = self.moves.0.get(self.current) else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    self.current += 1;
                    if m != self.tt_move {
                        return Some(m);
                    }
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    fn all_from_picker(fen: &str, tt: &str, killers: [&str; 2]) -> Vec<Move> {
        let pos = Position::from_fen(fen).unwrap();
        let parse = |s: &str| {
            if s.is_empty() {
                Move::NULL
            } else {
                pos.parse_uci_move(s, CastlingMode::Standard).unwrap()
            }
        };
        let ctx = OrderingContext {
            killers: [parse(killers[0]), parse(killers[1])],
            countermove: Move::NULL,
            prev: PrevMoves::NONE,
            use_history: true,
            use_capture_history: false,
            threats: Bitboard::EMPTY,
        };
        let history = History::default();
        let mut picker = MovePicker::new(&pos, parse(tt), ctx, true);
        let mut out = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            out.push(m);
        }
        out
    }

    #[test]
    fn every_legal_move_exactly_once() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut legal: Vec<u16> = pos.legal_moves().iter().map(|m| m.to_bits()).collect();
            let first = pos.legal_moves()[0]
                .to_uci(CastlingMode::Standard)
                .to_string();
            let mut picked: Vec<u16> = all_from_picker(fen, &first, [&first, ""])
                .iter()
                .map(|m| m.to_bits())
                .collect();
            legal.sort_unstable();
            picked.sort_unstable();
            assert_eq!(picked, legal, "{fen}");
        }
    }

    #[test]
    fn order_tt_then_captures_then_killers() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let moves = all_from_picker(fen, "a2a3", ["e1g1", "d5d6"]);
        let uci: Vec<String> = moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(uci[0], "a2a3");
        // The most valuable victim that can be taken safely: the bishop on a6.
        assert_eq!(uci[1], "e2a6", "{uci:?}");
        let k = uci.iter().position(|m| m == "e1g1").unwrap();
        let first_quiet_non_killer = uci.iter().position(|m| m == "a2a4").unwrap();
        assert!(k < first_quiet_non_killer);
    }

    #[test]
    fn quiescence_promotes_to_a_queen_only() {
        // b7 can push or take on a8 or c8; the tt move, even an
        // under-promotion, still comes first.
        let pos = Position::from_fen("n1n4k/1P6/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let ctx = OrderingContext {
            killers: [Move::NULL; 2],
            countermove: Move::NULL,
            prev: PrevMoves::NONE,
            use_history: true,
            use_capture_history: false,
            threats: Bitboard::EMPTY,
        };
        let history = History::default();
        let tt = pos.parse_uci_move("b7a8n", CastlingMode::Standard).unwrap();
        let mut picker = MovePicker::new_qsearch(&pos, tt, ctx, false);
        let mut picked = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            picked.push(m.to_uci(CastlingMode::Standard).to_string());
        }
        assert_eq!(picked[0], "b7a8n");
        let mut rest = picked[1..].to_vec();
        rest.sort();
        assert_eq!(rest, ["b7a8q", "b7b8q", "b7c8q"], "{picked:?}");
    }
}

#[cfg(test)]
mod check_order_tests {
    use super::*;
    use chess::CastlingMode;

    #[test]
    fn quiet_checks_come_first() {
        let pos = Position::from_fen("6k1/1R6/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let ctx = OrderingContext {
            killers: [Move::NULL; 2],
            countermove: Move::NULL,
            prev: PrevMoves::NONE,
            use_history: true,
            use_capture_history: false,
            threats: Bitboard::EMPTY,
        };
        let history = History::default();
        let mut picker = MovePicker::new(&pos, Move::NULL, ctx, true);
        let mut order = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            order.push(m.to_uci(CastlingMode::Standard).to_string());
        }
        let checks = ["a1a8", "b7b8", "b7g7"];
        for (i, m) in order.iter().take(3).enumerate() {
            assert!(
                checks.contains(&m.as_str()),
                "move {i} is {m}; order {order:?}"
            );
        }
    }
}
