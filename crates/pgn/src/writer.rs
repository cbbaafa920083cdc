//! The PGN writer: Seven Tag Roster then the other tags, movetext in SAN with
//! move numbers, NAGs, comments and variations, wrapped at 80 columns.

use crate::{PgnGame, PgnMove};
use chess::{CastlingMode, Color, Position};
use std::io::{self, Write};

/// The longest line the writer produces (unless one word is longer).
pub const LINE_WIDTH: usize = 80;

const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The movetext as words; "(" is glued to the word after it and ")" to the
/// word before it, as people write them.
#[derive(Default)]
struct Words {
    /// Each word, and whether it is a `;` comment (which ends its line).
    words: Vec<(String, bool)>,
    open: usize,
}

impl Words {
    fn push(&mut self, w: &str, line_comment: bool) {
        let mut s = "(".repeat(self.open);
        self.open = 0;
        s.push_str(w);
        self.words.push((s, line_comment));
    }

    fn word(&mut self, w: &str) {
        self.push(w, false);
    }

    fn comment(&mut self, text: &str) {
        let words = comment_words(text);
        if text.contains('}') {
            // A brace comment cannot hold '}': write it as a rest-of-line comment.
            self.push(&format!("; {}", words.join(" ")), true);
            return;
        }
        match words.len() {
            0 => self.word("{}"),
            1 => self.word(&format!("{{{}}}", words[0])),
            n => {
                self.word(&format!("{{{}", words[0]));
                for w in &words[1..n - 1] {
                    self.word(w);
                }
                self.word(&format!("{}}}", words[n - 1]));
            }
        }
    }

    fn close(&mut self) {
        match self.words.last_mut() {
            Some((last, false)) => last.push(')'),
            _ => self.word(")"),
        }
    }

    /// Lays the words out in lines of at most `LINE_WIDTH` columns.
    fn wrap(&self) -> String {
        let mut out = String::new();
        let mut column = 0;
        for (w, line_comment) in &self.words {
            let len = w.chars().count();
            // A line starting with '%' would be read as an escape line.
            if column > 0 && column + 1 + len > LINE_WIDTH && !w.starts_with('%') {
                out.push('\n');
                column = 0;
            }
            if column > 0 {
                out.push(' ');
                column += 1;
            }
            out.push_str(w);
            column += len;
            if *line_comment {
                out.push('\n');
                column = 0;
            }
        }
        out
    }
}

/// How the writer spells moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// Standard algebraic notation (`Nf3`), what PGN asks for.
    #[default]
    San,
    /// Long algebraic as fastchess writes it (`Ng1f3`, `e4xd5`).
    Lan,
    /// UCI (`g1f3`; castling as the king's move, or king takes rook in Chess960).
    Uci,
}

/// A comment's words, each embedded command (`[%clk 0:02:58]`,
/// `[%eval 0.31]`) kept as one so that no line break splits it: readers
/// that look for `[%clk 0:02:58]` as written find it.
fn comment_words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_command = false;
    for w in text.split_whitespace() {
        match out.last_mut() {
            Some(last) if in_command => {
                last.push(' ');
                last.push_str(w);
            }
            _ => {
                in_command = w.starts_with("[%");
                out.push(w.to_string());
            }
        }
        if w.ends_with(']') {
            in_command = false;
        }
    }
    out
}

/// Writes one line of play from `pos`, with a move number before the first
/// move and wherever a comment or variation interrupts the line.
/// `chess960` writes UCI castling as king takes rook even where king and
/// rooks stand as in standard chess.
fn write_line(
    w: &mut Words,
    mut pos: Position,
    moves: &[PgnMove],
    notation: Notation,
    chess960: bool,
) {
    let mut number_next = true;
    for m in moves {
        for c in &m.comments_before {
            w.comment(c);
            number_next = true;
        }
        let n = pos.fullmove_number();
        let number = match pos.turn() {
            Color::White => format!("{n}. "),
            Color::Black if number_next => format!("{n}... "),
            Color::Black => String::new(),
        };
        let san = match notation {
            _ if m.mv.is_null() => "--".to_string(),
            Notation::San => pos.san(m.mv),
            Notation::Lan => pos.lan(m.mv),
            Notation::Uci if chess960 => m.mv.to_uci(CastlingMode::Chess960).to_string(),
            Notation::Uci => m.mv.to_uci(pos.castling_mode()).to_string(),
        };
        // One word, so that a line never ends between a number and its move.
        w.word(&format!("{number}{san}"));
        number_next = false;
        for nag in &m.nags {
            w.word(&format!("${nag}"));
        }
        for c in &m.comments {
            w.comment(c);
            number_next = true;
        }
        for variation in &m.variations {
            w.open += 1;
            write_line(w, pos, variation, notation, chess960);
            w.close();
            number_next = true;
        }
        crate::play(&mut pos, m.mv);
    }
}

