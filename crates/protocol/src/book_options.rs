//! The engine's own book as the protocols offer it: the options `OwnBook`,
//! `BookFile`, `BookPolicy` and `BookDepth`, declared once for UCI, xboard
//! and the help, and how each sets the book ([`book::OwnBook`], which
//! chooses the moves).

use book::{OwnBook, Policy, EMBEDDED_NAME};
use engine::{find_option, EngineOption, OptionKind, OptionValue};

/// `BookPolicy`'s choices (a test checks them against [`Policy::ALL`]).
const POLICY_NAMES: [&str; 4] = ["best", "weighted", "uniform", "worst"];

/// Whether the book plays over UCI and xboard until told otherwise.
pub const PROTOCOL_DEFAULT: bool = false;

/// The book as the protocols start it: off ([`PROTOCOL_DEFAULT`]).
pub fn protocol_book() -> OwnBook {
    OwnBook::new(PROTOCOL_DEFAULT)
}

/// The book's options.
pub fn options() -> Vec<EngineOption> {
    vec![
        EngineOption {
            name: "OwnBook",
            kind: OptionKind::Check {
                default: PROTOCOL_DEFAULT,
            },
            help: "Play book moves from BookFile while the position is in it.",
        },
        EngineOption {
            name: "BookFile",
            kind: OptionKind::Text {
                default: EMBEDDED_NAME,
            },
            help: "A Polyglot .bin or Kestrel text book; <embedded> is the built-in one.",
        },
        EngineOption {
            name: "BookPolicy",
            kind: OptionKind::Combo {
                default: Policy::default().name(),
                choices: &POLICY_NAMES,
            },
            help: "How a book move is chosen among the candidates.",
        },
        EngineOption {
            name: "BookDepth",
            kind: OptionKind::Spin {
                default: i64::from(OwnBook::DEFAULT_DEPTH),
                min: 0,
                max: 1000,
            },
            help: "Leave the book after this many plies of the game.",
        },
    ]
}

/// Sets a book option of `book`; `None` when `name` is not one.
pub fn set(book: &mut OwnBook, name: &str, value: &str) -> Option<Result<(), String>> {
    let options = options();
    let option = find_option(&options, name)?;
    Some(match option.parse(value) {
        Err(e) => Err(e.to_string()),
        Ok(OptionValue::Check(on)) => {
            book.set_enabled(on);
            Ok(())
        }
        Ok(OptionValue::Text(path)) => book.load(&path).map_err(|e| e.to_string()),
        Ok(OptionValue::Combo(policy)) => policy
            .parse::<Policy>()
            .map(|p| book.set_policy(p))
            .map_err(|e| e.to_string()),
        Ok(OptionValue::Spin(depth)) => {
            // The option's range (0..=1000) was checked by its parser.
            book.set_depth(u32::try_from(depth).unwrap_or(0));
            Ok(())
        }
        Ok(OptionValue::Button) => Ok(()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Position;

    #[test]
    fn protocols_start_with_the_book_off() {
        let mut book = protocol_book();
        assert_eq!(book.probe(&Position::startpos()), None);
        let own_book = &options()[0];
        assert!(crate::options::uci_line(own_book).ends_with("default false"));
        assert_eq!(crate::options::xboard_feature(own_book), "OwnBook -check 0");
        let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, POLICY_NAMES);
        set(&mut book, "OwnBook", "true").unwrap().unwrap();
        assert!(book.probe(&Position::startpos()).is_some());
    }

    #[test]
    fn options_set_the_book() {
        let mut book = OwnBook::new(true);
        let pos = Position::startpos();
        assert_eq!(set(&mut book, "OwnBook", "false"), Some(Ok(())));
        assert_eq!(book.probe(&pos), None);
        assert!(set(&mut book, "BookPolicy", "sideways").unwrap().is_err());
        assert!(set(&mut book, "BookFile", "/no/such/book.bin")
            .unwrap()
            .is_err());
        assert!(set(&mut book, "BookDepth", "-1").unwrap().is_err());
        assert_eq!(set(&mut book, "Hash", "1"), None);
        set(&mut book, "OwnBook", "true").unwrap().unwrap();
        set(&mut book, "BookDepth", "0").unwrap().unwrap();
        assert_eq!(book.probe(&pos), None);
    }
}
