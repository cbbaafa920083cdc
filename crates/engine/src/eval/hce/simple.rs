//! The "Simple" evaluator of one seed ("Simple1"): material and mobility
//! only, with the same weights as the full one. For comparison and for
//! weaker play.

use chess::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use chess::{Color, Position, Role};

use super::pawns::pawn_attacks;
use super::terms::Terms;
use super::trace::Trace;
use super::weights::*;

/// Material, mobility and tempo; returns the phase.
pub fn terms<T: Trace>(pos: &Position, t: &mut Terms<'_, T>) -> i32 {
    let mut phase = 0;
    let occupied = pos.occupied();
    for us in Color::ALL {
        let them = !us;
        let enemy_pawn_attacks = pawn_attacks(them, pos.pieces(them, Role::Pawn).bits());
        let area = !(enemy_pawn_attacks
            | pos.pieces(us, Role::Pawn).bits()
            | pos.pieces(us, Role::King).bits());
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let pieces = pos.pieces(us, role);
            t.add(us, PIECE_VALUE + role.index(), pieces.count() as i32);
            phase += pieces.count() as i32 * super::PHASE_WEIGHTS[role.index()];
            for sq in pieces {
                let (attacks, table) = match role {
                    Role::Knight => (knight_attacks(sq), KNIGHT_MOBILITY),
                    Role::Bishop => (bishop_attacks(sq, occupied), BISHOP_MOBILITY),
                    Role::Rook => (rook_attacks(sq, occupied), ROOK_MOBILITY),
                    Role::Queen => (queen_attacks(sq, occupied), QUEEN_MOBILITY),
                    _ => continue,
                };
                t.add(us, table + (attacks.bits() & area).count_ones() as usize, 1);
            }
        }
    }
    t.add(pos.turn(), TEMPO, 1);
    phase.min(super::MAX_PHASE)
}
