//! The full evaluation: material, piece-square tables, the attack maps of
//! both sides, and from them mobility, threats, king safety, passed pawns
//! and coverage; pawn structure from the pawn cache.

use chess::attacks::{bishop_attacks, knight_attacks, line, queen_attacks, rook_attacks};
use chess::{CastlingSide, Color, Position, Role, Square};

use super::attacks::{seed_attacks, Attacks};
use super::masks::{relative_rank_mask, CENTRE};
use super::pair::Pair;
use super::pawns::{safe_from_pawns, PawnInfo, PawnTable};
use super::terms::Terms;
use super::trace::Trace;
use super::weights::*;
use super::{king, passed, threats};

/// Attack units each attacking role brings to the enemy king zone.
const ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Material, piece-square tables and the imbalance terms for one side;
/// returns its phase contribution. `counted`: the material and
/// piece-square part is already in `t` (kept up to date move by move).
fn material<T: Trace>(pos: &Position, us: Color, t: &mut Terms<'_, T>, counted: bool) -> i32 {
    let mut phase = 0;
    for role in Role::ALL {
        let pieces = pos.pieces(us, role);
        phase += pieces.count() as i32 * super::PHASE_WEIGHTS[role.index()];
        if counted {
            continue;
        }
        if role != Role::King {
            t.add(us, PIECE_VALUE + role.index(), pieces.count() as i32);
        }
        for sq in pieces {
            t.add(us, PSQT[role.index()] + sq.relative(us).index(), 1);
        }
    }
    let pawns = pos.pieces(us, Role::Pawn).count() as i32;
    let knights = pos.pieces(us, Role::Knight).count() as i32;
    let rooks = pos.pieces(us, Role::Rook).count() as i32;
    if pos.pieces(us, Role::Bishop).more_than_one() {
        t.add(us, BISHOP_PAIR, 1);
    }
    if knights > 0 {
        t.add(us, KNIGHT_PAWNS, knights * (pawns - 5));
    }
    if rooks > 0 {
        t.add(us, ROOK_PAWNS, rooks * (pawns - 5));
    }
    if rooks >= 2 {
        t.add(us, ROOK_PAIR, 1);
    }
    let rights = pos.castling_rights();
    let kept = i32::from(rights.has(us, CastlingSide::King))
        + i32::from(rights.has(us, CastlingSide::Queen));
    if kept > 0 {
        t.add(us, CASTLING_RIGHTS, kept);
    }
    phase
}

/// Mobility, king-zone attacks and the square-specific piece terms of one
/// side's knights, bishops, rooks and queens; fills in their attack maps.
fn pieces<T: Trace>(pos: &Position, us: Color, a: &mut Attacks, t: &mut Terms<'_, T>) {
    let them = !us;
    let ksq = pos.king(us);
    let pinned = pos.pinned(us).bits();
    let own_pawns = pos.pieces(us, Role::Pawn).bits();
    let enemy_pawns = pos.pieces(them, Role::Pawn).bits();
    // Safe squares: not attacked by enemy pawns, not blocked by own pawns or king.
    let area = !(a.by_role[them.index()][Role::Pawn.index()] | own_pawns | (1 << ksq.index()));
    let enemy_zone = a.king_zone[them.index()];
    let own_pawn_attacks = a.by_role[us.index()][Role::Pawn.index()];
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in pos.pieces(us, role) {
            let mut att = match role {
                Role::Knight => knight_attacks(sq).bits(),
                Role::Bishop => bishop_attacks(sq, pos.occupied()).bits(),
                Role::Rook => rook_attacks(sq, pos.occupied()).bits(),
                _ => queen_attacks(sq, pos.occupied()).bits(),
            };
            if pinned & (1 << sq.index()) != 0 {
                att &= line(ksq, sq).bits();
            }
            a.record(us, role, att);
            let mobility = (att & area).count_ones() as usize;
            let table = match role {
                Role::Knight => KNIGHT_MOBILITY,
                Role::Bishop => BISHOP_MOBILITY,
                Role::Rook => ROOK_MOBILITY,
                _ => QUEEN_MOBILITY,
            };
            t.add(us, table + mobility, 1);
            if att & enemy_zone != 0 {
                a.king_attackers[them.index()] += 1;
                a.king_units[them.index()] += ATTACK_UNITS[role.index()];
            }
            let bit = 1u64 << sq.index();
            let rank = sq.rank().relative(us).index();
            match role {
                Role::Knight | Role::Bishop => {
                    if (3..=5).contains(&rank)
                        && own_pawn_attacks & bit != 0
                        && safe_from_pawns(pos, us, sq)
                    {
                        let term = if role == Role::Knight {
                            KNIGHT_OUTPOST
                        } else {
                            BISHOP_OUTPOST
                        };
                        t.add(us, term, 1);
                    }
                    if role == Role::Bishop {
                        let colour = if sq.is_light() {
                            chess::Bitboard::LIGHT_SQUARES.bits()
                        } else {
                            chess::Bitboard::DARK_SQUARES.bits()
                        };
                        t.add(us, BAD_BISHOP, (own_pawns & colour).count_ones() as i32);
                    }
                }
                Role::Rook => {
                    let file = 0x0101_0101_0101_0101u64 << sq.file().index();
                    if file & own_pawns == 0 {
                        let term = if file & enemy_pawns == 0 {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        };
                        t.add(us, term, 1);
                    }
                    if rank == 6
                        && (pos.king(them).rank().relative(us).index() == 7
                            || enemy_pawns & relative_rank_mask(us, 6) != 0)
                    {
                        t.add(us, ROOK_SEVENTH, 1);
                    }
                }
                _ => {
                    let home = Square::new(if us == Color::White { 3 } else { 59 });
                    if sq != home {
                        let minors_home = (pos.pieces(us, Role::Knight).bits()
                            | pos.pieces(us, Role::Bishop).bits())
                            & relative_rank_mask(us, 0)
                            & 0x6666_6666_6666_6666;
                        let n = minors_home.count_ones() as i32;
                        if n > 0 {
                            t.add(us, QUEEN_EARLY, n);
                        }
                    }
                }
            }
        }
    }
}

