//! The hand-crafted evaluation's material and piece-square values, White
//! minus Black, kept up to date move by move: a move changes two to four
//! pieces, where summing the board visits every piece at every evaluation.

use chess::{Color, Move, Piece, Position, Role};

use super::pair::Pair;
use super::weights::{Weights, PIECE_VALUE, PSQT};
use crate::eval::piece_delta::PieceDelta;
use crate::eval::ply_stack::PlyStack;

/// What one piece on one square is worth to White (its value and its
/// piece-square entry; negative for Black's pieces).
#[inline(always)]
fn worth(weights: &Weights, piece: Piece, sq: chess::Square) -> Pair {
    let role = piece.role.index();
    let psqt = weights.get(PSQT[role] + sq.relative(piece.color).index());
    let own = if piece.role == Role::King {
        psqt
    } else {
        weights.get(PIECE_VALUE + role) + psqt
    };
    if piece.color == Color::White {
        own
    } else {
        -own
    }
}

/// The material and piece-square sum of `pos`, counted piece by piece.
pub fn count(weights: &Weights, pos: &Position) -> Pair {
    let mut sum = Pair::default();
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                sum += worth(weights, Piece::new(color, role), sq);
            }
        }
    }
    sum
}

/// One sum per ply from the root, for a search: push on make, pop on
/// unmake. Allocated once; pushing allocates only past its capacity.
#[derive(Clone, Debug)]
pub struct MaterialStack {
    plies: PlyStack<Pair>,
}

impl MaterialStack {
    /// A stack for searches up to `plies` deep (deeper still works: it grows).
    pub fn new(plies: usize) -> MaterialStack {
        MaterialStack {
            plies: PlyStack::new(plies),
        }
    }

    /// Starts from `root`, counted afresh.
    pub fn reset(&mut self, weights: &Weights, root: &Position) {
        self.plies.reset(|sum| *sum = count(weights, root));
    }

    /// The sum after `m` played in `before` (call it just before
    /// `before.play(m)`); `Move::NULL` for a null move.
    #[inline]
    pub fn push_move(&mut self, weights: &Weights, before: &Position, m: Move) {
        let delta = PieceDelta::of_move(before, m);
        self.plies.push(|parent, sum| {
            *sum = *parent;
            for &(piece, sq) in delta.removed() {
                *sum -= worth(weights, piece, sq);
            }
            for &(piece, sq) in delta.added() {
                *sum += worth(weights, piece, sq);
            }
        });
    }

    /// Back to the parent ply (on unmake). Popping the root does nothing.
    #[inline]
    pub fn pop(&mut self) {
        self.plies.pop();
    }

    /// The current position's sum.
    #[inline]
    pub fn current(&self) -> Pair {
        *self.plies.current()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Square;

    /// A depth-first walk of every legal move a few plies deep: the pushed
    /// sum equals a fresh count at every node.
    fn walk(weights: &Weights, stack: &mut MaterialStack, pos: &mut Position, depth: u32) -> u64 {
        assert_eq!(stack.current(), count(weights, pos), "{}", pos.fen());
        if depth == 0 {
            return 1;
        }
        let mut nodes = 1;
        for m in &pos.legal_moves() {
            stack.push_move(weights, pos, *m);
            let undo = pos.play_unchecked(*m);
            nodes += walk(weights, stack, pos, depth - 1);
            pos.undo(*m, undo);
            stack.pop();
        }
        // A null move changes nothing.
        if !pos.in_check() {
            stack.push_move(weights, pos, Move::NULL);
            assert_eq!(stack.current(), count(weights, pos));
            stack.pop();
        }
        nodes
    }

    #[test]
    fn pushed_sums_equal_a_fresh_count() {
        let weights = Weights::default_shared();
        // A small capacity: the stack grows past it.
        let mut stack = MaterialStack::new(1);
        let mut nodes = 0;
        for fen in [
            // Castling both ways, en passant, promotions with and without capture.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            stack.reset(&weights, &pos);
            nodes += walk(&weights, &mut stack, &mut pos, 3);
        }
        assert!(nodes > 10_000, "{nodes}");
    }

    #[test]
    fn a_piece_counts_for_its_side() {
        let weights = Weights::default_shared();
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
        let queen = Piece::new(Color::White, Role::Queen);
        let kings = count(
            &weights,
            &Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        );
        assert_eq!(
            count(&weights, &pos) - kings,
            worth(&weights, queen, Square::new(0))
        );
        let mirrored = Position::from_fen("q3k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            count(&weights, &mirrored) - kings,
            -worth(&weights, queen, Square::new(0))
        );
    }
}
