//! Endgame tablebases as the search sees them: the trait a prober
//! implements (in `types`, re-exported here: the engine has no third-party
//! dependencies, so the Syzygy reader lives in its own crate, `syzygy`,
//! which needs only `types`), and the ranking of root moves
//! by their distance to zeroing, after Stockfish's `Tablebases::root_probe`:
//! moves that keep the best result share the best rank, so the search
//! chooses among them; moves that would let the fifty-move rule (or a
//! repetition) spoil a win are ranked by how quickly they make progress.

use chess::{Move, Position};

use crate::score::{Value, DRAW, TB_WIN};

// The trait and the value type live in `types`, below the engine, so that
// the Syzygy prober and the lab need not depend on the search.
pub use types::{Tablebase, Wdl};

/// The distance to zeroing of a move that zeroes the clock and reaches a
/// position of value `wdl` (from the mover's view).
const fn dtz_before_zeroing(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -1,
        Wdl::BlessedLoss => -101,
        Wdl::Draw => 0,
        Wdl::CursedWin => 101,
        Wdl::Win => 1,
    }
}

/// What the tables say about one root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootTbMove {
    /// The move.
    pub mv: Move,
    /// Higher is better; moves with the best rank keep the best result.
    pub rank: i32,
    /// The score to show for the move (side to move's view).
    pub score: Value,
    /// Distance to zeroing counted from the root, mover's view (0: draw);
    /// `None` when only the WDL tables could be read.
    pub dtz: Option<i32>,
}

/// The rank of a win reached comfortably within the fifty-move limit.
const CERTAIN: i32 = 1 << 17;

/// Ranks every legal root move by the tables: by DTZ when the DTZ tables
/// answer for every move, else by WDL only. `history` holds the keys of the
/// game's positions before `root` (for repetitions). `None` when the root is
/// not in the tables.
pub fn rank_root_moves(
    tb: &dyn Tablebase,
    root: &Position,
    history: &[u64],
    rule50: bool,
) -> Option<Vec<RootTbMove>> {
    if root.piece_count() > tb.max_pieces() || !root.castling_rights().is_empty() {
        return None;
    }
    rank_by_dtz(tb, root, history, rule50).or_else(|| rank_by_wdl(tb, root, history, rule50))
}

/// True when the position after a root move (`child`) is drawn whatever the
/// tables say: by the fifty-move rule or a third occurrence.
fn draw_after_move(child: &Position, root: &Position, history: &[u64]) -> bool {
    if child.halfmove_clock() >= 100 && (!child.in_check() || child.has_legal_moves()) {
        return true;
    }
    // A third occurrence: the position after the move was seen twice since
    // the last capture or pawn move.
    let key = child.key();
    let reach = (child.halfmove_clock() as usize).min(history.len() + 1);
    let earlier = history
        .iter()
        .copied()
        .chain(std::iter::once(root.key()))
        .rev()
        .take(reach);
    earlier.filter(|&k| k == key).count() >= 2
}

/// True when some position since the last capture or pawn move occurred
/// twice: then wins are ranked by progress, so that no repetition spoils them.
fn has_repeated(root: &Position, history: &[u64]) -> bool {
    let reach = (root.halfmove_clock() as usize).min(history.len());
    let mut window: Vec<u64> = history[history.len() - reach..].to_vec();
    window.push(root.key());
    window.sort_unstable();
    window.windows(2).any(|w| w[0] == w[1])
}

fn rank_by_dtz(
    tb: &dyn Tablebase,
    root: &Position,
    history: &[u64],
    rule50: bool,
) -> Option<Vec<RootTbMove>> {
    let cnt50 = root.halfmove_clock() as i32;
    let rep = has_repeated(root, history);
    let bound = if rule50 { CERTAIN - 100 } else { 1 };
    let mut ranked = Vec::new();
    for &mv in &root.legal_moves() {
        let mut child = *root;
        child.play_unchecked(mv);
        let dtz = if !child.has_legal_moves() {
            // Mate wins at once; stalemate draws.
            i32::from(child.in_check())
        } else if child.halfmove_clock() == 0 {
            dtz_before_zeroing(tb.probe_wdl(&child)?.flip())
        } else if draw_after_move(&child, root, history) {
            0
        } else {
            // One more ply: the move itself.
            let d = -tb.probe_dtz(&child)?;
            d + d.signum()
        };
        // Certain wins share a rank (the search picks among them); a win the
        // fifty-move rule threatens is ranked by distance; losses share a
        // rank unless a fifty-move draw is in sight.
        let rank = if dtz > 0 {
            if dtz + cnt50 <= 99 && !rep {
                CERTAIN
            } else {
                CERTAIN - (dtz + cnt50)
            }
        } else if dtz < 0 {
            if -dtz * 2 + cnt50 < 100 {
                -CERTAIN
            } else {
                -CERTAIN + (-dtz + cnt50)
            }
        } else {
            0
        };
        // Cursed wins show at least a few centipawns, growing as the win nears.
        let score = if rank >= bound {
            TB_WIN
        } else if rank > 0 {
            (rank - (CERTAIN - 200)).max(3) * 100 / 200
        } else if rank == 0 {
            DRAW
        } else if rank > -bound {
            (rank + (CERTAIN - 200)).min(-3) * 100 / 200
        } else {
            -TB_WIN
        };
        ranked.push(RootTbMove {
            mv,
            rank,
            score,
            dtz: Some(dtz),
        });
    }
    Some(ranked)
}