/// Squares each side controls: all attacked squares and the centre.
fn coverage<T: Trace>(a: &Attacks, t: &mut Terms<'_, T>) {
    for color in Color::ALL {
        let all = a.all[color.index()];
        t.add(color, COVERAGE, all.count_ones() as i32);
        t.add(color, CENTRE_CONTROL, (all & CENTRE).count_ones() as i32);
    }
}

/// Unmoved d- and e-pawns with something in front of them.
fn blocked_centre<T: Trace>(pos: &Position, t: &mut Terms<'_, T>) {
    let occupied = pos.occupied().bits();
    let white = pos.pieces(Color::White, Role::Pawn).bits() & 0x18 << 8;
    let black = pos.pieces(Color::Black, Role::Pawn).bits() & 0x18 << 48;
    t.add(
        Color::White,
        BLOCKED_CENTRE,
        ((white << 8) & occupied).count_ones() as i32,
    );
    t.add(
        Color::Black,
        BLOCKED_CENTRE,
        ((black >> 8) & occupied).count_ones() as i32,
    );
}

/// Every term except the endgame rules, White minus Black, and the phase.
/// `material_sum`: the material and piece-square sum when the caller keeps it
/// up to date (`material_sums`); counted here when `None` or tracing.
pub fn terms<T: Trace>(
    pos: &Position,
    t: &mut Terms<'_, T>,
    pawns: Option<&mut PawnTable>,
    material_sum: Option<Pair>,
) -> (i32, [u64; 2]) {
    let counted = match material_sum {
        Some(sum) if !T::ACTIVE => {
            t.add_white(sum);
            true
        }
        _ => false,
    };
    let phase = material(pos, Color::White, t, counted) + material(pos, Color::Black, t, counted);
    let passed = match pawns {
        Some(table) if !T::ACTIVE => {
            let PawnInfo { score, passed } = table.probe(pos, t.weights());
            t.add_white(score);
            passed
        }
        _ => super::pawns::evaluate(pos, t),
    };
    blocked_centre(pos, t);
    let mut a = seed_attacks(pos);
    pieces(pos, Color::White, &mut a, t);
    pieces(pos, Color::Black, &mut a, t);
    for color in Color::ALL {
        threats::evaluate(pos, color, &a, t);
        king::evaluate(pos, color, &a, t);
        passed::evaluate(pos, color, passed[color.index()], &a, t);
    }
    coverage(&a, t);
    t.add(pos.turn(), TEMPO, 1);
    (phase.min(super::MAX_PHASE), passed)
}
