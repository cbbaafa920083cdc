//! Student's t distribution: the quantile a t-interval of a mean from a
//! few samples needs (a normal quantile would be too narrow below about
//! 30 samples).

/// t(0.975, df) for df = 1..=30 (the two-sided 95% quantile).
const T975: [f64; 30] = [
    12.706_204_736,
    4.302_652_730,
    3.182_446_305,
    2.776_445_105,
    2.570_581_836,
    2.446_911_851,
    2.364_624_252,
    2.306_004_135,
    2.262_157_163,
    2.228_138_852,
    2.200_985_160,
    2.178_812_830,
    2.160_368_656,
    2.144_786_688,
    2.131_449_546,
    2.119_905_299,
    2.109_815_578,
    2.100_922_040,
    2.093_024_054,
    2.085_963_447,
    2.079_613_845,
    2.073_873_068,
    2.068_657_610,
    2.063_898_562,
    2.059_538_553,
    2.055_529_439,
    2.051_830_516,
    2.048_407_142,
    2.045_229_642,
    2.042_272_456,
];

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom
/// (`df` >= 1): a table to 30, then the Cornish-Fisher expansion around
/// the normal quantile (Abramowitz and Stegun 26.7.5), within 1e-7 there.
pub fn t95(df: usize) -> f64 {
    assert!(df >= 1, "a t quantile needs at least one degree of freedom");
    if let Some(&t) = T975.get(df - 1) {
        return t;
    }
    let z = crate::normal::Z95;
    let v = df as f64;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * v.powi(4))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(|T| <= q) for `df` degrees of freedom, by Simpson's rule after
    /// x = sqrt(df) tan(theta), which turns the density into cos^(df-1).
    fn central_mass(q: f64, df: usize) -> f64 {
        let f = |theta: f64| theta.cos().powi(df as i32 - 1);
        let simpson = |a: f64, b: f64| {
            let n = 20_000;
            let h = (b - a) / f64::from(n);
            let mut s = f(a) + f(b);
            for i in 1..n {
                s += f(a + f64::from(i) * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
            }
            s * h / 3.0
        };
        let edge = (q / (df as f64).sqrt()).atan();
        simpson(0.0, edge) / simpson(0.0, std::f64::consts::FRAC_PI_2)
    }

    #[test]
    fn the_quantile_leaves_five_percent_outside() {
        for df in (1..=45).chain([60, 100, 1000]) {
            let mass = central_mass(t95(df), df);
            assert!((mass - 0.95).abs() < 1e-7, "df {df}: {mass}");
        }
    }

    #[test]
    fn it_falls_towards_the_normal_quantile() {
        assert!((t95(4) - 2.776_445).abs() < 1e-6);
        assert!(t95(31) < t95(30) && t95(31) > t95(32));
        assert!((t95(1_000_000) - crate::normal::Z95).abs() < 1e-5);
    }
}
