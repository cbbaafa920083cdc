//! What the motifs ask of one position: piece values, material, who
//! attacks and defends a square, and what an exchange there gives (the
//! engine's static exchange, `engine::see`).

use chess::{Bitboard, CastlingSide, Color, Move, MoveKind, Piece, Position, Role, Square};
use engine::eval::SEE_VALUES;
use engine::see::see_ge;

use crate::motif::Placed;

/// A role's value in centipawns, the static exchange's (king: 20000).
pub fn value(role: Role) -> i32 {
    SEE_VALUES[role.index()]
}

/// `color`'s material (pawns to queens) in centipawns.
pub fn material(pos: &Position, color: Color) -> i32 {
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .iter()
    .map(|&r| pos.pieces(color, r).count() as i32 * value(r))
    .sum()
}

/// `color`'s material minus its opponent's.
pub fn balance(pos: &Position, color: Color) -> i32 {
    material(pos, color) - material(pos, !color)
}

/// The piece on `sq`, placed.
pub fn placed(pos: &Position, sq: Square) -> Option<Placed> {
    pos.piece_at(sq).map(|p| Placed::new(p, sq))
}

/// `color`'s pieces attacking `sq` in `pos`.
pub fn attackers(pos: &Position, sq: Square, color: Color) -> Bitboard {
    pos.attackers_to(sq, pos.occupied()) & pos.by_color(color)
}

/// True when the piece on `sq` has a defender of its own colour.
pub fn defended(pos: &Position, sq: Square) -> bool {
    pos.piece_at(sq)
        .is_some_and(|p| attackers(pos, sq, p.color).any())
}

/// What a legal move `m` captures, placed (en passant's pawn on its own square).
pub fn captured(pos: &Position, m: Move) -> Option<Placed> {
    match m.kind() {
        MoveKind::Castling => None,
        MoveKind::EnPassant => {
            let sq = chess::Square::from_coords(m.to().file(), m.from().rank());
            placed(pos, sq)
        }
        _ => placed(pos, m.to()),
    }
}

/// Where the moving piece stands after `m` (the king's square for castling).
pub fn landing(before: &Position, m: Move) -> Square {
    if m.kind() != MoveKind::Castling {
        return m.to();
    }
    let side = if m.to().file() > m.from().file() {
        CastlingSide::King
    } else {
        CastlingSide::Queen
    };
    let file = side.fold_file(
        chess::File::new(6).expect("g-file"),
        chess::File::new(2).expect("c-file"),
    );
    Square::from_coords(file, before.king(before.turn()).rank())
}

/// The moved piece where it stands after `m`, as `after` shows it.
pub fn moved(before: &Position, after: &Position, m: Move) -> Option<Placed> {
    placed(after, landing(before, m))
}

/// What `m` wins in the exchange it starts on its square, in centipawns
/// (negative: it loses): the engine's static exchange, searched for its
/// value between -2000 and 2000.
pub fn exchange(pos: &Position, m: Move) -> i32 {
    let (mut lo, mut hi) = (-2000, 2000);
    if !see_ge(pos, m, lo) {
        return lo;
    }
    // Invariant: see_ge(lo) holds; answer in [lo, hi].
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if see_ge(pos, m, mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The side to move's best capture by static exchange, when one wins
/// material: the move and what it wins.
pub fn best_capture(pos: &Position) -> Option<(Move, i32)> {
    let them = pos.by_color(!pos.turn());
    pos.legal_moves()
        .iter()
        .filter(|m| {
            m.kind() != MoveKind::Castling
                && (them.contains(m.to()) || m.kind() == MoveKind::EnPassant)
        })
        .map(|&m| (m, exchange(pos, m)))
        .filter(|&(_, v)| v > 0)
        .max_by_key(|&(_, v)| v)
}

/// The position with the turn passed, as if the side to move did nothing;
/// none in check, where passing is no legal idea.
pub fn passed(pos: &Position) -> Option<Position> {
    if pos.in_check() {
        return None;
    }
    let mut p = *pos;
    p.play_null();
    Some(p)
}

/// The side to move's mates in one.
pub fn mates_in_one(pos: &Position) -> Vec<Move> {
    let check = pos.check_squares();
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            pos.gives_check_with(&check, m) && {
                let mut child = *pos;
                child.play_unchecked(m);
                !child.has_legal_moves()
            }
        })
        .collect()
}

/// True for a knight, bishop, rook or queen: the pieces a fork or a pin is
/// worth naming for.
pub fn is_piece(p: Piece) -> bool {
    !matches!(p.role, Role::Pawn | Role::King)
}
