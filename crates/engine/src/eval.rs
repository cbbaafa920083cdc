//! The evaluation: a static score of a position, side to move's view.
//!
//! This is the first, deliberately small evaluator the search is built and
//! measured with: material, piece-square tables made from simple formulas
//! (advance pawns, centralise knights and bishops, rooks on the seventh,
//! king sheltered in the middlegame and central in the endgame), mobility
//! and the bishop pair, tapered between middlegame and endgame by the
//! material left. The full evaluation (every term of the seeds, tuned
//! weights) replaces it behind this same function.

use chess::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use chess::{Bitboard, Color, Position, Role, Square};

use crate::score::Value;

/// Piece values (middlegame, endgame), pawn to queen; also used by SEE and pruning.
pub const PIECE_VALUES: [(Value, Value); 5] =
    [(90, 120), (320, 300), (330, 320), (480, 540), (950, 1000)];

/// A single value per role for exchange arithmetic (king: effectively infinite).
pub const SEE_VALUES: [Value; 6] = [100, 320, 330, 500, 950, 20_000];

const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Twice the Manhattan distance of a square from the board's centre (2..14).
const fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    (2 * f - 7).abs() + (2 * r - 7).abs()
}

/// Piece-square values (mg, eg) for White; Black reads them mirrored.
const fn psqt(role: usize, sq: usize) -> (i32, i32) {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let cd = centre_distance(sq);
    match role {
        0 => {
            const ADVANCE_EG: [i32; 8] = [0, 0, 5, 12, 25, 45, 75, 0];
            let central = if (f == 3 || f == 4) && (r == 3 || r == 4) {
                15
            } else {
                0
            };
            ((r - 1) * 4 + central, ADVANCE_EG[r as usize])
        }
        1 => (24 - 4 * cd, 20 - 3 * cd),
        2 => (10 - 2 * cd, 10 - 2 * cd),
        3 => {
            let seventh = if r == 6 { 20 } else { 0 };
            let central = if f == 3 || f == 4 { 5 } else { 0 };
            (seventh + central, seventh / 2)
        }
        4 => (6 - cd, 14 - 2 * cd),
        _ => {
            const BACK_RANK: [i32; 8] = [15, 25, 5, -10, -10, 5, 25, 15];
            let mg = if r == 0 {
                BACK_RANK[f as usize]
            } else {
                -15 * r
            };
            (mg, 28 - 4 * cd)
        }
    }
}

const PSQT: [[(i32, i32); 64]; 6] = {
    let mut t = [[(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            t[role][sq] = psqt(role, sq);
            sq += 1;
        }
        role += 1;
    }
    t
};

/// Mobility weight per attacked safe square (mg, eg), knight to queen.
const MOBILITY: [(i32, i32); 4] = [(4, 4), (5, 5), (2, 4), (1, 2)];
const BISHOP_PAIR: (i32, i32) = (30, 50);
const TEMPO: i32 = 12;

/// The static evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> Value {
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    let occupied = pos.occupied();
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let them = !color;
        let enemy_pawns = pos.pieces(them, Role::Pawn).forward(them);
        let unsafe_squares = enemy_pawns.east() | enemy_pawns.west() | pos.by_color(color);
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                let rel = sq.relative(color).index();
                let (pm, pe) = PSQT[role.index()][rel];
                mg += sign * pm;
                eg += sign * pe;
                phase += PHASE_WEIGHTS[role.index()];
                if role != Role::King {
                    let (vm, ve) = PIECE_VALUES[role.index()];
                    mg += sign * vm;
                    eg += sign * ve;
                }
                if let Some((wm, we)) = mobility(role, sq, occupied) {
                    let n = (wm.0 & !unsafe_squares.0).count_ones() as i32;
                    mg += sign * we.0 * n;
                    eg += sign * we.1 * n;
                }
            }
        }
        if pos.pieces(color, Role::Bishop).more_than_one() {
            mg += sign * BISHOP_PAIR.0;
            eg += sign * BISHOP_PAIR.1;
        }
    }
    let phase = phase.min(MAX_PHASE);
    let blended = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let white_view = blended;
    let stm = if pos.turn() == Color::White {
        white_view
    } else {
        -white_view
    };
    stm + TEMPO
}

/// Attacks of a mobile piece and its mobility weights.
#[inline]
fn mobility(role: Role, sq: Square, occupied: Bitboard) -> Option<(Bitboard, (i32, i32))> {
    Some(match role {
        Role::Knight => (knight_attacks(sq), MOBILITY[0]),
        Role::Bishop => (bishop_attacks(sq, occupied), MOBILITY[1]),
        Role::Rook => (rook_attacks(sq, occupied), MOBILITY[2]),
        Role::Queen => (queen_attacks(sq, occupied), MOBILITY[3]),
        _ => return None,
    })
}

/// True when the side to move has pieces other than pawns and king (null
/// move is unsafe in pawn endings: zugzwang).
pub fn has_non_pawn_material(pos: &Position, color: Color) -> bool {
    (pos.by_color(color) - pos.pieces(color, Role::Pawn) - pos.pieces(color, Role::King)).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> String {
        let p = Position::from_fen(fen).unwrap();
        let fields: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let turn = if p.turn() == Color::White { "b" } else { "w" };
        format!("{} {} - - 0 1", board.join("/"), turn)
    }

    #[test]
    fn symmetric_and_sensible() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start), TEMPO);
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/3P4/8/8/5K2/8 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        ] {
            let a = evaluate(&Position::from_fen(fen).unwrap());
            let b = evaluate(&Position::from_fen(&mirror(fen)).unwrap());
            assert_eq!(a, b, "{fen}");
        }
        // A queen up is a lot.
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up) > 800);
    }
}
