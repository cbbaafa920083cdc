//! Score-based adjudication, one set of rules for every way Kestrel plays
//! games: a draw when the scores stay near zero, a win when the scores keep
//! saying one side is far ahead. `kestrel match` (cutechess-cli's `-draw`
//! and `-resign`), SPSA, the arena, the GA and datagen all count here.

use chess::Color;

/// Draw adjudication: from ply `from_ply` on, `plies` plies in a row on
/// which the mover's score is within `score` of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first ply that counts, on the caller's count (see
    /// [`Adjudicator::record`]).
    pub from_ply: u32,
    /// Plies in a row the scores must stay low.
    pub plies: u32,
    /// The score bound in centipawns.
    pub score: i32,
}

impl DrawRule {
    /// cutechess-cli's `-draw movenumber=N movecount=M score=S`: from full
    /// move N, M moves by each side, plies counted as [`absolute_ply`] does.
    pub fn cutechess(move_number: u32, move_count: u32, score: i32) -> DrawRule {
        DrawRule {
            from_ply: 2 * move_number.saturating_sub(1),
            plies: 2 * move_count,
            score,
        }
    }
}

/// Resign adjudication: when the scores say a side has lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResignRule {
    /// The loser's own score is at most `-score` for `moves` of its moves in
    /// a row (cutechess-cli's `-resign`, one-sided).
    OneSided {
        /// The score bound in centipawns.
        score: i32,
        /// The loser's consecutive moves.
        moves: u32,
    },
    /// Both sides agree: `plies` plies in a row on which every mover's score
    /// puts the same side at least `score` ahead (cutechess-cli's
    /// `twosided=true`, two plies a move; datagen's `--win-plies`).
    Agreed {
        /// The score bound in centipawns.
        score: i32,
        /// Consecutive plies, both sides' moves counted.
        plies: u32,
    },
}

impl ResignRule {
    /// cutechess-cli's `-resign movecount=M score=S [twosided=B]`.
    pub fn cutechess(move_count: u32, score: i32, two_sided: bool) -> ResignRule {
        if two_sided {
            ResignRule::Agreed {
                score,
                plies: 2 * move_count,
            }
        } else {
            ResignRule::OneSided {
                score,
                moves: move_count,
            }
        }
    }

    fn score(self) -> i32 {
        match self {
            ResignRule::OneSided { score, .. } | ResignRule::Agreed { score, .. } => score,
        }
    }
}

/// The ply a move made in `pos` is made at, counted from the game's first
/// move as the position's full move number says (cutechess's count).
pub fn absolute_ply(pos: &chess::Position) -> u32 {
    2 * pos.fullmove_number().saturating_sub(1) + pos.turn().fold(0, 1)
}

/// What the scores decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Play on.
    Continue,
    /// Drawn by low scores.
    Draw,
    /// This side wins: the scores say the other has lost.
    Win(Color),
}

/// Counts consecutive qualifying moves during one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Consecutive plies with the scores low.
    draw_plies: u32,
    /// Per side (White, Black): consecutive own moves with score <= -bound.
    losing: [u32; 2],
    /// Per side: consecutive own moves with score >= bound.
    winning: [u32; 2],
}

