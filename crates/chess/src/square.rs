//! Squares, files and ranks. Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63.

use crate::Color;
use std::fmt;
use std::str::FromStr;

/// A file (column), a = 0 ... h = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), 1 = 0 ... 8 = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl File {
    /// The a-file.
    pub const A: File = File(0);
    /// The h-file.
    pub const H: File = File(7);
    /// All files, a first.
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];

    /// The file with this index, if it is 0..8.
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }

    /// 0 for a ... 7 for h.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter `a`...`h`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file for `a`...`h` (either case).
    pub fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        ('a'..='h').contains(&c).then(|| File(c as u8 - b'a'))
    }
}

impl Rank {
    /// The first rank.
    pub const FIRST: Rank = Rank(0);
    /// The eighth rank.
    pub const EIGHTH: Rank = Rank(7);
    /// All ranks, first rank first.
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];

    /// The rank with this index, if it is 0..8.
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// 0 for the first rank ... 7 for the eighth.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The digit `1`...`8`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The rank for `1`...`8`.
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank(c as u8 - b'1'))
    }

    /// The same rank seen from `color`'s side (the first rank is Black's eighth).
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

impl Square {
    /// All squares, a1 first.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (`index & 63`, so any byte maps to a square).
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        Square(index & 63)
    }

    /// The square with this index, if it is 0..64.
    pub const fn try_new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// 0 (a1) ... 63 (h8): an index into per-square arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The square's file.
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The square's rank.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square mirrored vertically (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square as seen from `color`'s side (mirrored for Black).
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// Chebyshev (king-step) distance between two squares.
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file().0 as i8 - other.file().0 as i8).unsigned_abs();
        let dr = (self.rank().0 as i8 - other.rank().0 as i8).unsigned_abs();
        df.max(dr)
    }

    /// True for the light squares (h1, a2, ...); a1 is dark.
    pub const fn is_light(self) -> bool {
        (self.0 & 7) % 2 != (self.0 >> 3) % 2
    }
}

/// A square name that is not `a1`...`h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (expected a1...h8)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (
            chars.next().and_then(File::from_char),
            chars.next().and_then(Rank::from_char),
            chars.next(),
        ) {
            (Some(f), Some(r), None) => Ok(Square::from_coords(f, r)),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("e4".parse::<Square>().map(Square::index), Ok(28));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!("a1x".parse::<Square>().is_err());
        assert!("é1".parse::<Square>().is_err());
    }

    #[test]
    fn colours_of_squares() {
        assert!(!"a1".parse::<Square>().unwrap().is_light());
        assert!("h1".parse::<Square>().unwrap().is_light());
        assert!(!"h8".parse::<Square>().unwrap().is_light());
    }
}
