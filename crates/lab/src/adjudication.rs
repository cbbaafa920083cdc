//! Score-based adjudication as cutechess-cli does it: a draw when both
//! engines' scores stay near zero, a loss when one engine's score stays
//! hopeless (confirmed by the opponent's when two-sided).

use crate::cli_args::{DrawRule, ResignRule};
use chess::Color;

/// What the scores decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Play on.
    Continue,
    /// Drawn by low scores.
    Draw,
    /// This side wins by the loser's resignation scores.
    Win(Color),
}

/// Counts consecutive qualifying moves during one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Consecutive plies with both scores low.
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

    /// Records the score (in cp, mover's view; `None` when the engine gave
    /// none) of `mover`'s move, made at full move `move_number`.
    pub fn record(&mut self, mover: Color, move_number: u32, score: Option<i32>) -> Verdict {
        let me = mover.fold(0, 1);
        if let Some(rule) = self.draw {
            match score {
                Some(s) if s.abs() <= rule.score && move_number >= rule.move_number => {
                    self.draw_plies += 1;
                }
                _ => self.draw_plies = 0,
            }
            if self.draw_plies >= 2 * rule.move_count {
                return Verdict::Draw;
            }
        }
        if let Some(rule) = self.resign {
            let s = score.unwrap_or(0);
            self.losing[me] = if score.is_some() && s <= -rule.score {
                self.losing[me] + 1
            } else {
                0
            };
            self.winning[me] = if score.is_some() && s >= rule.score {
                self.winning[me] + 1
            } else {
                0
            };
            let them = 1 - me;
            let loses = |side: usize| {
                self.losing[side] >= rule.move_count
                    && (!rule.two_sided || self.winning[1 - side] >= rule.move_count)
            };
            if loses(me) {
                return Verdict::Win(!mover);
            }
            if loses(them) {
                return Verdict::Win(mover);
            }
        }
        Verdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn draw_needs_both_sides_low_for_movecount_moves_after_movenumber() {
        let rule = DrawRule {
            move_number: 10,
            move_count: 2,
            score: 10,
        };
        let mut a = Adjudicator::new(Some(rule), None);
        // Before move 10 nothing counts.
        assert_eq!(a.record(White, 9, Some(0)), Verdict::Continue);
        assert_eq!(a.record(Black, 9, Some(0)), Verdict::Continue);
        assert_eq!(a.record(White, 10, Some(5)), Verdict::Continue);
        assert_eq!(a.record(Black, 10, Some(-5)), Verdict::Continue);
        // A high score resets the count.
        assert_eq!(a.record(White, 11, Some(50)), Verdict::Continue);
        assert_eq!(a.record(Black, 11, Some(0)), Verdict::Continue);
        assert_eq!(a.record(White, 12, Some(0)), Verdict::Continue);
        assert_eq!(a.record(Black, 12, Some(0)), Verdict::Continue);
        assert_eq!(a.record(White, 13, Some(-10)), Verdict::Draw);
    }

    #[test]
    fn one_sided_resign_and_two_sided_confirmation() {
        let rule = ResignRule {
            move_count: 2,
            score: 500,
            two_sided: false,
        };
        let mut a = Adjudicator::new(None, Some(rule));
        assert_eq!(a.record(White, 30, Some(-600)), Verdict::Continue);
        assert_eq!(a.record(Black, 30, Some(0)), Verdict::Continue);
        assert_eq!(a.record(White, 31, Some(-700)), Verdict::Win(Black));

        let rule = ResignRule {
            two_sided: true,
            ..rule
        };
        let mut a = Adjudicator::new(None, Some(rule));
        a.record(White, 30, Some(-600));
        a.record(Black, 30, Some(100));
        // Black does not agree it is winning: play on.
        assert_eq!(a.record(White, 31, Some(-700)), Verdict::Continue);
        assert_eq!(a.record(Black, 31, Some(600)), Verdict::Continue);
        assert_eq!(a.record(White, 32, Some(-700)), Verdict::Continue);
        assert_eq!(a.record(Black, 32, Some(650)), Verdict::Win(Black));
    }
}
