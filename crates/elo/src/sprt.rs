//! The sequential probability ratio test: play until the results say,
//! with the chosen error rates, whether the first player is at least `elo1`
//! or at most `elo0` stronger.
//!
//! The log-likelihood ratio is the generalised one of Michel Van den Bergh
//! ("Comments on Normalized Elo", used by fishtest and fastchess): for each
//! hypothesis, the multinomial distribution closest to the observed
//! frequencies (maximum likelihood) among those whose mean score matches
//! the hypothesis, and the log ratio of the two likelihoods.

use crate::estimate::elo_to_score;
use crate::pentanomial::BIN_SCORES;
use crate::{Pentanomial, WdlCounts};
use std::fmt;

/// How `elo0`/`elo1` are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SprtModel {
    /// Normalized Elo: the score difference in units of its standard
    /// deviation, independent of the draw rate (fastchess's default and
    /// fishtest's).
    #[default]
    Normalized,
    /// Logistic Elo: the usual Elo scale.
    Logistic,
    /// BayesElo (cutechess-cli's bounds): games only, with the draw Elo
    /// estimated from the games, as fastchess computes it.
    Bayesian,
}

impl SprtModel {
    /// fastchess's name: `normalized`, `logistic` or `bayesian`.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
        }
    }

    /// The model of a fastchess name.
    pub fn from_name(name: &str) -> Option<SprtModel> {
        [
            SprtModel::Normalized,
            SprtModel::Logistic,
            SprtModel::Bayesian,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }
}

