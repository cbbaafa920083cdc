//! Drawing resources: perpetual check (the mover checks on every move
//! until a position repeats) and a line that ends in stalemate.

use crate::board::moved;
use crate::motif::Motif;
use crate::walk::Walk;

/// The checks a perpetual needs in the line, the move's own among them.
const CHECKS: usize = 3;

/// The perpetual check the move at `ply` begins.
pub fn perpetual(walk: &Walk, ply: usize) -> Option<Motif> {
    let own: Vec<usize> = (ply..walk.len()).step_by(2).collect();
    if own.len() < CHECKS || !own.iter().all(|&p| walk.after(p).in_check()) {
        return None;
    }
    let keys: Vec<u64> = walk.positions()[ply..]
        .iter()
        .map(chess::Position::key)
        .collect();
    let repeats = keys
        .iter()
        .enumerate()
        .any(|(i, k)| keys[i + 1..].contains(k));
    if !repeats {
        return None;
    }
    let last = *own.last().expect("checks");
    let checker = moved(walk.before(last), walk.after(last), walk.mv(last))?;
    Some(Motif::Perpetual { checker })
}

/// The stalemate the line ends in.
pub fn stalemate(walk: &Walk) -> Option<Motif> {
    let end = walk.end();
    end.is_stalemate().then(|| Motif::Stalemate {
        stalemated: end.turn(),
    })
}
