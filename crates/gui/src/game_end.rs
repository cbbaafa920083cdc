//! An end the players give a game, which the rules cannot see: a
//! resignation, a draw agreed, a flag fallen on the page's clock.

use serde::Serialize;

use crate::error::ApiError;

/// The longest reason kept (it is shown and written nowhere else).
const MAX_REASON: usize = 120;

/// A game's end by the players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why, for people: `White resigns`, `Black lost on time`, `Draw agreed`.
    pub reason: String,
}

impl GameEnd {
    /// Checks what a request gives: a decisive or drawn result and a short reason.
    pub fn new(result: &str, reason: &str) -> Result<GameEnd, ApiError> {
        let result = match result.trim() {
            "1-0" => "1-0",
            "0-1" => "0-1",
            "1/2-1/2" => "1/2-1/2",
            other => {
                return Err(ApiError::bad_request(format!(
                    "result must be 1-0, 0-1 or 1/2-1/2, not '{other}'"
                )))
            }
        };
        let reason = reason.trim();
        if reason.is_empty()
            || reason.chars().count() > MAX_REASON
            || reason.chars().any(char::is_control)
        {
            return Err(ApiError::bad_request(format!(
                "reason must be one line of 1 to {MAX_REASON} characters, e.g. \"White resigns\""
            )));
        }
        Ok(GameEnd {
            result,
            reason: reason.to_string(),
        })
    }

    /// The PGN `Termination` tag this end calls for, if any.
    pub fn termination(&self) -> Option<&'static str> {
        self.reason.contains("on time").then_some("time forfeit")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_reasons_are_checked() {
        let end = GameEnd::new("0-1", "White resigns").expect("fine");
        assert_eq!((end.result, end.termination()), ("0-1", None));
        let flag = GameEnd::new("1-0", "Black lost on time").expect("fine");
        assert_eq!(flag.termination(), Some("time forfeit"));
        for (result, reason) in [("*", "x"), ("2-0", "x"), ("1-0", ""), ("1-0", "a\nb")] {
            assert!(GameEnd::new(result, reason).is_err(), "{result} {reason:?}");
        }
        assert!(GameEnd::new("1-0", &"x".repeat(200)).is_err());
    }
}
