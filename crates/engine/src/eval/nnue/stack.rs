//! One accumulator per ply, for a search: push on make, pop on unmake.
//! A move's changes are noted when it is made and applied only when a
//! position below it is evaluated ("lazy" updates): a node the search
//! never evaluates (in check, a draw, cut by mate distance) costs no pass
//! over the lanes.

use chess::{Color, Move, Position};

use super::accumulator::view_after;
use super::refresh_cache::RefreshCache;
use super::{evaluate, Accumulator, KingView, Network};
use crate::eval::piece_delta::PieceDelta;
use crate::eval::ply_stack::PlyStack;

/// One ply: its accumulator, up to date for the perspectives marked so,
/// and the move that led to it.
#[derive(Clone, Debug)]
struct Ply {
    acc: Accumulator,
    /// The pieces the move into this ply took off and put on (none at the
    /// root and after a null move).
    delta: PieceDelta,
    /// Each perspective's king view here (known at once: it follows from
    /// the king's square alone).
    views: [KingView; 2],
    /// Whether each perspective's lanes in `acc` are this ply's.
    computed: [bool; 2],
}

impl Default for Ply {
    fn default() -> Ply {
        Ply {
            acc: Accumulator::default(),
            delta: PieceDelta::default(),
            views: [KingView::PLAIN; 2],
            computed: [false; 2],
        }
    }
}