impl Adjudicator {
    /// A fresh counter for one game.
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            draw_plies: 0,
            losing: [0; 2],
            winning: [0; 2],
        }
    }

    /// Records the score of `mover`'s move (centipawns, mover's view; `None`
    /// when the player gave none), made at `ply` (counted as the draw rule's
    /// `from_ply` is: [`absolute_ply`] for cutechess's rules, plies since the
    /// game's first position for datagen's).
    pub fn record(&mut self, mover: Color, ply: u32, score: Option<i32>) -> Verdict {
        // The draw first, as cutechess-cli does (both can hold only when the
        // resign bound is within the draw bound).
        if let Some(rule) = self.draw {
            match score {
                Some(s) if s.abs() <= rule.score && ply >= rule.from_ply => {
                    self.draw_plies += 1;
                    if self.draw_plies >= rule.plies {
                        return Verdict::Draw;
                    }
                }
                _ => self.draw_plies = 0,
            }
        }
        let Some(rule) = self.resign else {
            return Verdict::Continue;
        };
        let me = mover.fold(0, 1);
        let them = 1 - me;
        let bound = rule.score();
        self.losing[me] = match score {
            Some(s) if s <= -bound => self.losing[me] + 1,
            _ => 0,
        };
        self.winning[me] = match score {
            Some(s) if s >= bound => self.winning[me] + 1,
            _ => 0,
        };
        // How many own moves in a row the loser and the winner need, when
        // the mover loses and when the other side does.
        let (if_mover_loses, if_they_lose) = match rule {
            ResignRule::OneSided { moves, .. } => ((moves, 0), (moves, 0)),
            ResignRule::Agreed { plies, .. } => {
                // A run of `plies` plies ending with this move holds the
                // mover's last ceil(plies/2) moves and the other's last floor.
                let plies = plies.max(1);
                let (mine, theirs) = (plies.div_ceil(2), plies / 2);
                ((mine, theirs), (theirs, mine))
            }
        };
        let loses = |loser: usize, (need_loser, need_winner): (u32, u32)| {
            self.losing[loser] >= need_loser && self.winning[1 - loser] >= need_winner
        };
        if loses(me, if_mover_loses) {
            return Verdict::Win(!mover);
        }
        if loses(them, if_they_lose) {
            return Verdict::Win(mover);
        }
        Verdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use Color::{Black, White};

    /// Full move `n`'s ply for `side`, as `kestrel match` counts it.
    fn ply(side: Color, n: u32) -> u32 {
        2 * (n - 1) + side.fold(0, 1)
    }

    #[test]
    fn draw_needs_both_sides_low_for_movecount_moves_after_movenumber() {
        let mut a = Adjudicator::new(Some(DrawRule::cutechess(10, 2, 10)), None);
        let mut at = |side, n, s| a.record(side, ply(side, n), Some(s));
        // Before move 10 nothing counts.
        assert_eq!(at(White, 9, 0), Verdict::Continue);
        assert_eq!(at(Black, 9, 0), Verdict::Continue);
        assert_eq!(at(White, 10, 5), Verdict::Continue);
        assert_eq!(at(Black, 10, -5), Verdict::Continue);
        // A high score resets the count.
        assert_eq!(at(White, 11, 50), Verdict::Continue);
        assert_eq!(at(Black, 11, 0), Verdict::Continue);
        assert_eq!(at(White, 12, 0), Verdict::Continue);
        assert_eq!(at(Black, 12, 0), Verdict::Continue);
        assert_eq!(at(White, 13, -10), Verdict::Draw);
    }

    #[test]
    fn one_sided_resign_and_two_sided_confirmation() {
        let mut a = Adjudicator::new(None, Some(ResignRule::cutechess(2, 500, false)));
        let mut at = |side, n, s| a.record(side, ply(side, n), Some(s));
        assert_eq!(at(White, 30, -600), Verdict::Continue);
        assert_eq!(at(Black, 30, 0), Verdict::Continue);
        assert_eq!(at(White, 31, -700), Verdict::Win(Black));

        let mut a = Adjudicator::new(None, Some(ResignRule::cutechess(2, 500, true)));
        let mut at = |side, n, s| a.record(side, ply(side, n), Some(s));
        at(White, 30, -600);
        at(Black, 30, 100);
        // Black does not agree it is winning: play on.
        assert_eq!(at(White, 31, -700), Verdict::Continue);
        assert_eq!(at(Black, 31, 600), Verdict::Continue);
        assert_eq!(at(White, 32, -700), Verdict::Continue);
        assert_eq!(at(Black, 32, 650), Verdict::Win(Black));
    }

    #[test]
    fn a_missing_score_counts_for_nothing() {
        let mut a = Adjudicator::new(
            Some(DrawRule::cutechess(1, 1, 10)),
            Some(ResignRule::cutechess(1, 500, false)),
        );
        assert_eq!(a.record(White, 0, None), Verdict::Continue);
        assert_eq!(a.record(Black, 1, Some(0)), Verdict::Continue);
        assert_eq!(a.record(White, 2, None), Verdict::Continue);
        assert_eq!(a.record(Black, 3, Some(-900)), Verdict::Win(White));
    }

    /// The self-play loop's rules before they moved here: a streak of plies
    /// on which White's-view scores have one sign and at least the bound;
    /// the draw from a ply on, counted only while it grows.
    struct StreakReference {
        resign_score: i32,
        resign_plies: u32,
        draw: DrawRule,
        streak: u32,
        sign: i32,
        draw_streak: u32,
    }

    impl StreakReference {
        fn record(&mut self, mover: Color, ply: u32, score: i32) -> Verdict {
            let white_view = mover.fold(score, -score);
            if white_view.abs() >= self.resign_score {
                let sign = white_view.signum();
                self.streak = if sign == self.sign {
                    self.streak + 1
                } else {
                    1
                };
                self.sign = sign;
                if self.streak >= self.resign_plies {
                    return Verdict::Win(if white_view > 0 { White } else { Black });
                }
            } else {
                (self.streak, self.sign) = (0, 0);
            }
            if ply >= self.draw.from_ply && white_view.abs() <= self.draw.score {
                self.draw_streak += 1;
                if self.draw_streak >= self.draw.plies {
                    return Verdict::Draw;
                }
            } else {
                self.draw_streak = 0;
            }
            Verdict::Continue
        }
    }

    #[test]
    fn agreed_resign_is_the_self_play_streak() {
        let mut rng = SmallRng::seed_from_u64(19);
        for game in 0..4000 {
            let resign_plies = 1 + game % 9;
            let draw = DrawRule {
                from_ply: rng.random_range(0..20),
                plies: rng.random_range(1..8),
                score: 10,
            };
            let mut reference = StreakReference {
                resign_score: 300,
                resign_plies,
                draw,
                streak: 0,
                sign: 0,
                draw_streak: 0,
            };
            let rule = ResignRule::Agreed {
                score: 300,
                plies: resign_plies,
            };
            let mut a = Adjudicator::new(Some(draw), Some(rule));
            let first = if game % 2 == 0 { White } else { Black };
            for p in 0..120u32 {
                let mover = if p % 2 == 0 { first } else { !first };
                let score = match rng.random_range(0..4) {
                    0 => rng.random_range(-12..=12),
                    1 => rng.random_range(290..=310),
                    2 => rng.random_range(-310..=-290),
                    _ => rng.random_range(-600..=600),
                };
                let (want, got) = (
                    reference.record(mover, p, score),
                    a.record(mover, p, Some(score)),
                );
                assert_eq!(want, got, "game {game} ply {p}");
                if want != Verdict::Continue {
                    break;
                }
            }
        }
    }
}
