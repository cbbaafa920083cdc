//! Pawn structure: doubled, isolated, backward, connected (phalanx and
//! supported) and passed pawns. It depends on the pawns alone, so each
//! search thread caches it by the pawn key.

use chess::{Color, Position, Role, Square};

use super::masks::{attack_span, front_span, passed_span, ADJACENT_FILES};
use super::pair::Pair;
use super::terms::Terms;
use super::trace::{NoTrace, Trace};
use super::weights::*;

/// What the evaluation keeps of a pawn structure.
#[derive(Clone, Copy, Debug, Default)]
pub struct PawnInfo {
    /// The pawn-only terms, White minus Black.
    pub score: Pair,
    /// Passed pawns of each side.
    pub passed: [u64; 2],
}

/// Squares attacked by `color`'s pawns in `pawns`.
#[inline(always)]
pub fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match color {
        Color::White => ((pawns & NOT_A) << 7) | ((pawns & NOT_H) << 9),
        Color::Black => ((pawns & NOT_A) >> 9) | ((pawns & NOT_H) >> 7),
    }
}

/// One side's pawn terms into `t`; returns its passed pawns.
fn side<T: Trace>(pos: &Position, us: Color, t: &mut Terms<'_, T>) -> u64 {
    let them = !us;
    let own = pos.pieces(us, Role::Pawn).bits();
    let opp = pos.pieces(them, Role::Pawn).bits();
    let opp_attacks = pawn_attacks(them, opp);
    let own_attacks = pawn_attacks(us, own);
    let mut passed = 0;
    for sq in pos.pieces(us, Role::Pawn) {
        let f = sq.file().index();
        let r = sq.rank().relative(us).index();
        let bit = 1u64 << sq.index();
        let neighbours = own & ADJACENT_FILES[f];
        if front_span(us, sq) & own != 0 {
            t.add(us, DOUBLED, 1);
        }
        if neighbours == 0 {
            t.add(us, ISOLATED + f, 1);
        } else {
            // Backward: every neighbour is ahead (none can defend its advance)
            // and the square in front is held by an enemy pawn.
            let stop = if us == Color::White {
                bit << 8
            } else {
                bit >> 8
            };
            let behind_or_level = ADJACENT_FILES[f] & !attack_span(us, sq);
            if neighbours & behind_or_level == 0 && stop & (opp_attacks | opp) != 0 {
                t.add(us, BACKWARD, 1);
            }
        }
        let beside =
            (bit << 1 | bit >> 1) & ADJACENT_FILES[f] & (0xffu64 << (8 * sq.rank().index()));
        if own & beside != 0 {
            t.add(us, PHALANX + r, 1);
        }
        if own_attacks & bit != 0 {
            t.add(us, SUPPORTED + r, 1);
        }
        if passed_span(us, sq) & opp == 0 && front_span(us, sq) & own == 0 {
            t.add(us, PASSED + r, 1);
            passed |= bit;
        }
    }
    passed
}

/// The pawn structure of `pos`, traced term by term.
pub fn evaluate<T: Trace>(pos: &Position, t: &mut Terms<'_, T>) -> [u64; 2] {
    [side(pos, Color::White, t), side(pos, Color::Black, t)]
}

const TABLE_BITS: u32 = 14;

/// A cache slot: the pawn key and what it gives. Aligned to its 32-byte
/// size so that a probe touches one cache line (with the allocator's 16-byte
/// alignment every other slot straddled two).
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct Slot(u64, PawnInfo);

/// A per-thread cache of pawn structures by pawn key.
pub struct PawnTable {
    entries: Vec<Slot>,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable {
            entries: vec![Slot::default(); 1 << TABLE_BITS],
        }
    }
}

impl PawnTable {
    /// The pawn structure of `pos`, from the cache when it is there.
    #[inline]
    pub fn probe(&mut self, pos: &Position, w: &Weights) -> PawnInfo {
        let key = pos.pawn_key();
        // Key 0 marks an empty slot; a real pawn key of 0 (a 2^-64 chance)
        // is merely recomputed every time.
        let slot = &mut self.entries[(key >> (64 - TABLE_BITS)) as usize];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let mut t = Terms::new(w, NoTrace);
        let passed = evaluate(pos, &mut t);
        let info = PawnInfo {
            score: t.white_minus_black(),
            passed,
        };
        *slot = Slot(key, info);
        info
    }

    /// Forgets every entry (new weights).
    pub fn clear(&mut self) {
        self.entries.fill(Slot::default());
    }
}

/// True when `sq` holds a pawn no enemy pawn can ever attack from the
/// front: the outpost test for knights and bishops.
#[inline]
pub fn safe_from_pawns(pos: &Position, us: Color, sq: Square) -> bool {
    attack_span(us, sq) & pos.pieces(!us, Role::Pawn).bits() == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::hce::trace::Coefficients;

    fn coefficients(fen: &str) -> Coefficients {
        let pos = Position::from_fen(fen).unwrap();
        let w = Weights::default_shared();
        let mut t = Terms::new(&w, Coefficients::default());
        evaluate(&pos, &mut t);
        t.into_trace()
    }

    #[test]
    fn a_slot_never_straddles_cache_lines() {
        assert_eq!(std::mem::size_of::<Slot>(), 32);
        assert_eq!(PawnTable::default().entries.as_ptr() as usize % 32, 0);
    }

    #[test]
    fn structure_terms_are_found() {
        // White: doubled c-pawns (c2, c3), isolated h-pawn, passed d5 defended
        // by e4. Black: f7 and g7 side by side (ranks count from each side).
        let c = coefficients("4k3/5pp1/8/3P4/4P3/2P5/2P4P/4K3 w - - 0 1");
        let white = &c.counts[0];
        let black = &c.counts[1];
        assert_eq!(white[DOUBLED], 1);
        assert_eq!(white[ISOLATED + 7], 1, "h2 is isolated");
        assert_eq!(white[SUPPORTED + 4], 1, "d5 is defended by e4");
        assert_eq!(white[PASSED + 4], 1, "d5 is passed");
        assert_eq!(black[PHALANX + 1], 2, "f7 and g7 stand side by side");
        assert_eq!(black[PASSED..PASSED + 8].iter().sum::<i32>(), 0);
    }

    #[test]
    fn backward_pawn() {
        // d6 is backward: e5 is ahead of it... Black pawns d6/e5, White pawn d4?
        // Black d6 with neighbour e5 ahead; d5 controlled by White's c4 pawn.
        let c = coefficients("4k3/8/3p4/4p3/2P5/8/8/4K3 b - - 0 1");
        assert_eq!(c.counts[1][BACKWARD], 1);
        assert_eq!(c.counts[0][BACKWARD], 0);
    }
}
