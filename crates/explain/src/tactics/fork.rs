//! A fork: the moved piece attacks two or more pieces at once (the king,
//! pieces worth more than it, undefended pieces) and the line wins one.

use chess::attacks::attacks;
use chess::Role;

use crate::board::{defended, moved, value};
use crate::motif::{Motif, Placed};
use crate::walk::Walk;

/// What the line must win for a double attack to count as a fork: more
/// than a pawn (the exchange, a piece).
const MIN_WON: i32 = 150;
/// How many of its own moves after the fork the mover has to take a target.
const WITHIN: usize = 2;

/// The fork the move at `ply` makes, if it makes one.
pub fn find(walk: &Walk, ply: usize) -> Option<Motif> {
    let (before, after) = (walk.before(ply), walk.after(ply));
    let forker = moved(before, after, walk.mv(ply))?;
    let them = !forker.piece.color;
    let hit = attacks(forker.piece, forker.square, after.occupied()) & after.by_color(them);
    let targets: Vec<Placed> = hit
        .into_iter()
        .filter_map(|sq| {
            let p = after.piece_at(sq)?;
            let target = match p.role {
                Role::King => true,
                Role::Pawn => false,
                _ => value(p.role) > value(forker.role()) + 50 || !defended(after, sq),
            };
            target.then_some(Placed::new(p, sq))
        })
        .collect();
    if targets.len() < 2 {
        return None;
    }
    let wins_one = targets.iter().any(|&t| {
        walk.takes(t, ply + 1, walk.own_plies_after(ply, WITHIN))
            .is_some_and(|p| walk.gain_through(ply, p) >= MIN_WON)
    });
    wins_one.then_some(Motif::Fork { forker, targets })
}
