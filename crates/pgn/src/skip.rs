//! Movetext a reader passes over without reading it: a variation it does
//! not keep, and everything after the plies it wants, up to the result.

use crate::token::Token;
use crate::GameResult;

/// How deep a reader is inside variations it skips.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Skipped {
    depth: usize,
}

/// A result token inside a skipped variation: a variation cannot end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResultInVariation;

impl Skipped {
    /// True while inside a skipped variation.
    pub(crate) fn inside(self) -> bool {
        self.depth > 0
    }

    /// A variation the reader does not keep begins (its `(` was just read).
    pub(crate) fn enter(&mut self) {
        self.depth = 1;
    }

    /// Past the plies wanted, where only the game's end matters: follows
    /// the brackets (forgiving a stray `)`) and gives the result when
    /// `token` is the game's, outside every variation.
    pub(crate) fn past_limit(&mut self, token: &Token<'_>) -> Option<GameResult> {
        match *token {
            Token::Open => self.depth += 1,
            Token::Close => self.depth = self.depth.saturating_sub(1),
            Token::Result(r) if self.depth == 0 => return Some(r),
            _ => {}
        }
        None
    }

    /// Inside a skipped variation: follows its brackets until it closes.
    pub(crate) fn in_variation(&mut self, token: &Token<'_>) -> Result<(), ResultInVariation> {
        match token {
            Token::Open => self.depth += 1,
            Token::Close => self.depth -= 1,
            Token::Result(_) => return Err(ResultInVariation),
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_variations_are_followed_to_their_end() {
        let mut s = Skipped::default();
        s.enter();
        for t in [Token::Move(b"e4"), Token::Open, Token::Close] {
            assert_eq!(s.in_variation(&t), Ok(()));
            assert!(s.inside());
        }
        assert_eq!(s.in_variation(&Token::Close), Ok(()));
        assert!(!s.inside());
    }

    #[test]
    fn a_result_ends_the_game_only_outside_variations() {
        let mut s = Skipped::default();
        s.enter();
        assert_eq!(
            s.in_variation(&Token::Result(GameResult::Draw)),
            Err(ResultInVariation)
        );
        let mut s = Skipped::default();
        assert_eq!(s.past_limit(&Token::Open), None);
        assert_eq!(s.past_limit(&Token::Result(GameResult::Draw)), None);
        assert_eq!(s.past_limit(&Token::Close), None);
        // A stray `)` is forgiven here.
        assert_eq!(s.past_limit(&Token::Close), None);
        assert_eq!(
            s.past_limit(&Token::Result(GameResult::WhiteWins)),
            Some(GameResult::WhiteWins)
        );
    }
}