/// Invalid test parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum SprtError {
    /// `elo0` must be below `elo1`.
    EloOrder {
        /// The null hypothesis's Elo, as given.
        elo0: f64,
        /// The alternative's Elo, as given.
        elo1: f64,
    },
    /// alpha and beta must lie in (0, 1) and add up to less than 1.
    ErrorRates {
        /// The false-positive rate, as given.
        alpha: f64,
        /// The false-negative rate, as given.
        beta: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::EloOrder { elo0, elo1 } => {
                write!(f, "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT: alpha ({alpha}) and beta ({beta}) must each be between 0 and 1, with a sum below 1"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound was reached: the gain is at most `elo0`.
    AcceptH0,
    /// The upper bound was reached: the gain is at least `elo1`.
    AcceptH1,
}

/// A test of H0: elo = `elo0` against H1: elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo under the null hypothesis.
    pub elo0: f64,
    /// The Elo under the alternative.
    pub elo1: f64,
    /// The false positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false negative rate (accepting H0 when H1 holds).
    pub beta: f64,
    /// How the Elo bounds are read.
    pub model: SprtModel,
}

/// Empty bins get this pseudo-count (as fastchess does), so that the
/// likelihood stays finite for small or one-sided samples.
const EMPTY_BIN: f64 = 1e-3;

impl Sprt {
    /// A test with checked parameters.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, SprtError> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !rate_ok(alpha) || !rate_ok(beta) || alpha + beta >= 1.0 {
            return Err(SprtError::ErrorRates { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The (lower, upper) LLR bounds: ln(beta / (1 - alpha)) and
    /// ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of game pairs.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let counts: Vec<f64> = p.counts.iter().map(|&c| c as f64).collect();
        // Normalized Elo of pairs is defined on the per-game scale, hence sqrt 2.
        self.llr_of(&counts, &BIN_SCORES, std::f64::consts::SQRT_2)
    }

    /// The log-likelihood ratio of single games (when games are not paired).
    pub fn llr_wdl(&self, w: &WdlCounts) -> f64 {
        let counts = [w.losses as f64, w.draws as f64, w.wins as f64];
        self.llr_of(&counts, &[0.0, 0.5, 1.0], 1.0)
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    fn llr_of(&self, counts: &[f64], scores: &[f64], normalized_scale: f64) -> f64 {
        let total: f64 = counts.iter().sum();
        if total == 0.0 {
            return 0.0;
        }
        let regular: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0.0 { EMPTY_BIN } else { c })
            .collect();
        let n: f64 = regular.iter().sum();
        let phat: Vec<f64> = regular.iter().map(|c| c / n).collect();
        let model = match self.model {
            // fastchess's pentanomial LLR reads bayesian bounds as logistic
            // (its runner never asks: the bayesian model counts games).
            SprtModel::Bayesian if scores.len() != 3 => SprtModel::Logistic,
            m => m,
        };
        let (p0, p1) = match model {
            SprtModel::Logistic => (
                mle_logistic(&phat, scores, elo_to_score(self.elo0)),
                mle_logistic(&phat, scores, elo_to_score(self.elo1)),
            ),
            SprtModel::Bayesian => {
                // fastchess: 0 until both a win and a loss were seen.
                let (loss, win) = (counts[0], counts[2]);
                if win == 0.0 || loss == 0.0 {
                    return 0.0;
                }
                let (l, w) = (phat[0], phat[2]);
                let draw_elo = 200.0 * ((1.0 - l) / l * (1.0 - w) / w).log10();
                (
                    mle_logistic(&phat, scores, bayes_elo_to_score(self.elo0, draw_elo)),
                    mle_logistic(&phat, scores, bayes_elo_to_score(self.elo1, draw_elo)),
                )
            }
            SprtModel::Normalized => {
                let per_unit = 800.0 / std::f64::consts::LN_10;
                (
                    mle_normalized(&phat, scores, normalized_scale * self.elo0 / per_unit),
                    mle_normalized(&phat, scores, normalized_scale * self.elo1 / per_unit),
                )
            }
        };
        n * phat
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(ph, (a, b))| ph * (b.ln() - a.ln()))
            .sum::<f64>()
    }
}

/// BayesElo to expected score at a draw Elo (fastchess's `bayeseloToScore`).
fn bayes_elo_to_score(bayes_elo: f64, draw_elo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((-bayes_elo + draw_elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((bayes_elo + draw_elo) / 400.0));
    win + 0.5 * (1.0 - win - loss)
}

/// The root of `f` between `a` and `b` by the ITP method (Oliveira and
/// Takahashi, ACM TOMS 47, 2021), step for step as fastchess computes it,
/// so that its LLR and this one agree to the last printed digit.
#[allow(clippy::too_many_arguments)]
fn itp(
    f: impl Fn(f64) -> f64,
    mut a: f64,
    mut b: f64,
    mut f_a: f64,
    mut f_b: f64,
    k_1: f64,
    k_2: f64,
    n_0: f64,
    epsilon: f64,
) -> f64 {
    if f_a > 0.0 {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut f_a, &mut f_b);
    }
    let n_half = ((b - a).abs() / (2.0 * epsilon)).log2().ceil();
    let n_max = n_half + n_0;
    let mut i = 0i32;
    while (b - a).abs() > 2.0 * epsilon {
        let x_half = (a + b) / 2.0;
        let r = epsilon * 2f64.powf(n_max - f64::from(i)) - (b - a) / 2.0;
        let delta = k_1 * (b - a).powf(k_2);
        let x_f = (f_b * a - f_a * b) / (f_b - f_a);
        let sigma = (x_half - x_f) / (x_half - x_f).abs();
        let x_t = if delta <= (x_half - x_f).abs() {
            x_f + sigma * delta
        } else {
            x_half
        };
        let x_itp = if (x_t - x_half).abs() <= r {
            x_t
        } else {
            x_half - sigma * r
        };
        let f_itp = f(x_itp);
        if f_itp == 0.0 {
            a = x_itp;
            b = x_itp;
        } else if f_itp.is_sign_negative() {
            a = x_itp;
            f_a = f_itp;
        } else {
            b = x_itp;
            f_b = f_itp;
        }
        i += 1;
    }
    (a + b) / 2.0
}

/// The distribution closest to `phat` (maximum likelihood) under the
/// constraint `sum p_i phi_i = 0`: `p_i = phat_i / (1 + theta phi_i)` with
/// theta solved between the poles, to `epsilon`.
fn mle_constrained(phat: &[f64], phi: &[f64], lo: f64, hi: f64, epsilon: f64) -> Vec<f64> {
    let f = |x: f64| {
        phat.iter()
            .zip(phi)
            .map(|(p, a)| p * a / (1.0 + x * a))
            .sum::<f64>()
    };
    let theta = itp(
        f,
        lo,
        hi,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.1,
        2.0,
        0.99,
        epsilon,
    );
    phat.iter()
        .zip(phi)
        .map(|(p, a)| p / (1.0 + theta * a))
        .collect()
}

/// The maximum-likelihood distribution with mean score `s` (Van den
/// Bergh, "Comparing the approximations...", Proposition 1.1).
fn mle_logistic(phat: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let lo = -1.0 / (scores[scores.len() - 1] - s);
    let hi = -1.0 / (scores[0] - s);
    mle_constrained(phat, &phi, lo, hi, 1e-3)
}

/// The maximum-likelihood distribution with normalized score `t` (Van den
/// Bergh, "Comments on normalized Elo", section 4.1): ten fixed-point steps
/// from the uniform distribution at most, as fastchess takes.
fn mle_normalized(phat: &[f64], scores: &[f64], t: f64) -> Vec<f64> {
    let k = scores.len();
    let mut p = vec![1.0 / k as f64; k];
    for _ in 0..10 {
        let mu: f64 = p.iter().zip(scores).map(|(p, a)| p * a).sum();
        let var: f64 = p
            .iter()
            .zip(scores)
            .map(|(p, a)| p * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt().max(1e-9);
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) * ((a - mu) / sigma)))
            .collect();
        let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let next = if u < 0.0 && v > 0.0 {
            mle_constrained(phat, &phi, -1.0 / v, -1.0 / u, 1e-7)
        } else {
            // No distribution on these scores has this t (bounds far beyond
            // what the scores allow, e.g. elo1=400 on a draw-heavy sample):
            // fastchess's LLR is not a number here; this takes the nearest
            // mean the scores allow instead, so that the LLR stays finite.
            let (lo, hi) = (scores[0], scores[k - 1]);
            let margin = 1e-6 * (hi - lo);
            let target = (0.5 + t * sigma).clamp(lo + margin, hi - margin);
            mle_logistic(phat, scores, target)
        };
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-4 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logistic(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, SprtModel::Logistic).unwrap()
    }

    #[test]
    fn bounds_are_the_wald_bounds() {
        let (lo, hi) = logistic(0.0, 5.0).bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-8);
        assert!((hi - 2.944_438_979).abs() < 1e-8);
    }

    // Reference values from ../shared/tools/harness.py's sprt_llr, an
    // independent Python implementation of the same generalised LLR
    // (logistic Elo), on counts without empty bins.
    const P_0_5: f64 = 0.201_970_028;
    const P_M5_0: f64 = 0.289_707_433;
    const P_0_10: f64 = 0.315_479_621;
    const W_0_5: f64 = 0.168_659_348;

    #[test]
    fn logistic_llr_matches_the_reference() {
        let p = Pentanomial {
            counts: [5, 20, 45, 22, 8],
        };
        let want = [
            ((0.0, 5.0), P_0_5),
            ((-5.0, 0.0), P_M5_0),
            ((0.0, 10.0), P_0_10),
        ];
        for ((e0, e1), v) in want {
            let got = logistic(e0, e1).llr(&p);
            // The reference adds its pseudo-count to every bin: agree to 0.1%.
            assert!((got / v - 1.0).abs() < 1e-3, "[{e0}, {e1}]: {got} vs {v}");
        }
        let w = WdlCounts::new(60, 88, 52);
        let got = logistic(0.0, 5.0).llr_wdl(&w);
        assert!((got / W_0_5 - 1.0).abs() < 1e-3, "wdl: {got}");
    }

    #[test]
    fn llr_agrees_with_the_gaussian_approximation_for_small_elo() {
        // For elo0, elo1 near 0 the LLR tends to
        // n (s1 - s0) (2 mu - s0 - s1) / (2 var) (fishtest's GSPRT).
        let p = Pentanomial {
            counts: [300, 2000, 4500, 2200, 400],
        };
        let n = p.pairs() as f64;
        let (mu, var) = p.mean_and_variance();
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(2.0));
        let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
        let exact = logistic(0.0, 2.0).llr(&p);
        assert!(
            (exact - approx).abs() < 0.02 * approx.abs().max(0.1),
            "{exact} vs {approx}"
        );
    }

    #[test]
    fn normalized_llr_is_consistent_with_logistic_at_a_known_draw_rate() {
        // Normalized Elo nelo relates to logistic Elo through the standard
        // deviation of a pair: nelo = (s - 1/2) / (sqrt 2 sigma) * 800/ln 10
        // near zero, so the two models give nearly the same LLR when the
        // bounds are converted with the sample's own sigma.
        let p = Pentanomial {
            counts: [300, 2000, 4500, 2200, 400],
        };
        let sigma = p.mean_and_variance().1.sqrt();
        let to_nelo = |elo: f64| {
            (elo_to_score(elo) - 0.5) / (std::f64::consts::SQRT_2 * sigma) * 800.0
                / std::f64::consts::LN_10
        };
        let norm = Sprt::new(
            to_nelo(0.0),
            to_nelo(3.0),
            0.05,
            0.05,
            SprtModel::Normalized,
        )
        .unwrap()
        .llr(&p);
        let logi = logistic(0.0, 3.0).llr(&p);
        assert!(
            (norm - logi).abs() < 0.05 * logi.abs().max(0.1),
            "{norm} vs {logi}"
        );
    }

    #[test]
    fn decisions_follow_the_bounds() {
        let t = logistic(0.0, 5.0);
        assert_eq!(t.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(t.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(t.decide(0.1), SprtDecision::Continue);
        // A clearly better player accepts H1, a clearly worse one H0.
        let good = Pentanomial {
            counts: [10, 100, 400, 300, 100],
        };
        assert_eq!(t.decide(t.llr(&good)), SprtDecision::AcceptH1);
        assert_eq!(t.decide(t.llr(&good.flipped())), SprtDecision::AcceptH0);
        assert_eq!(t.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5, SprtModel::Normalized).is_err());
    }
}

#[cfg(test)]
mod extreme_tests {
    use super::*;

    // Found by the lab: the normalized LLR was NaN for bounds far from the sample.
    #[test]
    fn extreme_bounds_give_a_finite_llr() {
        let p = Pentanomial {
            counts: [2, 0, 8, 8, 2],
        };
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            for (e0, e1) in [(0.0, 400.0), (-400.0, 0.0), (0.0, 5.0), (-800.0, 800.0)] {
                let llr = Sprt::new(e0, e1, 0.05, 0.05, model).unwrap().llr(&p);
                assert!(llr.is_finite(), "{model:?} [{e0}, {e1}]: {llr}");
            }
            // A 60% score is far below 400 Elo: the evidence is against H1.
            let llr = Sprt::new(0.0, 400.0, 0.05, 0.05, model).unwrap().llr(&p);
            assert!(llr < 0.0, "{model:?}: {llr}");
        }
    }
}
