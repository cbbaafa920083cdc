//! Attack sets of every piece, and the geometry between squares.
//!
//! Leaper tables and the between/line tables are computed at compile time;
//! sliding attacks come from `pext.rs` when the target CPU has BMI2 and from
//! `magic.rs` otherwise. Nothing is initialised at start-up.

use crate::{Bitboard, Color, Piece, Role, Square};

const fn step_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bits |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// (between, line) for every pair of squares.
// Evaluated by the compiler into a static (`GEOMETRY`), never on a stack.
#[allow(clippy::large_stack_arrays)]
const fn geometry() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let (af, ar) = ((a % 8) as i8, (a / 8) as i8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            // The full ray through `a` in both directions along this line.
            let mut full = 1u64 << a;
            let (mut f, mut r) = (af + df, ar + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            let (mut f, mut r) = (af - df, ar - dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1 << (r * 8 + f);
                f -= df;
                r -= dr;
            }
            // Walk one way, recording the squares passed so far.
            let mut passed = 0u64;
            let (mut f, mut r) = (af + df, ar + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = Bitboard(passed);
                line[a][b] = Bitboard(full);
                passed |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static GEOMETRY: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = geometry();

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a bishop on `sq` attacks, blocked by `occupied` (blockers included).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(feature = "magic")
    ))]
    return crate::pext::bishop_attacks(sq, occupied);
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(feature = "magic")
    )))]
    return crate::magic::bishop_attacks(sq, occupied);
}

/// Squares a rook on `sq` attacks, blocked by `occupied` (blockers included).
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(feature = "magic")
    ))]
    return crate::pext::rook_attacks(sq, occupied);
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "bmi2",
        not(feature = "magic")
    )))]
    return crate::magic::rook_attacks(sq, occupied);
}

/// Squares a queen on `sq` attacks, blocked by `occupied`.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Squares `piece` on `sq` attacks, blocked by `occupied`.
#[inline(always)]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` on a shared rank, file or diagonal;
/// empty when they share none.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    GEOMETRY.0[a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b`; empty when they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    GEOMETRY.1[a.index()][b.index()]
}

/// True when `c` lies on the line through `a` and `b`.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sliders::{BISHOP, ROOK};

    /// Attacks by walking rays square by square: the reference.
    fn slow(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut att = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file().index() as i8 + df, sq.rank().index() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::new((r * 8 + f) as u8);
                att = att.with(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        att
    }

    /// Every occupancy subset of every square's mask, plus random full-board
    /// occupancies: magic, PEXT (hardware where compiled, portable always) and
    /// the ray walk agree.
    #[test]
    fn magic_and_pext_agree_with_ray_walk() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for sq in Square::ALL {
            for (entry, dirs, magic_fn, pext_fn) in [
                (
                    &ROOK[sq.index()],
                    &DIRECTIONS[..4],
                    crate::magic::rook_attacks as fn(_, _) -> _,
                    crate::pext::rook_attacks as fn(_, _) -> _,
                ),
                (
                    &BISHOP[sq.index()],
                    &DIRECTIONS[4..],
                    crate::magic::bishop_attacks,
                    crate::pext::bishop_attacks,
                ),
            ] {
                let mask = entry.mask.0;
                let mut sub = 0u64;
                let mut samples = Vec::new();
                loop {
                    samples.push(sub);
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
                for _ in 0..256 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    samples.push(seed & seed.rotate_left(17));
                }
                for occ in samples {
                    let occ = Bitboard(occ);
                    let expected = slow(sq, occ, dirs);
                    assert_eq!(magic_fn(sq, occ), expected, "magic {sq} {occ:?}");
                    assert_eq!(pext_fn(sq, occ), expected, "pext {sq} {occ:?}");
                    let portable = crate::pext::pext_portable(occ.0, mask) as usize;
                    assert_eq!(
                        crate::sliders::PEXT_ATTACKS[entry.offset + portable],
                        expected.0,
                        "portable pext {sq}"
                    );
                }
            }
        }
    }

    #[test]
    fn leapers() {
        let e4: Square = "e4".parse().unwrap();
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(knight_attacks(e4).count(), 8);
        assert_eq!(knight_attacks(a1).count(), 2);
        assert_eq!(king_attacks(a1).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, e4),
            Bitboard::from_square("d5".parse().unwrap()).with("f5".parse().unwrap())
        );
        assert_eq!(pawn_attacks(Color::Black, a1), Bitboard::EMPTY);
    }

    #[test]
    fn geometry_between_and_line() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(between(sq("a1"), sq("h8")).count(), 6);
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(between(sq("e1"), sq("e2")), Bitboard::EMPTY);
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert!(aligned(sq("b1"), sq("d1"), sq("h1")));
        assert!(!aligned(sq("b1"), sq("d2"), sq("h1")));
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
            }
        }
    }
}
