//! An end the players give a game, which the rules cannot see: a
//! resignation, a draw agreed, a flag fallen on the page's clock. The page
//! says which and for which side; the words, the result and the PGN
//! `Termination` tag are the match core's [`Ending`], the same as every
//! other way Kestrel plays games.

use chess::Color;
use matchcore::ending::Ending;
use serde::{Deserialize, Serialize};

use crate::error::{GameError, Invalid};

/// What the players did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayersEnd {
    /// A side resigned.
    Resign,
    /// A side's time ran out on the page's clock.
    Flag,
    /// The players agreed to a draw.
    Draw,
}

/// A side, as a request names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(colour: Color) -> Side {
        match colour {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl PlayersEnd {
    /// The game's end: a resignation and a flag need the side that lost, a
    /// draw takes none.
    pub fn ending(self, side: Option<Side>) -> Result<Ending, GameError> {
        match (self, side) {
            (PlayersEnd::Resign, Some(side)) => Ok(Ending::Resigned { loser: side.into() }),
            (PlayersEnd::Flag, Some(side)) => Ok(Ending::TimeForfeit {
                loser: side.into(),
                over: None,
            }),
            (PlayersEnd::Draw, None) => Ok(Ending::DrawAgreed),
            (PlayersEnd::Draw, Some(_)) => Err(Invalid::DrawWithSide.into()),
            (_, None) => Err(Invalid::NoSide.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgn::GameResult;

    #[test]
    fn each_end_has_its_result_words_and_tag() {
        let resign = PlayersEnd::Resign.ending(Some(Side::White)).expect("fine");
        assert_eq!(resign.result(), GameResult::BlackWins);
        assert_eq!(resign.to_string(), "White resigns");
        assert_eq!(resign.termination().tag(), None);
        let flag = PlayersEnd::Flag.ending(Some(Side::Black)).expect("fine");
        assert_eq!(flag.result(), GameResult::WhiteWins);
        assert_eq!(flag.to_string(), "Black lost on time");
        assert_eq!(flag.termination().tag(), Some("time forfeit"));
        let draw = PlayersEnd::Draw.ending(None).expect("fine");
        assert_eq!(
            (draw.result(), draw.to_string()),
            (GameResult::Draw, "Draw agreed".into())
        );
        assert!(PlayersEnd::Resign.ending(None).is_err());
        assert!(PlayersEnd::Flag.ending(None).is_err());
        assert!(PlayersEnd::Draw.ending(Some(Side::White)).is_err());
    }
}
