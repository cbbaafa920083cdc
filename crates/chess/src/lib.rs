//! Kestrel's rules of chess: squares and bitboards, attack tables (magic and
//! PEXT), the position with make/unmake and Polyglot Zobrist keys, legal move
//! generation (standard and Chess960), FEN, SAN and UCI notation, game
//! outcomes and perft. No dependencies, no allocation on the move path.

pub mod attacks;
mod bitboard;
mod castling;
mod chess_move;
mod color;
pub mod fen;
mod game;
mod gives_check;
mod legality;
pub mod magic;
mod make;
mod movegen;
mod movelist;
pub mod perft;
pub mod pext;
mod polyglot_random;
mod position;
mod prefetch;
mod role;
mod san;
mod sliders;
mod square;
mod status;
mod uci_move;
mod validate;
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use castling::{CastlingMode, CastlingRights, CastlingSide};
pub use chess_move::{Move, MoveKind};
pub use color::Color;
pub use fen::{CastlingNotation, FenError};
pub use game::{Game, Outcome};
pub use gives_check::CheckSquares;
pub use make::{IllegalMove, Undo};
pub use movegen::GenType;
pub use movelist::{MoveCounter, MoveList, MoveSink, MAX_MOVES};
pub use position::Position;
pub use prefetch::prefetch;
pub use role::{Piece, Role};
pub use san::SanError;
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci_move::{UciMove, UciMoveError};
pub use validate::PositionError;
