//! The finder: every motif of one move of a walk, each detector in its own
//! file. A detector claims a motif only when the board shows it and the
//! line proves it (the material won, the mate given).

mod defender;
mod discovered;
mod draw;
mod fork;
mod hanging;
mod mate;
mod pin;
mod promotion;
mod trapped;

pub use mate::pattern;

use crate::motif::Motif;
use crate::walk::Walk;

/// The motifs of the move at `ply` of `walk`, the mover's, most telling
/// first.
pub fn find(walk: &Walk, ply: usize) -> Vec<Motif> {
    let mut out = Vec::new();
    if ply >= walk.len() {
        return out;
    }
    // A line that ends in mate is about the mate: what material its moves
    // take on the way proves nothing.
    if walk.end().is_checkmate() {
        out.extend(mate::mate(walk, ply));
        out.extend(mate::threat(walk, ply));
        return out;
    }
    out.extend(draw::stalemate(walk).filter(|_| walk.len() - ply <= 2));
    out.extend(draw::perpetual(walk, ply));
    out.extend(promotion::find(walk, ply));
    out.extend(fork::find(walk, ply));
    out.extend(pin::find(walk, ply));
    out.extend(discovered::find(walk, ply));
    out.extend(defender::removed(walk, ply));
    out.extend(defender::overloaded(walk, ply));
    out.extend(trapped::find(walk, ply));
    out.extend(hanging::find(walk, ply));
    out.extend(mate::threat(walk, ply));
    out
}
