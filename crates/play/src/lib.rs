//! Kestrel in a terminal: the board drawn with Unicode pieces, moves typed
//! in SAN or UCI, human or engine on each side, undo/redo, set-up positions
//! (FEN or an edit mode), PGN save and load, the engine's principal
//! variation and search statistics. Reads plain lines, so it works the same
//! on a terminal and on a pipe (which is how it is tested).
#![deny(missing_docs)]

mod board_edit;
mod board_view;
mod command;
mod player;
pub mod session;

pub use board_view::BoardStyle;
pub use player::{EngineSettings, Player, SearchLimit};
pub use session::Session;
