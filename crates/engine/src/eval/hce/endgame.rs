//! Endgame knowledge outside the weights: scale factors for material that
//! cannot win (or hardly), and mop-up, which drives a lone king to the edge
//! (to the bishop's corner in KBNK) and brings the winning king closer.

use chess::{Color, Position, Role, Square};

/// Non-pawn material in pawn units (minor 3, rook 5, queen 9).
fn pieces_value(pos: &Position, color: Color) -> i32 {
    3 * (pos.pieces(color, Role::Knight).count() + pos.pieces(color, Role::Bishop).count()) as i32
        + 5 * pos.pieces(color, Role::Rook).count() as i32
        + 9 * pos.pieces(color, Role::Queen).count() as i32
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The scale, out of 128, of the endgame score of `strong` (the side the
/// endgame score favours).
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = pos.pieces(strong, Role::Pawn).bits();
    let strong_pieces = pieces_value(pos, strong);
    let weak_pieces = pieces_value(pos, weak);
    if strong_pawns == 0 {
        // A minor piece more is not enough without pawns (KBK, KRKB, KBKN...).
        if strong_pieces - weak_pieces <= 3 {
            return if strong_pieces <= 3 { 0 } else { 16 };
        }
        // Two knights cannot force mate.
        if weak_pieces == 0 && strong_pieces == 6 && pos.pieces(strong, Role::Knight).count() == 2 {
            return 0;
        }
    }
    // Rook pawns only, with the defending king in the corner in front of
    // them: a draw with a bare king, or with a bishop of the wrong colour.
    let one_rook_file =
        strong_pawns != 0 && (strong_pawns & !FILE_A == 0 || strong_pawns & !FILE_H == 0);
    if one_rook_file {
        let file = (strong_pawns.trailing_zeros() % 8) as u8;
        let corner = Square::new(if strong == Color::White {
            56 + file
        } else {
            file
        });
        let weak_king_there = pos.king(weak).distance(corner) <= 1;
        let bishops = pos.pieces(strong, Role::Bishop);
        let wrong_bishop = strong_pieces == 3
            && bishops.count() == 1
            && bishops.lsb().is_light() != corner.is_light();
        if weak_king_there && (strong_pieces == 0 || wrong_bishop) {
            return 0;
        }
    }
    // Opposite-coloured bishops.
    let (sb, wb) = (
        pos.pieces(strong, Role::Bishop),
        pos.pieces(weak, Role::Bishop),
    );
    if sb.count() == 1 && wb.count() == 1 && sb.lsb().is_light() != wb.lsb().is_light() {
        return if strong_pieces == 3 && weak_pieces == 3 {
            48
        } else {
            96
        };
    }
    128
}

/// Twice the Manhattan distance from the centre (2 in the centre, 14 in a corner).
fn edge_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    (2 * f - 7).abs() + (2 * r - 7).abs()
}

fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().index() as i32 - b.file().index() as i32).abs()
        + (a.rank().index() as i32 - b.rank().index() as i32).abs()
}

/// True when `strong` has material that mates a lone king by force: a
/// queen or a rook, two bishops, or bishop and knight.
fn has_mating_material(pos: &Position, strong: Color) -> bool {
    let knights = pos.pieces(strong, Role::Knight).count();
    let bishops = pos.pieces(strong, Role::Bishop).count();
    let heavy = (pos.pieces(strong, Role::Rook) | pos.pieces(strong, Role::Queen)).any();
    heavy || bishops >= 2 || (bishops == 1 && knights >= 1)
}

/// True for a basic mate: one side has only its king, the other mating
/// material and no pawns (KQ v K, KR v K, KBB v K, KBN v K and more). There
/// driving the lone king to the edge (to the bishop's corner with bishop
/// and knight) is the whole plan, and a search of such a position weighs
/// the mop-up by `MopUpWeight` (8), so that each step towards the edge
/// outweighs what the rest of the evaluation says of the lone king and the
/// search follows it to a mate beyond its horizon: at 1,000,000 nodes, on
/// the 120 lone-king endings of a set of classic long mates, 25 mates at
/// weight 1, 72 at 4, 88 at 8 and at 16. Searches of other positions keep
/// 1 even where their lines reach such an ending: there the weight cost
/// mates and games (docs/search.md, "The mop-up's weight", issue 45).
pub fn is_basic_mate(pos: &Position) -> bool {
    Color::ALL.into_iter().any(|strong| {
        !pos.by_color(!strong).more_than_one()
            && pos.pieces(strong, Role::Pawn).is_empty()
            && has_mating_material(pos, strong)
    })
}

