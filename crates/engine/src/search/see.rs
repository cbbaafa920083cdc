//! Static exchange evaluation: does a capture sequence on one square win
//! material, assuming both sides always recapture with their least valuable
//! attacker and may stop when it pays? Used to order captures (losing ones
//! last) and to prune losing moves.

use chess::attacks::{bishop_attacks, rook_attacks};
use chess::{Move, MoveKind, Position, Role, Square};

use crate::eval::SEE_VALUES;
use crate::score::Value;

/// True when `m` wins at least `threshold` in the exchange it starts.
pub fn see_ge(pos: &Position, m: Move, threshold: Value) -> bool {
    // Castling and en passant never lose material in the exchange sense.
    if matches!(m.kind(), MoveKind::Castling | MoveKind::EnPassant) {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let captured = pos.piece_at(to).map_or(0, |p| SEE_VALUES[p.role.index()]);
    let promotion_gain = m
        .promotion_role()
        .map_or(0, |r| SEE_VALUES[r.index()] - SEE_VALUES[0]);
    let mut swap = captured + promotion_gain - threshold;
    if swap < 0 {
        return false;
    }
    let moving = m
        .promotion_role()
        .unwrap_or_else(|| pos.piece_at(from).map_or(Role::Pawn, |p| p.role));
    swap = SEE_VALUES[moving.index()] - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = pos.occupied().without(from).with(to);
    let mut attackers = pos.attackers_to(to, occupied) & occupied;
    let diagonal = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let orthogonal = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut stm = !pos.turn();
    let mut result = true;
    loop {
        let ours = attackers & pos.by_color(stm);
        if ours.is_empty() {
            break;
        }
        result = !result;
        // The least valuable attacker recaptures.
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (ours & pos.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may recapture only if the other side has nothing left.
            return if (attackers & pos.by_color(!stm)).any() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUES[role.index()] - swap;
        if swap < Value::from(result) {
            break;
        }
        occupied = occupied.without(sq);
        // X-rays: sliders behind the piece that just captured join in.
        attackers |=
            (bishop_attacks(to, occupied) & diagonal) | (rook_attacks(to, occupied) & orthogonal);
        attackers &= occupied;
        stm = !stm;
    }
    result
}

/// What `m` captures, in SEE values (0 for a quiet move or castling).
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> Value {
    match m.kind() {
        MoveKind::Castling => 0,
        MoveKind::EnPassant => SEE_VALUES[Role::Pawn.index()],
        _ => pos
            .piece_at(m.to())
            .map_or(0, |p| SEE_VALUES[p.role.index()]),
    }
}

/// True when the side to move wins more than `already_won` by taking the
/// piece on `sq` (with its least valuable attacker) and the exchange that
/// follows. Asked about the square the opponent's last move went to, with
/// what that move captured as `already_won`: true when the move gave
/// material away, a sacrifice (or a blunder) rather than a trade.
pub fn gave_material_away(pos: &Position, sq: Square, already_won: Value) -> bool {
    let attackers = pos.attackers_to(sq, pos.occupied()) & pos.by_color(pos.turn());
    let Some(from) = Role::ALL
        .iter()
        .find_map(|&r| (attackers & pos.by_role(r)).first())
    else {
        return false;
    };
    see_ge(pos, Move::normal(from, sq), already_won + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    fn see(fen: &str, uci: &str, threshold: Value) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci_move(uci, CastlingMode::Standard).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +320.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 320));
        assert!(!see(fen, "e4d5", 321));
        // Queen takes a pawn defended by a pawn: loses the queen.
        let fen = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1";
        assert!(!see(fen, "d2d5", 0));
        // Rook takes a defended rook, backed up by a second rook (x-ray): an even trade at worst.
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        assert!(!see(fen, "d2d7", 1));
        // A quiet knight move to a square a pawn attacks loses the knight.
        let fen = "4k3/8/2p5/8/8/2N5/8/4K3 w - - 0 1";
        assert!(!see(fen, "c3b5", -319));
        assert!(see(fen, "c3b5", -320));
        assert!(see(fen, "c3e4", 0), "e4 is safe");
        // A pawn takes a pawn that only the king defends, while a rook
        // also attacks the square: the king cannot recapture, the pawn is won.
        let fen = "8/3k4/4p3/3P4/8/8/8/4RK2 w - - 0 1";
        assert!(see(fen, "d5e6", 100));
        // Without the rook the king recaptures: pawn for pawn.
        let fen = "8/3k4/4p3/3P4/8/8/8/5K2 w - - 0 1";
        assert!(see(fen, "d5e6", 0));
        assert!(!see(fen, "d5e6", 1));
    }

    #[test]
    fn material_given_away() {
        let sq = |name: &str| name.parse::<Square>().unwrap();
        // WAC.001 after 1.Qg6: the pawn takes the queen for nothing.
        let pos = Position::from_fen("2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 b - - 1 1")
            .unwrap();
        assert!(gave_material_away(&pos, sq("g6"), 0));
        // A knight that took a knight and is taken back: a trade, nothing given.
        let pos = Position::from_fen("4k3/8/2p5/3N4/8/8/8/4K3 b - - 0 1").unwrap();
        assert!(!gave_material_away(&pos, sq("d5"), 320));
        // The same knight having taken only a pawn: a knight for a pawn.
        assert!(gave_material_away(&pos, sq("d5"), 100));
        // Nothing attacks the piece: nothing given.
        let pos = Position::from_fen("4k3/8/8/3N4/8/8/8/4K3 b - - 0 1").unwrap();
        assert!(!gave_material_away(&pos, sq("d5"), 0));
        // Only the king attacks it, and it is defended: the king cannot take.
        let pos = Position::from_fen("8/8/3k4/4N3/4K3/8/8/8 b - - 0 1").unwrap();
        assert!(!gave_material_away(&pos, sq("e5"), 0));
    }
}
