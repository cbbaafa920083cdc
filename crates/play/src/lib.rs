//! Kestrel in a terminal: the board drawn with Unicode pieces, moves typed
//! in SAN or UCI, human or engine on each side, undo/redo, set-up positions
//! (FEN or an edit mode), PGN save and load, the engine's principal
//! variation and search statistics, hints, resigning, draw offers and
//! clocks. On a terminal lines are edited with rustyline (history, arrows);
//! from a pipe they are read plainly (which is how it is tested).

mod board_edit;
mod board_view;
pub mod clock;
mod command;
pub mod line_input;
mod move_input;
mod player;
pub mod session;

pub use board_view::BoardStyle;
pub use player::{EngineSettings, Player, SearchLimit};
pub use session::Session;