/// The game as PGN text, ending with a blank line.
pub fn write_game(game: &PgnGame) -> String {
    write_game_in(game, Notation::San)
}

/// The game as PGN text with its moves in `notation`.
pub fn write_game_in(game: &PgnGame, notation: Notation) -> String {
    let mut out = String::new();
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = if name == "Result" {
            game.result.as_str().to_string()
        } else {
            game.tag(name).unwrap_or(default).to_string()
        };
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    let mut has_fen = false;
    for (name, value) in &game.tags {
        if SEVEN_TAG_ROSTER.iter().any(|(n, _)| n == name) {
            continue;
        }
        has_fen |= name == "FEN";
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    if !has_fen && game.start != Position::startpos() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", game.start.fen()));
    }
    out.push('\n');
    let mut w = Words::default();
    let chess960 = game.tag("Variant").is_some_and(crate::parse::is_chess960);
    write_line(&mut w, game.start, &game.moves, notation, chess960);
    w.word(game.result.as_str());
    out.push_str(&w.wrap());
    out.push_str("\n\n");
    out
}

/// Writes games as PGN to any `Write`.
pub struct PgnWriter<W> {
    out: W,
}

impl<W: Write> PgnWriter<W> {
    /// A writer into `out`.
    pub fn new(out: W) -> PgnWriter<W> {
        PgnWriter { out }
    }

    /// Writes one game followed by a blank line.
    pub fn write(&mut self, game: &PgnGame) -> io::Result<()> {
        self.out.write_all(write_game(game).as_bytes())
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PgnReader;

    /// The one game of `text`, which must be valid.
    fn one_game(text: &str) -> PgnGame {
        PgnReader::new(text.as_bytes())
            .next()
            .expect("a game")
            .expect("valid")
    }

    #[test]
    fn chess960_games_castle_king_takes_rook_in_uci() {
        // Position 518: king and rooks where standard chess has them.
        let text = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
                    [FEN \"r1bqkbnr/p1ppp1pp/1pn5/5p2/4P3/5N2/PPPPBPPP/RNBQK2R w HAha - 2 4\"]\n\n\
                    4. O-O *\n";
        let game = one_game(text);
        assert!(write_game_in(&game, Notation::Uci).contains("4. e1h1 *"));
        assert!(write_game(&game).contains("4. O-O *"));
        let mut standard = game.clone();
        standard.tags.retain(|(n, _)| n != "Variant");
        assert!(write_game_in(&standard, Notation::Uci).contains("4. e1g1 *"));
    }

    #[test]
    fn comments_with_closing_braces_survive() {
        let long = "x ".repeat(38);
        let text = format!("1. e4 ; a }} b\n(1. d4 ; c }} d\n) 1... e5 {{{long} %y}} *\n");
        let game = one_game(&text);
        let written = write_game(&game);
        let back = one_game(&written);
        assert_eq!(back.moves, game.moves, "{written}");
    }
    #[test]
    fn a_move_number_stays_with_its_move() {
        // Comments of every length shift where the lines break.
        for n in 1..=12 {
            let text = format!(
                "1. e4 {{{}}} d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 Nbd7 \
                 8. Bh6 Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6 13. Nc1 O-O-O \
                 14. Nb3 exd4 15. Rxd4 c5 16. Rd1 Nb6 17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 *",
                "x".repeat(n)
            );
            let game = one_game(&text);
            let written = write_game(&game);
            for line in written.lines().filter(|l| !l.starts_with('[')) {
                assert!(line.chars().count() <= LINE_WIDTH, "{line}");
                assert!(
                    !line.trim_end().ends_with('.'),
                    "a line ends with a move number:\n{written}"
                );
            }
            let back = one_game(&written);
            assert_eq!(back.moves, game.moves, "{written}");
        }
    }

    #[test]
    fn a_clock_command_is_never_split_across_lines() {
        // Comments of every length before the clocks shift where lines break.
        for n in 1..=30 {
            let text = format!(
                "1. e4 {{{}}} d6 {{[%clk 0:02:58]}} 2. d4 {{[%eval 0.3] [%clk 0:02:57.5] ok}} \
                 Nf6 {{[%clk 0:02:56]}} 3. Nc3 {{[%clk 0:02:55]}} g6 {{[%clk 0:02:54]}} \
                 4. Be3 {{[%clk 0:02:53]}} Bg7 {{[%clk 0:02:52]}} *",
                "x".repeat(n)
            );
            let game = one_game(&text);
            let written = write_game(&game);
            assert_eq!(written.matches("[%clk 0:02:5").count(), 7, "{written}");
            assert!(written.contains("[%eval 0.3]"), "{written}");
        }
        assert_eq!(
            comment_words("a [%clk 0:01:00] b [%unclosed x"),
            ["a", "[%clk 0:01:00]", "b", "[%unclosed x"]
        );
    }
}
