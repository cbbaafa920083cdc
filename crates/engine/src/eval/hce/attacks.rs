//! What both sides attack, worked out once per evaluation: the attack maps
//! by side and role, the squares attacked twice, each king's zone and the
//! attackers on it. `full.rs` fills them as it counts each piece's terms;
//! the threats, king safety and passed pawn terms read them.

use chess::attacks::king_attacks;
use chess::{Color, Position, Role, Square};

use super::pawns::pawn_attacks;

/// What both sides attack, worked out once per evaluation.
#[derive(Default)]
pub struct Attacks {
    /// Squares attacked by each side's pieces of each role.
    pub by_role: [[u64; 6]; 2],
    /// Squares attacked by each side.
    pub all: [u64; 2],
    /// Squares attacked at least twice by each side.
    pub twice: [u64; 2],
    /// Each king's zone: its square, the squares around, one rank more ahead.
    pub king_zone: [u64; 2],
    /// Enemy pieces attacking each king's zone.
    pub king_attackers: [i32; 2],
    /// Their attack units.
    pub king_units: [i32; 2],
}

impl Attacks {
    #[inline(always)]
    pub(super) fn record(&mut self, color: Color, role: Role, attacked: u64) {
        let c = color.index();
        self.twice[c] |= self.all[c] & attacked;
        self.all[c] |= attacked;
        self.by_role[c][role.index()] |= attacked;
    }
}

/// The king zone of `color`'s king.
fn king_zone(pos: &Position, color: Color) -> u64 {
    let ksq = pos.king(color);
    // A king on the edge gets the zone of the square one step inwards.
    let f = ksq.file().index().clamp(1, 6);
    let r = ksq.rank().index().clamp(1, 6);
    let centre = Square::new((r * 8 + f) as u8);
    let zone = king_attacks(centre).bits() | (1 << centre.index());
    let ahead = if color == Color::White {
        zone << 8
    } else {
        zone >> 8
    };
    zone | ahead
}

/// The attack maps of the pawns and kings (pieces come with their terms).
pub(super) fn seed_attacks(pos: &Position) -> Attacks {
    let mut a = Attacks::default();
    for color in Color::ALL {
        a.record(
            color,
            Role::Pawn,
            pawn_attacks(color, pos.pieces(color, Role::Pawn).bits()),
        );
        a.record(color, Role::King, king_attacks(pos.king(color)).bits());
        a.king_zone[color.index()] = king_zone(pos, color);
    }
    a
}
