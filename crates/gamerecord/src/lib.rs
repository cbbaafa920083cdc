//! Kestrel's game as the GUI keeps it: the move tree with variations,
//! comments and clocks ([`tree`]), the game around it and its PGN
//! ([`record`]), what a page is shown of it ([`view`]), how the players
//! end it ([`game_end`]) or offer the engine a draw ([`draw_offer`]), its
//! opening's name ([`opening`]), what the master games say about its
//! positions ([`explorer`]) and what a book gives them ([`book_panel`]),
//! what the endgame tables say of them ([`tablebase_panel`]), the
//! judgement of its moves ([`judgement`]), the limits on what the page
//! sends ([`limits`]), the analysis pass's results and the view and lines
//! made of them ([`review`]), the game and its review as every host holds
//! them ([`game_state`]), and an engine side's settings as the page
//! sends them ([`settings`]); the page's requests and what each does to
//! the game ([`request`]), the one order in which every host makes the
//! changes among them ([`change`]) and the words and statuses it refuses
//! with ([`refusal`]), the review pass's steps a host drives
//! ([`review_pass`]), the searches it asks for and what they report
//! ([`search_report`]), which of their events the page hears
//! ([`search_gate`]) and those events themselves ([`page_event`]); and
//! what a game costs in memory, for a host that keeps a budget
//! ([`memory`], each heap block counted as [`heap`] says); a game kept whole by a host that cannot keep it itself
//! and read back the same ([`saved`]). A refusal is a [`GameError`].
//!
//! Pure logic: no server, no threads, no I/O (natively, a new game reads
//! the date: see [`record::GameRecord::dated`]), so that the GUI's server
//! (`crates/gui`) and a page without a server (the same code compiled to
//! WebAssembly) answer the page alike.

pub mod book_panel;
pub mod change;
pub mod draw_offer;
pub mod error;
pub mod explorer;
pub mod game_end;
pub mod game_state;
pub mod heap;
pub mod judgement;
pub mod limits;
pub mod memory;
pub mod opening;
pub mod page_event;
pub mod record;
pub mod refusal;
pub mod request;
pub mod review;
pub mod review_pass;
pub mod saved;
pub mod search_gate;
pub mod search_report;
pub mod settings;
pub mod tablebase_panel;
pub mod tree;
pub mod view;

pub use error::{Conflict, ErrorKind, GameError, Invalid};
