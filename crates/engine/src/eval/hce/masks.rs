//! Square sets the evaluation asks about pawns: adjacent files, the squares
//! in front of a pawn, and the squares a passed pawn must not find enemy
//! pawns on. Computed at compile time.

use chess::{Color, Square};

/// The files either side of each file.
pub const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let file = 0x0101_0101_0101_0101u64 << f;
        let mut m = 0;
        if f > 0 {
            m |= file >> 1;
        }
        if f < 7 {
            m |= file << 1;
        }
        t[f] = m;
        f += 1;
    }
    t
};

/// Ranks strictly in front of `rank` from `color`'s side.
const fn ranks_ahead(color: usize, rank: usize) -> u64 {
    if color == 0 {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    }
}

const fn spans(adjacent: bool) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let f = sq % 8;
            let mut files = if adjacent { ADJACENT_FILES[f] } else { 0 };
            files |= 0x0101_0101_0101_0101u64 << f;
            if adjacent {
                files &= !(0x0101_0101_0101_0101u64 << f);
            }
            t[c][sq] = files & ranks_ahead(c, sq / 8);
            sq += 1;
        }
        c += 1;
    }
    t
}

const FRONT: [[u64; 64]; 2] = spans(false);
const ADJACENT_AHEAD: [[u64; 64]; 2] = spans(true);

/// Squares in front of `sq` on its file, from `color`'s side.
#[inline(always)]
pub fn front_span(color: Color, sq: Square) -> u64 {
    FRONT[color.index()][sq.index()]
}

/// Squares on the adjacent files in front of `sq`: where enemy pawns could
/// attack the squares a pawn on `sq` advances through.
#[inline(always)]
pub fn attack_span(color: Color, sq: Square) -> u64 {
    ADJACENT_AHEAD[color.index()][sq.index()]
}

/// Squares an enemy pawn must not stand on for a pawn on `sq` to be passed.
#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> u64 {
    front_span(color, sq) | attack_span(color, sq)
}

/// Squares of the central 4x4 block.
pub const CENTRE: u64 = 0x0000_3c3c_3c3c_0000;

/// Squares of the rank `rank` (0..7) from `color`'s side.
#[inline(always)]
pub fn relative_rank_mask(color: Color, rank: usize) -> u64 {
    let r = if color == Color::White {
        rank
    } else {
        7 - rank
    };
    0xffu64 << (8 * r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn spans() {
        // e4 for White: e5..e8 in front; d5..d8 and f5..f8 beside.
        let front = front_span(Color::White, sq("e4"));
        assert_eq!(front.count_ones(), 4);
        assert!(front & (1 << sq("e8").index()) != 0);
        let span = attack_span(Color::White, sq("e4"));
        assert_eq!(span.count_ones(), 8);
        assert!(span & (1 << sq("d5").index()) != 0);
        assert!(span & (1 << sq("d4").index()) == 0);
        // a7 for Black: a6..a1 in front, b6..b1 beside.
        assert_eq!(front_span(Color::Black, sq("a7")).count_ones(), 6);
        assert_eq!(attack_span(Color::Black, sq("a7")).count_ones(), 6);
        assert_eq!(passed_span(Color::White, sq("h8")), 0);
    }
}
