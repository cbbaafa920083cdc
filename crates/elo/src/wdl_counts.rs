//! Win/draw/loss counts of a match and what they say about the Elo difference.

use crate::estimate::{from_mean_and_stderr, Estimate};
use crate::normal::erf;

/// Wins, draws and losses from the first player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WdlCounts {
    /// Games the first player won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the first player lost.
    pub losses: u64,
}

impl WdlCounts {
    /// Counts from wins, draws, losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> WdlCounts {
        WdlCounts {
            wins,
            draws,
            losses,
        }
    }

    /// All games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0..=1 (0.5 with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }

    /// The share of drawn games.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }

    /// The Elo difference with its 95% error from the trinomial variance of
    /// single games (cutechess-cli's figure).
    pub fn elo(&self) -> Estimate {
        let n = self.games();
        if n == 0 {
            return Estimate {
                elo: 0.0,
                error: f64::INFINITY,
            };
        }
        let (s, var) = self.mean_and_variance();
        from_mean_and_stderr(s, (var / n as f64).sqrt())
    }

    /// A game's mean score and the variance of one game's score.
    fn mean_and_variance(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        (s, var)
    }

    /// Normalized Elo with its 95% error, as fastchess computes it from
    /// single games (NaN when every game has the same result).
    pub fn nelo(&self) -> Estimate {
        let n = self.games() as f64;
        let (s, var) = self.mean_and_variance();
        crate::estimate::normalized(s, var.sqrt(), (var / n).sqrt())
    }

    /// Likelihood of superiority from the score's normal approximation, as
    /// fastchess computes it (cutechess-cli's [`WdlCounts::los`] uses wins and
    /// losses alone).
    pub fn normal_los(&self) -> f64 {
        let n = self.games() as f64;
        let (s, var) = self.mean_and_variance();
        crate::normal::cdf((s - 0.5) / (var / n).sqrt())
    }

    /// Likelihood of superiority: the probability that the first player is
    /// the stronger, from wins and losses alone (draws carry no information
    /// about it), as cutechess-cli computes it.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Games and their split, as tables show them: `20 (8-5-7)` (wins,
    /// draws, losses).
    pub fn games_and_split(&self) -> String {
        format!(
            "{} ({}-{}-{})",
            self.games(),
            self.wins,
            self.draws,
            self.losses
        )
    }

    /// The same games from the second player's view.
    pub fn flipped(&self) -> WdlCounts {
        WdlCounts::new(self.losses, self.draws, self.wins)
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &WdlCounts) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Worked examples computed with ../shared/tools/harness.py's elo_stats
    // (an independent Python implementation of cutechess-cli's formulas).
    #[test]
    fn elo_error_and_los_match_the_reference() {
        let cases = [
            // (w, d, l, elo, err, los)
            (175, 20, 5, 436.4322, 76.8719, 1.0),
            (20, 62, 18, 6.9496, 42.179, 0.6272),
            (12, 78, 10, 6.9496, 32.0146, 0.6651),
            (30, 40, 30, 0.0, 53.159, 0.5),
        ];
        for (w, d, l, elo, err, los) in cases {
            let wdl = WdlCounts::new(w, d, l);
            let e = wdl.elo();
            assert!((e.elo - elo).abs() < 1e-3, "{w}-{d}-{l}: elo {}", e.elo);
            // The reference rounds the 95% quantile to 1.96.
            assert!(
                (e.error / err - 1.0).abs() < 1e-4,
                "{w}-{d}-{l}: error {}",
                e.error
            );
            assert!(
                (wdl.los() - los).abs() < 1e-4,
                "{w}-{d}-{l}: los {}",
                wdl.los()
            );
        }
    }

    #[test]
    fn perfect_scores_are_unbounded() {
        assert_eq!(WdlCounts::new(10, 0, 0).elo().elo, f64::INFINITY);
        assert_eq!(WdlCounts::new(0, 0, 10).elo().elo, f64::NEG_INFINITY);
        assert_eq!(WdlCounts::default().score(), 0.5);
        assert_eq!(WdlCounts::new(3, 4, 1).flipped(), WdlCounts::new(1, 4, 3));
        assert!((WdlCounts::new(3, 4, 1).draw_ratio() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn games_and_split_read_wins_draws_losses() {
        assert_eq!(WdlCounts::new(8, 5, 7).games_and_split(), "20 (8-5-7)");
    }
}
