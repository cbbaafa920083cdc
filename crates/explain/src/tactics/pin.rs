//! Pins and skewers: a line piece aims through one enemy piece at another.
//! A pin holds the front piece (the one behind is the king or worth more);
//! a skewer drives the front piece (the king, or worth more) away and
//! takes the one behind. Either counts only when the line wins material
//! from it.

use chess::attacks::attacks;
use chess::{Color, Position, Role};

use crate::board::{moved, placed, value};
use crate::motif::{Motif, Placed};
use crate::walk::Walk;

/// What the line must win from a pin or a skewer.
const MIN_WON: i32 = 100;
/// How many of its own moves after a pin the mover has to win from it.
const PIN_WITHIN: usize = 3;

/// The pieces `slider` aims through: each enemy piece it attacks, with the
/// enemy piece right behind it on the same line.
pub fn aimed(pos: &Position, slider: Placed) -> Vec<(Placed, Placed)> {
    if !matches!(slider.role(), Role::Bishop | Role::Rook | Role::Queen) {
        return Vec::new();
    }
    let them = !slider.piece.color;
    let occ = pos.occupied();
    let seen = attacks(slider.piece, slider.square, occ);
    (seen & pos.by_color(them))
        .into_iter()
        .filter_map(|front| {
            let beyond = attacks(slider.piece, slider.square, occ.without(front)) & !seen;
            let behind = (beyond & pos.by_color(them)).first()?;
            Some((placed(pos, front)?, placed(pos, behind)?))
        })
        .collect()
}

/// Every (front, behind) pair `color`'s line pieces aim through in `pos`.
fn all_aimed(pos: &Position, color: Color) -> Vec<(Placed, Placed)> {
    all_aimed_with(pos, color)
        .into_iter()
        .map(|(_, f, b)| (f, b))
        .collect()
}

/// True when the piece behind makes the front piece pinned (a pawn held
/// in place is no pin a coach names).
fn pins(front: Placed, behind: Placed) -> bool {
    !matches!(front.role(), Role::King | Role::Pawn)
        && (behind.role() == Role::King || value(behind.role()) > value(front.role()))
}

/// True when the front piece must move and give up the one behind.
fn skewers(front: Placed, behind: Placed) -> bool {
    !matches!(behind.role(), Role::Pawn | Role::King)
        && (front.role() == Role::King || value(front.role()) > value(behind.role()) + 50)
}

/// The pins and skewers the move at `ply` makes or uses.
pub fn find(walk: &Walk, ply: usize) -> Vec<Motif> {
    let mut out = Vec::new();
    let (before, after) = (walk.before(ply), walk.after(ply));
    let m = walk.mv(ply);
    let Some(piece) = moved(before, after, m) else {
        return out;
    };
    let old = all_aimed(before, piece.piece.color);
    for (front, behind) in aimed(after, piece) {
        if old.contains(&(front, behind)) {
            continue;
        }
        if pins(front, behind) {
            let last = ply + 2 * PIN_WITHIN;
            let won = [front, behind].iter().any(|&t| {
                walk.catches(t, ply + 1, last)
                    .is_some_and(|p| walk.gain_through(ply, p) >= MIN_WON)
            });
            if won {
                out.push(Motif::Pin {
                    pinner: piece,
                    pinned: front,
                    behind,
                });
            }
        } else if skewers(front, behind) && ply + 2 < walk.len() {
            let moves_away = walk.mv(ply + 1).from() == front.square;
            if moves_away
                && walk.takes(behind, ply + 1, [ply + 2]).is_some()
                && walk.gain_through(ply, ply + 2) >= MIN_WON
            {
                out.push(Motif::Skewer {
                    attacker: piece,
                    front,
                    behind,
                });
            }
        }
    }
    // A pin already there, used: the moved piece attacks the pinned piece
    // (being worth less than it) and the line takes it.
    if out.is_empty() && piece.role() != Role::King {
        let hit = attacks(piece.piece, piece.square, after.occupied());
        for (pinner, front, behind) in all_aimed_with(after, piece.piece.color) {
            if pinner == piece
                || !hit.contains(front.square)
                || !pins(front, behind)
                || value(piece.role()) >= value(front.role())
            {
                continue;
            }
            if walk
                .takes(front, ply + 1, walk.own_plies_after(ply, 2))
                .is_some_and(|p| walk.gain_through(ply, p) >= MIN_WON)
            {
                out.push(Motif::Pin {
                    pinner,
                    pinned: front,
                    behind,
                });
                break;
            }
        }
    }
    out
}

/// [`all_aimed`] with the line piece that aims.
fn all_aimed_with(pos: &Position, color: Color) -> Vec<(Placed, Placed, Placed)> {
    (pos.diagonal_sliders(color) | pos.orthogonal_sliders(color))
        .into_iter()
        .filter_map(|sq| placed(pos, sq))
        .flat_map(|s| aimed(pos, s).into_iter().map(move |(f, b)| (s, f, b)))
        .collect()
}
