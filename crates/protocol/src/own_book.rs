//! The engine's own opening book in UCI play: the options `OwnBook`,
//! `BookFile`, `BookPolicy` and `BookDepth`, and the book move (if any) for
//! a `go`. The embedded default book is loaded on first use, so start-up
//! stays instant.

use book::{Book, Policy};
use chess::{Color, Move, Position};
use engine::{find_option, EngineOption, OptionKind, OptionValue};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::path::PathBuf;
use std::sync::Arc;

const EMBEDDED: &str = "<embedded>";
const DEFAULT_DEPTH: u32 = 30;
/// `BookPolicy`'s choices (a test checks them against [`Policy::ALL`]).
const POLICY_NAMES: [&str; 4] = ["best", "weighted", "uniform", "worst"];

/// Book settings and the loaded book.
pub struct OwnBook {
    enabled: bool,
    policy: Policy,
    depth: u32,
    loaded: Option<Arc<Book>>,
    rng: SmallRng,
}

/// Whether the book plays over UCI and xboard until told otherwise.
pub const PROTOCOL_DEFAULT: bool = false;

impl Default for OwnBook {
    /// The book as the protocols start it: off ([`PROTOCOL_DEFAULT`]).
    fn default() -> OwnBook {
        OwnBook {
            enabled: PROTOCOL_DEFAULT,
            policy: Policy::default(),
            depth: DEFAULT_DEPTH,
            loaded: None,
            rng: SmallRng::from_os_rng(),
        }
    }
}

impl OwnBook {
    /// The book switched on, as a person playing Kestrel directly gets it.
    pub fn on() -> OwnBook {
        OwnBook {
            enabled: true,
            ..OwnBook::default()
        }
    }

    /// The book's options, declared once for UCI, xboard and the help.
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
                kind: OptionKind::Text { default: EMBEDDED },
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
                    default: DEFAULT_DEPTH as i64,
                    min: 0,
                    max: 1000,
                },
                help: "Leave the book after this many plies of the game.",
            },
        ]
    }

    /// The book's moves for `pos` with their shares (xboard's `bk`), whether
    /// or not the book is switched on for play.
    pub fn candidates(&mut self, pos: &Position) -> Vec<book::Candidate> {
        self.book().candidates(pos)
    }

    /// Sets a book option; `None` when `name` is not one.
    pub fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let options = OwnBook::options();
        let option = find_option(&options, name)?;
        Some(match option.parse(value) {
            Err(e) => Err(e.to_string()),
            Ok(OptionValue::Check(on)) => {
                self.enabled = on;
                Ok(())
            }
            Ok(OptionValue::Text(path)) => self.load(&path),
            Ok(OptionValue::Combo(policy)) => policy
                .parse::<Policy>()
                .map(|p| self.policy = p)
                .map_err(|e| e.to_string()),
            Ok(OptionValue::Spin(depth)) => {
                self.depth = depth as u32;
                Ok(())
            }
            Ok(OptionValue::Button) => Ok(()),
        })
    }

    /// Loads a book file (Polyglot `.bin` or Kestrel text), or the embedded
    /// book for `<embedded>` or an empty value. On error the old book stays.
    fn load(&mut self, value: &str) -> Result<(), String> {
        if value.is_empty() || value == EMBEDDED {
            self.loaded = None;
            return Ok(());
        }
        let path = PathBuf::from(value);
        let (book, problems) =
            Book::open(&path).map_err(|e| format!("cannot use book '{value}': {e}"))?;
        if book.is_empty() {
            return Err(format!(
                "book '{value}' has no usable entries ({} problems)",
                problems.len()
            ));
        }
        self.loaded = Some(Arc::new(book));
        Ok(())
    }

    /// A book move for `pos`, if the book is on, the game is still within
    /// `BookDepth` plies and the book knows the position.
    pub fn probe(&mut self, pos: &Position) -> Option<Move> {
        if !self.enabled {
            return None;
        }
        let ply =
            (pos.fullmove_number().saturating_sub(1)) * 2 + (pos.turn() == Color::Black) as u32;
        if ply >= self.depth {
            return None;
        }
        let policy = self.policy;
        let book = Arc::clone(self.book());
        book.pick(pos, policy, &mut self.rng)
            .filter(|m| pos.is_legal(*m))
    }

    /// The book in use, loading the embedded one on first use.
    fn book(&mut self) -> &Arc<Book> {
        self.loaded
            .get_or_insert_with(|| Arc::new(Book::embedded()))
    }

    /// The book for the search to ask (`BookInSearch`), when the book is on.
    pub fn search_hint(&mut self) -> Option<Arc<dyn engine::BookHint>> {
        if !self.enabled {
            return None;
        }
        Some(Arc::new(SearchBook(Arc::clone(self.book()))))
    }
}

/// The loaded book as the search asks it.
struct SearchBook(Arc<Book>);

impl engine::BookHint for SearchBook {
    fn knows(&self, pos: &Position) -> bool {
        !self.0.moves(pos.key()).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_start_with_the_book_off() {
        let mut book = OwnBook::default();
        assert_eq!(book.probe(&Position::startpos()), None);
        let own_book = &OwnBook::options()[0];
        assert!(crate::options::uci_line(own_book).ends_with("default false"));
        assert_eq!(crate::options::xboard_feature(own_book), "OwnBook -check 0");
        let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, POLICY_NAMES);
        book.set("OwnBook", "true").unwrap().unwrap();
        assert!(book.probe(&Position::startpos()).is_some());
    }

    #[test]
    fn embedded_book_answers_the_start_position() {
        let mut book = OwnBook::on();
        let pos = Position::startpos();
        let m = book.probe(&pos).expect("the default book knows 1st moves");
        assert!(pos.is_legal(m));
        assert_eq!(book.set("OwnBook", "false"), Some(Ok(())));
        assert_eq!(book.probe(&pos), None);
        assert!(book.set("BookPolicy", "sideways").unwrap().is_err());
        assert!(book.set("BookFile", "/no/such/book.bin").unwrap().is_err());
        assert!(book.set("BookDepth", "-1").unwrap().is_err());
        assert_eq!(book.set("Hash", "1"), None);
    }

    #[test]
    fn book_depth_limits_use() {
        let mut book = OwnBook::on();
        book.set("BookDepth", "0").unwrap().unwrap();
        assert_eq!(book.probe(&Position::startpos()), None);
    }
}
