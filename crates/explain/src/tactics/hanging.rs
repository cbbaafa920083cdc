//! A piece left hanging or en prise, as the move that takes it sees it:
//! the capture wins material by static exchange and the line keeps it.

use crate::board::{attackers, exchange, placed};
use crate::motif::Motif;
use crate::walk::Walk;

/// Material a capture must win, by exchange and by the line, to count.
const MIN_WON: i32 = 100;

/// The hanging piece the move at `ply` takes, if it takes one.
pub fn find(walk: &Walk, ply: usize) -> Option<Motif> {
    let before = walk.before(ply);
    let m = walk.mv(ply);
    let target = walk.captured(ply)?;
    let taker = placed(before, m.from())?;
    // A recapture wins back what was just taken: only more than that is won.
    let won = exchange(before, m) - walk.retaken(ply);
    if won < MIN_WON || walk.gain_through(ply, ply) < MIN_WON {
        return None;
    }
    let defended = attackers(before, target.square, target.piece.color).any();
    Some(Motif::WinsHanging {
        taker,
        target,
        defended,
    })
}
