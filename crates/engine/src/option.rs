//! An engine option's declaration (name, kind with its default and range,
//! help) and the one parser that every front end checks values with: UCI,
//! xboard, the GUI and the terminal game all read the same list.

use crate::bool_value::{parse_bool, BOOL_WORDS};
use crate::params::ParamError;

/// How an option is set: its type, default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On/off.
    Check {
        /// Default.
        default: bool,
    },
    /// An integer in a range.
    Spin {
        /// Default.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// An action.
    Button,
    /// One of a list of words.
    Combo {
        /// Default.
        default: &'static str,
        /// The choices.
        choices: &'static [&'static str],
    },
    /// Free text (a path).
    Text {
        /// Default.
        default: &'static str,
    },
}

/// One option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name.
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: OptionKind,
    /// What it does, in a sentence.
    pub help: &'static str,
}

/// A value that passed an option's checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A check's setting.
    Check(bool),
    /// A spin's number, within its range.
    Spin(i64),
    /// A combo's choice, spelled as declared.
    Combo(&'static str),
    /// Text, trimmed.
    Text(String),
    /// A button press (any value is ignored).
    Button,
}

impl EngineOption {
    /// Checks `text` against the option's type and range: the one parser
    /// (booleans in [`BOOL_WORDS`], case-insensitive choices).
    pub fn parse(&self, text: &str) -> Result<OptionValue, ParamError> {
        let text = text.trim();
        let value = match self.kind {
            OptionKind::Check { .. } => parse_bool(text).ok().map(OptionValue::Check),
            OptionKind::Spin { min, max, .. } => text
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .map(OptionValue::Spin),
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(text))
                .map(|c| OptionValue::Combo(c)),
            OptionKind::Text { .. } => Some(OptionValue::Text(text.to_string())),
            OptionKind::Button => Some(OptionValue::Button),
        };
        value.ok_or_else(|| ParamError::BadValue {
            name: self.name,
            value: text.to_string(),
            expected: self.expected(),
        })
    }

    /// What the option accepts, for error messages.
    pub fn expected(&self) -> String {
        match self.kind {
            OptionKind::Check { .. } => BOOL_WORDS.to_string(),
            OptionKind::Spin { min, max, .. } => format!("a number from {min} to {max}"),
            OptionKind::Combo { choices, .. } => match choices.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => "nothing".to_string(),
            },
            OptionKind::Text { .. } => "a path or text".to_string(),
            OptionKind::Button => "no value".to_string(),
        }
    }

    /// The default as text (`None` for a button).
    pub fn default_text(&self) -> Option<String> {
        match self.kind {
            OptionKind::Check { default } => Some(default.to_string()),
            OptionKind::Spin { default, .. } => Some(default.to_string()),
            OptionKind::Combo { default, .. } => Some(default.to_string()),
            OptionKind::Text { default } => Some(default.to_string()),
            OptionKind::Button => None,
        }
    }
}

/// The option of `options` called `name` (case-insensitive, trimmed).
pub fn find_option<'a>(options: &'a [EngineOption], name: &str) -> Option<&'a EngineOption> {
    let name = name.trim();
    options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(kind: OptionKind) -> EngineOption {
        EngineOption {
            name: "X",
            kind,
            help: "",
        }
    }

    #[test]
    fn one_parser_for_every_kind() {
        let check = option(OptionKind::Check { default: false });
        assert_eq!(check.parse(" on "), Ok(OptionValue::Check(true)));
        assert_eq!(check.parse("FALSE"), Ok(OptionValue::Check(false)));
        assert!(check.parse("maybe").is_err());
        let spin = option(OptionKind::Spin {
            default: 5,
            min: 1,
            max: 10,
        });
        assert_eq!(spin.parse("10"), Ok(OptionValue::Spin(10)));
        let err = spin.parse("11").unwrap_err();
        assert_eq!(
            err.to_string(),
            spin.parse("eleven")
                .unwrap_err()
                .to_string()
                .replace("eleven", "11")
        );
        assert!(err.to_string().contains("a number from 1 to 10"), "{err}");
        let combo = option(OptionKind::Combo {
            default: "Full",
            choices: &["Full", "Simple", "NNUE"],
        });
        assert_eq!(combo.parse("nnue"), Ok(OptionValue::Combo("NNUE")));
        assert_eq!(combo.expected(), "Full, Simple or NNUE");
        assert!(combo.parse("clever").is_err());
        assert_eq!(
            option(OptionKind::Text { default: "" }).parse(" a b "),
            Ok(OptionValue::Text("a b".into()))
        );
        assert_eq!(option(OptionKind::Button).default_text(), None);
        assert_eq!(spin.default_text().as_deref(), Some("5"));
    }

    #[test]
    fn names_are_found_whatever_their_case() {
        let list = [option(OptionKind::Button)];
        assert!(find_option(&list, " x ").is_some());
        assert!(find_option(&list, "y").is_none());
    }
}
