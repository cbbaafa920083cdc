//! Promotions: a pawn that promotes, or a passed pawn pushed that the line
//! promotes, the material kept (or the line mating).

use chess::{Bitboard, MoveKind, Role};
use engine::eval::hce::masks::passed_span;

use crate::board::placed;
use crate::motif::Motif;
use crate::walk::Walk;

/// What the line must win: a promoted piece kept, not traded for a pawn.
const MIN_WON: i32 = 200;
/// How many of its own moves after the push the pawn has to promote.
const WITHIN: usize = 4;

/// The promotion or passed-pawn run of the move at `ply`.
pub fn find(walk: &Walk, ply: usize) -> Option<Motif> {
    let m = walk.mv(ply);
    if let Some(role) = m.promotion_role() {
        if walk.gain_through(ply, ply) < MIN_WON {
            return None;
        }
        return Some(Motif::Promotion {
            square: m.to(),
            role,
        });
    }
    let before = walk.before(ply);
    // A run is a push: a capture that wins material is its own motif.
    let pawn = placed(before, m.from()).filter(|p| p.role() == Role::Pawn)?;
    if walk.captured(ply).is_some() {
        return None;
    }
    let us = pawn.piece.color;
    let enemy_pawns = before.pieces(!us, Role::Pawn);
    if (Bitboard::from_bits(passed_span(us, pawn.square)) & enemy_pawns).any() {
        return None;
    }
    let mut at = m.to();
    for p in walk.own_plies_after(ply, WITHIN) {
        if walk.captured(p - 1).is_some_and(|c| c.square == at) {
            return None;
        }
        let next = walk.mv(p);
        if next.from() != at || next.kind() == MoveKind::Castling {
            continue;
        }
        if next.promotion_role().is_some() {
            if walk.gain_through(ply, p) < MIN_WON {
                return None;
            }
            return Some(Motif::PassedPawnRun {
                pawn,
                promotes: next.to(),
            });
        }
        at = next.to();
    }
    None
}
