//! Defenders that fail: one taken off the board (removing the guard) and
//! one that has too much to guard (overloaded). Either counts only when
//! the piece it alone defended falls in the line.

use chess::attacks::attacks;
use chess::Role;

use crate::board::{attackers, exchange, placed};
use crate::motif::{Motif, Placed};
use crate::walk::Walk;

/// What the line must win, beyond what the move itself takes.
const MIN_WON: i32 = 100;

/// The enemy pieces `defender` alone defends in the position before `ply`.
fn sole_charges(walk: &Walk, ply: usize, defender: Placed) -> Vec<Placed> {
    let pos = walk.before(ply);
    let guarded = attacks(defender.piece, defender.square, pos.occupied())
        & pos.by_color(defender.piece.color);
    guarded
        .into_iter()
        .filter_map(|sq| placed(pos, sq))
        .filter(|p| !matches!(p.role(), Role::King | Role::Pawn))
        .filter(|p| attackers(pos, p.square, defender.piece.color) == defender.square.into())
        .collect()
}

/// The defender the move at `ply` removes: it takes a piece that alone
/// defended another, which the line then takes.
pub fn removed(walk: &Walk, ply: usize) -> Option<Motif> {
    let defender = walk.captured(ply)?;
    // The capture itself is a trade (one that wins outright is a hanging
    // piece), and the line wins more than it.
    let traded = exchange(walk.before(ply), walk.mv(ply));
    if traded >= MIN_WON {
        return None;
    }
    sole_charges(walk, ply, defender)
        .into_iter()
        .filter(|left| left.square != walk.mv(ply).to())
        .find(|&left| {
            walk.takes(left, ply, walk.own_plies_after(ply, 2))
                .is_some_and(|p| walk.gain_through(ply, p) >= traded + MIN_WON)
        })
        .map(|left| Motif::RemovedDefender { defender, left })
}

/// The overloaded defender of the move at `ply`: the reply recaptures on
/// the move's square with a piece that alone defended another, which the
/// mover takes next.
pub fn overloaded(walk: &Walk, ply: usize) -> Option<Motif> {
    if ply + 2 >= walk.len() || walk.gain_through(ply, ply + 2) < MIN_WON {
        return None;
    }
    let reply = walk.mv(ply + 1);
    if reply.to() != walk.mv(ply).to() {
        return None;
    }
    // The king that takes back is no overloaded defender but a king
    // drawn out (the motif that drew it is the move's own).
    let defender = placed(walk.before(ply), reply.from()).filter(|d| d.role() != Role::King)?;
    sole_charges(walk, ply, defender)
        .into_iter()
        .filter(|left| left.square != walk.mv(ply).to())
        .find(|&left| walk.takes(left, ply, [ply + 2]).is_some())
        .map(|left| Motif::Overloaded { defender, left })
}
