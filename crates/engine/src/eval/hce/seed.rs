//! The hand-set starting point of the weights: plain chess knowledge (piece
//! values, centralisation, advanced passers, a sheltered king) from which the
//! Texel tuner starts. The engine plays with the tuned `weights.txt`; this is
//! kept so that a tuning run can be reproduced from scratch (`kestrel tune
//! seed --out FILE` writes it as a weight file; `tune texel --from-seed` and
//! `tune ga --from-seed` start from it).

use super::pair::pair;
use super::weights::*;

/// Twice the Manhattan distance of a square from the board's centre (2..14).
fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    (2 * f - 7).abs() + (2 * r - 7).abs()
}

fn psqt(role: usize, sq: usize) -> (i32, i32) {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let cd = centre_distance(sq);
    match role {
        0 => {
            if r == 0 || r == 7 {
                return (0, 0);
            }
            let central = if (f == 3 || f == 4) && (r == 3 || r == 4) {
                15
            } else {
                0
            };
            ((r - 1) * 3 + central, (r - 1) * 4)
        }
        1 => (24 - 4 * cd, 20 - 3 * cd),
        2 => (10 - 2 * cd, 10 - 2 * cd),
        3 => (if f == 3 || f == 4 { 5 } else { 0 }, 0),
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

/// Mobility by squares: from `low` with none to `high` with all.
fn mobility(w: &mut Weights, first: usize, len: usize, low: (i32, i32), high: (i32, i32)) {
    for i in 0..len {
        // Concave: the first squares matter most.
        let t = ((i as f64) / (len - 1) as f64).sqrt();
        let v = |a: i32, b: i32| a + (f64::from(b - a) * t) as i32;
        w.set(first + i, pair(v(low.0, high.0), v(low.1, high.1)));
    }
}

/// The starting weights.
pub fn seed_weights() -> Weights {
    let mut w = Weights::zero();
    let set = |w: &mut Weights, i: usize, mg: i32, eg: i32| w.set(i, pair(mg, eg));
    for (i, (mg, eg)) in [(90, 120), (320, 300), (330, 320), (480, 540), (950, 1000)]
        .into_iter()
        .enumerate()
    {
        set(&mut w, PIECE_VALUE + i, mg, eg);
    }
    set(&mut w, BISHOP_PAIR, 30, 50);
    set(&mut w, KNIGHT_PAWNS, 2, 3);
    set(&mut w, ROOK_PAWNS, -3, -3);
    set(&mut w, ROOK_PAIR, -10, -10);
    for (role, &first) in PSQT.iter().enumerate() {
        for sq in 0..64 {
            let (mg, eg) = psqt(role, sq);
            set(&mut w, first + sq, mg, eg);
        }
    }
    mobility(&mut w, KNIGHT_MOBILITY, 9, (-30, -40), (20, 20));
    mobility(&mut w, BISHOP_MOBILITY, 14, (-25, -40), (35, 40));
    mobility(&mut w, ROOK_MOBILITY, 15, (-20, -40), (20, 50));
    mobility(&mut w, QUEEN_MOBILITY, 28, (-15, -30), (25, 50));
    set(&mut w, COVERAGE, 1, 0);
    set(&mut w, CENTRE_CONTROL, 3, 0);
    for victim in 0..5 {
        let value = [10, 50, 50, 70, 90][victim];
        set(&mut w, THREAT_BY_PAWN + victim, value / 2, value / 2);
        set(&mut w, THREAT_BY_MINOR + victim, value / 3, value / 3);
        set(&mut w, THREAT_BY_ROOK + victim, value / 4, value / 4);
        set(&mut w, THREAT_BY_QUEEN + victim, value / 5, value / 5);
        set(&mut w, THREAT_BY_KING + victim, value / 6, value / 4);
        set(&mut w, HANGING + victim, value / 3, value / 3);
        set(&mut w, DEFENDED + victim, 3, 3);
    }
    set(&mut w, THREAT_PAWN_PUSH, 15, 15);
    set(&mut w, DOUBLED, -10, -20);
    for f in 0..8 {
        let central = if (2..=5).contains(&f) { 5 } else { 0 };
        set(&mut w, ISOLATED + f, -10 - central, -10 - central);
    }
    set(&mut w, BACKWARD, -8, -8);
    set(&mut w, BLOCKED_CENTRE, -20, 0);
    for r in 1..7i32 {
        set(&mut w, PHALANX + r as usize, 2 * r, 2 * r);
        set(&mut w, SUPPORTED + r as usize, 3 * r, 2 * r);
        let base = [0, 0, 5, 10, 25, 50, 90, 0][r as usize];
        set(&mut w, PASSED + r as usize, base / 2, base);
        set(&mut w, PASSED_FREE + r as usize, base / 4, base / 2);
        set(&mut w, PASSED_OWN_KING + r as usize, 0, -r);
        set(&mut w, PASSED_ENEMY_KING + r as usize, 0, 2 * r);
    }
    set(&mut w, PASSED_UNSTOPPABLE, 0, 400);
    for r in 0..8 {
        let shield = [-20, 0, 15, 8, 2, 0, 0, 0][r];
        let storm = [0, 0, -5, -20, -10, -5, 0, 0][r];
        set(&mut w, KING_SHIELD + r, shield, 0);
        set(&mut w, PAWN_STORM + r, storm, 0);
    }
    set(&mut w, BLOCKED_STORM, 5, 0);
    set(&mut w, KING_OPEN_FILE, -25, 0);
    set(&mut w, KING_SEMI_OPEN, -10, 0);
    for u in 0..32i32 {
        set(&mut w, KING_ATTACK + u as usize, -(u * u) / 3, -u);
    }
    for (i, v) in [-15, -10, -15, -10].into_iter().enumerate() {
        set(&mut w, SAFE_CHECK + i, v, v / 2);
    }
    set(&mut w, CASTLING_RIGHTS, 8, 0);
    set(&mut w, ROOK_OPEN_FILE, 25, 10);
    set(&mut w, ROOK_SEMI_OPEN_FILE, 10, 5);
    set(&mut w, ROOK_SEVENTH, 15, 20);
    set(&mut w, KNIGHT_OUTPOST, 20, 10);
    set(&mut w, BISHOP_OUTPOST, 10, 5);
    set(&mut w, BAD_BISHOP, -2, -4);
    set(&mut w, QUEEN_EARLY, -5, 0);
    set(&mut w, TEMPO, 12, 12);
    w
}