fn rank_by_wdl(
    tb: &dyn Tablebase,
    root: &Position,
    history: &[u64],
    rule50: bool,
) -> Option<Vec<RootTbMove>> {
    let mut ranked = Vec::new();
    for &mv in &root.legal_moves() {
        let mut child = *root;
        child.play_unchecked(mv);
        let wdl = if !child.has_legal_moves() {
            if child.in_check() {
                Wdl::Win
            } else {
                Wdl::Draw
            }
        } else if draw_after_move(&child, root, history) {
            Wdl::Draw
        } else {
            tb.probe_wdl(&child)?.flip()
        };
        let rank = match wdl {
            Wdl::Loss => -2 * CERTAIN,
            Wdl::BlessedLoss => -2 * CERTAIN + 101,
            Wdl::Draw => 0,
            Wdl::CursedWin => 2 * CERTAIN - 101,
            Wdl::Win => 2 * CERTAIN,
        };
        let score = match (wdl, rule50) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => TB_WIN,
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => -TB_WIN,
            (Wdl::CursedWin, true) => DRAW + 2,
            (Wdl::BlessedLoss, true) => DRAW - 2,
            (Wdl::Draw, _) => DRAW,
        };
        ranked.push(RootTbMove {
            mv,
            rank,
            score,
            dtz: None,
        });
    }
    Some(ranked)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tables that know only that the side with the queen wins: enough to
    /// check the ranking without table files.
    struct QueenWins;

    impl Tablebase for QueenWins {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
            let queens = pos.by_role(chess::Role::Queen);
            if queens.is_empty() {
                Some(Wdl::Draw)
            } else if (queens & pos.by_color(pos.turn())).any() {
                Some(Wdl::Win)
            } else {
                Some(Wdl::Loss)
            }
        }
        fn probe_dtz(&self, pos: &Position) -> Option<i32> {
            // Pretend every win takes 10 plies, except near the h-file.
            let wdl = self.probe_wdl(pos)?;
            Some(match wdl {
                Wdl::Win => 10,
                Wdl::Loss => -10,
                _ => 0,
            })
        }
    }

    #[test]
    fn keeps_the_win_and_ranks_blunders_lower() {
        // White: Kc1, Qh1; Black: Ke5.
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/2K4Q w - - 0 1").unwrap();
        let ranked = rank_root_moves(&QueenWins, &pos, &[], true).unwrap();
        assert_eq!(ranked.len(), pos.legal_moves().len());
        let best = ranked.iter().map(|r| r.rank).max().unwrap();
        assert_eq!(best, CERTAIN);
        // These tables see no hanging queen: every move keeps the win.
        assert!(ranked.iter().all(|r| r.score == TB_WIN));
        // Black to move can take a queen left next to the king: a draw.
        let pos = Position::from_fen("8/8/8/4k3/4Q3/8/8/2K5 b - - 0 1").unwrap();
        let ranked = rank_root_moves(&QueenWins, &pos, &[], true).unwrap();
        let take = ranked
            .iter()
            .find(|r| r.mv.to() == chess::Square::new(28))
            .unwrap();
        assert_eq!((take.rank, take.score, take.dtz), (0, DRAW, Some(0)));
        assert!(ranked.iter().all(|r| r.rank <= 0));
    }

    #[test]
    fn late_in_the_fifty_moves_wins_are_ranked_by_distance() {
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/2K4Q w - - 95 80").unwrap();
        let ranked = rank_root_moves(&QueenWins, &pos, &[], true).unwrap();
        // 11 plies from the root + 95 > 99: no longer a certain win.
        assert!(ranked.iter().all(|r| r.rank < CERTAIN && r.rank > 0));
        assert!(ranked.iter().all(|r| r.score > 0 && r.score < 100));
        // Without the fifty-move rule it is still a win.
        let ranked = rank_root_moves(&QueenWins, &pos, &[], false).unwrap();
        assert!(ranked.iter().all(|r| r.score == TB_WIN));
    }

    #[test]
    fn not_in_the_tables() {
        assert!(rank_root_moves(&QueenWins, &Position::startpos(), &[], true).is_none());
        let castling = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        assert!(rank_root_moves(&QueenWins, &castling, &[], true).is_none());
    }
}
