//! Castling rights, castling sides, and the castling notation mode.

use crate::Color;

/// Kingside (short, O-O) or queenside (long, O-O-O).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Short castling: the king ends on the g-file, the rook on the f-file.
    King = 0,
    /// Long castling: the king ends on the c-file, the rook on the d-file.
    Queen = 1,
}

impl CastlingSide {
    /// Both sides, kingside first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// The file index the king ends on (g or c).
    pub const fn king_to_file(self) -> u8 {
        match self {
            CastlingSide::King => 6,
            CastlingSide::Queen => 2,
        }
    }

    /// The file index the rook ends on (f or d).
    pub const fn rook_to_file(self) -> u8 {
        match self {
            CastlingSide::King => 5,
            CastlingSide::Queen => 3,
        }
    }
}

/// The four castling rights as bits: white short 1, white long 2, black short 4, black long 8
/// (the order of Polyglot's castling keys).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No castling rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The single right of `color` on `side`.
    #[inline(always)]
    pub const fn single(color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(1 << (2 * color as u8 + side as u8))
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn both(color: Color) -> CastlingRights {
        CastlingRights(3 << (2 * color as u8))
    }

    /// True when `color` may (still) castle on `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::single(color, side).0 != 0
    }

    /// True when no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights in `self` that are not in `other`.
    #[inline(always)]
    pub const fn without(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// The union of two sets of rights.
    #[inline(always)]
    pub const fn with(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// The raw bits (0..16).
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Index (0..4) of a single right: its Polyglot castling key number.
    #[inline(always)]
    pub const fn index_of(color: Color, side: CastlingSide) -> usize {
        2 * color as usize + side as usize
    }
}

/// How castling moves are written in UCI notation and read from FEN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: castling written as the king's two-square move (e1g1).
    #[default]
    Standard,
    /// Chess960 (Fischer Random): castling written as king takes own rook (e1h1).
    Chess960,
}
