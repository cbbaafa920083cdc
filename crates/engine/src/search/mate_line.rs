//! Completing a mate line the search proved but cut short.
//!
//! A mate score can reach the root through a stored proof (a table entry
//! that settles a node, or that quiescence takes as its stand-pat) with no
//! line behind it: the principal variation then stops moves before the
//! mate it announces, and a reader (or a tool that replays it) cannot see
//! the mate. The proofs the line rests on are in the table, one per
//! position on the way: each stored mate distance is one ply shorter than
//! its parent's. Following them, one ply at a time, rebuilds the rest of
//! the line.

use chess::{Move, Position};

use super::tt::{Bound, TranspositionTable};
use crate::score::{from_tt, is_mate, mate_in, mated_in, Value, MATE};

/// Extends `pv`, a line from `root` whose score (from the root's side to
/// move) is `score`, until it ends in the mate the score announces, with
/// moves whose stored results prove each step. Stops, leaving the line as
/// far as it got, where no stored result continues it exactly. A line that
/// is not a mate, already mates or does not replay is left alone.
pub fn complete_mate_line(
    root: &Position,
    score: Value,
    pv: &mut Vec<Move>,
    tt: &TranspositionTable,
) {
    if !is_mate(score) {
        return;
    }
    let plies = (MATE - score.abs()) as usize;
    let mut pos = *root;
    for &m in pv.iter() {
        if pos.play(m).is_err() {
            return;
        }
    }
    while pv.len() < plies {
        // The side to move at the end of the line mates when an odd number
        // of plies is left, and is mated otherwise.
        let left = plies - pv.len();
        let Some(m) = proven_step(&pos, left, tt) else {
            return;
        };
        pos.play_unchecked(m);
        pv.push(m);
    }
}

/// A move from `pos` after which the mate `left` plies away (given by the
/// side to move when `left` is odd, suffered by it when even) is `left - 1`
/// plies away, as the table proves or the board shows.
fn proven_step(pos: &Position, left: usize, tt: &TranspositionTable) -> Option<Move> {
    let attacking = left % 2 == 1;
    pos.legal_moves().iter().copied().find(|&m| {
        let mut child = *pos;
        child.play_unchecked(m);
        if left == 1 {
            return child.is_checkmate();
        }
        let Some(entry) = tt.probe(child.key()) else {
            return false;
        };
        // The child's score is from its side to move: the defender after
        // the attacker's move, the attacker after the defender's.
        let stored = from_tt(entry.score, 0);
        if attacking {
            stored == mated_in(left - 1) && matches!(entry.bound, Bound::Exact | Bound::Upper)
        } else {
            stored == mate_in(left - 1) && matches!(entry.bound, Bound::Exact | Bound::Lower)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::tt::TtEntry;
    use super::*;
    use chess::CastlingMode;

    fn store(tt: &TranspositionTable, pos: &Position, score: Value, bound: Bound) {
        tt.store(
            pos.key(),
            TtEntry {
                mv: Move::NULL,
                score,
                eval: 0,
                depth: 1,
                bound,
                pv: false,
            },
        );
    }

    fn play(pos: &Position, uci: &str) -> (Position, Move) {
        let m = pos
            .parse_uci_move(uci, CastlingMode::Standard)
            .expect("legal move");
        let mut child = *pos;
        child.play_unchecked(m);
        (child, m)
    }

    /// The ladder: 1. Rb7 Kg8 2. Ra8#, with the proofs a search stores.
    fn ladder() -> (Position, TranspositionTable, [Move; 3]) {
        let root: Position = "7k/8/8/8/8/8/1R6/R3K3 w - - 0 1".parse().expect("fen");
        let tt = TranspositionTable::new(1);
        let (after_rb7, rb7) = play(&root, "b2b7");
        store(&tt, &after_rb7, mated_in(2), Bound::Upper);
        let (after_kg8, kg8) = play(&after_rb7, "h8g8");
        store(&tt, &after_kg8, mate_in(1), Bound::Lower);
        let (_, ra8) = play(&after_kg8, "a1a8");
        (root, tt, [rb7, kg8, ra8])
    }

    #[test]
    fn a_mate_line_cut_short_is_completed_from_stored_proofs() {
        let (root, tt, line) = ladder();
        for known in 0..=line.len() {
            let mut pv = line[..known].to_vec();
            complete_mate_line(&root, mate_in(3), &mut pv, &tt);
            assert_eq!(pv, line, "from {known} moves");
        }
    }

    #[test]
    fn a_proof_of_another_distance_does_not_continue_the_line() {
        let (root, tt, line) = ladder();
        // Claimed as a mate in three moves: the stored distances do not fit.
        let mut pv = line[..1].to_vec();
        complete_mate_line(&root, mate_in(5), &mut pv, &tt);
        assert_eq!(pv, line[..1]);
    }

    #[test]
    fn a_line_without_proofs_or_without_a_mate_is_left_alone() {
        let root = Position::startpos();
        let tt = TranspositionTable::new(1);
        let (_, e4) = play(&root, "e2e4");
        let mut pv = vec![e4];
        complete_mate_line(&root, mate_in(5), &mut pv, &tt);
        assert_eq!(pv, vec![e4]);
        complete_mate_line(&root, 120, &mut pv, &tt);
        assert_eq!(pv, vec![e4]);
    }
}
