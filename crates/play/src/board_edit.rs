//! Edit mode: set up a position by placing and removing pieces, choosing
//! the side to move and the castling rights. The result is checked by the
//! rules library (through FEN) before it replaces the game.

use chess::{Color, File, Piece, Position, Rank, Square};
use thiserror::Error;

/// Why an edit command was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EditError {
    /// Not one of the edit commands.
    #[error("'{0}' is not an edit command; try Ke1 (place), xe4 (remove), clear, turn w|b, castle KQkq|-, done, cancel")]
    Unknown(String),
    /// A square name that is not one.
    #[error("'{0}' is not a square (a1 to h8)")]
    BadSquare(String),
    /// Castling flags that are not X-FEN letters.
    #[error("castling rights are '-' or letters from KQkq, not '{0}'")]
    BadCastling(String),
    /// The finished position is not legal.
    #[error("the position is not legal: {0}")]
    Illegal(String),
}

/// What an edit command asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum EditStep {
    /// Keep editing.
    Continue,
    /// Leave edit mode with this position.
    Done(Box<Position>),
    /// Leave edit mode without changes.
    Cancel,
}

/// The board being edited.
#[derive(Clone, Debug)]
pub struct Editor {
    board: [Option<Piece>; 64],
    turn: Color,
    castling: String,
}

impl Editor {
    /// Starts from `pos`.
    pub fn new(pos: &Position) -> Editor {
        let mut board = [None; 64];
        for sq in Square::ALL {
            board[sq.index()] = pos.piece_at(sq);
        }
        let fen = pos.fen();
        let castling = fen.split(' ').nth(2).unwrap_or("-").to_string();
        Editor {
            board,
            turn: pos.turn(),
            castling,
        }
    }

    /// The pieces placed so far, by square index.
    pub fn board(&self) -> &[Option<Piece>; 64] {
        &self.board
    }

    /// The side to move of the position being set up.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Applies one edit command.
    pub fn apply(&mut self, line: &str) -> Result<EditStep, EditError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["done" | "."] => return self.position().map(|p| EditStep::Done(Box::new(p))),
            ["cancel"] => return Ok(EditStep::Cancel),
            ["clear"] => {
                self.board = [None; 64];
                self.castling = "-".into();
            }
            ["turn", side] => {
                self.turn = match *side {
                    "w" | "white" => Color::White,
                    "b" | "black" => Color::Black,
                    _ => return Err(EditError::Unknown(line.into())),
                }
            }
            ["castle", flags] => {
                if *flags != "-" && !flags.chars().all(|c| "KQkq".contains(c)) {
                    return Err(EditError::BadCastling(flags.to_string()));
                }
                self.castling = flags.to_string();
            }
            [word] if word.len() == 3 => {
                let mut chars = word.chars();
                let first = chars.next().unwrap_or(' ');
                let sq = parse_square(chars.as_str())?;
                if first == 'x' {
                    self.board[sq.index()] = None;
                } else {
                    let piece =
                        Piece::from_char(first).ok_or_else(|| EditError::Unknown(line.into()))?;
                    self.board[sq.index()] = Some(piece);
                }
            }
            _ => return Err(EditError::Unknown(line.into())),
        }
        Ok(EditStep::Continue)
    }

    /// The FEN of the board as it stands (castling rights not on the board are dropped).
    pub fn fen(&self) -> String {
        let mut rows = Vec::new();
        for rank in Rank::ALL.iter().rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in File::ALL {
                match self.board[Square::from_coords(file, *rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let turn = self.turn.fold("w", "b");
        format!("{} {turn} {} - 0 1", rows.join("/"), self.castling)
    }

    /// The position, if it is legal.
    pub fn position(&self) -> Result<Position, EditError> {
        Position::from_fen(&self.fen()).map_err(|e| EditError::Illegal(e.to_string()))
    }
}

fn parse_square(text: &str) -> Result<Square, EditError> {
    let mut chars = text.chars();
    let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(EditError::BadSquare(text.into()));
    };
    match (File::from_char(f), Rank::from_char(r)) {
        (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
        _ => Err(EditError::BadSquare(text.into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_up_a_king_and_rook_ending() {
        let mut e = Editor::new(&Position::startpos());
        for cmd in ["clear", "Ke1", "Ra1", "ke8", "castle Q", "turn b"] {
            assert_eq!(e.apply(cmd), Ok(EditStep::Continue), "{cmd}");
        }
        assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1");
        assert!(matches!(e.apply("done"), Ok(EditStep::Done(_))));
        assert_eq!(e.apply("xe9"), Err(EditError::BadSquare("e9".into())));
        assert!(matches!(e.apply("Ze4"), Err(EditError::Unknown(_))));
        assert!(matches!(
            e.apply("castle X"),
            Err(EditError::BadCastling(_))
        ));
        e.apply("xe8").unwrap();
        assert!(matches!(e.apply("done"), Err(EditError::Illegal(_))));
        assert_eq!(e.apply("cancel"), Ok(EditStep::Cancel));
    }
}
