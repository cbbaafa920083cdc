//! Kestrel's text book format: one line per (position, move), sorted by the
//! moves that reach the position, so that a person can read and edit it.
//!
//! ```text
//! # history | move | uci | weight | wins draws losses | position
//! -         | e4   | e2e4 | 120 | 40 40 20 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! 1.e4      | c5   | c7c5 | 80  | 25 30 25 | rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
//! ```
//!
//! - history: the moves from the start position in SAN (`-` for the start
//!   position itself, `*` for a position not reached from it).
//! - move: SAN, or `-` when only the UCI column is given.
//! - uci: the move in UCI; may be left empty when the SAN is given. For a
//!   position known only by its key it is in Polyglot form (castling `e1h1`).
//! - weight (default 1) and wins draws losses (default none), from the side
//!   to move's view.
//! - position: a FEN, or `key=` and 16 hex digits; may be left out when the
//!   history is given.
//!
//! Only the first two columns are required: `1.e4 e5 2.Nf3 | Nc6` is a line.
//! Lines starting with `#` are comments. A broken line is reported with its
//! number and skipped; the rest of the book is read.

use crate::{Book, BookMove, BookProblem, Location, PolyMove};
use chess::{Color, Move, Position};
use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;

const HEADER: &str = "\
# Kestrel opening book, text format 1. One line per position and move:
#   history | move | uci | weight | wins draws losses | position
# history: moves from the start position in SAN (- for the start position,
#   * for a position not reached from it); move: SAN; uci: the move in UCI
#   (Polyglot form e1h1 for castling when the position is only a key);
# weight, wins draws losses: from the side to move's view (optional);
# position: FEN, or key=<16 hex digits> (optional when the history is given).
# Edit freely; `kestrel book convert BOOK.txt BOOK.bin` makes a Polyglot book.
";

/// The moves of a history as written in the text format: `1.e4 c5 2.Nf3`.
pub fn history_text(moves: &[Move]) -> String {
    if moves.is_empty() {
        return "-".to_string();
    }
    let mut pos = Position::startpos();
    let mut out = String::new();
    for &m in moves {
        if !out.is_empty() {
            out.push(' ');
        }
        if pos.turn() == Color::White {
            let _ = write!(out, "{}.", pos.fullmove_number());
        }
        out.push_str(&pos.san(m));
        pos.play_unchecked(m);
    }
    out
}

/// Replays a history (`-`, or SAN moves with optional move numbers) from the start.
fn replay_history(text: &str) -> Result<(Position, Vec<Move>), String> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    if text == "-" {
        return Ok((pos, moves));
    }
    let mut tokens = pgn::token::Tokenizer::new(text.as_bytes(), 1);
    while let Some(t) = tokens.next_token() {
        match t {
            Ok((pgn::token::Token::Move(san), _)) => {
                let m = pgn::match_san(&pos, san)
                    .map_err(|e| format!("history move {}: {e}", moves.len() + 1))?;
                pos.play_unchecked(m);
                moves.push(m);
            }
            _ => return Err(format!("history '{text}' is not a list of SAN moves")),
        }
    }
    Ok((pos, moves))
}

/// A position with the history that reached it, when known.
type KnownPosition = (Position, Option<Vec<Move>>);

/// Where a line's position comes from.
enum Place {
    Known(Box<KnownPosition>),
    Key(u64),
}

/// One parsed line: key, move, and the position when the line gives it.
type Line = (u64, BookMove, Option<KnownPosition>);

/// Sort order of output lines: group, history in SAN, inverted weight.
type LineOrder = (u8, Vec<String>, u32);

