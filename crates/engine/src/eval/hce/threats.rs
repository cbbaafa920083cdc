//! Threats and protection (one seed's per-piece-type feature scheme, done
//! with attack maps): enemy pieces attacked by each kind of attacker, enemy
//! pieces hanging, own pieces defended, and pawn pushes that would attack.

use chess::{Color, Position, Role};

use super::attacks::Attacks;
use super::pawns::pawn_attacks;
use super::terms::Terms;
use super::trace::Trace;
use super::weights::*;

const VICTIMS: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// `us` attacking `them`, and `us` defending its own.
pub fn evaluate<T: Trace>(pos: &Position, us: Color, a: &Attacks, t: &mut Terms<'_, T>) {
    let them = !us;
    let (u, o) = (us.index(), them.index());
    let by = &a.by_role[u];
    let minors = by[Role::Knight.index()] | by[Role::Bishop.index()];
    for (i, role) in VICTIMS.into_iter().enumerate() {
        let victims = pos.pieces(them, role).bits();
        if victims == 0 {
            continue;
        }
        for (term, attacks) in [
            (THREAT_BY_PAWN, by[Role::Pawn.index()]),
            (THREAT_BY_MINOR, minors),
            (THREAT_BY_ROOK, by[Role::Rook.index()]),
            (THREAT_BY_QUEEN, by[Role::Queen.index()]),
            (THREAT_BY_KING, by[Role::King.index()]),
        ] {
            let n = (victims & attacks).count_ones() as i32;
            if n > 0 {
                t.add(us, term + i, n);
            }
        }
        let hanging = (victims & a.all[u] & !a.all[o]).count_ones() as i32;
        if hanging > 0 {
            t.add(us, HANGING + i, hanging);
        }
        let own = pos.pieces(us, role).bits();
        let defended = (own & a.all[u]).count_ones() as i32;
        if defended > 0 {
            t.add(us, DEFENDED + i, defended);
        }
    }
    // Pawn pushes to safe empty squares that would attack an enemy piece.
    let empty = !pos.occupied().bits();
    let pawns = pos.pieces(us, Role::Pawn).bits();
    let mut pushes = if us == Color::White {
        pawns << 8
    } else {
        pawns >> 8
    } & empty;
    let third = if us == Color::White {
        0xff << 16
    } else {
        0xff << 40
    };
    pushes |= if us == Color::White {
        (pushes & third) << 8
    } else {
        (pushes & third) >> 8
    } & empty;
    let safe = pushes & !a.by_role[o][Role::Pawn.index()] & (a.all[u] | !a.all[o]);
    let targets = pos.by_color(them).bits() & !pos.pieces(them, Role::Pawn).bits();
    let n = (pawn_attacks(us, safe) & targets).count_ones() as i32;
    if n > 0 {
        t.add(us, THREAT_PAWN_PUSH, n);
    }
}
