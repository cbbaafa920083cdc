//! A game: a position with the moves that led to it, which the rules need for
//! threefold repetition and which people need for taking moves back.

use crate::{Color, Move, Position};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is mated; `winner` gave mate.
    Checkmate {
        /// The side that mated.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A hundred plies without a capture or pawn move (a mate on the last ply wins instead).
    FiftyMoveRule,
    /// The same position, same side to move and same rights, for the third time.
    ThreefoldRepetition,
    /// Neither side has the material to mate.
    InsufficientMaterial,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "{} mates", winner.fold("White", "Black")),
            Outcome::Stalemate => write!(f, "Draw by stalemate"),
            Outcome::FiftyMoveRule => write!(f, "Draw by the fifty-move rule"),
            Outcome::ThreefoldRepetition => write!(f, "Draw by threefold repetition"),
            Outcome::InsufficientMaterial => write!(f, "Draw by insufficient material"),
        }
    }
}

/// A starting position and the moves played from it.
#[derive(Clone, Debug)]
pub struct Game {
    /// Every position of the game, the current one last.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a move, which must be legal in the current position.
    pub fn push(&mut self, m: Move) {
        let mut next = *self.position();
        next.play_unchecked(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move, returning it (`None` at the start).
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has occurred, this time included.
    /// Only positions since the last capture or pawn move can repeat it.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        let reach = now.halfmove_clock() as usize;
        self.positions
            .iter()
            .rev()
            .take(reach + 1)
            .step_by(2)
            .filter(|p| p.key() == now.key())
            .count()
    }

    /// How the game has ended, if it has: mate and stalemate first (mate on
    /// the hundredth ply beats the fifty-move rule), then the draws.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_moves() {
            return Some(if pos.in_check() {
                Outcome::Checkmate {
                    winner: !pos.turn(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if pos.halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoveRule)
        } else if self.repetitions() >= 3 {
            Some(Outcome::ThreefoldRepetition)
        } else {
            None
        }
    }
}