fn parse_line(line: &str) -> Result<Line, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if !(2..=6).contains(&fields.len()) {
        return Err(format!(
            "expected 'history | move | uci | weight | wins draws losses | position' \
             (the first two required), found {} fields",
            fields.len()
        ));
    }
    let field = |i: usize| fields.get(i).copied().unwrap_or("");
    let (history, san, uci, weight, wdl, position) =
        (field(0), field(1), field(2), field(3), field(4), field(5));

    let place = if let Some(hex) = position.strip_prefix("key=") {
        let key = u64::from_str_radix(hex, 16)
            .map_err(|_| format!("'{position}' is not key= and 16 hex digits"))?;
        Place::Key(key)
    } else if !position.is_empty() {
        let pos = Position::from_fen(position).map_err(|e| format!("bad FEN: {e}"))?;
        let history = if history.is_empty() || history == "*" {
            None
        } else {
            let (reached, moves) = replay_history(history)?;
            if reached.key() != pos.key() {
                return Err(format!(
                    "the history '{history}' does not reach the FEN given; fix one or \
                     write * as the history"
                ));
            }
            Some(moves)
        };
        Place::Known(Box::new((pos, history)))
    } else if history.is_empty() || history == "*" {
        return Err("no position: give a history from the start position or a FEN".to_string());
    } else {
        let (pos, moves) = replay_history(history)?;
        Place::Known(Box::new((pos, Some(moves))))
    };

    let weight = if weight.is_empty() {
        1
    } else {
        weight
            .parse::<u32>()
            .map_err(|_| format!("weight '{weight}' is not a whole number from 0 to 4294967295"))?
    };
    let counts: Vec<u32> = wdl
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{wdl}' is not three counts: wins draws losses"))?;
    let (wins, draws, losses) = match counts[..] {
        [] => (0, 0, 0),
        [w, d, l] => (w, d, l),
        _ => return Err(format!("'{wdl}' is not three counts: wins draws losses")),
    };

    let (key, mv, known) = match place {
        Place::Key(key) => {
            let mv = PolyMove::parse(uci).ok_or_else(|| {
                format!("'{uci}' is not a move in UCI (Polyglot form) for a position given by key")
            })?;
            (key, mv, None)
        }
        Place::Known(known) => {
            let (pos, history) = *known;
            let from_san = (!san.is_empty() && san != "-")
                .then(|| pgn::match_san(&pos, san.as_bytes()).map_err(|e| e.to_string()))
                .transpose()?;
            let from_uci = (!uci.is_empty())
                .then(|| {
                    pos.parse_uci_move(uci, pos.castling_mode())
                        .map_err(|e| e.to_string())
                })
                .transpose()?;
            let m = match (from_san, from_uci) {
                (Some(a), Some(b)) if a != b => {
                    return Err(format!("move '{san}' and uci '{uci}' are different moves"))
                }
                (Some(m), _) | (None, Some(m)) => m,
                (None, None) => return Err("no move: give it in SAN or UCI".to_string()),
            };
            (pos.key(), PolyMove::from_move(m), Some((pos, history)))
        }
    };
    Ok((
        key,
        BookMove {
            mv,
            weight,
            learn: 0,
            wins,
            draws,
            losses,
        },
        known,
    ))
}

/// Reads a text book. Never fails: broken lines are described in the
/// problems and skipped.
pub fn read_text(text: &str) -> (Book, Vec<BookProblem>) {
    let mut entries = Vec::new();
    let mut known_positions = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok((key, m, known)) => {
                entries.push((key, m));
                known_positions.extend(known.map(|k| (key, k)));
            }
            Err(message) => problems.push(BookProblem {
                location: Location::Line(i + 1),
                message: format!("{message}; line skipped"),
            }),
        }
    }
    let mut book = Book::from_entries(entries);
    for (key, (pos, history)) in known_positions {
        book.remember_position(&pos);
        if let Some(h) = history {
            book.remember_history(key, h);
        }
    }
    (book, problems)
}

/// Histories for the book's positions: those the book remembers, then the
/// shortest line of book moves from the start position.
fn histories(book: &Book) -> crate::key_hash::KeyMap<u64, (Position, Vec<Move>)> {
    let mut found = crate::key_hash::KeyMap::default();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(Position::startpos(), Vec::new())]);
    while let Some((pos, line)) = queue.pop_front() {
        let key = pos.key();
        if !seen.insert(key) || book.moves(key).is_empty() {
            continue;
        }
        for c in book.candidates(&pos) {
            let mut next = pos;
            next.play_unchecked(c.mv);
            let mut l: Vec<Move> = line.clone();
            l.push(c.mv);
            queue.push_back((next, l));
        }
        found.insert(key, (pos, line));
    }
    for key in book.sorted_keys() {
        if let Some(h) = book.history(key) {
            let mut pos = Position::startpos();
            for &m in h {
                pos.play_unchecked(m);
            }
            found.insert(key, (pos, h.to_vec()));
        }
    }
    found
}

/// A book in the text format, and what the format could not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextBook {
    /// The text, lines sorted by history (then weight).
    pub text: String,
    /// Entries left out: moves that are not legal in the position their
    /// key stands for, where the writer knows that position (reached from
    /// the start by the book's moves, or named by a FEN). A key collision
    /// or a damaged file makes them; a line of the text names its move by
    /// SAN in that position, which an illegal move has none of.
    pub left_out: usize,
}

