//! The input features: which piece stands on which square, seen from one
//! side ("perspective").
//!
//! Each perspective sees the board as if it were White: its own pieces come
//! first (indices 0..384), the opponent's after (384..768), and for Black the
//! board is mirrored vertically. One set of weights therefore serves both
//! perspectives, and a position and its colour-flipped twin get the same
//! score.
//!
//! A net with king buckets (`input_buckets.rs`) has 768 such inputs per
//! bucket; [`feature_index`] is the index within one bucket, unmirrored.

use chess::{Color, Piece, Square};

use super::KingView;

/// The input index of `piece` on `sq` from `perspective`'s side, in a net
/// with one king bucket and no mirroring.
#[inline(always)]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    KingView::PLAIN.feature(perspective, piece, sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::INPUTS;
    use chess::Role;

    #[test]
    fn indices_cover_every_input_once_per_perspective() {
        for perspective in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for role in Role::ALL {
                    for sq in Square::ALL {
                        let i = feature_index(perspective, Piece::new(color, role), sq);
                        assert!(!seen[i], "index {i} twice");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn perspectives_mirror_each_other() {
        // White's pawn on e2 seen by White is Black's pawn on e7 seen by Black.
        let e2: Square = "e2".parse().unwrap();
        let e7: Square = "e7".parse().unwrap();
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let black_pawn = Piece::new(Color::Black, Role::Pawn);
        assert_eq!(
            feature_index(Color::White, white_pawn, e2),
            feature_index(Color::Black, black_pawn, e7)
        );
        assert_eq!(feature_index(Color::White, white_pawn, e2), 12);
        assert_eq!(feature_index(Color::Black, white_pawn, e2), 384 + 52);
    }
}
