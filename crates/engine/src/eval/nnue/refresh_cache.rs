//! The refresh cache ("finny table"): for each perspective and king view,
//! the lanes of the last position refreshed in that view and the pieces
//! they were computed from.
//!
//! With king buckets, a king move into another bucket or wing changes
//! every input of its perspective, and a refresh from scratch adds a row
//! per piece (about 30). The cached lanes for the new view are usually a
//! few pieces away from the position at hand (the same view was last used
//! a few plies earlier, or in a sibling line), so a refresh through the
//! cache adds and removes only the rows of the pieces that differ, then
//! copies the lanes out.

use chess::{Bitboard, Color, Piece, Position, Role};

use super::accumulator::{add_row, sub_row};
use super::{Accumulator, KingView, Network, MAX_HIDDEN, MAX_INPUT_BUCKETS};

/// Views per perspective: each bucket, seen as is or mirrored.
const VIEWS: usize = MAX_INPUT_BUCKETS * 2;

/// The entry of `perspective`'s lanes in `view`.
fn slot(perspective: Color, view: KingView) -> usize {
    perspective.index() * VIEWS + view.bucket() * 2 + usize::from(view.mirrored())
}

/// One perspective's lanes in one view, and the pieces they hold.
#[derive(Clone, Debug)]
struct Entry {
    lanes: [i16; MAX_HIDDEN],
    /// The squares of each colour's pieces of each role the lanes include.
    pieces: [[Bitboard; Role::ALL.len()]; 2],
    /// False until first used after a reset: the lanes are then the
    /// biases alone (no pieces).
    valid: bool,
}

/// A cache of lanes per (perspective, king view). Allocated once, when a
/// net with king buckets is first used; a plain net never refreshes below
/// the root and leaves it empty.
#[derive(Clone, Debug, Default)]
pub(super) struct RefreshCache {
    /// `2 * VIEWS` entries (White's views, then Black's), or none.
    entries: Vec<Entry>,
}

impl RefreshCache {
    /// Forgets every entry (at the start of a search: the net may have
    /// changed since the last). Allocates the entries the first time a net
    /// with king buckets is used.
    pub(super) fn reset(&mut self, net: &Network) {
        if net.input_buckets().is_plain() {
            return;
        }
        if self.entries.is_empty() {
            let empty = Entry {
                lanes: [0; MAX_HIDDEN],
                pieces: [[Bitboard::EMPTY; Role::ALL.len()]; 2],
                valid: false,
            };
            self.entries = vec![empty; 2 * VIEWS];
        }
        for entry in &mut self.entries {
            entry.valid = false;
        }
    }

    /// Sets `perspective`'s lanes of `acc` to `pos` seen in `view` (the view
    /// of `pos`'s king), from the cached lanes of that view updated for
    /// the pieces that differ; the cache keeps the result.
    pub(super) fn refresh(
        &mut self,
        net: &Network,
        acc: &mut Accumulator,
        pos: &Position,
        perspective: Color,
        view: KingView,
    ) {
        if self.entries.is_empty() {
            // Not reset with this (bucketed) net: refresh from scratch.
            acc.refresh_perspective(net, pos, perspective, view);
            return;
        }
        let h = net.hidden();
        let entry = &mut self.entries[slot(perspective, view)];
        if !entry.valid {
            entry.lanes[..h].copy_from_slice(net.feature_bias());
            entry.pieces = [[Bitboard::EMPTY; Role::ALL.len()]; 2];
            entry.valid = true;
        }
        let lanes = &mut entry.lanes[..h];
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let now = pos.pieces(color, role);
                let was = entry.pieces[color.index()][role.index()];
                for sq in was & !now {
                    sub_row(lanes, net.feature_row(view.feature(perspective, piece, sq)));
                }
                for sq in now & !was {
                    add_row(lanes, net.feature_row(view.feature(perspective, piece, sq)));
                }
                entry.pieces[color.index()][role.index()] = now;
            }
        }
        acc.set_perspective(perspective, view, lanes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::{random_network, random_with_inputs};
    use crate::eval::nnue::{Activation, InputBuckets};
    use crate::strength::Rng;

    /// Positions of random games from several starts: far apart (another
    /// game) and near (the next move), kings in every bucket and wing.
    fn positions() -> Vec<Position> {
        let mut rng = Rng::new(5);
        let mut out = Vec::new();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1",
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.next_u64() as usize % moves.len()]);
                out.push(pos);
            }
        }
        out
    }

    /// Every refresh through the cache equals one from scratch, whichever
    /// lanes the cache held for the view before, and after a reset with
    /// another net the old lanes are not used.
    #[test]
    fn a_refresh_through_the_cache_equals_one_from_scratch() {
        let nets = [
            random_with_inputs(InputBuckets::MIRROR4, 64, Activation::SCReLU, 8, 1),
            random_with_inputs(InputBuckets::MIRROR4, 64, Activation::SCReLU, 8, 2),
        ];
        let mut cache = RefreshCache::default();
        let mut reused = 0;
        for net in &nets {
            cache.reset(net);
            for pos in positions() {
                let fresh = Accumulator::new(net, &pos);
                let mut acc = Accumulator::default();
                for perspective in Color::ALL {
                    let view = net.king_view(perspective, pos.king(perspective));
                    reused += usize::from(cache.entries[slot(perspective, view)].valid);
                    cache.refresh(net, &mut acc, &pos, perspective, view);
                }
                assert_eq!(acc, fresh, "{}", pos.fen());
            }
        }
        assert!(reused > 1000, "{reused}");
    }

    /// A plain net needs no cache and gets none.
    #[test]
    fn a_plain_net_allocates_nothing() {
        let mut cache = RefreshCache::default();
        cache.reset(&random_network(64, Activation::SCReLU, 3));
        assert!(cache.entries.is_empty());
    }
}
