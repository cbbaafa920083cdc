//! The accumulators: the hidden layer before activation, one per
//! perspective, kept up to date move by move.
//!
//! A move changes at most four inputs (castling: king and rook each leave
//! one square and reach another), so updating costs a few row additions
//! where a refresh costs one per piece. Arithmetic wraps, which makes an
//! incremental update equal a refresh bit for bit whatever the weights.
//! With king buckets (`input_buckets.rs`), a king move that changes its own
//! perspective's bucket or wing changes every input of that perspective:
//! that perspective is refreshed instead.

use chess::{Color, Move, Piece, Position, Role, Square};

use super::{KingView, Network, HIDDEN_ALIGN, MAX_HIDDEN};
use crate::eval::piece_delta::PieceDelta;

/// The hidden layer's pre-activations from both perspectives, indexed by
/// colour (White's view, Black's view), and the king bucket each was
/// computed in. Fixed-size: no allocation, cheap to keep one per ply. Only
/// the network's first `hidden()` lanes are used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [[i16; MAX_HIDDEN]; 2],
    views: [KingView; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
            views: [KingView::PLAIN; 2],
        }
    }
}

impl Accumulator {
    /// A fresh accumulator for `pos`: biases plus one row per piece.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        for perspective in Color::ALL {
            let view = net.king_view(perspective, pos.king(perspective));
            self.refresh_perspective(net, pos, perspective, view);
        }
    }

    /// `perspective`'s lanes from scratch for `pos` in `view` (which must
    /// be the view of `pos`'s king).
    pub(super) fn refresh_perspective(
        &mut self,
        net: &Network,
        pos: &Position,
        perspective: Color,
        view: KingView,
    ) {
        let pieces = pos
            .occupied()
            .into_iter()
            .filter_map(|sq| pos.piece_at(sq).map(|piece| (piece, sq)));
        self.refresh_side(net, perspective, view, pieces);
    }

    /// Sets `perspective`'s lanes to `lanes` (the net's hidden size),
    /// computed in `view`.
    #[inline]
    pub(super) fn set_perspective(&mut self, perspective: Color, view: KingView, lanes: &[i16]) {
        self.values[perspective.index()][..lanes.len()].copy_from_slice(lanes);
        self.views[perspective.index()] = view;
    }

    /// The king view `perspective`'s lanes were computed in.
    #[inline(always)]
    pub(super) fn view(&self, perspective: Color) -> KingView {
        self.views[perspective.index()]
    }

    /// `perspective`'s lanes from scratch in `view`: biases plus a row for
    /// each of `pieces`.
    fn refresh_side(
        &mut self,
        net: &Network,
        perspective: Color,
        view: KingView,
        pieces: impl Iterator<Item = (Piece, Square)>,
    ) {
        let lanes = &mut self.values[perspective.index()][..net.hidden()];
        lanes.copy_from_slice(net.feature_bias());
        for (piece, sq) in pieces {
            add_row(lanes, net.feature_row(view.feature(perspective, piece, sq)));
        }
        self.views[perspective.index()] = view;
    }

    /// An accumulator for `pos` computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, pos);
        acc
    }

    /// Turns on the input of `piece` on `sq` in both perspectives (in the
    /// king buckets the accumulator was computed in: a king is not moved
    /// this way).
    #[inline]
    pub fn add_feature(&mut self, net: &Network, piece: Piece, sq: Square) {
        let h = net.hidden();
        for perspective in Color::ALL {
            let view = self.views[perspective.index()];
            let row = net.feature_row(view.feature(perspective, piece, sq));
            add_row(&mut self.values[perspective.index()][..h], row);
        }
    }

    /// Turns off the input of `piece` on `sq` in both perspectives (as
    /// [`Accumulator::add_feature`]).
    #[inline]
    pub fn remove_feature(&mut self, net: &Network, piece: Piece, sq: Square) {
        let h = net.hidden();
        for perspective in Color::ALL {
            let view = self.views[perspective.index()];
            let row = net.feature_row(view.feature(perspective, piece, sq));
            sub_row(&mut self.values[perspective.index()][..h], row);
        }
    }

    /// Becomes `parent` (the accumulator of `before`) updated for `m`
    /// played in `before` (the position *before* the move, as the search has
    /// it when it makes the move): normal moves, captures, castling
    /// (standard and Chess960), en passant and promotions; the null move
    /// changes nothing. One pass reads the parent and the changed rows and
    /// writes this one. Taking a move back is returning to the parent.
    #[inline]
    pub fn update_from(&mut self, net: &Network, parent: &Accumulator, before: &Position, m: Move) {
        self.apply(net, parent, before, &PieceDelta::of_move(before, m));
    }

    /// Writes `parent` plus a move's changes, in one pass over each
    /// perspective's lanes for the common moves; a perspective whose king
    /// changed bucket or wing is refreshed from `before`'s pieces with the
    /// move's changes.
    #[inline]
    fn apply(
        &mut self,
        net: &Network,
        parent: &Accumulator,
        before: &Position,
        delta: &PieceDelta,
    ) {
        for perspective in Color::ALL {
            let side = perspective.index();
            let view = view_after(net, parent.views[side], perspective, delta);
            if view != parent.views[side] {
                let kept = before.occupied().into_iter().filter_map(|sq| {
                    let piece = before.piece_at(sq)?;
                    (!delta.removed().contains(&(piece, sq))).then_some((piece, sq))
                });
                let after = kept.chain(delta.added().iter().copied());
                self.refresh_side(net, perspective, view, after);
                continue;
            }
            self.update_side(net, parent, perspective, delta);
        }
    }

    /// `perspective`'s lanes: `parent`'s with `delta`'s pieces taken off
    /// and put on, in `parent`'s king view (the move left that
    /// perspective's view as it was). One pass over the lanes for the
    /// common moves.
    #[inline]
    pub(super) fn update_side(
        &mut self,
        net: &Network,
        parent: &Accumulator,
        perspective: Color,
        delta: &PieceDelta,
    ) {
        let h = net.hidden();
        let side = perspective.index();
        let view = parent.views[side];
        self.views[side] = view;
        let row =
            |(piece, sq): (Piece, Square)| net.feature_row(view.feature(perspective, piece, sq));
        let from = &parent.values[side][..h];
        let lanes = &mut self.values[side][..h];
        match (delta.added().len(), delta.removed().len()) {
            (1, 1) => add_sub(lanes, from, row(delta.added()[0]), row(delta.removed()[0])),
            (1, 2) => add_sub_sub(
                lanes,
                from,
                row(delta.added()[0]),
                row(delta.removed()[0]),
                row(delta.removed()[1]),
            ),
            _ => {
                lanes.copy_from_slice(from);
                for &change in delta.removed() {
                    sub_row(lanes, row(change));
                }
                for &change in delta.added() {
                    add_row(lanes, row(change));
                }
            }
        }
    }

    /// The lanes of `perspective`'s accumulator that `net` uses.
    #[inline(always)]
    pub fn lanes(&self, net: &Network, perspective: Color) -> &[i16] {
        &self.values[perspective.index()][..net.hidden()]
    }
}

