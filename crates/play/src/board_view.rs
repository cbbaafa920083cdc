//! The board as text: Unicode pieces, rank and file coordinates, the last
//! move's squares highlighted, either side at the bottom.

use chess::{Color, File, Move, MoveKind, Piece, Position, Rank, Square};

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// ANSI colours for the squares and the highlight (for terminals);
    /// without them the last move's squares are shown in brackets.
    pub color: bool,
    /// Letters (`K`, `q`, ...) instead of Unicode pieces, for fonts without them.
    pub ascii: bool,
}

const LIGHT: &str = "\x1b[48;5;180m\x1b[38;5;16m";
const DARK: &str = "\x1b[48;5;137m\x1b[38;5;16m";
const HIGHLIGHT: &str = "\x1b[48;5;143m\x1b[38;5;16m";
const RESET: &str = "\x1b[0m";

/// Draws `pos` with Black at the bottom when `flipped`; `last` is highlighted.
pub fn draw(pos: &Position, last: Option<Move>, flipped: bool, style: BoardStyle) -> String {
    let marked = |sq: Square| last.is_some_and(|m| m.from() == sq || shown_to(m) == sq);
    let mut out = grid(&|sq| pos.piece_at(sq), &marked, flipped, style);
    let side = pos.turn().fold("White", "Black");
    let check = if pos.in_check() { ", in check" } else { "" };
    out.push_str(&format!("{side} to move{check}\n"));
    out
}

/// Draws a board being set up (edit mode): it need not be a legal position yet.
pub fn draw_setup(
    board: &[Option<Piece>; 64],
    turn: Color,
    flipped: bool,
    style: BoardStyle,
) -> String {
    let mut out = grid(&|sq| board[sq.index()], &|_| false, flipped, style);
    out.push_str(&format!("{} to move\n", turn.fold("White", "Black")));
    out
}

/// The squares and coordinates, without the line under them.
fn grid(
    piece_at: &dyn Fn(Square) -> Option<Piece>,
    marked: &dyn Fn(Square) -> bool,
    flipped: bool,
    style: BoardStyle,
) -> String {
    let mut ranks: Vec<Rank> = Rank::ALL.to_vec();
    let mut files: Vec<File> = File::ALL.to_vec();
    if flipped {
        files.reverse();
    } else {
        ranks.reverse();
    }
    let mut out = String::new();
    for rank in &ranks {
        out.push_str(&format!(" {} ", rank.char()));
        for file in &files {
            let sq = Square::from_coords(*file, *rank);
            let glyph = match piece_at(sq) {
                Some(p) if style.ascii => p.char(),
                Some(p) => p.symbol(),
                None if style.color => ' ',
                None => '·',
            };
            if style.color {
                let bg = if marked(sq) {
                    HIGHLIGHT
                } else if sq.is_light() {
                    LIGHT
                } else {
                    DARK
                };
                out.push_str(&format!("{bg} {glyph} {RESET}"));
            } else if marked(sq) {
                out.push_str(&format!("[{glyph}]"));
            } else {
                out.push_str(&format!(" {glyph} "));
            }
        }
        trim_line_end(&mut out);
    }
    out.push_str("   ");
    for file in &files {
        out.push_str(&format!(" {} ", file.char()));
    }
    trim_line_end(&mut out);
    out
}

/// Where the move's piece lands, as people see it: castling is stored as
/// king-takes-rook, but the king lands on the g- or c-file.
fn shown_to(m: Move) -> Square {
    if m.kind() != MoveKind::Castling {
        return m.to();
    }
    let file = if m.to().file().index() > m.from().file().index() {
        6
    } else {
        2
    };
    File::new(file).map_or(m.to(), |f| Square::from_coords(f, m.to().rank()))
}

/// Ends the line, without trailing spaces (the last cell's padding).
fn trim_line_end(out: &mut String) {
    let len = out.trim_end_matches(' ').len();
    out.truncate(len);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingMode;

    const PLAIN: BoardStyle = BoardStyle {
        color: false,
        ascii: false,
    };

    #[test]
    fn start_position_with_last_move() {
        let mut pos = Position::startpos();
        let m = pos.parse_uci_move("e2e4", CastlingMode::Standard).unwrap();
        pos.play_unchecked(m);
        let text = draw(&pos, Some(m), false, PLAIN);
        let expected = [
            " 8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜",
            " 7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟",
            " 6  ·  ·  ·  ·  ·  ·  ·  ·",
            " 5  ·  ·  ·  ·  ·  ·  ·  ·",
            " 4  ·  ·  ·  · [♙] ·  ·  ·",
            " 3  ·  ·  ·  ·  ·  ·  ·  ·",
            " 2  ♙  ♙  ♙  ♙ [·] ♙  ♙  ♙",
            " 1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖",
            "    a  b  c  d  e  f  g  h",
            "Black to move",
            "",
        ]
        .join("\n");
        assert_eq!(text, expected);
    }

    #[test]
    fn castling_highlights_where_the_king_lands() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let m = pos.parse_san("O-O").unwrap();
        let text = draw(&pos, Some(m), false, PLAIN);
        assert!(text.contains(" 1  ·  ·  ·  · [♔] · [·] ♖"), "{text}");
    }

    #[test]
    fn flipped_puts_black_at_the_bottom() {
        let style = BoardStyle {
            color: false,
            ascii: true,
        };
        let text = draw(&Position::startpos(), None, true, style);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " 1  R  N  B  K  Q  B  N  R");
        assert_eq!(lines[8], "    h  g  f  e  d  c  b  a");
    }
}
