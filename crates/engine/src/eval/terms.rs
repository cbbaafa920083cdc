//! The running sum of an evaluation: each term added for a side, weighted,
//! and reported to the trace.

use chess::Color;

use super::pair::Pair;
use super::trace::Trace;
use super::weights::Weights;

/// Sums weighted terms per side and tells the trace about each.
pub struct Terms<'w, T: Trace> {
    weights: &'w Weights,
    trace: T,
    sums: [Pair; 2],
}

impl<'w, T: Trace> Terms<'w, T> {
    /// Empty sums.
    pub fn new(weights: &'w Weights, trace: T) -> Self {
        Terms {
            weights,
            trace,
            sums: [Pair::default(); 2],
        }
    }

    /// `color` scores weight `index`, `count` times.
    #[inline(always)]
    pub fn add(&mut self, color: Color, index: usize, count: i32) {
        self.sums[color.index()] += self.weights.get(index) * count;
        if T::ACTIVE {
            self.trace.add(color, index, count);
        }
    }

    /// Adds an already weighted amount (e.g. a cached pawn score) for White.
    #[inline(always)]
    pub fn add_white(&mut self, value: Pair) {
        self.sums[0] += value;
    }

    /// The weights in use.
    #[inline(always)]
    pub fn weights(&self) -> &'w Weights {
        self.weights
    }

    /// White's sum minus Black's.
    #[inline(always)]
    pub fn white_minus_black(&self) -> Pair {
        self.sums[0] - self.sums[1]
    }

    /// The trace, at the end.
    pub fn into_trace(self) -> T {
        self.trace
    }
}