/// `perspective`'s king view after a move that changed `delta`'s pieces,
/// `before` being the view before it: another only when that side's king
/// moved into another bucket or wing (a plain net's views never change).
#[inline(always)]
pub(super) fn view_after(
    net: &Network,
    before: KingView,
    perspective: Color,
    delta: &PieceDelta,
) -> KingView {
    if net.input_buckets().is_plain() {
        return before;
    }
    delta
        .added()
        .iter()
        .find(|(piece, _)| piece.role == Role::King && piece.color == perspective)
        .map_or(before, |&(_, king)| net.king_view(perspective, king))
}

// The row operations below walk fixed-size blocks of `HIDDEN_ALIGN` lanes
// (every hidden size is a multiple of it): with the block length known at
// compile time there are no bounds checks inside; each block is read into a
// local, changed and written back, so the compiler need not fear that a
// store aliases a later load; it then emits whole-register vector adds
// (`vpaddw`/`vpsubw`) with no scalar tail.

type Block = [i16; HIDDEN_ALIGN];

#[inline(always)]
fn blocks_mut(lanes: &mut [i16]) -> &mut [Block] {
    lanes.as_chunks_mut::<HIDDEN_ALIGN>().0
}

#[inline(always)]
fn blocks(row: &[i16]) -> &[Block] {
    row.as_chunks::<HIDDEN_ALIGN>().0
}

#[inline(always)]
pub(super) fn add_row(lanes: &mut [i16], row: &[i16]) {
    for (l, r) in blocks_mut(lanes).iter_mut().zip(blocks(row)) {
        let mut v = *l;
        for i in 0..HIDDEN_ALIGN {
            v[i] = v[i].wrapping_add(r[i]);
        }
        *l = v;
    }
}

#[inline(always)]
pub(super) fn sub_row(lanes: &mut [i16], row: &[i16]) {
    for (l, r) in blocks_mut(lanes).iter_mut().zip(blocks(row)) {
        let mut v = *l;
        for i in 0..HIDDEN_ALIGN {
            v[i] = v[i].wrapping_sub(r[i]);
        }
        *l = v;
    }
}

