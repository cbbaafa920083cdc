//! The ratio of two measurements taken in pairs (the CPU time of a search
//! with a technique off and on, run back to back): the geometric mean of
//! the per-pair ratios with a t-interval on their logarithms.
//!
//! Pairs, because a load that drifts over minutes slows both runs of a
//! pair alike and so cancels in their ratio; logarithms, because a ratio
//! of 2 and one of 1/2 are the same distance from 1 and the interval of
//! a ratio is not symmetric.

/// A ratio with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioEstimate {
    /// The geometric mean of the per-pair ratios.
    pub ratio: f64,
    /// The 95% interval (low, high); `None` from a single pair, which
    /// says nothing about the spread.
    pub interval: Option<(f64, f64)>,
    /// Pairs it comes from.
    pub pairs: usize,
}

/// What a ratio cannot be computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatioError {
    /// No pairs.
    #[error("no measurements")]
    Empty,
    /// A measurement of zero, a negative or a non-finite one (a clock too
    /// coarse for the work measured).
    #[error("a measurement is zero, negative or not finite")]
    NotPositive,
}

impl RatioEstimate {
    /// The ratio `a / b` from pairs `(a, b)`.
    pub fn from_pairs(pairs: &[(f64, f64)]) -> Result<RatioEstimate, RatioError> {
        if pairs.is_empty() {
            return Err(RatioError::Empty);
        }
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if !pairs.iter().all(|&(a, b)| ok(a) && ok(b)) {
            return Err(RatioError::NotPositive);
        }
        let logs: Vec<f64> = pairs.iter().map(|&(a, b)| (a / b).ln()).collect();
        let n = logs.len();
        let mean = logs.iter().sum::<f64>() / n as f64;
        let interval = (n >= 2).then(|| {
            let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let half = crate::student_t::t95(n - 1) * (var / n as f64).sqrt();
            ((mean - half).exp(), (mean + half).exp())
        });
        Ok(RatioEstimate {
            ratio: mean.exp(),
            interval,
            pairs: n,
        })
    }

    /// `1.12x [1.05, 1.19]`, or `1.12x (1 run: no interval)`.
    pub fn display(&self) -> String {
        match self.interval {
            Some((lo, hi)) => format!("{:.2}x [{lo:.2}, {hi:.2}]", self.ratio),
            None => format!("{:.2}x (1 run: no interval)", self.ratio),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_of_known_pairs() {
        // Log ratios ln 2, ln 2 * 1.5, ln 2 * 0.5: mean ln 2, sample
        // standard deviation ln 2 / 2, t(0.975, 2) = 4.302653.
        let l = std::f64::consts::LN_2;
        let pairs: Vec<(f64, f64)> = [1.0, 1.5, 0.5]
            .iter()
            .map(|k| ((l * k).exp() * 3.0, 3.0))
            .collect();
        let r = RatioEstimate::from_pairs(&pairs).unwrap();
        assert!((r.ratio - 2.0).abs() < 1e-12);
        let half = 4.302_652_730 * (l / 2.0) / 3f64.sqrt();
        let (lo, hi) = r.interval.unwrap();
        assert!((lo - (l - half).exp()).abs() < 1e-9, "{lo}");
        assert!((hi - (l + half).exp()).abs() < 1e-9, "{hi}");
        assert!((lo * hi - 4.0).abs() < 1e-9, "symmetric around 2 in logs");
        assert_eq!(r.pairs, 3);
        assert_eq!(r.display(), format!("2.00x [{lo:.2}, {hi:.2}]"));
    }

    #[test]
    fn equal_ratios_have_no_spread_and_one_pair_no_interval() {
        let r = RatioEstimate::from_pairs(&[(6.0, 4.0), (3.0, 2.0), (1.5, 1.0)]).unwrap();
        assert!((r.ratio - 1.5).abs() < 1e-12);
        let (lo, hi) = r.interval.unwrap();
        assert!((lo - 1.5).abs() < 1e-12 && (hi - 1.5).abs() < 1e-12);
        let one = RatioEstimate::from_pairs(&[(1.0, 4.0)]).unwrap();
        assert_eq!(one.interval, None);
        assert_eq!(one.display(), "0.25x (1 run: no interval)");
    }

    #[test]
    fn nothing_to_divide_is_an_error() {
        assert_eq!(RatioEstimate::from_pairs(&[]), Err(RatioError::Empty));
        assert_eq!(
            RatioEstimate::from_pairs(&[(1.0, 0.0)]),
            Err(RatioError::NotPositive)
        );
        assert_eq!(
            RatioEstimate::from_pairs(&[(f64::NAN, 1.0)]),
            Err(RatioError::NotPositive)
        );
    }
}
