//! The figures fastchess prints in its own results block, by its formulas
//! as written (`EloWDL`, `EloPentanomial`): no clamping, so a 100% score
//! gives an infinite Elo and a confidence bound past 100% a NaN error, as
//! fastchess prints them. Kestrel's own [`crate::Estimate`]s keep their
//! bounds finite where they can; these are for printing fastchess's lines.

use crate::normal::{erf, Z95};
use crate::{Pentanomial, WdlCounts};

/// fastchess's Elo, nElo and LOS of one set of counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastchessFigures {
    /// Elo difference.
    pub elo: f64,
    /// Half the 95% interval of `elo`.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half the 95% interval of `nelo`.
    pub nelo_error: f64,
    /// Likelihood of superiority, 0..=1.
    pub los: f64,
}

/// fastchess's `scoreToEloDiff`: NaN (negative, as the C library's
/// logarithm of a negative number gives it) for a score outside 0..=1.
fn score_to_elo(score: f64) -> f64 {
    let odds = 1.0 / score - 1.0;
    if odds < 0.0 {
        -f64::NAN
    } else {
        -400.0 * odds.log10()
    }
}

/// The figures of a score and its variance over `n` games or pairs; a
/// pair's variance counts as two games' in nElo (`per_pair`).
fn figures(score: f64, variance: f64, n: f64, per_pair: bool) -> FastchessFigures {
    let variance_per = variance / n;
    let upper = score + Z95 * variance_per.sqrt();
    let lower = score - Z95 * variance_per.sqrt();
    let sigma = if per_pair {
        (2.0 * variance).sqrt()
    } else {
        variance.sqrt()
    };
    let nelo = |s: f64| (s - 0.5) / sigma * (800.0 / std::f64::consts::LN_10);
    FastchessFigures {
        elo: score_to_elo(score),
        elo_error: (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
        nelo: nelo(score),
        nelo_error: (nelo(upper) - nelo(lower)) / 2.0,
        los: (1.0 - erf(-(score - 0.5) / (2.0 * variance_per).sqrt())) / 2.0,
    }
}

impl WdlCounts {
    /// fastchess's figures of single games (`EloWDL`), its sums in its
    /// order, so that the last bit (the sign of a zero, say) agrees.
    pub fn fastchess(&self) -> FastchessFigures {
        let n = (self.wins + self.draws + self.losses) as f64;
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let score = w + 0.5 * d;
        let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
        figures(score, variance, n, false)
    }
}

impl Pentanomial {
    /// fastchess's figures of game pairs (`EloPentanomial`), its sums in
    /// its order; `won_lost` of the middle bin's pairs were a win and a
    /// loss (the others two draws), which fastchess counts apart.
    pub fn fastchess(&self, won_lost: u64) -> FastchessFigures {
        let n = self.counts.iter().sum::<u64>() as f64;
        let share = |c: u64| c as f64 / n;
        let [ll, ld, _, wd, ww] = self.counts.map(share);
        let (wl, dd) = (
            share(won_lost),
            share(self.counts[2].saturating_sub(won_lost)),
        );
        let score = ww + 0.75 * wd + 0.5 * (wl + dd) + 0.25 * ld;
        let variance = ww * (1.0 - score).powi(2)
            + wd * (0.75 - score).powi(2)
            + (wl + dd) * (0.5 - score).powi(2)
            + ld * (0.25 - score).powi(2)
            + ll * score.powi(2);
        figures(score, variance, n, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_follow_fastchess_formulas_unclamped() {
        // 5 wins, 2 draws: the upper bound passes 100%, the error is NaN
        // (fastchess prints `311.26 +/- -nan`).
        let f = WdlCounts::new(5, 2, 0).fastchess();
        assert!((f.elo - 311.26).abs() < 0.005, "{f:?}");
        assert!(f.elo_error.is_nan() && f.elo_error.is_sign_negative());
        assert!((f.nelo - 549.34).abs() < 0.005, "{f:?}");
        assert!((f.nelo_error - 257.38).abs() < 0.005, "{f:?}");
        assert!((f.los - 1.0).abs() < 1e-4);
        // Pairs agree with Kestrel's own estimate where that is finite.
        let p = Pentanomial {
            counts: [1, 3, 10, 4, 2],
        };
        let (f, e) = (p.fastchess(5), p.elo());
        assert!((f.elo - e.elo).abs() < 1e-9 && (f.elo_error - e.error).abs() < 1e-9);
        assert!((f.los - p.los()).abs() < 1e-9);
        let all = WdlCounts::new(4, 0, 0).fastchess();
        assert_eq!(all.elo, f64::INFINITY);
    }
}