/// A stack of accumulators, one per ply from the root. Allocated once (keep
/// one per search thread); pushing notes the move and popping forgets it:
/// neither touches the lanes nor allocates within the capacity.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    plies: PlyStack<Ply>,
    /// Lanes per king view, for the refreshes a king bucket's change needs.
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack for searches up to `plies` deep (e.g. the search's maximum
    /// ply plus one). Going deeper still works: the stack grows.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            plies: PlyStack::new(plies),
            cache: RefreshCache::default(),
        }
    }

    /// Starts from `root`: a full refresh at ply 0.
    pub fn reset(&mut self, net: &Network, root: &Position) {
        self.cache.reset(net);
        self.plies.reset(|ply| {
            ply.acc.refresh(net, root);
            ply.delta = PieceDelta::default();
            ply.views = Color::ALL.map(|side| ply.acc.view(side));
            ply.computed = [true; 2];
        });
    }

    /// Notes `m` played in `before` (call it just before `before.play(m)`);
    /// `Move::NULL` for a null move.
    #[inline]
    pub fn push_move(&mut self, net: &Network, before: &Position, m: Move) {
        let delta = PieceDelta::of_move(before, m);
        self.plies.push(|parent, child| {
            child.delta = delta;
            child.views =
                Color::ALL.map(|side| view_after(net, parent.views[side.index()], side, &delta));
            child.computed = [false; 2];
        });
    }

    /// Back to the parent ply (on unmake). Popping the root does nothing.
    #[inline]
    pub fn pop(&mut self) {
        self.plies.pop();
    }

    /// The current ply's accumulator, brought up to date for `pos` (the
    /// current position).
    #[inline]
    pub fn current(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        for perspective in Color::ALL {
            self.bring_up_to_date(net, pos, perspective);
        }
        &self.plies.current().acc
    }

    /// The current position's score, centipawns from `pos`'s side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let acc = self.current(net, pos);
        evaluate(net, acc, pos)
    }

    /// Computes `perspective`'s lanes of the current ply: the moves' changes
    /// applied ply by ply from the nearest ply that has them (the root
    /// always does), or, where a king move on the way changed that
    /// perspective's view, a refresh from `pos` through the refresh cache.
    #[inline]
    fn bring_up_to_date(&mut self, net: &Network, pos: &Position, perspective: Color) {
        let side = perspective.index();
        let top = self.plies.ply();
        let mut base = top;
        while !self.plies.get(base).computed[side] {
            // Not computed: not the root, so `base - 1` exists.
            if self.plies.get(base).views[side] != self.plies.get(base - 1).views[side] {
                let current = self.plies.current_mut();
                let view = current.views[side];
                self.cache
                    .refresh(net, &mut current.acc, pos, perspective, view);
                current.computed[side] = true;
                return;
            }
            base -= 1;
        }
        for ply in base + 1..=top {
            let (parent, child) = self.plies.parent_and_child(ply);
            child
                .acc
                .update_side(net, &parent.acc, perspective, &child.delta);
            child.computed[side] = true;
        }
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
    use crate::eval::nnue::network::tests::{random_bucketed, random_network, random_with_inputs};
    use crate::eval::nnue::{Activation, InputBuckets};
    use crate::strength::Rng;

    /// A depth-first walk: every node's score equals a fresh computation.
    /// Two nodes in three are evaluated (and every leaf), so that the lazy
    /// updates cross plies that never were.
    fn walk(
        net: &Network,
        stack: &mut AccumulatorStack,
        pos: &mut Position,
        depth: u32,
        nodes: &mut u64,
    ) {
        *nodes += 1;
        if depth == 0 || !(*nodes).is_multiple_of(3) {
            let fresh = evaluate(net, &Accumulator::new(net, pos), pos);
            assert_eq!(stack.evaluate(net, pos), fresh, "{}", pos.fen());
        }
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

    /// Random lines of king-bucket play, going down and back up, with null
    /// moves, evaluated at random plies: whatever was skipped, each score
    /// equals a fresh computation, also when a king changed its bucket or
    /// wing on a ply that was never evaluated.
    #[test]
    fn lazy_updates_equal_a_refresh_whichever_plies_are_evaluated() {
        let net = random_with_inputs(InputBuckets::MIRROR4, 64, Activation::SCReLU, 8, 9);
        let mut rng = Rng::new(77);
        let mut stack = AccumulatorStack::new(4);
        let (mut evaluated, mut skipped_view_changes) = (0, 0);
        for game in 0..400 {
            let start = if game % 2 == 0 {
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            } else {
                "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1"
            };
            let mut pos = Position::from_fen(start).unwrap();
            stack.reset(&net, &pos);
            let mut line = Vec::new();
            let mut unevaluated_view_change = false;
            for _ in 0..60 {
                let moves = pos.legal_moves();
                let back =
                    !line.is_empty() && (moves.is_empty() || rng.next_u64().is_multiple_of(4));
                if back {
                    let (m, undo) = line.pop().unwrap();
                    if m == Move::NULL {
                        pos.undo_null(undo);
                    } else {
                        pos.undo(m, undo);
                    }
                    stack.pop();
                } else if moves.is_empty() {
                    break;
                } else {
                    // Kings moved often, so that they cross buckets.
                    let kings: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| {
                            pos.piece_at(m.from()).map(|p| p.role) == Some(chess::Role::King)
                        })
                        .collect();
                    let m = if !pos.in_check() && rng.next_u64().is_multiple_of(10) {
                        Move::NULL
                    } else if !kings.is_empty() && rng.next_u64().is_multiple_of(2) {
                        kings[rng.next_u64() as usize % kings.len()]
                    } else {
                        moves[rng.next_u64() as usize % moves.len()]
                    };
                    let before_views = stack.plies.current().views;
                    stack.push_move(&net, &pos, m);
                    unevaluated_view_change |= stack.plies.current().views != before_views;
                    let undo = if m == Move::NULL {
                        pos.play_null()
                    } else {
                        pos.play_unchecked(m)
                    };
                    line.push((m, undo));
                }
                if rng.next_u64().is_multiple_of(3) {
                    let fresh = evaluate(&net, &Accumulator::new(&net, &pos), &pos);
                    assert_eq!(stack.evaluate(&net, &pos), fresh, "{}", pos.fen());
                    evaluated += 1;
                    skipped_view_changes += usize::from(unevaluated_view_change);
                    unevaluated_view_change = false;
                }
            }
        }
        assert!(evaluated > 5000, "{evaluated}");
        assert!(skipped_view_changes > 500, "{skipped_view_changes}");
    }
}
