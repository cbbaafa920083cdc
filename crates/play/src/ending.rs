//! How a terminal game ended: by the rules (mate, stalemate, draws the
//! rules know), or by the players (resignation, a draw agreed, a flag).

use chess::{Color, Outcome};
use std::fmt;

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The position ends it.
    Rules(Outcome),
    /// This side resigned.
    Resigned(Color),
    /// Both sides agreed to a draw.
    DrawAgreed,
    /// This side's time ran out.
    OutOfTime(Color),
}

impl Ending {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Ending::Rules(outcome) => outcome.result(),
            Ending::DrawAgreed => "1/2-1/2",
            Ending::Resigned(loser) | Ending::OutOfTime(loser) => loser.fold("0-1", "1-0"),
        }
    }

    /// The PGN `Termination` tag, where the result alone does not say it.
    pub fn termination(self) -> Option<&'static str> {
        match self {
            Ending::OutOfTime(_) => Some("time forfeit"),
            _ => None,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: Color| c.fold("White", "Black");
        match self {
            Ending::Rules(outcome) => write!(f, "{outcome}"),
            Ending::Resigned(loser) => write!(f, "{} resigns", name(*loser)),
            Ending::DrawAgreed => write!(f, "Draw agreed"),
            Ending::OutOfTime(loser) => write!(f, "{} lost on time", name(*loser)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_reasons() {
        assert_eq!(Ending::Resigned(Color::White).result(), "0-1");
        assert_eq!(Ending::OutOfTime(Color::Black).result(), "1-0");
        assert_eq!(Ending::DrawAgreed.result(), "1/2-1/2");
        assert_eq!(Ending::Resigned(Color::Black).to_string(), "Black resigns");
        let mate = Ending::Rules(Outcome::Checkmate {
            winner: Color::White,
        });
        assert_eq!(
            (mate.result(), mate.to_string().as_str()),
            ("1-0", "White mates")
        );
    }
}
