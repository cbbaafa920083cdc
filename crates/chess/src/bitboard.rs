//! Bitboards: sets of squares as 64-bit words (bit n = square n, a1 = bit 0).

use crate::{Color, File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares. The word inside is the rules' business: other crates
/// use the set methods, and `bits`/`from_bits` where a raw word is the
/// point (hashing, packed formats, table indices).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub(crate) u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// The light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares.
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55aa_55aa_55aa_55aa);

    /// The set whose bit n holds square n (a1 = bit 0).
    #[inline(always)]
    pub const fn from_bits(bits: u64) -> Bitboard {
        Bitboard(bits)
    }

    /// The set as a word: bit n holds square n (a1 = bit 0).
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of `file`.
    #[inline(always)]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file.index())
    }

    /// All squares of `rank`.
    #[inline(always)]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * rank.index()))
    }

    /// `rank` counted from `color`'s side (rank 0 is White's first, Black's eighth).
    #[inline(always)]
    pub const fn relative_rank(color: Color, rank: u8) -> Bitboard {
        match color {
            Color::White => Bitboard(Self::RANK_1.0 << (8 * rank as u32)),
            Color::Black => Bitboard(Self::RANK_8.0 >> (8 * rank as u32)),
        }
    }

    /// True when the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds two squares or more.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The lowest square of a set known to be non-empty (a1 for an empty set).
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The only square if the set holds exactly one.
    #[inline(always)]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            Some(self.lsb())
        } else {
            None
        }
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Every square moved one rank towards `color`'s opponent (north for White).
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// Every square moved one file towards h, dropping those that fall off.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }

    /// Every square moved one file towards a, dropping those that fall off.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }
}

/// The squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl DoubleEndedIterator for Squares {
    #[inline(always)]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = 63 - self.0.leading_zeros();
        self.0 ^= 1 << index;
        Some(Square::new(index as u8))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Shows the set as an 8x8 grid, rank 8 on top.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_counting() {
        let b = Bitboard(0b1010_0001);
        let squares: Vec<usize> = b.into_iter().map(Square::index).collect();
        assert_eq!(b.into_iter().next_back().map(Square::index), Some(7));
        assert_eq!(squares, vec![0, 5, 7]);
        assert_eq!(b.count(), 3);
        assert!(b.more_than_one());
        assert_eq!(Bitboard(8).single().map(Square::index), Some(3));
        assert_eq!(b.single(), None);
        assert_eq!(
            squares
                .iter()
                .map(|&i| Square::new(i as u8))
                .collect::<Bitboard>(),
            b
        );
    }

    #[test]
    fn shifts_do_not_wrap() {
        assert_eq!(Bitboard::FILE_H.east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::FILE_A.west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::RANK_8.forward(Color::White), Bitboard::EMPTY);
        assert_eq!(Bitboard::RANK_1.forward(Color::Black), Bitboard::EMPTY);
        assert_eq!(
            Bitboard::relative_rank(Color::Black, 1),
            Bitboard::from_rank(Rank::new(6).unwrap())
        );
    }

    #[test]
    fn square_colours() {
        assert_eq!(Bitboard::LIGHT_SQUARES.count(), 32);
        for sq in Square::ALL {
            assert_eq!(Bitboard::LIGHT_SQUARES.contains(sq), sq.is_light());
        }
    }
}
