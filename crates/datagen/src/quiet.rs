//! Quiet positions for tuning: the evaluation is fitted where it is used,
//! at the end of the captures, so each position is replaced by the leaf of
//! its quiescence search's principal variation.

use chess::{GenType, Move, MoveList, Position};
use engine::eval::evaluate;

const MAX_QUIET_PLY: usize = 8;

fn qsearch(pos: &Position, mut alpha: i32, beta: i32, ply: usize, pv: &mut Vec<Move>) -> i32 {
    let stand_pat = evaluate(pos);
    if ply >= MAX_QUIET_PLY || stand_pat >= beta {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut moves = MoveList::new();
    pos.generate_moves(GenType::Noisy, &mut moves);
    let mut line = Vec::new();
    for &m in &moves {
        let mut next = *pos;
        next.play_unchecked(m);
        line.clear();
        let score = -qsearch(&next, -beta, -alpha, ply + 1, &mut line);
        if score > alpha {
            alpha = score;
            pv.clear();
            pv.push(m);
            pv.extend_from_slice(&line);
            if score >= beta {
                break;
            }
        }
    }
    alpha
}

/// The end of `pos`'s capture sequence (its quiescence principal variation),
/// or `None` when the side to move is in check (no quiet position there).
pub fn quiet_leaf(pos: &Position) -> Option<Position> {
    if pos.in_check() {
        return None;
    }
    let mut pv = Vec::new();
    qsearch(pos, -30_000, 30_000, 0, &mut pv);
    let mut leaf = *pos;
    for m in pv {
        leaf.play_unchecked(m);
    }
    (!leaf.in_check()).then_some(leaf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hanging_pieces_are_taken_first() {
        // White can take the undefended queen on d5.
        let pos = Position::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let leaf = quiet_leaf(&pos).unwrap();
        assert_eq!(leaf.fen(), "4k3/8/8/3R4/8/8/8/4K3 b - - 0 1");
        let quiet = Position::startpos();
        assert_eq!(quiet_leaf(&quiet).unwrap().fen(), quiet.fen());
        let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        assert!(quiet_leaf(&check).is_none());
    }
}
