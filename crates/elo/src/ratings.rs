//! Ratings for every participant of a tournament by maximum likelihood
//! (the Bradley-Terry model on the Elo scale, as BayesElo and Ordo fit
//! it): the ratings that make the observed scores most probable.

use crate::estimate::Estimate;
use crate::normal::Z95;

const LOG10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Fits ratings to `games` given as (white, black, white's score 0/0.5/1)
/// with player indices below `players`.
///
/// With `anchors` (player, rating), those players keep their ratings and
/// the others are placed relative to them; without, the ratings average 0.
/// Errors are 95% half-widths from the curvature of the likelihood (the
/// anchors count as exact). A player who won or lost every game gets an
/// infinite rating; a player with no games gets NaN.
pub fn fit(
    players: usize,
    games: &[(usize, usize, f64)],
    anchors: &[(usize, f64)],
) -> Vec<Estimate> {
    let mut rating = vec![0.0f64; players];
    let mut played = vec![0usize; players];
    let mut points = vec![0.0f64; players];
    for &(w, b, s) in games {
        played[w] += 1;
        played[b] += 1;
        points[w] += s;
        points[b] += 1.0 - s;
    }
    let anchored = |i: usize| anchors.iter().find(|a| a.0 == i).map(|a| a.1);
    // Players with a perfect or zero score have no finite maximum: fit the
    // rest, then report them as unbounded.
    let unbounded = |i: usize| played[i] == 0 || points[i] == 0.0 || points[i] == played[i] as f64;
    for (i, r) in rating.iter_mut().enumerate() {
        if let Some(a) = anchored(i) {
            *r = a;
        } else if let Some(a) = anchors.first() {
            *r = a.1;
        }
    }
    let free: Vec<usize> = (0..players)
        .filter(|&i| anchored(i).is_none() && !unbounded(i))
        .collect();
    let usable: Vec<&(usize, usize, f64)> = games
        .iter()
        .filter(|g| !unbounded(g.0) || anchored(g.0).is_some())
        .filter(|g| !unbounded(g.1) || anchored(g.1).is_some())
        .collect();

    // Newton's method on the log-likelihood of the free ratings.
    let mut hessian = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let (grad, hess) = derivatives(&rating, &usable, &free);
        hessian = hess;
        let step = if anchors.is_empty() {
            // Only differences are identified: fix the gauge by solving with
            // a tiny ridge, then re-centre.
            let mut h = hessian.clone();
            for (i, row) in h.iter_mut().enumerate() {
                row[i] -= 1e-9;
            }
            solve(&h, &grad)
        } else {
            solve(&hessian, &grad)
        };
        let Some(step) = step else { break };
        let mut biggest = 0.0f64;
        for (k, &i) in free.iter().enumerate() {
            // Newton step for a maximum: r - H^-1 g, capped to stay stable.
            let d = (-step[k]).clamp(-200.0, 200.0);
            rating[i] += d;
            biggest = biggest.max(d.abs());
        }
        if anchors.is_empty() && !free.is_empty() {
            let mean = free.iter().map(|&i| rating[i]).sum::<f64>() / free.len() as f64;
            for &i in &free {
                rating[i] -= mean;
            }
        }
        if biggest < 1e-9 {
            break;
        }
    }

    let covariance = invert(
        &hessian
            .iter()
            .map(|row| row.iter().map(|h| -h).collect())
            .collect::<Vec<Vec<f64>>>(),
    );
    (0..players)
        .map(|i| {
            if let Some(a) = anchored(i) {
                return Estimate { elo: a, error: 0.0 };
            }
            if played[i] == 0 {
                return Estimate {
                    elo: f64::NAN,
                    error: f64::NAN,
                };
            }
            if unbounded(i) {
                let sign = if points[i] == 0.0 { -1.0 } else { 1.0 };
                return Estimate {
                    elo: sign * f64::INFINITY,
                    error: f64::INFINITY,
                };
            }
            let k = free
                .iter()
                .position(|&f| f == i)
                .expect("every bounded player is free");
            let var = covariance
                .as_ref()
                .map(|c| c[k][k])
                .filter(|v| v.is_finite() && *v > 0.0);
            Estimate {
                elo: rating[i],
                error: var.map_or(f64::INFINITY, |v| Z95 * v.sqrt()),
            }
        })
        .collect()
}

