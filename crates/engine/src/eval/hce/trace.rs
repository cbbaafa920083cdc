//! Watching the evaluation: every term it adds can be reported, with the
//! side and how many times it counted. The search evaluates with `NoTrace`
//! (compiled away); the tuner and `kestrel eval` collect coefficients.

use chess::Color;

use super::weights::COUNT;

/// Receives each term the evaluation counts.
pub trait Trace {
    /// False for the search's no-op trace, so the calls compile away.
    const ACTIVE: bool;
    /// `color` scored weight `index` `count` times.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
}

/// How many times each side scored each weight.
#[derive(Clone, Debug)]
pub struct Coefficients {
    /// Per colour (White, Black), per weight.
    pub counts: [Vec<i32>; 2],
}

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients {
            counts: [vec![0; COUNT], vec![0; COUNT]],
        }
    }
}

impl Trace for Coefficients {
    const ACTIVE: bool = true;
    #[inline]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.counts[color.index()][index] += count;
    }
}
