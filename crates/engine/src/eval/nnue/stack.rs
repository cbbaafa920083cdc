//! One accumulator per ply, for a search: push on make, pop on unmake.

use chess::{Move, Position};

use super::{evaluate, Accumulator, Network};
use crate::eval::ply_stack::PlyStack;

/// A stack of accumulators, one per ply from the root. Allocated once (keep
/// one per search thread); pushing and popping copy no more than the
/// network's lanes and allocate nothing while within the capacity.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    plies: PlyStack<Accumulator>,
}

impl AccumulatorStack {
    /// A stack for searches up to `plies` deep (e.g. the search's maximum
    /// ply plus one). Going deeper still works: the stack grows.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            plies: PlyStack::new(plies),
        }
    }

    /// Starts from `root`: a full refresh at ply 0.
    pub fn reset(&mut self, net: &Network, root: &Position) {
        self.plies.reset(|acc| acc.refresh(net, root));
    }

    /// The accumulator for `m` played in `before` (call it just before
    /// `before.play(m)`); `Move::NULL` for a null move.
    #[inline]
    pub fn push_move(&mut self, net: &Network, before: &Position, m: Move) {
        self.plies
            .push(|parent, child| child.update_from(net, parent, before, m));
    }

    /// Back to the parent ply (on unmake). Popping the root does nothing.
    #[inline]
    pub fn pop(&mut self) {
        self.plies.pop();
    }

    /// The current ply's accumulator.
    #[inline]
    pub fn current(&self) -> &Accumulator {
        self.plies.current()
    }

    /// The current position's score, centipawns from `pos`'s side to move.
    #[inline]
    pub fn evaluate(&self, net: &Network, pos: &Position) -> i32 {
        evaluate(net, self.current(), pos)
    }

    /// How many plies it holds without growing.
    pub fn capacity(&self) -> usize {
        self.plies.capacity()
    }

    /// Plies above the root.
    pub fn ply(&self) -> usize {
        self.plies.ply()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::{random_bucketed, random_network};
    use crate::eval::nnue::Activation;

    /// A depth-first walk: every node's score equals a fresh computation.
    fn walk(
        net: &Network,
        stack: &mut AccumulatorStack,
        pos: &mut Position,
        depth: u32,
        nodes: &mut u64,
    ) {
        *nodes += 1;
        let fresh = evaluate(net, &Accumulator::new(net, pos), pos);
        assert_eq!(stack.evaluate(net, pos), fresh, "{}", pos.fen());
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves().iter().take(6) {
            stack.push_move(net, pos, *m);
            let undo = pos.play_unchecked(*m);
            walk(net, stack, pos, depth - 1, nodes);
            pos.undo(*m, undo);
            stack.pop();
        }
    }

    #[test]
    fn push_and_pop_follow_a_tree_walk() {
        // One output and eight buckets (captures change the bucket).
        for net in [
            random_network(64, Activation::SCReLU, 3),
            random_bucketed(64, Activation::SCReLU, 8, 3),
        ] {
            walk_from(&net);
        }
    }

    fn walk_from(net: &Network) {
        // A small capacity: the stack grows past it.
        let mut stack = AccumulatorStack::new(2);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            stack.reset(net, &pos);
            let mut nodes = 0;
            walk(net, &mut stack, &mut pos, 4, &mut nodes);
            assert_eq!(stack.ply(), 0);
            assert!(nodes > 1000);
        }
    }
}
