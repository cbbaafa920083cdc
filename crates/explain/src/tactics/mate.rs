//! Mates and mate threats: a line that ends in mate (with its pattern,
//! back rank or smothered, when it has one), and a move after which the
//! mover would mate at once if the opponent did nothing.

use chess::attacks::king_attacks;
use chess::{Position, Rank, Role};

use crate::board::{mates_in_one, passed};
use crate::motif::{MatePattern, Motif};
use crate::walk::Walk;

/// The pattern of the mate on the board in `pos` (the side to move mated).
pub fn pattern(pos: &Position) -> Option<MatePattern> {
    let mated = pos.turn();
    let king = pos.king(mated);
    let checker = pos.checkers().single()?;
    let role = pos.piece_at(checker)?.role;
    let own = pos.by_color(mated);
    let around = king_attacks(king);
    if role == Role::Knight && (around & !own).is_empty() {
        return Some(MatePattern::Smothered);
    }
    let back = king.rank().relative(mated) == Rank::FIRST;
    let on_rank = checker.rank() == king.rank();
    let front = around & !chess::Bitboard::from_rank(king.rank());
    if back
        && on_rank
        && matches!(role, Role::Rook | Role::Queen)
        && front.any()
        && (front & !own).is_empty()
    {
        return Some(MatePattern::BackRank);
    }
    None
}

/// The mate the line after the move at `ply` ends in, by the mover.
pub fn mate(walk: &Walk, ply: usize) -> Option<Motif> {
    let last = walk.len() - 1;
    if !walk.mates(ply) || !(last - ply).is_multiple_of(2) {
        return None;
    }
    Some(Motif::Mate {
        moves: ((last - ply) / 2 + 1) as u32,
        mating: walk.before(last).san(walk.mv(last)),
        pattern: pattern(walk.end()),
    })
}

/// The mate the move at `ply` threatens: the mover's mate in one were it
/// to move again (none when the move checks or ends the game).
pub fn threat(walk: &Walk, ply: usize) -> Option<Motif> {
    let after = walk.after(ply);
    if !after.has_legal_moves() {
        return None;
    }
    let again = passed(after)?;
    let mating = *mates_in_one(&again).first()?;
    Some(Motif::MateThreat {
        mating: again.san(mating),
    })
}