/// The book in the text format, lines sorted by history (then weight), with
/// the count of entries it cannot hold ([`TextBook::left_out`]).
pub fn write_text(book: &Book) -> TextBook {
    let histories = histories(book);
    let mut left_out = 0;
    // (sort key, line): lines from the start first in tree order, then
    // positions not reached from it, then positions known only by key.
    let mut lines: Vec<(LineOrder, String)> = Vec::new();
    for key in book.sorted_keys() {
        let known = histories
            .get(&key)
            .map(|(p, h)| (*p, Some(h.clone())))
            .or_else(|| book.position(key).map(|p| (*p, None)));
        match known {
            Some((pos, history)) => {
                let (group, order, shown) = match &history {
                    Some(h) => {
                        let mut p = Position::startpos();
                        let sans = h
                            .iter()
                            .map(|&m| {
                                let s = p.san(m);
                                p.play_unchecked(m);
                                s
                            })
                            .collect();
                        (0, sans, history_text(h))
                    }
                    None => (1, vec![pos.fen()], "*".to_string()),
                };
                let candidates = book.candidates(&pos);
                left_out += book.moves(key).len() - candidates.len();
                for c in candidates {
                    let line = format!(
                        "{shown} | {} | {} | {} | {} {} {} | {}",
                        c.san,
                        c.uci,
                        c.weight,
                        c.wins,
                        c.draws,
                        c.losses,
                        pos.fen()
                    );
                    lines.push(((group, order.clone(), u32::MAX - c.weight), line));
                }
            }
            None => {
                for m in book.moves(key) {
                    let line = format!(
                        "* | - | {} | {} | {} {} {} | key={key:016x}",
                        m.mv, m.weight, m.wins, m.draws, m.losses
                    );
                    lines.push(((2, vec![format!("{key:016x}")], u32::MAX - m.weight), line));
                }
            }
        }
    }
    lines.sort();
    let mut text = String::from(HEADER);
    for (_, line) in lines {
        text.push_str(&line);
        text.push('\n');
    }
    TextBook { text, left_out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_gives_the_same_book() {
        let mut book = Book::new();
        let mut game = chess::Game::new(Position::startpos());
        for san in ["e4", "c5", "Nf3", "d6"] {
            let m = game.position().parse_san(san).expect("legal");
            book.add_game_move(&game, m, 2);
            game.push(m);
        }
        let stray = Position::from_fen("8/8/8/4k3/8/8/8/4K2R w K - 0 1").expect("valid");
        book.add_move(&stray, stray.parse_san("O-O").expect("legal"), 1);
        book.add(
            0x1234,
            BookMove {
                mv: PolyMove(28 | 12 << 6),
                weight: 9,
                ..BookMove::default()
            },
        );
        let TextBook { text, left_out } = write_text(&book);
        assert_eq!(left_out, 0);
        assert!(
            text.contains("1.e4 c5 2.Nf3 | d6 | d7d6 | 2 | 0 0 0 |"),
            "{text}"
        );
        assert!(text.contains("* | O-O | e1g1 | 1 | 0 0 0 | 8/8/8/4k3/8/8/8/4K2R w K - 0 1"));
        assert!(text.contains("* | - | e2e4 | 9 | 0 0 0 | key=0000000000001234"));
        let (back, problems) = read_text(&text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(write_text(&back).text, text);
    }

    #[test]
    fn a_move_illegal_in_a_known_position_is_left_out_and_counted() {
        let start = Position::startpos();
        let e4 = start.parse_san("e4").expect("legal");
        let mut book = Book::new();
        book.add_move(&start, e4, 5);
        // e2e5 under the start position's key: a damaged file's entry.
        book.add(
            start.key(),
            BookMove {
                mv: PolyMove(36 | 12 << 6),
                weight: 3,
                ..BookMove::default()
            },
        );
        assert_eq!(book.entry_count(), 2);
        let TextBook { text, left_out } = write_text(&book);
        assert_eq!(left_out, 1, "{text}");
        assert!(text.contains("- | e4 | e2e4 | 5 |"), "{text}");
        let (back, problems) = read_text(&text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(back.entry_count() + left_out, book.entry_count());
    }

    #[test]
    fn short_lines_and_broken_lines() {
        let text = "\
1.e4 e5 2.Nf3 | Nc6
- | e4 | | 10 | 3 4 5
- | d4 | e2e4
1.e4 | Ke2 | | 1
nonsense
1.e4 | c5 | c7c5 | lots
- | e4 | e2e4 | 1 | 1 2
* | e4
";
        let (book, problems) = read_text(text);
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(book.entry_count(), 2, "{lines:?}");
        assert_eq!(problems.len(), 6, "{lines:?}");
        assert!(
            lines[0].starts_with("line 3: move 'd4' and uci 'e2e4'"),
            "{lines:?}"
        );
        assert!(lines[1].starts_with("line 4: "), "{lines:?}");
        assert!(lines[2].starts_with("line 5: expected"), "{lines:?}");
        let start = Position::startpos();
        assert_eq!(book.moves(start.key())[0].weight, 10);
        assert_eq!(book.moves(start.key())[0].games(), 12);
    }
}
