//! A trapped piece: after the move an enemy piece that could still get
//! away before it has no safe square left, and the line wins it.

use chess::{MoveKind, Position, Role};

use crate::board::{exchange, passed, placed};
use crate::motif::Motif;
use crate::walk::Walk;

/// What the line must win: at least a piece for a pawn.
const MIN_WON: i32 = 200;
/// How many of its own moves after the trap the mover has to take the piece.
const WITHIN: usize = 3;

/// True when the piece on `sq` has a move in `pos` (its side to move)
/// that does not lose it by static exchange.
fn can_get_away(pos: &Position, sq: chess::Square) -> bool {
    pos.legal_moves()
        .iter()
        .any(|&e| e.from() == sq && e.kind() != MoveKind::Castling && exchange(pos, e) >= 0)
}

/// The piece the move at `ply` traps.
pub fn find(walk: &Walk, ply: usize) -> Option<Motif> {
    let (before, after) = (walk.before(ply), walk.after(ply));
    if after.in_check() {
        return None;
    }
    // The pieces' side to move before the move: could they get away then?
    let earlier = passed(before)?;
    let them = !before.turn();
    let m = walk.mv(ply);
    // A pinned piece cannot move for another reason: the pin.
    let pinned = after.pinned(them);
    after
        .by_color(them)
        .into_iter()
        .filter_map(|sq| placed(after, sq))
        .filter(|t| !matches!(t.role(), Role::Pawn | Role::King))
        .filter(|t| t.square != m.to())
        .find(|&t| {
            earlier.piece_at(t.square) == Some(t.piece)
                && !pinned.contains(t.square)
                && can_get_away(&earlier, t.square)
                && !can_get_away(after, t.square)
                && walk
                    .catches(t, ply + 1, ply + 2 * WITHIN)
                    .is_some_and(|p| walk.gain_through(ply, p) >= MIN_WON)
        })
        .map(|piece| Motif::Trapped { piece })
}
