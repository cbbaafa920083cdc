//! King safety: the pawn shield and storm on the king's files, open files
//! next to it, the weight of the enemy attack on its zone, and the safe
//! checks the enemy has.

use chess::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use chess::{Color, Position, Role};

use super::attacks::Attacks;
use super::terms::Terms;
use super::trace::Trace;
use super::weights::*;

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Relative rank of the pawn in `pawns` on `file` nearest to `us`'s back
/// rank among those at or ahead of `from_rank` (0 when there is none).
fn nearest_rank(us: Color, pawns: u64, file: usize, from_rank: usize) -> usize {
    let mut best = 0;
    let mut on_file = pawns & (FILE_A << file);
    while on_file != 0 {
        let sq = on_file.trailing_zeros() as usize;
        on_file &= on_file - 1;
        let r = if us == Color::White {
            sq / 8
        } else {
            7 - sq / 8
        };
        if r >= from_rank && (best == 0 || r < best) {
            best = r;
        }
    }
    best
}

/// The safety of `us`'s king.
pub fn evaluate<T: Trace>(pos: &Position, us: Color, a: &Attacks, t: &mut Terms<'_, T>) {
    let them = !us;
    let (u, o) = (us.index(), them.index());
    let ksq = pos.king(us);
    let own = pos.pieces(us, Role::Pawn).bits();
    let enemy = pos.pieces(them, Role::Pawn).bits();
    let king_rank = ksq.rank().relative(us).index();
    let centre_file = ksq.file().index().clamp(1, 6);
    for file in centre_file - 1..=centre_file + 1 {
        let shield = nearest_rank(us, own, file, king_rank);
        let storm = nearest_rank(us, enemy, file, king_rank);
        t.add(us, KING_SHIELD + shield, 1);
        if storm != 0 {
            t.add(us, PAWN_STORM + storm, 1);
            if shield != 0 && storm == shield + 1 {
                t.add(us, BLOCKED_STORM, 1);
            }
        }
        let file_mask = FILE_A << file;
        if file_mask & own == 0 {
            let term = if file_mask & enemy == 0 {
                KING_OPEN_FILE
            } else {
                KING_SEMI_OPEN
            };
            t.add(us, term, 1);
        }
    }

    // Squares from which each enemy piece would give check, safe for it:
    // not defended by us (or defended only by our king and attacked twice).
    let occupied = pos.occupied();
    let weak = !a.all[u] | (a.twice[o] & !a.twice[u] & a.by_role[u][Role::King.index()]);
    let safe = !pos.by_color(them).bits() & weak;
    let knight = knight_attacks(ksq).bits();
    let diagonal = bishop_attacks(ksq, occupied).bits();
    let straight = rook_attacks(ksq, occupied).bits();
    let by = &a.by_role[o];
    let checks = [
        knight & by[Role::Knight.index()] & safe,
        diagonal & by[Role::Bishop.index()] & safe,
        straight & by[Role::Rook.index()] & safe,
        (diagonal | straight) & by[Role::Queen.index()] & safe,
    ];
    let mut check_units = 0;
    for (i, squares) in checks.into_iter().enumerate() {
        if squares != 0 {
            let n = squares.count_ones() as i32;
            t.add(us, SAFE_CHECK + i, n);
            check_units += 1;
        }
    }
    // The attack itself: only with two attackers, or a queen among them.
    let attackers = a.king_attackers[u];
    let queen_attacks =
        pos.pieces(them, Role::Queen).any() && by[Role::Queen.index()] & a.king_zone[u] != 0;
    if attackers >= 2 || (attackers >= 1 && queen_attacks) {
        let undefended_hits = (a.king_zone[u] & a.all[o] & !a.twice[u]).count_ones() as i32;
        let units = a.king_units[u] + undefended_hits + 2 * check_units;
        t.add(us, KING_ATTACK + units.clamp(0, 31) as usize, 1);
    }
}
