//! The one vocabulary for on/off values, wherever a person or a program
//! gives one: UCI `check` options, xboard's `option NAME=1`, the terminal
//! game's `set ... book on`, the GUI's settings and the lab's command line.
//! One parser, so that a word accepted in one place is accepted everywhere.

use std::fmt;

/// The accepted words, for messages: case does not matter.
pub const BOOL_WORDS: &str = "true or false (or on/off, yes/no, 1/0)";

/// A value that is not one of the on/off words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoolError {
    /// The value given.
    pub value: String,
}

impl fmt::Display for BoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not on or off: use {BOOL_WORDS}", self.value)
    }
}

impl std::error::Error for BoolError {}

/// Reads `true`/`false`, `on`/`off`, `yes`/`no` or `1`/`0`, in any case,
/// around spaces ignored.
pub fn parse_bool(text: &str) -> Result<bool, BoolError> {
    let word = text.trim();
    const TRUE: [&str; 4] = ["true", "on", "yes", "1"];
    const FALSE: [&str; 4] = ["false", "off", "no", "0"];
    if TRUE.iter().any(|w| w.eq_ignore_ascii_case(word)) {
        Ok(true)
    } else if FALSE.iter().any(|w| w.eq_ignore_ascii_case(word)) {
        Ok(false)
    } else {
        Err(BoolError {
            value: word.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_vocabulary() {
        for w in ["true", "TRUE", "On", "yes", "1", " true "] {
            assert_eq!(parse_bool(w), Ok(true), "{w}");
        }
        for w in ["false", "False", "OFF", "no", "0"] {
            assert_eq!(parse_bool(w), Ok(false), "{w}");
        }
        for w in ["", "maybe", "2", "truee", "y", "-1"] {
            assert!(parse_bool(w).is_err(), "{w}");
        }
        assert_eq!(
            parse_bool(" maybe").unwrap_err().to_string(),
            "'maybe' is not on or off: use true or false (or on/off, yes/no, 1/0)"
        );
    }
}
