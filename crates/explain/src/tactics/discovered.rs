//! Discovered attacks and checks: the move takes a piece off the line of
//! one of its own line pieces, whose attack on the king or on a piece
//! worth winning is uncovered; the line mates or wins material.

use chess::attacks::{attacks, between};
use chess::{MoveKind, Role};

use crate::board::{defended, moved, placed, value};
use crate::motif::Motif;
use crate::walk::Walk;

/// What the line must win from a discovered attack or check.
const MIN_WON: i32 = 100;
/// How many of its own moves after the discovery the mover has to take the target.
const WITHIN: usize = 2;

/// The discovered attacks and checks of the move at `ply`.
pub fn find(walk: &Walk, ply: usize) -> Vec<Motif> {
    let mut out = Vec::new();
    let (before, after) = (walk.before(ply), walk.after(ply));
    let m = walk.mv(ply);
    if m.kind() == MoveKind::Castling {
        return out;
    }
    let Some(mover) = moved(before, after, m) else {
        return out;
    };
    let us = before.turn();
    let pays = walk.gain(ply) >= MIN_WON || walk.mates(ply);
    if !pays {
        return out;
    }
    let sliders = (before.diagonal_sliders(us) | before.orthogonal_sliders(us)).without(m.from());
    for s in sliders {
        let Some(slider) = placed(after, s) else {
            continue;
        };
        let now = attacks(slider.piece, s, after.occupied()) & after.by_color(!us);
        for t in now {
            if !between(s, t).contains(m.from()) || between(s, t).contains(mover.square) {
                continue;
            }
            let Some(target) = placed(after, t) else {
                continue;
            };
            if target.role() == Role::King {
                out.push(Motif::DiscoveredCheck {
                    moved: mover,
                    slider,
                    double: after.checkers().more_than_one(),
                });
            } else if target.role() != Role::Pawn
                && (value(target.role()) > value(slider.role()) || !defended(after, t))
                && walk
                    .takes(target, ply + 1, walk.own_plies_after(ply, WITHIN))
                    .is_some_and(|p| walk.gain_through(ply, p) >= MIN_WON)
            {
                out.push(Motif::DiscoveredAttack {
                    moved: mover,
                    slider,
                    target,
                });
            }
        }
    }
    out
}
