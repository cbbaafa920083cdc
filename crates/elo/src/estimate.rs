//! The logistic Elo model: score <-> rating difference, and an estimate with
//! its 95% error.

/// An Elo difference with the half-width of its 95% confidence interval.
///
/// A 100% or 0% score gives an infinite `elo`; an interval that reaches
/// 0% or 100% gives an infinite `error`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The rating difference (first player minus second).
    pub elo: f64,
    /// Half the width of the 95% confidence interval, in Elo.
    pub error: f64,
}

impl Estimate {
    /// `+12.3 +/- 4.5` (cutechess's way), `inf` where unbounded. An
    /// even result is `+0.0`, never `-0.0` (a 50 % score maps to -0.0,
    /// and -0.04 rounds to it).
    pub fn display(&self) -> String {
        let elo = if (self.elo * 10.0).round() == 0.0 {
            0.0
        } else {
            self.elo
        };
        format!("{elo:+.1} +/- {:.1}", self.error)
    }
}

/// The expected score of a player `elo` points stronger.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives `score` (0..=1) as the expected score.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An estimate from a mean score per game and the standard error of that
/// mean: the interval of the score is mapped through the Elo curve, and the
/// error is half its width (as cutechess-cli and fastchess report it).
pub(crate) fn from_mean_and_stderr(mean: f64, stderr: f64) -> Estimate {
    let (lo, hi) = bounds_from_mean_and_stderr(mean, stderr);
    Estimate {
        elo: score_to_elo(mean),
        error: (hi - lo) / 2.0,
    }
}

/// The ends of the 95% interval behind [`from_mean_and_stderr`]: the
/// score's interval mapped through the Elo curve (an end at 0% or 100% or
/// beyond is infinite).
pub(crate) fn bounds_from_mean_and_stderr(mean: f64, stderr: f64) -> (f64, f64) {
    let margin = crate::normal::Z95 * stderr;
    (score_to_elo(mean - margin), score_to_elo(mean + margin))
}

/// Normalized Elo with its 95% error (fastchess's `nElo`): the score's
/// distance from 0.5 in units of `sigma` (a game's standard deviation on
/// the scale of one game), times 800 / ln 10, with the error the half-width
/// of the same transform at the score's 95% bounds (`stderr` the standard
/// error of the mean score).
pub(crate) fn normalized(mean: f64, sigma: f64, stderr: f64) -> Estimate {
    let nelo = |s: f64| (s - 0.5) / sigma * (800.0 / std::f64::consts::LN_10);
    let margin = crate::normal::Z95 * stderr;
    Estimate {
        elo: nelo(mean),
        error: (nelo(mean + margin) - nelo(mean - margin)) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_and_elo_are_inverse() {
        for elo in [-800.0, -100.0, 0.0, 35.5, 400.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        // 400 Elo means ten times the odds: 10/11.
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn an_even_result_prints_without_a_minus_sign() {
        let even = Estimate {
            elo: score_to_elo(0.5),
            error: 0.0,
        };
        assert_eq!(even.display(), "+0.0 +/- 0.0");
        let nearly = Estimate {
            elo: -0.04,
            error: 3.0,
        };
        assert_eq!(nearly.display(), "+0.0 +/- 3.0");
        let behind = Estimate {
            elo: -12.34,
            error: 4.56,
        };
        assert_eq!(behind.display(), "-12.3 +/- 4.6");
        let all_won = Estimate {
            elo: f64::INFINITY,
            error: f64::INFINITY,
        };
        assert_eq!(all_won.display(), "+inf +/- inf");
    }
}