/// Gradient and Hessian of the log-likelihood in the free ratings.
fn derivatives(
    rating: &[f64],
    games: &[&(usize, usize, f64)],
    free: &[usize],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let index = |p: usize| free.iter().position(|&f| f == p);
    let mut grad = vec![0.0; free.len()];
    let mut hess = vec![vec![0.0; free.len()]; free.len()];
    for &&(w, b, s) in games {
        let expected = 1.0 / (1.0 + (-(rating[w] - rating[b]) * LOG10_OVER_400).exp());
        let g = (s - expected) * LOG10_OVER_400;
        let h = expected * (1.0 - expected) * LOG10_OVER_400 * LOG10_OVER_400;
        let (iw, ib) = (index(w), index(b));
        if let Some(i) = iw {
            grad[i] += g;
            hess[i][i] -= h;
        }
        if let Some(j) = ib {
            grad[j] -= g;
            hess[j][j] -= h;
        }
        if let (Some(i), Some(j)) = (iw, ib) {
            hess[i][j] += h;
            hess[j][i] += h;
        }
    }
    (grad, hess)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (row, values) in m.iter_mut().enumerate() {
            if row != col {
                let f = values[col] / pivot_row[col];
                for (v, p) in values.iter_mut().zip(&pivot_row).skip(col) {
                    *v -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The inverse of a symmetric positive definite matrix; for a matrix that is
/// only positive semi-definite (no anchors: ratings are free up to a common
/// shift) the inverse under the constraint that ratings sum to zero.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    if n == 0 {
        return Some(Vec::new());
    }
    // Adding J/n (all ones / n) makes a Laplacian-like matrix invertible
    // without changing the inverse on the sum-zero subspace; subtracting J/n
    // afterwards gives the constrained covariance. For an anchored fit the
    // matrix is already definite and the correction is skipped.
    let singular = solve(a, &vec![1.0; n]).is_none() || is_laplacian(a);
    let shift = if singular { 1.0 / n as f64 } else { 0.0 };
    let mut inverse = vec![vec![0.0; n]; n];
    for col in 0..n {
        let shifted: Vec<Vec<f64>> = a
            .iter()
            .map(|row| row.iter().map(|v| v + shift).collect())
            .collect();
        let mut e = vec![0.0; n];
        e[col] = 1.0;
        let x = solve(&shifted, &e)?;
        for row in 0..n {
            inverse[row][col] = x[row] - shift;
        }
    }
    Some(inverse)
}

/// Whether every row sums to (nearly) zero: the information matrix of an
/// unanchored fit.
fn is_laplacian(a: &[Vec<f64>]) -> bool {
    a.iter().all(|row| {
        let scale = row.iter().map(|v| v.abs()).fold(0.0, f64::max).max(1e-300);
        row.iter().sum::<f64>().abs() < 1e-9 * scale
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::score_to_elo;

    fn games(pairs: &[(usize, usize, usize, usize, usize)]) -> Vec<(usize, usize, f64)> {
        // (a, b, a's wins, draws, a's losses), alternating colours.
        let mut out = Vec::new();
        for &(a, b, w, d, l) in pairs {
            let mut k = 0;
            for (n, s) in [(w, 1.0), (d, 0.5), (l, 0.0)] {
                for _ in 0..n {
                    if k % 2 == 0 {
                        out.push((a, b, s));
                    } else {
                        out.push((b, a, 1.0 - s));
                    }
                    k += 1;
                }
            }
        }
        out
    }

    #[test]
    fn two_players_get_the_elo_of_their_score() {
        // With two players the maximum-likelihood difference is exactly the
        // Elo of the score: 60 / 100 -> 70.4 Elo.
        let g = games(&[(0, 1, 50, 20, 30)]);
        let r = fit(2, &g, &[]);
        let want = score_to_elo(0.6);
        assert!((r[0].elo - r[1].elo - want).abs() < 1e-6, "{r:?}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-6);
        // Error of the difference close to the single-match binomial error.
        assert!(r[0].error > 20.0 && r[0].error < 80.0, "{r:?}");
    }

    #[test]
    fn anchors_fix_the_scale_and_transitivity_holds() {
        // A beats B by 100 Elo worth of score, B beats C likewise: A - C = 200.
        let s = crate::elo_to_score(100.0);
        let n = 1000usize;
        let wins = (s * n as f64).round() as usize;
        let g = games(&[(0, 1, wins, 0, n - wins), (1, 2, wins, 0, n - wins)]);
        let r = fit(3, &g, &[(2, 1500.0)]);
        assert_eq!(r[2].elo, 1500.0);
        assert_eq!(r[2].error, 0.0);
        assert!((r[1].elo - 1600.0).abs() < 1.0, "{r:?}");
        assert!((r[0].elo - 1700.0).abs() < 1.5, "{r:?}");
        assert!(
            r[0].error > r[1].error,
            "farther from the anchor, less sure"
        );
    }

    #[test]
    fn perfect_and_absent_players_are_flagged() {
        let g = games(&[(0, 1, 10, 0, 0), (1, 2, 5, 0, 5)]);
        let r = fit(4, &g, &[]);
        assert_eq!(r[0].elo, f64::INFINITY);
        assert!(r[3].elo.is_nan());
        assert!((r[1].elo - r[2].elo).abs() < 1e-6);
    }
}
