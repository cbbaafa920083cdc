//! The running sum of an evaluation: each term added for a side, weighted,
//! and reported to the trace.

use chess::Color;

use super::pair::Pair;
use super::trace::Trace;
use super::weights::Weights;

/// Sums weighted terms, White minus Black, and tells the trace about each.
///
/// One signed sum rather than one per side: an array indexed by a runtime
/// colour lives in memory, so every term was a load and a store in one long
/// dependency chain; a single sum stays in a register. Integer addition is
/// associative, so the result is the same to the bit.
pub struct Terms<'w, T: Trace> {
    weights: &'w Weights,
    trace: T,
    sum: Pair,
}

impl<'w, T: Trace> Terms<'w, T> {
    /// Empty sums.
    pub fn new(weights: &'w Weights, trace: T) -> Self {
        Terms {
            weights,
            trace,
            sum: Pair::default(),
        }
    }

    /// `color` scores weight `index`, `count` times.
    #[inline(always)]
    pub fn add(&mut self, color: Color, index: usize, count: i32) {
        let signed = if color == Color::White { count } else { -count };
        self.sum += self.weights.get(index) * signed;
        if T::ACTIVE {
            self.trace.add(color, index, count);
        }
    }

    /// Adds an already weighted amount (e.g. a cached pawn score) for White.
    #[inline(always)]
    pub fn add_white(&mut self, value: Pair) {
        self.sum += value;
    }

    /// The weights in use.
    #[inline(always)]
    pub fn weights(&self) -> &'w Weights {
        self.weights
    }

    /// White's sum minus Black's.
    #[inline(always)]
    pub fn white_minus_black(&self) -> Pair {
        self.sum
    }

    /// The trace, at the end.
    pub fn into_trace(self) -> T {
        self.trace
    }
}
