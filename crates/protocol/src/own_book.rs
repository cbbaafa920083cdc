//! The engine's own opening book in UCI play: the options `OwnBook`,
//! `BookFile`, `BookPolicy` and `BookDepth`, and the book move (if any) for
//! a `go`. The embedded default book is loaded on first use, so start-up
//! stays instant.

use book::{Book, Policy};
use chess::{Color, Move, Position};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::path::PathBuf;
use std::sync::Arc;

const EMBEDDED: &str = "<embedded>";
const DEFAULT_DEPTH: u32 = 30;

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

    /// The UCI `option` lines.
    pub fn option_lines() -> Vec<String> {
        let policies: Vec<String> = Policy::ALL
            .iter()
            .map(|p| format!("var {}", p.name()))
            .collect();
        vec![
            format!("option name OwnBook type check default {PROTOCOL_DEFAULT}"),
            format!("option name BookFile type string default {EMBEDDED}"),
            format!(
                "option name BookPolicy type combo default {} {}",
                Policy::default().name(),
                policies.join(" ")
            ),
            format!("option name BookDepth type spin default {DEFAULT_DEPTH} min 0 max 1000"),
        ]
    }

    /// The same options in xboard's `feature option="..."` syntax.
    pub fn xboard_option_lines() -> Vec<String> {
        let others: Vec<&str> = Policy::ALL
            .iter()
            .filter(|p| **p != Policy::default())
            .map(|p| p.name())
            .collect();
        vec![
            format!("OwnBook -check {}", u8::from(PROTOCOL_DEFAULT)),
            format!("BookFile -file {EMBEDDED}"),
            format!(
                "BookPolicy -combo *{} /// {}",
                Policy::default().name(),
                others.join(" /// ")
            ),
            format!("BookDepth -spin {DEFAULT_DEPTH} 0 1000"),
        ]
    }

    /// The book's moves for `pos` with their shares (xboard's `bk`), whether
    /// or not the book is switched on for play.
    pub fn candidates(&mut self, pos: &Position) -> Vec<book::Candidate> {
        self.book().candidates(pos)
    }

    /// Sets a book option; `None` when `name` is not one.
    pub fn set(&mut self, name: &str, value: &str) -> Option<Result<(), String>> {
        let value = value.trim();
        Some(match name.to_ascii_lowercase().as_str() {
            "ownbook" => engine::parse_bool(value)
                .map(|on| self.enabled = on)
                .map_err(|e| format!("OwnBook: {e}")),
            "bookfile" => self.load(value),
            "bookpolicy" => value
                .parse::<Policy>()
                .map(|p| self.policy = p)
                .map_err(|e| e.to_string()),
            "bookdepth" => match value.parse::<u32>() {
                Ok(d) if d <= 1000 => {
                    self.depth = d;
                    Ok(())
                }
                _ => Err(format!(
                    "BookDepth takes a number from 0 to 1000, not '{value}'"
                )),
            },
            _ => return None,
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
        assert!(OwnBook::option_lines()[0].ends_with("default false"));
        assert_eq!(OwnBook::xboard_option_lines()[0], "OwnBook -check 0");
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
