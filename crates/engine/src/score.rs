//! Search scores: centipawns from the side to move's view, with mate scores
//! at the top and bottom of the range counting the distance to mate in plies.

/// Deepest ply the search may reach.
pub const MAX_PLY: usize = 128;

/// A score in centipawns (or a mate score), side to move's view.
pub type Value = i32;

/// Larger than any score.
pub const INFINITE: Value = 32_000;
/// The score of being mated now; mated in `n` plies is `-MATE + n`.
pub const MATE: Value = 31_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// A draw.
pub const DRAW: Value = 0;
/// A tablebase win at the root; won `n` plies from the root is `TB_WIN - n`.
/// Just below the mate range: a mate the search finds is worth more than a
/// win the tables promise, and a tablebase win more than any evaluation.
pub const TB_WIN: Value = MATE_BOUND - 1;
/// Scores beyond this (in absolute value) are tablebase wins or mates.
pub const TB_WIN_BOUND: Value = TB_WIN - MAX_PLY as Value;

/// The score for giving mate `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The score for being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// The score of a tablebase win `ply` plies from the root.
#[inline]
pub const fn tb_win_in(ply: usize) -> Value {
    TB_WIN - ply as Value
}

/// The score of a tablebase loss `ply` plies from the root.
#[inline]
pub const fn tb_loss_in(ply: usize) -> Value {
    -TB_WIN + ply as Value
}

/// True for mate scores (either side).
#[inline]
pub const fn is_mate(v: Value) -> bool {
    v.abs() >= MATE_BOUND
}

/// A score as stored in the hash table: mate and tablebase scores count from
/// the stored node, not from the root, so that they stay right wherever the
/// node recurs.
#[inline]
pub const fn to_tt(v: Value, ply: usize) -> Value {
    if v >= TB_WIN_BOUND {
        v + ply as Value
    } else if v <= -TB_WIN_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// A score read from the hash table at `ply`: the inverse of `to_tt`.
#[inline]
pub const fn from_tt(v: Value, ply: usize) -> Value {
    if v >= TB_WIN_BOUND {
        v - ply as Value
    } else if v <= -TB_WIN_BOUND {
        v + ply as Value
    } else {
        v
    }
}

pub use types::Score;

/// The user-facing form of a search value: centipawns, or mate in moves.
pub fn user_score(v: Value) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in 0..MAX_PLY {
            for v in [
                mate_in(ply + 3),
                mated_in(ply + 4),
                tb_win_in(ply + 2),
                tb_loss_in(ply + 5),
                123,
                -45,
                DRAW,
            ] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
        }
        // A mate found 5 plies below a node stored at ply 7 is mate in 5 from there.
        assert_eq!(to_tt(mate_in(12), 7), mate_in(5));
        assert_eq!(to_tt(tb_win_in(12), 7), tb_win_in(5));
    }

    #[test]
    fn tablebase_scores_sit_between_evaluations_and_mates() {
        assert!(tb_win_in(MAX_PLY) > 20_000);
        assert!(tb_win_in(0) < mate_in(MAX_PLY));
        assert!(!is_mate(tb_win_in(0)) && !is_mate(tb_loss_in(0)));
        assert!(tb_win_in(MAX_PLY) >= TB_WIN_BOUND);
        // The table stores scores as 16 bits.
        assert!(to_tt(tb_win_in(0), MAX_PLY) < Value::from(i16::MAX));
    }

    #[test]
    fn user_facing_mates_count_moves() {
        assert_eq!(user_score(mate_in(1)), Score::Mate(1));
        assert_eq!(user_score(mate_in(3)), Score::Mate(2));
        assert_eq!(user_score(mated_in(2)), Score::Mate(-1));
        assert_eq!(user_score(mated_in(0)), Score::Mate(0));
        assert_eq!(user_score(57), Score::Cp(57));
    }
}
