//! A middlegame/endgame pair of values: every evaluation weight is one, and
//! the evaluation sums pairs before blending them by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair {
    /// The value with most pieces on the board.
    pub mg: i32,
    /// The value with few pieces left.
    pub eg: i32,
}

/// Shorthand constructor.
pub const fn pair(mg: i32, eg: i32) -> Pair {
    Pair { mg, eg }
}

impl Pair {
    /// The pair blended by `phase` (0 = bare endgame, `MAX_PHASE` = opening),
    /// the endgame part scaled by `scale`/128 (drawish material).
    #[inline]
    pub fn blend(self, phase: i32, scale: i32) -> i32 {
        let eg = self.eg * scale / 128;
        (self.mg * phase + eg * (super::MAX_PHASE - phase)) / super::MAX_PHASE
    }
}

impl Add for Pair {
    type Output = Pair;
    #[inline]
    fn add(self, o: Pair) -> Pair {
        pair(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Pair {
    type Output = Pair;
    #[inline]
    fn sub(self, o: Pair) -> Pair {
        pair(self.mg - o.mg, self.eg - o.eg)
    }
}

impl Neg for Pair {
    type Output = Pair;
    #[inline]
    fn neg(self) -> Pair {
        pair(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Pair {
    type Output = Pair;
    #[inline]
    fn mul(self, n: i32) -> Pair {
        pair(self.mg * n, self.eg * n)
    }
}

impl AddAssign for Pair {
    #[inline]
    fn add_assign(&mut self, o: Pair) {
        *self = *self + o;
    }
}

impl SubAssign for Pair {
    #[inline]
    fn sub_assign(&mut self, o: Pair) {
        *self = *self - o;
    }
}