/// Mop-up bonus, White's view, when one side has only its king left and
/// the other has mating material (before its weight, `MopUpWeight`).
pub fn mop_up(pos: &Position) -> i32 {
    for strong in Color::ALL {
        let weak = !strong;
        if pos.by_color(weak).more_than_one() || !has_mating_material(pos, strong) {
            continue;
        }
        let heavy = (pos.pieces(strong, Role::Rook) | pos.pieces(strong, Role::Queen)).any();
        let bishop_knight = !heavy
            && pos.pieces(strong, Role::Bishop).count() == 1
            && pos.pieces(strong, Role::Knight).any();
        let wk = pos.king(weak);
        let sk = pos.king(strong);
        let closeness = 14 - manhattan(wk, sk);
        let bonus = if bishop_knight && pos.pieces(strong, Role::Pawn).is_empty() {
            // Mate is only forced in a corner of the bishop's colour.
            let light = pos.pieces(strong, Role::Bishop).lsb().is_light();
            let corners: [u8; 2] = if light { [7, 56] } else { [0, 63] };
            let to_corner = corners
                .iter()
                .map(|&c| manhattan(wk, Square::new(c)))
                .min()
                .unwrap_or(0);
            40 * (14 - to_corner) + 10 * closeness + 5 * edge_distance(wk)
        } else {
            10 * edge_distance(wk) + 5 * closeness
        };
        return if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn drawish_material_is_scaled() {
        assert_eq!(
            scale_factor(&pos("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"), Color::White),
            0
        );
        assert_eq!(
            scale_factor(&pos("8/8/4k3/8/8/3NK3/8/3N4 w - - 0 1"), Color::White),
            0
        );
        assert_eq!(
            scale_factor(&pos("8/8/4k3/3b4/8/4K3/8/3R4 w - - 0 1"), Color::White),
            16
        );
        // Wrong rook pawn: a-pawn with a dark-squared bishop, black king on a8.
        assert_eq!(
            scale_factor(&pos("k7/8/8/P7/8/4B3/4K3/8 w - - 0 1"), Color::White),
            0
        );
        // Right bishop (light, controls a8): no scaling.
        assert_eq!(
            scale_factor(&pos("k7/8/8/P7/8/3B4/4K3/8 w - - 0 1"), Color::White),
            128
        );
        // Opposite bishops with pawns.
        assert_eq!(
            scale_factor(&pos("8/4kp2/3b4/8/3PP3/3BK3/8/8 w - - 0 1"), Color::White),
            48
        );
        assert_eq!(
            scale_factor(&pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1"), Color::White),
            128
        );
    }

    #[test]
    fn kbnk_prefers_the_bishops_corner() {
        // Light-squared bishop: h1 and a8 are the mating corners.
        let right = mop_up(&pos("8/8/8/8/8/4N1K1/4B3/7k w - - 0 1"));
        let wrong = mop_up(&pos("7k/8/4N1K1/8/8/8/4B3/8 w - - 0 1"));
        assert!(right > wrong, "{right} vs {wrong}");
    }

    #[test]
    fn basic_mates_are_a_lone_king_against_mating_pieces_without_pawns() {
        for fen in [
            "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
            "8/8/8/3k4/8/8/8/2B1KB2 b - - 0 1",
            "8/8/8/3k4/8/8/8/2B1KN2 w - - 0 1",
            "3qk3/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(is_basic_mate(&pos(fen)), "{fen}");
        }
        for fen in [
            "8/8/8/3k4/8/8/4P3/R3K3 w - - 0 1",
            "8/8/8/3k4/8/8/8/2N1KN2 w - - 0 1",
            "8/8/8/3k4/8/8/p7/R3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(!is_basic_mate(&pos(fen)), "{fen}");
        }
    }

    #[test]
    fn lone_king_is_pushed_to_the_edge() {
        let centre = mop_up(&pos("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"));
        let edge = mop_up(&pos("3k4/8/8/8/8/8/8/R3K3 w - - 0 1"));
        assert!(edge > centre);
        assert!(mop_up(&pos("3K4/8/8/8/8/8/8/r3k3 w - - 0 1")) < 0);
        assert_eq!(mop_up(&pos("3k4/8/8/8/8/8/4P3/4K3 w - - 0 1")), 0);
    }
}
