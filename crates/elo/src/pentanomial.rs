//! Pentanomial counts: game pairs played from one opening with colours
//! reversed, counted by the points the pair brought (0, 1/2, 1, 3/2, 2).
//!
//! Pairs cancel most of the opening's bias, so their variance is smaller
//! than that of single games, and the Elo error and the SPRT use it.

use crate::estimate::{from_mean_and_stderr, Estimate};
use crate::normal::cdf;

/// The result of one game for the player being counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerResult {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

impl PlayerResult {
    /// Half-points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self) -> usize {
        match self {
            PlayerResult::Win => 2,
            PlayerResult::Draw => 1,
            PlayerResult::Loss => 0,
        }
    }
}

/// The score of each pentanomial bin per game (pair points / 2).
pub(crate) const BIN_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game pairs by their points: `counts[k]` pairs scored `k / 2` points
/// (index 0: lost both, 2: one win and one loss or two draws, 4: won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per half-point total, 0..=4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair.
    pub fn add_pair(&mut self, first: PlayerResult, second: PlayerResult) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game and its variance per pair (0.5 and 0 with none).
    pub(crate) fn mean_and_variance(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let mean: f64 = self
            .counts
            .iter()
            .zip(BIN_SCORES)
            .map(|(&c, x)| c as f64 * x)
            .sum::<f64>()
            / n;
        let var = self
            .counts
            .iter()
            .zip(BIN_SCORES)
            .map(|(&c, x)| c as f64 * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// Points per game, 0..=1.
    pub fn score(&self) -> f64 {
        self.mean_and_variance().0
    }

    /// The Elo difference with its 95% error from the variance of pairs
    /// (fastchess's pentanomial figure).
    pub fn elo(&self) -> Estimate {
        let n = self.pairs();
        if n == 0 {
            return Estimate {
                elo: 0.0,
                error: f64::INFINITY,
            };
        }
        let (mean, var) = self.mean_and_variance();
        from_mean_and_stderr(mean, (var / n as f64).sqrt())
    }

    /// The ends of the 95% interval of [`Pentanomial::elo`], low and high:
    /// where the interval is lopsided or reaches a 0% or 100% score (then
    /// that end is infinite), the bounds say more than `elo +/- error`.
    /// Both infinite without pairs.
    pub fn elo_bounds(&self) -> (f64, f64) {
        let n = self.pairs();
        if n == 0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let (mean, var) = self.mean_and_variance();
        crate::estimate::bounds_from_mean_and_stderr(mean, (var / n as f64).sqrt())
    }

    /// Normalized Elo with its 95% error, as fastchess computes it from
    /// pairs (a pair's variance counts as two games'; NaN without pairs).
    pub fn nelo(&self) -> Estimate {
        let n = self.pairs() as f64;
        let (mean, var) = self.mean_and_variance();
        crate::estimate::normalized(mean, (2.0 * var).sqrt(), (var / n).sqrt())
    }

    /// Likelihood of superiority from the pairs' normal approximation.
    pub fn los(&self) -> f64 {
        let n = self.pairs();
        let (mean, var) = self.mean_and_variance();
        if n == 0 || var == 0.0 {
            return if mean > 0.5 {
                1.0
            } else if mean < 0.5 {
                0.0
            } else {
                0.5
            };
        }
        cdf((mean - 0.5) / (var / n as f64).sqrt())
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &Pentanomial) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }

    /// The same pairs from the other player's view.
    pub fn flipped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerResult::*;

    #[test]
    fn pairs_land_in_their_bins() {
        let mut p = Pentanomial::default();
        p.add_pair(Win, Win);
        p.add_pair(Win, Loss);
        p.add_pair(Draw, Draw);
        p.add_pair(Loss, Draw);
        assert_eq!(p.counts, [0, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
        assert!((p.score() - (0.25 + 1.0 + 1.0) / 4.0).abs() < 1e-12);
        assert_eq!(p.flipped().counts, [1, 0, 2, 1, 0]);
    }

    #[test]
    fn pairs_give_a_tighter_error_than_the_same_games_counted_singly() {
        // 100 pairs with a spread typical of engine tests.
        let p = Pentanomial {
            counts: [5, 20, 45, 22, 8],
        };
        // The same 200 games as W/D/L under one assignment of the pairs.
        // LL: 0-0-2, LD: 0-1-1, WL or DD (half each): 45 -> 22 WL + 23 DD, WD, WW.
        let wdl = crate::WdlCounts::new(22 + 22 + 16, 20 + 46 + 22, 10 + 20 + 22);
        assert!((p.score() - wdl.score()).abs() < 1e-12);
        let (pe, we) = (p.elo(), wdl.elo());
        assert!((pe.elo - we.elo).abs() < 1e-9);
        assert!(pe.error < we.error, "{} vs {}", pe.error, we.error);
    }

    #[test]
    fn bounds_match_the_error_and_say_which_end_is_open() {
        let p = Pentanomial {
            counts: [5, 20, 45, 22, 8],
        };
        let (lo, hi) = p.elo_bounds();
        let e = p.elo();
        assert!((hi - lo - 2.0 * e.error).abs() < 1e-9);
        assert!(lo < e.elo && e.elo < hi);
        // Three pairs won outright and one drawn: 87.5%, with an interval
        // that reaches 100%: a finite lower end, none above.
        let one_sided = Pentanomial {
            counts: [0, 0, 1, 0, 3],
        };
        let (lo, hi) = one_sided.elo_bounds();
        assert!(
            lo.is_finite() && lo > 0.0 && lo < one_sided.elo().elo,
            "{lo}"
        );
        assert_eq!(hi, f64::INFINITY);
        assert!(one_sided.elo().error.is_infinite());
        assert_eq!(
            one_sided.flipped().elo_bounds(),
            (f64::NEG_INFINITY, -lo),
            "the same from the other side"
        );
        assert_eq!(
            Pentanomial::default().elo_bounds(),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
    }

    #[test]
    fn los_is_symmetric() {
        let p = Pentanomial {
            counts: [3, 10, 30, 14, 5],
        };
        assert!((p.los() + p.flipped().los() - 1.0).abs() < 1e-12);
        assert!(p.los() > 0.5);
    }
}
