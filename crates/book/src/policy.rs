//! How a move is chosen among a position's book moves: the choices GNU Chess
//! offered (best, weighted random, uniform random, worst).

use std::fmt;
use std::str::FromStr;

/// A rule for choosing a book move.
///
/// Only moves with a weight above zero are candidates, as in Polyglot; when
/// every book move of the position has weight zero, all of them are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The move with the highest weight (ties: the first in book order).
    Best,
    /// A random move, each with probability proportional to its weight.
    #[default]
    WeightedRandom,
    /// A random move, all equally likely.
    UniformRandom,
    /// The move with the lowest weight (for testing what a book knows).
    Worst,
}

impl Policy {
    /// Every policy, in the order UCI lists them.
    pub const ALL: [Policy; 4] = [
        Policy::Best,
        Policy::WeightedRandom,
        Policy::UniformRandom,
        Policy::Worst,
    ];

    /// The name used by the CLI and the UCI option `BookPolicy`.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Best => "best",
            Policy::WeightedRandom => "weighted",
            Policy::UniformRandom => "uniform",
            Policy::Worst => "worst",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A policy name that is not one of `best`, `weighted`, `uniform`, `worst`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown book policy '{0}': use best, weighted, uniform or worst")]
pub struct ParsePolicyError(pub String);

impl FromStr for Policy {
    type Err = ParsePolicyError;

    fn from_str(s: &str) -> Result<Policy, ParsePolicyError> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['_', ' '], "-")
            .as_str()
        {
            "best" => Ok(Policy::Best),
            "weighted" | "weighted-random" | "random-weighted" => Ok(Policy::WeightedRandom),
            "uniform" | "uniform-random" | "random" => Ok(Policy::UniformRandom),
            "worst" => Ok(Policy::Worst),
            _ => Err(ParsePolicyError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Policy::ALL {
            assert_eq!(p.name().parse::<Policy>(), Ok(p));
        }
        assert_eq!(
            "Weighted Random".parse::<Policy>(),
            Ok(Policy::WeightedRandom)
        );
        assert!("bestest".parse::<Policy>().is_err());
    }
}