/// `lanes = from + add - sub`.
#[inline(always)]
fn add_sub(lanes: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
    for (((l, f), a), s) in blocks_mut(lanes)
        .iter_mut()
        .zip(blocks(from))
        .zip(blocks(add))
        .zip(blocks(sub))
    {
        let mut v = *f;
        for i in 0..HIDDEN_ALIGN {
            v[i] = v[i].wrapping_add(a[i]).wrapping_sub(s[i]);
        }
        *l = v;
    }
}

/// `lanes = from + add - sub1 - sub2`.
#[inline(always)]
fn add_sub_sub(lanes: &mut [i16], from: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    for ((((l, f), a), s1), s2) in blocks_mut(lanes)
        .iter_mut()
        .zip(blocks(from))
        .zip(blocks(add))
        .zip(blocks(sub1))
        .zip(blocks(sub2))
    {
        let mut v = *f;
        for i in 0..HIDDEN_ALIGN {
            v[i] = v[i]
                .wrapping_add(a[i])
                .wrapping_sub(s1[i])
                .wrapping_sub(s2[i]);
        }
        *l = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::{random_network, random_with_inputs};
    use crate::eval::nnue::{Activation, InputBuckets};
    use crate::strength::Rng;
    use chess::{MoveKind, MoveList, Role};

    /// Positions where castling (both kinds, both colours, Chess960 too),
    /// en passant and promotions (with and without capture) are at hand.
    const STARTS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ];

    /// Picks a random move, preferring the rare kinds half the time.
    fn pick(rng: &mut Rng, moves: &MoveList) -> Move {
        let rare: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.kind() != MoveKind::Normal)
            .collect();
        if !rare.is_empty() && rng.next_u64().is_multiple_of(2) {
            return rare[rng.next_u64() as usize % rare.len()];
        }
        moves[rng.next_u64() as usize % moves.len()]
    }

    #[test]
    fn incremental_updates_equal_a_refresh_after_every_move() {
        let mut kinds = [0usize; 5];
        let mut refreshed = 0; // perspectives whose king changed bucket or wing
        for (n, activation, inputs) in [
            (64, Activation::SCReLU, InputBuckets::NONE),
            (256, Activation::CReLU, InputBuckets::NONE),
            (64, Activation::SCReLU, InputBuckets::MIRROR4),
        ] {
            let net = random_with_inputs(inputs, n, activation, 1, n as u64);
            let mut rng = Rng::new(2024 + n as u64);
            for game in 0..2000 {
                let mut pos = Position::from_fen(STARTS[game % STARTS.len()]).unwrap();
                let mut acc = Accumulator::new(&net, &pos);
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    let m = if moves.is_empty() || rng.next_u64().is_multiple_of(16) {
                        // A null move now and then (never when in check).
                        if pos.in_check() {
                            break;
                        }
                        kinds[4] += 1;
                        let mut child = Accumulator::default();
                        child.update_from(&net, &acc, &pos, Move::NULL);
                        pos.play_null();
                        acc = child;
                        assert_eq!(acc, Accumulator::new(&net, &pos), "after a null move");
                        continue;
                    } else {
                        pick(&mut rng, &moves)
                    };
                    kinds[m.kind() as usize] += 1;
                    let mut child = Accumulator::default();
                    child.update_from(&net, &acc, &pos, m);
                    let before = pos.fen();
                    pos.play_unchecked(m);
                    assert_eq!(
                        child,
                        Accumulator::new(&net, &pos),
                        "after {m:?} in {before}"
                    );
                    refreshed += (0..2).filter(|&s| child.views[s] != acc.views[s]).count();
                    acc = child;
                }
            }
        }
        // Every kind of move was seen many times, and kings often crossed
        // into another bucket or wing.
        assert!(kinds.iter().all(|&k| k > 500), "{kinds:?}");
        assert!(refreshed > 1000, "{refreshed} king bucket changes");
    }

    #[test]
    fn add_then_remove_is_the_identity() {
        let net = random_network(128, Activation::SCReLU, 5);
        let pos = Position::startpos();
        let mut acc = Accumulator::new(&net, &pos);
        let queen = Piece::new(Color::Black, Role::Queen);
        let d4: Square = "d4".parse().unwrap();
        acc.add_feature(&net, queen, d4);
        assert_ne!(acc, Accumulator::new(&net, &pos));
        acc.remove_feature(&net, queen, d4);
        assert_eq!(acc, Accumulator::new(&net, &pos));
    }
}
