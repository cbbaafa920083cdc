//! Passed pawns beyond the pawn structure: how free the path is, where the
//! kings stand, and whether the enemy king can catch the pawn at all.

use chess::{Color, Position, Role, Square};

use super::attacks::Attacks;
use super::masks::front_span;
use super::terms::Terms;
use super::trace::Trace;
use super::weights::*;

/// Terms for `us`'s passed pawns `passed`.
pub fn evaluate<T: Trace>(
    pos: &Position,
    us: Color,
    passed: u64,
    a: &Attacks,
    t: &mut Terms<'_, T>,
) {
    if passed == 0 {
        return;
    }
    let them = !us;
    let own_king = pos.king(us);
    let enemy_king = pos.king(them);
    let occupied = pos.occupied().bits();
    let no_enemy_pieces =
        (pos.by_color(them) - pos.pieces(them, Role::Pawn) - pos.pieces(them, Role::King))
            .is_empty();
    let mut bits = passed;
    while bits != 0 {
        let sq = Square::new(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let r = sq.rank().relative(us).index();
        let stop_index = if us == Color::White {
            sq.index() + 8
        } else {
            sq.index() - 8
        };
        let stop = Square::new(stop_index as u8);
        let stop_bit = 1u64 << stop_index;
        if r >= 2 {
            t.add(us, PASSED_OWN_KING + r, i32::from(own_king.distance(stop)));
            t.add(
                us,
                PASSED_ENEMY_KING + r,
                i32::from(enemy_king.distance(stop)),
            );
        }
        if occupied & stop_bit == 0 && a.all[them.index()] & stop_bit == 0 {
            t.add(us, PASSED_FREE + r, 1);
        }
        // The rule of the square, in pawn endings, with the path clear.
        if no_enemy_pieces && front_span(us, sq) & occupied == 0 {
            let promotion = Square::new(if us == Color::White {
                56 + sq.file().index() as u8
            } else {
                sq.file().index() as u8
            });
            let pawn_moves = (7 - r).min(5) as i32;
            let tempo = i32::from(pos.turn() == them);
            let king_moves = i32::from(enemy_king.distance(promotion)) - tempo;
            if king_moves > pawn_moves {
                t.add(us, PASSED_UNSTOPPABLE, 1);
            }
        }
    }
}
